import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import {
  assertBuilt,
  discoveryCache,
  binDir,
  findOnPath,
  kubectl,
  repoRoot,
  tempDir,
  type RunResult,
} from './harness.js';

const SQL = 'xsqlinstances.aws.platform.upbound.io'; // claim: sqlinstances.aws.platform.upbound.io
const CLAIM = 'sqlinstances.aws.platform.upbound.io';
const MYSQL = 'xmysqlinstances.database.platform.acme.io'; // enabled in no namespace of the examples
const ACCEPTED = 'xrd-claim-accepted';
const annotationOf = (xrd: string): string => `rbac.crossplane.io/${xrd}`;

let server: TestApiServer;
let dir: string;
let kubeconfig: string;

const run = (args: string[], input?: string): Promise<RunResult> =>
  kubectl(args, {
    env: { KUBECONFIG: kubeconfig, KUBECACHEDIR: discoveryCache(kubeconfig) },
    ...(input !== undefined ? { input } : {}),
  });

function annotations(ns: string): Record<string, string> {
  const o = server.get('namespaces', ns) as
    { metadata: { annotations?: Record<string, string> } } | undefined;
  return o?.metadata.annotations ?? {};
}

/** `kubectl auth can-i create CLAIM -n NS --as USER`: exit 0 and "yes", or exit 1 and "no". */
async function canI(namespace: string, user = 'dev'): Promise<boolean> {
  const r = await run(['auth', 'can-i', 'create', CLAIM, '-n', namespace, '--as', user]);
  if (r.code !== 0 && r.code !== 1) throw new Error(`kubectl auth can-i failed (${r.code}): ${r.stderr}`);
  return r.code === 0 && r.stdout.trim() === 'yes';
}

/** The aggregation controller runs asynchronously: ask again until the answer is WANT (or 10 s pass). */
async function eventuallyCanI(namespace: string, want: boolean): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  let got = await canI(namespace);
  while (got !== want && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    got = await canI(namespace);
  }
  return got;
}

/** The CRD Crossplane creates for the claim: kubectl resolves `sqlinstances.aws.platform.upbound.io` through it. */

function devBinding(namespace: string): object {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'dev-edit', namespace },
    roleRef: {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: `crossplane-ns-${namespace}-edit`,
    },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'dev' }],
  };
}

beforeAll(async () => {
  assertBuilt();
  server = await startApiServer({
    aggregation: true,
    seed: loadSeedFiles([join(repoRoot, 'examples', 'cluster')]),
  });
  // The claim's CRD comes with the examples, made by the XRD as Crossplane makes it.
  server.seed([devBinding('production'), devBinding('sandbox')]);
  dir = tempDir('xrbac-e2e-enable-xrd-');
  kubeconfig = join(dir, 'kubeconfig');
  server.writeKubeconfig(kubeconfig);
});

afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** stderr of a refused command: exactly one `error: ` line, optionally one `hint: ` line. */
function expectOneError(r: RunResult, message: RegExp, reason = ''): void {
  expect(r.code, `${reason}\n${r.stderr}`).toBe(2);
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines.length, r.stderr).toBeGreaterThanOrEqual(1);
  expect(lines.length, r.stderr).toBeLessThanOrEqual(2);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(message);
  if (lines.length === 2) expect(lines[1]).toMatch(/^hint: /);
  expect(r.stdout).toBe('');
}

describe('enable-xrd through the real kubectl', () => {
  it('enables a claim in production: annotation, namespace roles, and only there can dev create it; --disable undoes it', async () => {
    expect(annotations('production')).toStrictEqual({});
    expect(await canI('production')).toBe(false);

    const r = await run(['crossplane-rbac', 'enable-xrd', SQL, '-n', 'production', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    // Each object written named first, as kubectl apply names them, then the summary.
    const out = r.stdout.split('\n');
    const head = out.findIndex((l) =>
      /^KIND\s+CREATED\s+UPDATED\s+UNCHANGED\s+DELETED\s+REFUSED\s+FAILED$/.test(l),
    );
    expect(head, r.stdout).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/^Namespace\s+0\s+1\s+0\s+0\s+0\s+0$/m);
    const roles = /^ClusterRole\s+([1-9]\d*)\s+(\d+)\s+\d+\s+\d+\s+0\s+0$/m.exec(r.stdout);
    expect(roles, r.stdout).not.toBeNull();
    const written = out.slice(0, head).map((l) => /^(\S+) (created|configured)$/.exec(l));
    expect(
      written.every((m) => m !== null),
      out.slice(0, head).join('\n'),
    ).toBe(true);
    expect(out.slice(0, head)).toContain('namespace/production configured');
    const roleLines = written.filter((m) => m?.[1]?.startsWith('clusterrole.rbac.authorization.k8s.io/'));
    expect(roleLines.filter((m) => m?.[2] === 'created')).toHaveLength(Number(roles?.[1]));
    expect(roleLines.filter((m) => m?.[2] === 'configured')).toHaveLength(Number(roles?.[2]));
    // Each name is kubectl's own for the object (kubectl get -o name prints the same TYPE.GROUP/NAME).
    for (const m of written) {
      const got = await run(['get', m?.[1] ?? '', '-o', 'name']);
      expect(got.stdout.trim(), got.stderr).toBe(m?.[1]);
    }

    const ann = await run([
      'get',
      'ns',
      'production',
      '-o',
      `jsonpath={.metadata.annotations.rbac\\.crossplane\\.io/${SQL.replaceAll('.', '\\.')}}`,
    ]);
    expect(ann.code, ann.stderr).toBe(0);
    expect(ann.stdout).toBe(ACCEPTED);

    for (const role of ['crossplane-ns-production-edit', 'crossplane-ns-production-view']) {
      const get = await run(['get', 'clusterrole', role, '-o', 'name']);
      expect(get.code, get.stderr).toBe(0);
      expect(get.stdout.trim()).toBe(`clusterrole.rbac.authorization.k8s.io/${role}`);
    }

    expect(await eventuallyCanI('production', true)).toBe(true);
    // dev is bound to crossplane-ns-sandbox-edit too, but sandbox did not accept the XRD.
    expect(await canI('sandbox')).toBe(false);
    expect(await canI('team-b')).toBe(false);

    const d = await run(['crossplane-rbac', 'enable-xrd', SQL, '-n', 'production', '--disable', '--yes']);
    expect(d.code, d.stderr).toBe(0);
    expect(d.stdout).toMatch(/^Namespace\s+0\s+1\s+0\s+0\s+0\s+0$/m);
    expect(d.stdout).toMatch(/^ClusterRole\s+\d+\s+\d+\s+\d+\s+[1-9]\d*\s+0\s+0$/m);
    expect(annotations('production')).toStrictEqual({});
    expect(await eventuallyCanI('production', false)).toBe(false);
    for (const role of ['crossplane-ns-production-edit', 'crossplane-ns-production-view']) {
      const get = await run(['get', 'clusterrole', role, '-o', 'name']);
      expect(get.code).toBe(1);
      expect(get.stderr).toMatch(/NotFound/);
    }
  });

  it('without -n uses the namespace of the kubeconfig context, as kubectl does', async () => {
    const dir = tempDir();
    const own = join(dir, 'kubeconfig');
    writeFileSync(own, readFileSync(kubeconfig));
    const set = await kubectl(['config', 'set-context', '--current', '--namespace', 'sandbox'], {
      env: { KUBECONFIG: own },
    });
    expect(set.code, set.stderr).toBe(0);
    server.counters.reset();
    const r = await kubectl(['crossplane-rbac', 'enable-xrd', SQL, '--dry-run=client', '-o', 'name'], {
      env: { KUBECONFIG: own },
    });
    // It grants access there, so it says where it took the namespace from, before the plan.
    expect(r.stderr).toMatch(
      /^enabling in namespace "sandbox", the context's \(no -n or -l given\): \S+ \(context \S+\)\n$/,
    );
    expect(r.stdout.split('\n')[0]).toBe('namespace/sandbox');
    expect(server.counters.writes()).toBe(0);
  });

  it('--dry-run=client -o yaml prints the annotated Namespace first, then ClusterRoles, and writes nothing', async () => {
    const before = annotations('sandbox');
    server.counters.reset();
    const r = await run([
      'crossplane-rbac',
      'enable-xrd',
      SQL,
      '-n',
      'sandbox',
      '-o',
      'yaml',
      '--dry-run=client',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(server.counters.writes()).toBe(0);
    expect(annotations('sandbox')).toStrictEqual(before);
    expect(server.get('clusterroles', 'crossplane-ns-sandbox-edit')).toBeUndefined();

    const list = parse(r.stdout) as {
      apiVersion: string;
      kind: string;
      items: { kind: string; metadata: { name: string; annotations?: Record<string, string> } }[];
    };
    expect(list.kind).toBe('List');
    const [first, ...rest] = list.items;
    expect(first?.kind).toBe('Namespace');
    expect(first?.metadata.name).toBe('sandbox');
    expect(first?.metadata.annotations).toStrictEqual({ ...before, [annotationOf(SQL)]: ACCEPTED });
    expect(rest.length).toBeGreaterThan(0);
    expect(new Set(rest.map((o) => o.kind))).toStrictEqual(new Set(['ClusterRole']));
    expect(rest.map((o) => o.metadata.name)).toEqual(
      expect.arrayContaining(['crossplane-ns-sandbox-edit', 'crossplane-ns-sandbox-view']),
    );
  });

  it.each([
    {
      name: 'UnknownXrd',
      reason: 'an XRD the cluster does not have is refused before any write',
      args: ['xsqlinstance.aws.platform.upbound.io', '-n', 'production'],
      message: /^error: CompositeResourceDefinition "xsqlinstance\.aws\.platform\.upbound\.io" not found$/,
      hint: /"xsqlinstances\.aws\.platform\.upbound\.io"/,
    },
    {
      name: 'MissingNamespace',
      reason: 'a namespace the cluster does not have is refused before any write',
      args: [SQL, '-n', 'nowhere'],
      message: /^error: namespace not found: "nowhere"$/,
      hint: undefined,
    },
    {
      name: 'NoNamespaceGivenOffline',
      reason: 'reading files (-f) there is no context namespace to fall back on: -n, -l or -i is needed',
      args: [SQL, '-f', join(repoRoot, 'examples', 'cluster')],
      message: /^error: no namespace given: /,
      hint: /-n NAMESPACE/,
    },
  ])('$name: one error line, exit 2, zero writes', async ({ args, message, hint, reason }) => {
    server.counters.reset();
    const r = await run(['crossplane-rbac', 'enable-xrd', ...args, '--yes']);
    expectOneError(r, message, reason);
    if (hint !== undefined) expect(r.stderr.split('\n')[1]).toMatch(hint);
    expect(server.counters.writes(), reason).toBe(0);
  });

  it('-i without a terminal is refused with exit 2 and never prompts', async () => {
    server.counters.reset();
    for (const args of [['-i'], ['-i', SQL, '-n', 'production']]) {
      // An answer on stdin must not be taken as one: stdin is a pipe, not a terminal.
      const r = await run(['crossplane-rbac', 'enable-xrd', ...args], 'y\n');
      expectOneError(r, /^error: -i\/--interactive needs a terminal/);
      expect(r.stderr).not.toContain('CompositeResourceDefinitions');
      expect(r.stderr).not.toContain('Continue?');
    }
    expect(server.counters.writes()).toBe(0);
    expect(annotations('production')).toStrictEqual({});
  });
});

/** `tmux` on PATH, or undefined. */
const tmuxPath = findOnPath('tmux');
if (tmuxPath === undefined) console.log('skipping the interactive enable-xrd tests: tmux is not on PATH');

const shq = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A tmux server of its own (own socket) running one session: the plugin through kubectl on a real terminal. */
class TerminalSession {
  private readonly socket: string;
  readonly name: string;

  constructor(workDir: string) {
    const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    // A socket of its own per session: a server just told to exit may still hold the previous one.
    this.socket = join(workDir, `tmux-${id}.sock`);
    this.name = `xrbac-${process.pid}-${id}`;
  }

  tmux(args: string[]): Promise<RunResult> {
    const env = { ...process.env };
    delete env.TMUX;
    return new Promise((done) => {
      execFile(
        tmuxPath ?? 'tmux',
        ['-S', this.socket, '-f', '/dev/null', ...args],
        { env, timeout: 15_000 },
        (err, stdout, stderr) => {
          done({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
        },
      );
    });
  }

  /** Runs `kubectl ARGS` in the environment the harness uses (plugin dir first on PATH, empty HOME, NO_COLOR). */
  async start(workDir: string, args: readonly string[]): Promise<void> {
    const home = join(workDir, 'home');
    mkdirSync(home, { recursive: true });
    const script = join(workDir, 'run.sh');
    const env = [
      `PATH=${shq(`${binDir}:${process.env.PATH ?? ''}`)}`,
      `HOME=${shq(home)}`,
      'NO_COLOR=1',
      `KUBECONFIG=${shq(kubeconfig)}`,
      'TERM="${TERM:-screen}"',
    ].join(' ');
    writeFileSync(
      script,
      [
        `env -i ${env} kubectl ${args.map(shq).join(' ')}`,
        'echo "EXIT=$?"',
        // Keep the pane (and its text) until the test kills the session.
        'sleep 600',
        '',
      ].join('\n'),
    );
    const r = await this.tmux([
      'new-session',
      '-d',
      '-s',
      this.name,
      '-x',
      '200',
      '-y',
      '50',
      `sh ${shq(script)}`,
    ]);
    if (r.code !== 0) throw new Error(`tmux new-session failed: ${r.stderr}`);
  }

  async screen(): Promise<string> {
    const r = await this.tmux(['capture-pane', '-p', '-J', '-t', this.name]);
    if (r.code !== 0) throw new Error(`tmux capture-pane failed: ${r.stderr}`);
    return r.stdout;
  }

  async keys(...keys: string[]): Promise<void> {
    const r = await this.tmux(['send-keys', '-t', this.name, ...keys]);
    if (r.code !== 0) throw new Error(`tmux send-keys failed: ${r.stderr}`);
  }

  /** Polls the screen until OK says so; fails with the screen's text after TIMEOUTMS. */
  async waitFor(what: string, ok: (screen: string) => boolean, timeoutMs = 30_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let text = await this.screen();
    while (!ok(text)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen shows:\n${text}`);
      await sleep(100);
      text = await this.screen();
    }
    return text;
  }

  /** In the checkbox prompt asking MESSAGE, moves the cursor to the choice LABEL, ticks it, and submits. */
  async tick(message: string, label: string): Promise<void> {
    await this.waitFor(
      `the prompt "${message}"`,
      (s) => s.includes(`? ${message}`) && cursorChoice(s) !== undefined,
    );
    for (let moves = 0; ; moves++) {
      const text = await this.screen();
      const at = cursorChoice(text);
      if (at === label) break;
      if (moves > 60)
        throw new Error(`"${label}" is not a choice of "${message}"; the screen shows:\n${text}`);
      await this.keys('Down');
      await this.waitFor(`the cursor to leave ${String(at)}`, (s) => cursorChoice(s) !== at);
    }
    const unticked = cursorLine(await this.screen());
    await this.keys('Space');
    await this.waitFor(`"${label}" to be ticked`, (s) => cursorLine(s) !== unticked);
    await this.keys('Enter');
    await this.waitFor(`the answer to "${message}"`, (s) =>
      s.split('\n').some((l) => l.startsWith('✔') && l.includes(message) && l.includes(label)),
    );
  }

  async kill(): Promise<void> {
    await this.tmux(['kill-server']);
  }
}

/** The line of the active checkbox that carries the cursor (❯), or undefined. */
function cursorLine(screen: string): string | undefined {
  return screen
    .split('\n')
    .filter((l) => /^[❯>]/.test(l))
    .at(-1);
}

/** The name of the choice under the cursor: `❯◯ payments (enables …)` → `payments`. */
function cursorChoice(screen: string): string | undefined {
  return /^[❯>][^a-z0-9]*([a-z0-9][a-z0-9.-]*)/.exec(cursorLine(screen) ?? '')?.[1];
}

describe.skipIf(tmuxPath === undefined)('enable-xrd -i on a terminal (tmux)', () => {
  let term: TerminalSession | undefined;
  let termDir: string;

  beforeAll(() => {
    termDir = tempDir('xrbac-e2e-tmux-');
  });
  afterAll(async () => {
    await term?.kill();
    rmSync(termDir, { recursive: true, force: true });
  });

  it('chooses an XRD and a namespace from lists, previews, confirms, and writes the annotation', async () => {
    expect(annotations('team-a')[annotationOf(MYSQL)]).toBeUndefined();
    const before = annotations('team-a');
    term = new TerminalSession(termDir);
    try {
      await term.start(termDir, ['crossplane-rbac', 'enable-xrd', '-i']);
      await term.tick('CompositeResourceDefinitions', MYSQL);
      await term.tick('Namespaces', 'team-a');

      const preview = await term.waitFor('the confirmation', (s) => /Continue\? \(y\/N\)/.test(s));
      expect(preview).toMatch(/^KIND\s+TO CREATE\s+TO UPDATE\s+UNCHANGED\s+TO DELETE\s+REFUSED\s+FAILED$/m);
      expect(preview).toMatch(/^Namespace\s+0\s+1\s+0\s+0\s+0\s+0$/m);
      // Nothing is written before the answer.
      expect(annotations('team-a')).toStrictEqual(before);

      await term.keys('y');
      await term.keys('Enter');
      const done = await term.waitFor('the command to exit', (s) => /^EXIT=\d+$/m.test(s));
      expect(done).toMatch(/^EXIT=0$/m);
      expect(done).toMatch(/^KIND\s+CREATED\s+UPDATED\s+UNCHANGED\s+DELETED\s+REFUSED\s+FAILED$/m);
      expect(done).toMatch(/^Namespace\s+0\s+1\s+0\s+0\s+0\s+0$/m);

      expect(annotations('team-a')).toStrictEqual({ ...before, [annotationOf(MYSQL)]: ACCEPTED });
      expect(server.get('clusterroles', 'crossplane-ns-team-a-edit')).toBeDefined();
    } finally {
      await term.kill();
      term = undefined;
    }
  });

  it('declining the confirmation writes nothing and exits 2', async () => {
    term = new TerminalSession(termDir);
    try {
      server.counters.reset();
      await term.start(termDir, ['crossplane-rbac', 'enable-xrd', '-i', SQL, '-n', 'team-a']);
      await term.waitFor('the confirmation', (s) => /Continue\? \(y\/N\)/.test(s));
      await term.keys('n');
      await term.keys('Enter');
      const done = await term.waitFor('the command to exit', (s) => /^EXIT=\d+$/m.test(s));
      expect(done).toMatch(/^EXIT=2$/m);
      expect(done).toMatch(/^error: aborted: nothing was written$/m);
      expect(server.counters.writes()).toBe(0);
      expect(annotations('team-a')[annotationOf(SQL)]).toBeUndefined();
    } finally {
      await term.kill();
      term = undefined;
    }
  });
});
