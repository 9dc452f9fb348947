import type { CommandModule } from 'yargs';
import { outputHelp, parseOutput } from '../flags.js';
import type { Deps, GlobalArgs } from '../context.js';
import { VERSION_OUTPUTS, versionText } from '../version-text.js';

export function versionCommand(deps: Deps): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'version',
    describe: 'Print the plugin version',
    builder: (y) => y.describe('output', outputHelp(VERSION_OUTPUTS)),
    handler: (args) => {
      const output = parseOutput(
        args.output,
        VERSION_OUTPUTS,
        'text',
        'version',
        'use -o json, -o yaml or no -o',
      );
      deps.io.stdout.write(versionText(output, deps.version));
    },
  };
}
