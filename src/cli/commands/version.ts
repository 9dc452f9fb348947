import type { CommandModule } from 'yargs';
import { outputHelpOf, parseFormat } from '../output/registry.js';
import type { Deps, GlobalArgs } from '../context.js';
import { versionText } from '../version-text.js';

export function versionCommand(deps: Deps): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'version',
    describe: 'Print the plugin version',
    builder: (y) => y.describe('output', outputHelpOf('version')),
    handler: (args) => {
      const output = parseFormat('version', args.output, 'version');
      deps.io.stdout.write(versionText(output, deps.version));
    },
  };
}
