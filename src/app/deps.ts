import type { Cluster } from '../port/cluster.js';
import type { ConnectionFlags } from '../port/connection-flags.js';
import type { PlanEntry } from '../plan/plan.js';
import type { KubeObject } from '../kube/types.js';
import type { Interrupt } from './interrupt.js';
import type { WatchProgress } from './reconcile.js';
import type { Warn } from './warning.js';
import type { RenderShare } from './render-share.js';

/**
 * What a use case runs with: a way to connect, standard input (for `-f -`), and the few interactions only a front
 * end can provide (asking, choosing, showing progress, hearing warnings). No output stream: a use case returns its
 * answer and reports its warnings as data, and only the CLI writes (test/unit/lint/streams.test.ts holds it to
 * that). The CLI builds it from its dependencies; a test, or a loop over several contexts, can build another.
 */
export interface AppDeps {
  /** Reads all of standard input (for `-f -`), stopping once more than `maxBytes` bytes came in. */
  readonly readStdin: (maxBytes: number) => Promise<string>;
  readonly connect: (flags: ConnectionFlags) => Promise<Cluster>;
  /** Ctrl-C handling for writes; absent where nothing interrupts. */
  readonly interrupt?: Interrupt | undefined;
  /** Asks before writing; false: the user declined. May refuse (throw) where nobody can be asked. */
  readonly confirm: (request: ConfirmRequest) => Promise<boolean>;
  /** Lets the user pick some of CHOICES (enable-xrd -i). */
  readonly choose: (message: string, choices: readonly Choice[]) => Promise<string[]>;
  /** Starts a progress indicator (a spinner on a terminal, nothing elsewhere). */
  readonly startProgress: (text: string) => Promise<Progress>;
  /** Hears each warning of the run as data (its kind, object and reason); the front end words and shows it. */
  readonly warn: Warn;
  /**
   * Hears what a long-running use case does as it goes, as data (sync --watch: each reconcile); the front end
   * decides how to show it. Absent: nobody listens.
   */
  readonly onProgress?: ((event: WatchProgress) => void) | undefined;
  /** A run across contexts: sync's renders shared between contexts whose inputs are equal by content. */
  readonly renderShare?: RenderShare | undefined;
}

/** One question before writing. */
export interface ConfirmRequest {
  /** The question: what, how many writes, where. */
  readonly message: string;
  /** What the command does ("apply the Crossplane RBAC"), for a refusal. */
  readonly what: string;
  /** --yes: write without asking. */
  readonly yes: boolean;
  /** The plan rows to show before the question, when a person is really asked. */
  readonly preview?: readonly PlanEntry<KubeObject>[] | undefined;
  /** Asked even with --yes (`yes` is false): where nobody can be asked, refuse with this reason and hint. */
  readonly insist?: { readonly reason: string; readonly hint: string } | undefined;
}

export interface Choice {
  readonly name: string;
  readonly value: string;
  readonly checked?: boolean;
}

export interface Progress {
  update(text: string): void;
  stop(finalText?: string): void;
}
