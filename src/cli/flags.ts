import { UsageError } from '../errors.js';
import { dnsLabelProblem } from '../kube/name-rules.js';
import { DRY_RUN_CHOICES, type DryRun, type WriteOptions } from '../app/write.js';
import type { AfterSyncOptions } from '../app/after-sync.js';
import type { Io } from './io.js';
import type { ClusterRole } from '../kube/types.js';
import type { ReadCommand, readRequiredRole } from '../app/required-role.js';
import { SYNC_FAMILIES, type SyncFamily } from '../sync/choices.js';
import { checkFormat, GRAPH_FORMATS, parseFormat, type FormatOf } from './output/registry.js';

// The flags the writing commands share, and sync's --only with --after-sync, which explain and who-can share,
// defined once. Each command adds them in the order its --help lists them.

export const dryRunOption = {
  type: 'string',
  describe: `Do not write: ${DRY_RUN_CHOICES.join(', ')} (bare --dry-run = client)`,
} as const;

export const yesOption = {
  alias: 'y',
  type: 'boolean',
  default: false,
  describe: 'Write without asking on a terminal',
} as const;

export const concurrencyOption = {
  type: 'number',
  default: 16,
  describe: 'Writes in flight at once',
} as const;

/** kubectl's --no-headers: tables without their header row (their columns as wide as their cells). */
export const noHeadersOption = {
  type: 'boolean',
  default: false,
  describe: 'Print tables without their header row (as kubectl)',
} as const;

/** The graph formats draw one cluster: across contexts there is no one graph to print. */
export function refuseGraphAcrossContexts(output: string, fleet: object | undefined): void {
  if (fleet === undefined || !GRAPH_FORMATS.includes(output)) return;
  throw new UsageError(`-o ${output} draws one cluster and cannot be merged across contexts`, {
    hint: 'give one --context (or -f), or use -o json across contexts',
  });
}

/** `--adopt`, described by what the command would take over. */
export function adoptOption(what: string) {
  return { type: 'boolean', default: false, describe: `Take over ${what} instead of refusing them` } as const;
}

/** `--allow-privileged` for sync and enable-xrd: write privileged rules rendered from XRDs and providers. */
export const allowPrivilegedRolesOption = {
  type: 'boolean',
  default: false,
  describe:
    'Write roles an XRD or provider would get with privileged rules (escalate, bind, impersonate, tokens, signers) instead of holding them',
} as const;

/** Throws a UsageError unless `n` is a whole number of writes ≥ 1. */
export function checkConcurrency(n: number): number {
  if (!Number.isInteger(n) || n < 1) {
    throw new UsageError(`invalid --concurrency ${String(n)}`, { hint: 'use a whole number ≥ 1' });
  }
  return n;
}

/**
 * Throws a UsageError unless `value` can name a namespace: a DNS-1123 label, as the API server validates namespace
 * names (apimachinery's ValidateNamespaceName = NameIsDNSLabel).
 */
export function checkNamespaceFlag(flag: string, value: string | undefined): void {
  if (value === undefined) return;
  const problem = dnsLabelProblem(value);
  if (problem !== undefined) {
    throw new UsageError(`invalid ${flag} ${JSON.stringify(value)}: not a namespace name: ${problem}`, {
      hint: `e.g. ${flag} crossplane-system`,
    });
  }
}

/** `--dry-run` as kubectl spells it: a bare `--dry-run` means client. */
export function parseDryRun(value: string | boolean | undefined): DryRun {
  if (value === undefined || value === false || value === 'none') return 'none';
  if (value === true || value === '' || value === 'client') return 'client';
  if (value === 'server') return 'server';
  throw new UsageError(`invalid --dry-run "${value}"`, {
    hint: 'use --dry-run=none, client or server',
  });
}

/** The -o formats of the writing commands: the plan's (output/registry.ts). */
export type WriteOutput = FormatOf<'plan'>;

/** How a write command's outcome is shown. */
export interface PresentOptions {
  readonly output: WriteOutput;
  /** --no-color not given. */
  readonly color: boolean;
  /** --check: drift exits 1. */
  readonly check: boolean;
  /** --dry-run=server: the table says what would be done. */
  readonly serverDryRun: boolean;
  /** The table's header row (false: --no-headers). */
  readonly headers: boolean;
}

/** The write flags every writing command has, as they reach its handler. */
export interface WriteArgs {
  readonly 'dry-run': string | undefined;
  readonly yes: boolean;
  readonly concurrency: number;
  readonly output: string | undefined;
  readonly color: boolean;
  readonly 'no-headers': boolean;
}

/**
 * The write flags, checked (before anything is read) and split into how to write and how to show it. COMMAND is the
 * command (for -o's error), WHAT what it does, for the question and messages.
 */
export function writeFlags(
  args: WriteArgs,
  command: string,
  what: string,
  extra: { readonly check?: boolean; readonly preview?: boolean } = {},
): { write: WriteOptions; present: PresentOptions } {
  const dryRun = parseDryRun(args['dry-run']);
  const output = parseFormat('plan', args.output, command);
  checkConcurrency(args.concurrency);
  const check = extra.check ?? false;
  return {
    write: { dryRun, check, yes: args.yes, concurrency: args.concurrency, what, preview: extra.preview },
    present: {
      output,
      color: args.color,
      check,
      serverDryRun: dryRun === 'server',
      headers: !args['no-headers'],
    },
  };
}

/** sync's `--only LIST` (also explain's and who-can's with --after-sync): the families, checked; undefined: all. */
export function parseOnly(value: string | undefined): SyncFamily[] | undefined {
  if (value === undefined) return undefined;
  const parts = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const bad = parts.filter((p) => !(SYNC_FAMILIES as readonly string[]).includes(p));
  if (bad.length > 0 || parts.length === 0) {
    throw new UsageError(`invalid --only "${value}"`, {
      hint: `use a comma-separated list of: ${SYNC_FAMILIES.join(', ')}`,
    });
  }
  return parts as SyncFamily[];
}

/** `--after-sync` and its `--only`, for the commands that answer questions (explain, who-can). */
/**
 * --converged of the commands that answer as the authorizer by default (who-can, explain --subject, lookup): one
 * help text, so that they say the same of the two views.
 */
export const convergedOption = {
  type: 'boolean',
  default: false,
  describe:
    'Read every ClusterRole and answer with the rules the aggregation controller converges to, marking paths through rules it has not stored yet (default: the rules each bound role stores, as the API server answers; --after-sync implies it)',
} as const;

export const afterSyncOptions = {
  'after-sync': {
    type: 'boolean',
    default: false,
    describe:
      'Answer for the cluster as a plain sync would leave it, writing nothing: what sync would create or update replaces or joins the live objects; what it refuses, and live objects it no longer makes (it prunes nothing), stay',
  },
  only: {
    type: 'string',
    describe: `With --after-sync: the families sync makes, as sync --only takes them: ${SYNC_FAMILIES.join(',')} (default: all but composed)`,
  },
} as const;

/** --after-sync and --only, checked: the options of the answer, undefined without --after-sync. */
export function afterSyncFlags(args: {
  readonly 'after-sync': boolean;
  readonly only: string | undefined;
}): AfterSyncOptions | undefined {
  if (!args['after-sync']) {
    if (args.only !== undefined) {
      throw new UsageError('--only needs --after-sync', {
        hint: 'e.g. --after-sync --only providers,composites,namespaces,base,composed',
      });
    }
    return undefined;
  }
  const only = parseOnly(args.only);
  return only !== undefined ? { only } : {};
}

/** --print-required-role of the read-only commands: the ClusterRole they need, printed instead of answering. */
export const printReadRoleOption = {
  type: 'boolean',
  default: false,
  describe: 'Print a ClusterRole with what this command reads (list on each kind), and exit',
} as const;

/**
 * --print-required-role's formats: what kubectl's printers make of a ClusterRole (`kubectl create clusterrole
 * --dry-run=client -o yaml|json|name`); YAML without -o. A format that means nothing for one object (a command's
 * table, wide, a graph) is -o's standard error, before anything is read.
 */
const ROLE_FORMATS = ['yaml', 'json', 'name'] as const;
type RoleFormat = (typeof ROLE_FORMATS)[number];

/** -o checked for --print-required-role; COMMAND as typed, for the error. */
export function roleFormat(output: string | undefined, command: string): RoleFormat {
  return checkFormat(ROLE_FORMATS, output, `${command} --print-required-role`);
}

/** Prints the ClusterRole COMMAND needs (YAML, JSON or its name, as -o says), for `kubectl apply -f -`. */
export async function printReadRole(
  io: Pick<Io, 'stdout'>,
  command: ReadCommand,
  output: string | undefined,
  afterSync: AfterSyncOptions | undefined,
  composites?: Parameters<typeof readRequiredRole>[2],
  typed: string = command,
): Promise<void> {
  const format = roleFormat(output, typed);
  const { readRequiredRole } = await import('../app/required-role.js');
  await printRole(io, await readRequiredRole(command, afterSync, composites), format);
}

/** --print-required-role's output: ROLE as YAML or JSON, or its name as kubectl's `-o name` prints it. */
export async function printRole(
  io: Pick<Io, 'stdout'>,
  role: ClusterRole,
  format: RoleFormat,
): Promise<void> {
  if (format === 'name') {
    io.stdout.write(`clusterrole.rbac.authorization.k8s.io/${role.metadata.name}\n`);
    return;
  }
  const { formatYaml, formatJson } = await import('./output/format-data.js');
  io.stdout.write(format === 'json' ? formatJson(role) : formatYaml(role));
}
