import type { InputSource } from '../../app/read-input.js';
import type { ReadCommand } from '../../app/required-role.js';
import type { AfterSyncOptions } from '../../app/after-sync.js';
import type { Deps, GlobalArgs } from '../context.js';
import type { FleetArgs } from '../fleet.js';
import type { FromPaths } from '../input-flags.js';
import type { PrintFlags } from '../output/print-result.js';

// What explain's command (explain.ts) and its three modes (explain-role.ts, explain-subject.ts, explain-matrix.ts)
// share: the flags as yargs hands them over, the shared flags once checked, and what a mode is. A leaf: the command
// imports the modes, and the modes name these types without importing the command.

/** Every flag of `explain`, as it reaches the handler (each mode reads its own and refuses the others'). */
export interface ExplainArgs extends GlobalArgs, FleetArgs {
  /** explain ROLE's ClusterRole. */
  readonly role: string | undefined;
  readonly subject: string | undefined;
  readonly group: string[] | undefined;
  readonly filename: FromPaths | undefined;
  readonly 'no-headers': boolean | undefined;
  readonly for: string | undefined;
  readonly verb: string | undefined;
  readonly matrix: boolean | undefined;
  readonly all: boolean | undefined;
  readonly 'diff-with': string | undefined;
  readonly 'print-required-role': boolean;
  readonly 'after-sync': boolean;
  /** explain --subject's --converged. */
  readonly converged: boolean | undefined;
  readonly only: string | undefined;
}

/** The flags every mode takes, checked once by the command before the mode checks its own. */
export interface SharedExplain {
  /** -f, or the cluster of the connection flags. */
  readonly source: InputSource;
  /** --after-sync (and --only). */
  readonly afterSync: AfterSyncOptions | undefined;
  /** --no-color and --no-headers. */
  readonly print: PrintFlags;
}

/** One of explain's modes: its own flags checked, into the run of the mode (which loads the mode's runner). */
export interface ExplainMode {
  readonly name: 'role' | 'subject' | 'matrix';
  /** Its kind of result in the printer registry, and its command line as -o's error names it. */
  readonly kind: 'explain-role' | 'explain-subject' | 'explain-matrix';
  readonly command: 'explain' | 'explain --subject' | 'explain --matrix';
  /** What --print-required-role prints the role of. */
  readonly readCommand: ReadCommand;
  /**
   * The mode's own flags, checked before anything is read (refused flags, another mode's, and -o against the mode's
   * formats: each one `error:` line), into its run: from SOURCE (the shared one, or one context's), the result
   * printed on DEPS' streams.
   */
  readonly check: (args: ExplainArgs, shared: SharedExplain) => ExplainRun;
}

/** A mode's run, its flags checked. */
export type ExplainRun = (source: InputSource, deps: Deps) => Promise<void>;
