import { ExitCode, UsageError, UserError } from '../errors.js';
import { writeLine, type Io } from './io.js';
import type { SyncRunOptions } from '../app/sync.js';
import type { Reconcile, WatchProgress } from '../app/reconcile.js';
import { appDeps, type Deps } from './context.js';
import { escapeTerminal } from '../escape.js';
import type { Warning } from '../app/warning.js';
import { formatWarning } from './warnings.js';
import { fullCollection, idleCollector } from './heap-collector.js';
import { formatsOf } from './output/output-formats.js';
import { checkFormat } from './output/registry.js';

/** The lines of WARNINGS (unescaped). */
function warningLines(warnings: readonly Warning[]): string[] {
  return warnings.flatMap(formatWarning);
}

/**
 * A batch of changes is reconciled once 100 ms pass without a change, and at the latest 1 s after its first change
 * (see SyncWatchOptions): a debounce of "about 1 s" that never holds a lone change back a full second.
 */
const SETTLE_MS = 100;
const MAX_WAIT_MS = 1_000;
/**
 * How far the heap in use may grow past what the last collection left before the idle watch collects (a fraction).
 * The watch bench (24 simulated hours on examples/large, 2026-11-28, quiet): at 0.1 a collection followed nearly
 * every reconcile, RSS grew 0.5-1.5% but latency's p99 was 2,087-2,199 ms; at 0.5, RSS +6.5% (the first
 * hour-equivalent, then flat at 247-251 MB) and p99 1,607 ms; without collections, RSS +37%.
 */
const HEAP_GROWTH = 0.5;

/** The flags `sync --watch` is refused with, and why. */
interface WatchArgs {
  readonly contexts: string[] | undefined;
  readonly 'all-contexts': boolean;
  readonly filename: unknown;
  readonly 'dry-run': string | undefined;
  readonly check: boolean;
  readonly 'output-dir': string | undefined;
  readonly 'print-required-role': boolean;
  readonly output: string | undefined;
  readonly only: string | undefined;
}

/**
 * Refuses what a watch cannot do, before anything is read: one cluster per process (a watch is a long-lived process),
 * live state only (not -f), real writes (not a preview), and output as one line or one JSON object per reconcile.
 */
export function checkWatchFlags(args: WatchArgs): 'line' | 'json' {
  const perCluster = 'a watch is a long-lived process; run one per cluster';
  const refusals: [boolean, string][] = [
    [args.contexts !== undefined, `--watch cannot be used with --contexts: ${perCluster}`],
    [args['all-contexts'], `--watch cannot be used with --all-contexts: ${perCluster}`],
    [
      args.filename !== undefined,
      '--watch cannot be used with -f: it watches a live cluster; files do not change under it',
    ],
    [
      args['dry-run'] !== undefined,
      '--watch cannot be used with --dry-run: a watch writes; preview once with sync --dry-run',
    ],
    [args.check, '--watch cannot be used with --check: a watch repairs drift; check once with sync --check'],
    [
      args['output-dir'] !== undefined,
      '--watch cannot be used with --output-dir: a watch writes the cluster, not files',
    ],
    [
      args['print-required-role'],
      '--watch cannot be used with --print-required-role: print the role with sync --print-required-role',
    ],
    [
      args.only?.split(',').some((f) => f.trim() === 'composed') === true,
      '--watch cannot be used with --only composed: the composed part reads every XRD kind and its events, which a watch does not follow; run sync --only composed once',
    ],
  ];
  const refused = refusals.find(([given]) => given);
  if (refused !== undefined) throw new UsageError(refused[1]);
  if (args.output === undefined) return 'line';
  if (args.output === 'json') return 'json';
  // A format sync knows is refused with why; any other is -o's standard error (output/registry.ts's parseFormat).
  if (!(formatsOf('plan') as readonly string[]).includes(args.output)) {
    checkFormat(['json'], args.output, 'sync --watch', 'json (without -o, one line per reconcile)');
  }
  throw new UsageError(
    `--watch cannot be used with -o ${args.output}: a watch prints one line per reconcile, or one JSON object per reconcile with -o json`,
  );
}

/**
 * `sync --watch`: runs the watch, prints each reconcile as it comes (a line, or a JSON object with -o json) on stdout,
 * and what else it reports on stderr; a Ctrl-C that stopped writes in flight exits 130.
 */
export async function watchSync(
  deps: Deps,
  run: SyncRunOptions,
  format: 'line' | 'json',
  color: boolean,
): Promise<void> {
  const { runSyncWatch } = await import('../app/sync-watch.js');
  const printer = new WatchPrinter(deps.io, format);
  const collect = fullCollection();
  const onIdle =
    collect !== undefined
      ? idleCollector(collect, () => process.memoryUsage().heapUsed, HEAP_GROWTH)
      : undefined;
  const end = await runSyncWatch(
    { ...run, settleMs: SETTLE_MS, maxWaitMs: MAX_WAIT_MS, onIdle },
    {
      ...appDeps(deps, color),
      onProgress: (e) => {
        printer.print(e);
      },
    },
  );
  if (end.reason === 'declined') throw new UserError('aborted: nothing was written');
  if (end.reason === 'interrupted') {
    throw new UserError(`interrupted after ${String(end.reconciles)} reconciles`, {
      hint: 're-run the command to go on watching: it converges',
      exitCode: ExitCode.interrupted,
    });
  }
}

/** Prints what a watch reports: reconciles on stdout; held, refused and warnings on stderr when they change. */
class WatchPrinter {
  /** What stderr last said of held and refused objects: said again only when it changes. */
  private lastNotes = '';

  constructor(
    private readonly io: Io,
    private readonly format: 'line' | 'json',
  ) {}

  print(event: WatchProgress): void {
    switch (event.type) {
      case 'watching':
        writeLine(
          this.io.stderr,
          `watching ${event.kinds.join(', ')} (${String(event.objects)} objects): Ctrl-C stops`,
        );
        return;
      case 'unwatched':
        writeLine(this.io.stderr, `warning: not watching ${event.kind}: ${event.reason}`);
        return;
      case 'reconnecting':
        writeLine(
          this.io.stderr,
          `warning: ${event.reason}; connecting again in ${(event.inMs / 1000).toFixed(1)}s`,
        );
        return;
      case 'reconciled':
        this.reconciled(event.reconcile);
    }
  }

  private reconciled(r: Reconcile): void {
    const notes = [
      ...r.held.map((h) => `held ${h}`),
      ...r.refused.map((x) => `refused ${x}`),
      ...warningLines(r.warnings),
    ].map(escapeTerminal);
    const joined = notes.join('\n');
    if (joined !== this.lastNotes && notes.length > 0) this.io.stderr.write(`${joined}\n`);
    this.lastNotes = joined;
    for (const f of r.failed) writeLine(this.io.stderr, `error: ${f}`);
    for (const p of r.problems) writeLine(this.io.stderr, `error: ${p}`);
    // A reconcile with nothing to do prints nothing (its own writes' events would double every line), except the
    // first, which says the watch is in step.
    const wrote = r.created + r.updated + r.deleted + r.failed.length + r.notStarted > 0;
    if (!wrote && r.status === 'applied' && r.number > 1 && r.retry === undefined) return;
    if (this.format === 'json') {
      this.io.stdout.write(`${JSON.stringify(reconcileJson(r))}\n`);
      return;
    }
    writeLine(this.io.stdout, reconcileLine(r));
  }
}

/** `12:03:01 ProviderRevision upbound-provider-aws-s3-abc added: 3 created, 1 updated` */
function reconcileLine(r: Reconcile): string {
  const t = new Date(r.at);
  const time = [t.getHours(), t.getMinutes(), t.getSeconds()]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
  const { trigger } = r;
  const what =
    trigger.change === 'retried'
      ? `retry ${String(r.retry ?? 1)} of the failed writes`
      : trigger.change === 'listed' || trigger.change === 'relisted'
        ? `${trigger.change} ${trigger.kind === '' ? `${String(r.changes)} objects` : `${trigger.kind}s`}`
        : `${trigger.kind} ${trigger.namespace !== undefined ? `${trigger.namespace}/` : ''}${trigger.name} ${trigger.change}`;
  const more = r.changes > 1 && trigger.kind !== '' ? ` (and ${String(r.changes - 1)} more changes)` : '';
  const retry = r.retryInMs !== undefined ? ` (retrying in ${seconds(r.retryInMs)})` : '';
  return `${time} ${what}${more}: ${resultText(r)}${retry}`;
}

/** A wait as kubectl words one: 5ms, 1.3s, 16m40s. */
function seconds(ms: number): string {
  if (ms < 1000) return `${String(Math.round(ms))}ms`;
  if (ms < 60_000) return `${String(Math.round(ms / 100) / 10)}s`;
  const s = Math.round(ms / 1000);
  return `${String(Math.floor(s / 60))}m${String(s % 60)}s`;
}

function resultText(r: Reconcile): string {
  switch (r.status) {
    case 'failed':
      return 'not planned, nothing written';
    case 'denied':
      return 'not allowed, nothing written';
    case 'declined':
      return 'declined, nothing written';
    case 'applied': {
      const parts = [
        [r.created, 'created'],
        [r.updated, 'updated'],
        [r.deleted, 'deleted'],
        [r.failed.length, 'failed'],
        [r.notStarted, 'not started'],
      ] as const;
      const shown = parts.filter(([n]) => n > 0).map(([n, w]) => `${String(n)} ${w}`);
      return shown.length > 0 ? shown.join(', ') : 'up to date';
    }
  }
}

/** One reconcile as one JSON object (for log shippers): the data, with the time as RFC 3339. */
function reconcileJson(r: Reconcile): Record<string, unknown> {
  const { at, ...rest } = r;
  // The warnings in words, where they stand among the fields (a key given again keeps its place).
  return {
    time: new Date(at).toISOString(),
    ...rest,
    warnings: warningLines(r.warnings).map(escapeTerminal),
  };
}
