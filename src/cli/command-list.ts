import type { CommandModule } from 'yargs';
import { bindCommand } from './commands/bind.js';
import { composedCommand } from './commands/composed.js';
import { completionCommand } from './commands/completion.js';
import { enableXrdCommand } from './commands/enable-xrd.js';
import { explainCommand } from './commands/explain.js';
import { lookupCommand } from './commands/lookup.js';
import { syncCommand } from './commands/sync.js';
import { versionCommand } from './commands/version.js';
import { whoCanCommand } from './commands/who-can.js';
import type { Deps, GlobalArgs } from './context.js';

/** Every command, in the order --help lists them. */
export function commands(deps: Deps): CommandModule<GlobalArgs, never>[] {
  return [
    syncCommand(deps),
    enableXrdCommand(deps),
    explainCommand(deps),
    whoCanCommand(deps),
    lookupCommand(deps),
    composedCommand(deps),
    bindCommand(deps),
    versionCommand(deps),
    completionCommand(deps),
  ] as CommandModule<GlobalArgs, never>[];
}
