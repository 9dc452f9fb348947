import type { CommandModule } from 'yargs';
import { NotAvailableError } from '../../errors.js';
import type { Deps, GlobalArgs } from '../context.js';

export function explainCommand(deps: Deps): CommandModule<GlobalArgs, GlobalArgs> {
  void deps;
  return {
    command: 'explain',
    describe: 'PLACEHOLDER',
    handler: () => {
      throw new NotAvailableError('explain');
    },
  };
}
