// Types of bun-module-graph.mjs, for the tests that import it.

export interface BunModule {
  readonly name: string;
  readonly contents: Buffer;
}

export declare function readBunModuleGraph(data: Buffer): {
  readonly modules: readonly BunModule[];
  readonly entryPoint: number;
};
