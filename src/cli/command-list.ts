import type { CommandModule } from 'yargs';
import { AUDIT_OUTPUTS, auditCommand } from './commands/audit.js';
import { bindCommand } from './commands/bind.js';
import { completionCommand } from './commands/completion.js';
import { COMPOSED_OUTPUTS, composedCommand } from './commands/composed.js';
import { enableXrdCommand } from './commands/enable-xrd.js';
import { EXPLAIN_OUTPUTS, explainCommand, SUBJECT_OUTPUTS } from './commands/explain.js';
import { MATRIX_OUTPUTS } from './commands/explain-matrix.js';
import { LOOKUP_OUTPUTS, lookupCommand } from './commands/lookup.js';
import { syncCommand } from './commands/sync.js';
import { versionCommand } from './commands/version.js';
import { VERSION_OUTPUTS } from './version-text.js';
import { WHO_CAN_OUTPUTS, whoCanCommand } from './commands/who-can.js';
import type { Deps, GlobalArgs } from './context.js';
import { WRITE_OUTPUTS } from './flags.js';
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

/** Each command's -o formats, every mode's (what its --help lists), for completion. */
export const OUTPUT_FORMATS: Readonly<Record<string, readonly string[]>> = {
  sync: WRITE_OUTPUTS,
  'enable-xrd': WRITE_OUTPUTS,
  explain: [...new Set([...EXPLAIN_OUTPUTS, ...SUBJECT_OUTPUTS, ...MATRIX_OUTPUTS])],
  'who-can': WHO_CAN_OUTPUTS,
  lookup: LOOKUP_OUTPUTS,
  composed: COMPOSED_OUTPUTS,
  audit: AUDIT_OUTPUTS,
  bind: WRITE_OUTPUTS,
  version: VERSION_OUTPUTS,
};
