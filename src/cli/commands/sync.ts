import type { CommandModule } from 'yargs';
import { NotAvailableError } from '../../errors.js';
import type { Deps, GlobalArgs } from '../context.js';

export function syncCommand(deps: Deps): CommandModule<GlobalArgs, GlobalArgs> {
  void deps;
  return {
    command: 'sync',
    describe: 'PLACEHOLDER',
    handler: () => {
      throw new NotAvailableError('sync');
    },
  };
}
