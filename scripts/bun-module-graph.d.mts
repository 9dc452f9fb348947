// Types of bun-module-graph.mjs, for the tests that import it.

export interface BunModule {
  readonly name: string;
  readonly contents: Buffer;
  /** The bytecode bun compiled the module to, when built with --bytecode. */
  readonly bytecode: Buffer | undefined;
}

export declare function readBunModuleGraph(data: Buffer): {
  readonly modules: readonly BunModule[];
  readonly entryPoint: number;
};
