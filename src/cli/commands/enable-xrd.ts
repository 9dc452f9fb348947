import type { CommandModule } from 'yargs';
import { NotAvailableError } from '../../errors.js';
import type { Deps, GlobalArgs } from '../context.js';

export function enableXrdCommand(deps: Deps): CommandModule<GlobalArgs, GlobalArgs> {
  void deps;
  return {
    command: 'enable-xrd',
    describe: 'PLACEHOLDER',
    handler: () => {
      throw new NotAvailableError('enable-xrd');
    },
  };
}
