import type { CommandModule } from 'yargs';
import { auditCommand } from './commands/audit.js';
import { bindCommand } from './commands/bind.js';
import { completionCommand } from './commands/completion.js';
import { composedCommand } from './commands/composed.js';
import { enableXrdCommand } from './commands/enable-xrd.js';
import { explainCommand } from './commands/explain.js';
import { lookupCommand } from './commands/lookup.js';
import { syncCommand } from './commands/sync.js';
import { versionCommand } from './commands/version.js';
import { whoCanCommand } from './commands/who-can.js';
import type { Deps, GlobalArgs } from './context.js';
import { formatOptions } from './global-flags.js';
import { PROGRAM } from './command-help.js';
import { withHelp } from './help-layout.js';

/** Every command, in the order --help lists them. */
export function commands(deps: Deps): CommandModule<GlobalArgs, never>[] {
  return [
    syncCommand(deps),
    enableXrdCommand(deps),
    explainCommand(deps),
    whoCanCommand(deps),
    lookupCommand(deps),
    composedCommand(deps),
    auditCommand(deps),
    bindCommand(deps),
    versionCommand(deps),
    completionCommand(deps),
    optionsCommand(deps),
  ].map((c) => withHelp(c as CommandModule<GlobalArgs, never>, PROGRAM));
}

/** `options`: the flags every command takes, which no command's --help lists (as `kubectl options`). */
function optionsCommand(deps: Deps): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'options',
    describe: 'Print the flags every command takes (how to reach the cluster, as kubectl)',
    builder: (y) => y,
    handler: () => {
      deps.io.stdout.write(formatOptions());
    },
  };
}
