import type { CommandModule } from 'yargs';
import { outputHelp, parseOutput } from '../flags.js';
import type { Deps, GlobalArgs } from '../context.js';

/** version's -o: kubectl version's (json, yaml), and the text line (also as `short`). */
const VERSION_OUTPUTS = ['text', 'short', 'json', 'yaml'] as const;

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
      const info = {
        gitVersion: deps.version,
        nodeVersion: process.version,
        platform: `${process.platform}/${process.arch}`,
      };
      if (output === 'json') deps.io.stdout.write(`${JSON.stringify({ clientVersion: info }, null, 2)}\n`);
      else if (output === 'yaml') {
        deps.io.stdout.write(
          `clientVersion:\n  gitVersion: ${info.gitVersion}\n  nodeVersion: ${info.nodeVersion}\n  platform: ${info.platform}\n`,
        );
      } else deps.io.stdout.write(`kubectl-crossplane-rbac ${deps.version}\n`);
    },
  };
}
