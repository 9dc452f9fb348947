import type { CommandModule } from 'yargs';
import { outputHelp, parseOutput } from '../flags.js';
import type { Deps, GlobalArgs } from '../context.js';

/** version's -o: kubectl version's (json, yaml), and the text line (also as `short`). */
export const VERSION_OUTPUTS = ['text', 'short', 'json', 'yaml'] as const;

/** The JavaScript runtime the plugin runs on. */
export interface Runtime {
  readonly name: 'bun' | 'node';
  readonly version: string;
}

/**
 * The runtime, from `process.versions`: the standalone executable is bun, which also sets `versions.node` (the Node
 * release it is compatible with), so bun is asked first; the npm package runs on Node.
 */
export function runtimeOf(versions: Readonly<Record<string, string | undefined>>): Runtime {
  const bun = versions.bun;
  if (bun !== undefined) return { name: 'bun', version: bun };
  return { name: 'node', version: versions.node ?? 'unknown' };
}

export function versionCommand(deps: Deps): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'version',
    describe: 'Print the plugin version',
    builder: (y) =>
      y
        .describe('output', outputHelp(VERSION_OUTPUTS))
        .example('$0 version -o json', 'Print the version as JSON'),
    handler: (args) => {
      const output = parseOutput(
        args.output,
        VERSION_OUTPUTS,
        'text',
        'version',
        'use -o json, -o yaml or no -o',
      );
      const runtime = runtimeOf(process.versions);
      const info = {
        gitVersion: deps.version,
        runtime,
        platform: `${process.platform}/${process.arch}`,
      };
      if (output === 'json') deps.io.stdout.write(`${JSON.stringify({ clientVersion: info }, null, 2)}\n`);
      else if (output === 'yaml') {
        deps.io.stdout.write(
          `clientVersion:\n  gitVersion: ${info.gitVersion}\n  runtime:\n    name: ${runtime.name}\n    version: ${runtime.version}\n  platform: ${info.platform}\n`,
        );
      } else deps.io.stdout.write(`kubectl-crossplane-rbac ${deps.version}\n`);
    },
  };
}
