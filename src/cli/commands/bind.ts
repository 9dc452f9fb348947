import type { CommandModule } from 'yargs';
import { NotAvailableError } from '../../errors.js';
import type { Deps, GlobalArgs } from '../context.js';

export function bindCommand(_deps: Deps): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'bind',
    describe: '(bind is not available in this build)',
    handler: () => {
      throw new NotAvailableError('bind');
    },
  };
}
