/**
 * The command lines of the output corpus (test/fixtures/output-corpus/): every read and write command with every
 * `-o` format it takes, offline on examples/cluster and examples/large, and live (one server, and a fleet of two
 * with --contexts) for the commands that read a cluster. scripts/output-corpus.ts saves their outputs once, with
 * dist/bin's binary. test/integration/output-corpus.test.ts runs every case again in-process (the printers are the
 * same JavaScript in the binary) and compares byte for byte; test/e2e/output-corpus.test.ts runs a sample of them
 * (processSample: every command, every -o format, one live and one fleet case) through the real kubectl and the
 * built binary, for what only a process shows (exit codes, the stdout/stderr split, kubectl's plugin dispatch).
 * No vitest import: the script runs it outside a test run.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import type { TestApiServer } from '../apiserver/server.js';
import { CROSSPLANE_PATCH_CRONJOBS, startExampleServer } from './example-server.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const corpusDir = join(root, 'test', 'fixtures', 'output-corpus');
const bin = join(root, 'dist', 'bin', 'kubectl-crossplane_rbac');

/** Outputs over this many bytes are kept as a sha256 and a byte count; smaller ones whole. */
export const WHOLE_LIMIT = 64 * 1024;

export type Where = 'cluster' | 'large' | 'live' | 'fleet';

export interface CorpusCase {
  /** A file name: where, then the command line, reduced to [a-z0-9-]. */
  readonly id: string;
  readonly where: Where;
  /** The arguments after the plugin's name; the offline ones without their -f. */
  readonly args: readonly string[];
}

const WRITE = ['table', 'yaml', 'json', 'name', 'diff'];
const GRAPHS = ['dot', 'mermaid', 'html'];

/** What the offline command lines name: objects of examples/cluster, or of examples/large (no RootSync there). */
const NAMES = {
  cluster: {
    xrd: 'xsqlinstances.aws.platform.upbound.io',
    namespace: 'team-a',
    account: ['--root-sync', 'root-sync'],
    resource: 'compositions',
    subject: 'Group:team-a-devs',
    subjectNamespace: 'team-b',
  },
  large: {
    xrd: 'xaccounts.platform.acme.io',
    namespace: 'team-000',
    account: ['--service-account', 'crossplane-system/crossplane'],
    resource: 'xaccounts.platform.acme.io',
    subject: 'ServiceAccount:crossplane-system/crossplane',
    subjectNamespace: 'team-000',
  },
} as const;

/** The offline command lines (each run with -f DIR), every format of each mode. */
function offline(where: 'cluster' | 'large'): string[][] {
  const n = NAMES[where];
  const lines: string[][] = [];
  const each = (base: string[], formats: readonly string[]): void => {
    for (const o of formats) lines.push([...base, '-o', o]);
  };
  const ask = ['--for', n.resource, '--verb', 'update'];
  each(['sync'], WRITE);
  lines.push(['sync']);
  each(['enable-xrd', n.xrd, '-n', n.namespace], WRITE);
  each(['bind', ...n.account, '--role-ref', 'ClusterRole/crossplane-view', '--dry-run=client'], WRITE);
  each(['explain', 'crossplane-edit'], ['tree', 'table', 'wide', 'yaml', 'json', 'dot', 'mermaid']);
  each(['explain', 'crossplane-edit', ...ask], ['tree', 'table']);
  each(
    ['explain', '--subject', 'Group:crossplane:masters', ...ask],
    ['text', 'wide', 'yaml', 'json', ...GRAPHS],
  );
  each(['explain', '--subject', n.subject, '-n', n.subjectNamespace, '--matrix'], ['table', 'json', 'yaml']);
  each(['who-can', 'update', n.resource], ['table', 'wide', 'json', 'yaml', ...GRAPHS]);
  each(['lookup', 'crossplane'], ['table', 'wide', 'json', 'yaml']);
  each(['composed'], ['table', 'wide', 'json', 'yaml']);
  each(['audit'], ['table', 'wide', 'json', 'yaml', 'sarif']);
  lines.push(['sync', '--no-headers']);
  lines.push(['who-can', 'update', n.resource, '--no-headers']);
  return lines;
}

/** Read commands against a live server that prod's sync wrote to (and stage's that it did not). */
function live(): string[][] {
  return [
    ...WRITE.map((o) => ['sync', '--check', '-o', o]),
    ...['table', 'wide', 'json', 'yaml', ...GRAPHS].map((o) => [
      'who-can',
      'delete',
      'buckets.s3.aws.upbound.io',
      '-A',
      '-o',
      o,
    ]),
    ...['tree', 'table', 'wide', 'yaml', 'json'].map((o) => ['explain', 'crossplane-edit', '-o', o]),
    ...['text', 'wide', 'yaml', 'json'].map((o) => [...CROSSPLANE_PATCH_CRONJOBS, '-o', o]),
    ...['table', 'json', 'yaml'].map((o) => [
      'explain',
      '--subject',
      'Group:team-a-devs',
      '-n',
      'team-b',
      '--matrix',
      '-o',
      o,
    ]),
    ...['table', 'wide', 'json', 'yaml'].map((o) => ['lookup', 'crossplane', '-o', o]),
    ...['table', 'json', 'yaml'].map((o) => ['composed', '-o', o]),
    ...['table', 'json'].map((o) => ['audit', '-o', o]),
  ];
}

const slug = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function named(where: Where, args: readonly string[]): CorpusCase {
  return { id: `${where}--${slug(args.join(' '))}`, where, args };
}

/** Every case, in the order the corpus lists them. */
export function corpusCases(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const where of ['cluster', 'large'] as const)
    for (const a of offline(where)) cases.push(named(where, a));
  for (const a of live()) cases.push(named('live', a));
  for (const a of live()) cases.push(named('fleet', [...a, '--contexts', 'stage,prod']));
  return cases;
}

export interface Output {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** What the corpus keeps of one output: the text, or its sha256 and length in bytes when it is large. */
export type Kept = { readonly text: string } | { readonly sha256: string; readonly bytes: number };

export function keep(text: string): Kept {
  const bytes = Buffer.byteLength(text);
  if (bytes <= WHOLE_LIMIT) return { text };
  return { sha256: createHash('sha256').update(text).digest('hex'), bytes };
}

/** One case's record in the corpus's index. */
export interface Recorded {
  readonly id: string;
  readonly args: readonly string[];
  readonly code: number;
  /** stdout and stderr: `<id>.stdout` in the corpus directory when kept whole, else its hash and length. */
  readonly stdout: { readonly sha256: string; readonly bytes: number } | 'file';
  readonly stderr: { readonly sha256: string; readonly bytes: number } | 'file';
}

export function record(c: CorpusCase, out: Output): { index: Recorded; files: Map<string, string> } {
  const files = new Map<string, string>();
  const part = (name: 'stdout' | 'stderr'): Recorded['stdout'] => {
    const kept = keep(out[name]);
    if ('text' in kept) {
      files.set(`${c.id}.${name}`, kept.text);
      return 'file';
    }
    return { sha256: kept.sha256, bytes: kept.bytes };
  };
  return {
    index: { id: c.id, args: c.args, code: out.code, stdout: part('stdout'), stderr: part('stderr') },
    files,
  };
}

/** The corpus's index, as saved. */
export function readIndex(): Recorded[] {
  return JSON.parse(readFileSync(join(corpusDir, 'index.json'), 'utf8')) as Recorded[];
}

/** The servers of the live cases: `live` (one context, synced) and the fleet's stage (never synced) and prod. */
export interface Servers {
  readonly kubeconfig: string;
  readonly fleetKubeconfig: string;
  stop(): Promise<void>;
}

interface Named {
  name: string;
  [k: string]: unknown;
}

/** How a command line is run: the built binary by default; in-process by the integration test. */
export type Runner = (args: readonly string[], env: Record<string, string>) => Promise<Output>;

/** Starts the three servers and syncs `live` and the fleet's prod with SYNC (`sync --yes --context NAME`). */
export async function startServers(sync: Runner = runBinary): Promise<Servers> {
  const dir = mkdtempSync(join(tmpdir(), 'xrbac-corpus-'));
  const servers: TestApiServer[] = await Promise.all(
    ['live', 'stage', 'prod'].map((_, i) => startExampleServer(join(dir, `${String(i)}.kubeconfig`))),
  );
  const parts = servers.map((_, i) => {
    const file = join(dir, `${String(i)}.kubeconfig`);
    const k = parse(readFileSync(file, 'utf8')) as { clusters: Named[]; users: Named[] };
    const name = ['live', 'stage', 'prod'][i] ?? '';
    return {
      cluster: { ...(k.clusters[0] as Named), name },
      user: { ...(k.users[0] as Named), name },
      context: { name, context: { cluster: name, user: name } },
    };
  });
  const config = (names: string[], current: string): string =>
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: parts.filter((p) => names.includes(p.context.name)).map((p) => p.cluster),
      users: parts.filter((p) => names.includes(p.context.name)).map((p) => p.user),
      contexts: parts.filter((p) => names.includes(p.context.name)).map((p) => p.context),
      'current-context': current,
    });
  const kubeconfig = join(dir, 'live.kubeconfig');
  writeFileSync(kubeconfig, config(['live'], 'live'));
  const fleetKubeconfig = join(dir, 'fleet.kubeconfig');
  writeFileSync(fleetKubeconfig, config(['stage', 'prod'], 'stage'));
  const home = join(dir, 'home');
  for (const [kc, ctx] of [
    [kubeconfig, 'live'],
    [fleetKubeconfig, 'prod'],
  ] as const) {
    const r = await sync(['sync', '--yes', '--context', ctx], { KUBECONFIG: kc, HOME: home });
    if (r.code !== 0) throw new Error(`sync --yes on ${ctx}: ${r.stderr}`);
  }
  return {
    kubeconfig,
    fleetKubeconfig,
    stop: async () => {
      await Promise.all(servers.map((s) => s.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function runBinary(args: readonly string[], env: Record<string, string>): Promise<Output> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      {
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
        cwd: root,
        maxBuffer: 256 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        done({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

/**
 * One case's command line and environment: offline cases with `-f DIR` (relative to the repository: the plugin
 * prints the path as given) and no kubeconfig, live ones with SERVERS' kubeconfig. The run's cwd is the repository.
 */
export function invocation(
  c: CorpusCase,
  servers: Servers | undefined,
  home: string,
): { args: string[]; env: Record<string, string> } {
  if (c.where === 'cluster' || c.where === 'large') {
    const dir = c.where === 'cluster' ? 'examples/cluster' : 'examples/large';
    return { args: [...c.args, '-f', dir], env: { KUBECONFIG: '/nonexistent', HOME: home } };
  }
  if (servers === undefined) throw new Error(`${c.id}: a live case needs the servers`);
  return {
    args: [...c.args],
    env: { KUBECONFIG: c.where === 'live' ? servers.kubeconfig : servers.fleetKubeconfig, HOME: home },
  };
}

/** Runs one case with the built binary (or RUN). */
export function runCase(
  c: CorpusCase,
  servers: Servers | undefined,
  home: string,
  run: Runner = runBinary,
): Promise<Output> {
  const { args, env } = invocation(c, servers, home);
  return run(args, env);
}

/** What a run printed, in the shape the corpus keeps it (text, or sha256 and length), beside the record. */
export function compared(
  rec: Recorded,
  out: Output,
): {
  got: { code: number; stdout: Shown; stderr: Shown };
  want: { code: number; stdout: Shown; stderr: Shown };
} {
  const want = { code: rec.code, stdout: expected(rec, 'stdout'), stderr: expected(rec, 'stderr') };
  return {
    got: { code: out.code, stdout: shown(out.stdout, want.stdout), stderr: shown(out.stderr, want.stderr) },
    want,
  };
}

type Shown = { sha256: string; bytes: number } | string;

function expected(rec: Recorded, part: 'stdout' | 'stderr'): Shown {
  const kept = rec[part];
  return kept === 'file' ? readFileSync(join(corpusDir, `${rec.id}.${part}`), 'utf8') : kept;
}

function shown(text: string, like: Shown): Shown {
  if (typeof like === 'string') return text;
  return { sha256: createHash('sha256').update(text).digest('hex'), bytes: Buffer.byteLength(text) };
}

/**
 * What a case shows of the product: its command (explain by the kind of result it prints: a role, a subject, a
 * matrix) and its -o format ('' when none is given).
 */
export function facets(c: CorpusCase): { command: string; format: string } {
  const [command = ''] = c.args;
  const mode = ['--subject', '--matrix'].filter((f) => c.args.includes(f));
  const o = c.args.indexOf('-o');
  return { command: [command, ...mode].join(' '), format: o < 0 ? '' : (c.args[o + 1] ?? '') };
}

/**
 * The cases run as processes, through kubectl: in corpus order, offline on examples/cluster first, each case that
 * shows a command or a format no earlier one did (examples/large adds neither: its outputs are the same printers
 * over more objects, and its cases the heaviest), then the first live case and the first fleet case. The rest of
 * the corpus runs in-process only.
 */
export function processSample(cases: readonly CorpusCase[]): CorpusCase[] {
  const seen = new Set<string>();
  const sample: CorpusCase[] = [];
  for (const c of cases.filter((k) => k.where === 'cluster')) {
    const { command, format } = facets(c);
    if (seen.has(`c:${command}`) && seen.has(`o:${format}`)) continue;
    seen.add(`c:${command}`).add(`o:${format}`);
    sample.push(c);
  }
  for (const where of ['live', 'fleet'] as const) {
    const first = cases.find((k) => k.where === where);
    if (first !== undefined) sample.push(first);
  }
  return sample;
}
