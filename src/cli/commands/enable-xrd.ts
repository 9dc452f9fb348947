import type { CommandModule } from 'yargs';
import { NotAvailableError } from '../../errors.js';
import type { Deps, GlobalArgs } from '../context.js';

export function enableXrdCommand(_deps: Deps): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'enable-xrd',
    describe: '(enable-xrd is not available in this build)',
    handler: () => {
      throw new NotAvailableError('enable-xrd');
    },
  };
}
