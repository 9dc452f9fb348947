import type { CommandModule } from 'yargs';
import { NotAvailableError } from '../../errors.js';
import type { Deps, GlobalArgs } from '../context.js';

export function bindCommand(deps: Deps): CommandModule<GlobalArgs, GlobalArgs> {
  void deps;
  return {
    command: 'bind',
    describe: 'PLACEHOLDER',
    handler: () => {
      throw new NotAvailableError('bind');
    },
  };
}
