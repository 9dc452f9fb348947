// The built binary through real kubectl: output names, User-Agent, -v request logs, kubectl's plugin completion
// and a terminal with no width. kubectl itself, on the same server, is the reference for each shape.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeedFiles } from '../apiserver/seed.js';
import { ADMIN_TOKEN, startApiServer, type TestApiServer } from '../apiserver/server.js';
import { TEST_CERT } from '../apiserver/tls.js';
import { startRecorder, type Recorder, type RecorderOptions } from '../support/net-servers.js';
import { assertBuilt, binDir, kubectl, repoRoot, tempDir, type RunResult } from './harness.js';

let server: TestApiServer;
let kubeconfig: string;

beforeAll(async () => {
  assertBuilt();
  server = await startApiServer({ seed: loadSeedFiles([join(repoRoot, 'examples', 'cluster')]) });
  kubeconfig = join(tempDir('xrbac-e2e-conn-'), 'kubeconfig');
  server.writeKubeconfig(kubeconfig);
});

afterAll(async () => {
  await server.stop();
});

const run = (args: string[], env: Record<string, string> = {}): Promise<RunResult> =>
  kubectl(args, { env: { KUBECONFIG: kubeconfig, ...env } });

const linesOf = (text: string): string[] => text.split('\n').filter((l) => l !== '');

describe('-o name', () => {
  it("prints kubectl's TYPE.GROUP/NAME lines: kubectl get reads back exactly the same lines", async () => {
    const fresh = await startApiServer({ seed: loadSeedFiles([join(repoRoot, 'examples', 'cluster')]) });
    try {
      const config = join(tempDir(), 'kubeconfig');
      fresh.writeKubeconfig(config);
      const synced = await kubectl(['crossplane-rbac', 'sync', '--yes', '-o', 'name'], {
        env: { KUBECONFIG: config },
      });
      expect(synced.stderr).toBe('');
      const written = linesOf(synced.stdout);
      expect(written.length).toBeGreaterThan(5);
      // A few of each type: kubectl reads each name with its own request, throttled on the client side.
      const names = [...new Set(written.map((n) => n.split('/')[0]))].flatMap((type) =>
        written.filter((n) => n.startsWith(`${type ?? ''}/`)).slice(0, 4),
      );
      const got = await kubectl(['get', ...names, '-o', 'name'], { env: { KUBECONFIG: config } });
      expect(got.stderr).toBe('');
      expect(linesOf(got.stdout)).toStrictEqual(names);
    } finally {
      await fresh.stop();
    }
  });
});

describe('discovery', () => {
  it("sends kubectl's discovery requests, aggregated or legacy as the server answers, and finds the same resources", async () => {
    const legacy = await startApiServer({
      seed: loadSeedFiles([join(repoRoot, 'examples', 'cluster')]),
      aggregatedDiscovery: false,
    });
    const fronts = await Promise.all(
      [server, legacy].map((s) =>
        startRecorder({ tls: true, forwardTo: { url: s.url, token: ADMIN_TOKEN } }),
      ),
    );
    try {
      const dir = tempDir();
      writeFileSync(join(dir, 'ca.crt'), TEST_CERT);
      const outputs: string[] = [];
      for (const front of fronts) {
        const flags = ['--server', front.url, '--certificate-authority', join(dir, 'ca.crt'), '--token', 't'];
        // Each discovery request: its path and Accept header, in a stable order.
        const discovery = (): string[] =>
          front.requests
            .splice(0)
            .map((r) => ({ path: new URL(r.url, 'https://x').pathname, accept: r.headers.accept?.[0] ?? '' }))
            .filter((r) => /^\/apis?(\/[^/]+){0,2}$/.test(r.path) && !r.path.startsWith('/api/v1/'))
            .map((r) => `${r.path} ${r.accept}`)
            .sort();
        const ref = await kubectl(['api-resources', '-o', 'name', '--cache-dir', tempDir(), ...flags]);
        expect(ref.code, ref.stderr).toBe(0);
        const theirs = discovery();
        const ours = await kubectl([
          'crossplane-rbac',
          'who-can',
          'update',
          'deployments.apps/scale',
          ...flags,
        ]);
        expect(ours.code, ours.stderr).toBe(0);
        expect(discovery()).toStrictEqual(theirs);
        outputs.push(ours.stdout);
      }
      expect(outputs[0]).toBe(outputs[1]);
      expect(outputs[0]).toMatch(/^system:masters\s+Group\s/m);
    } finally {
      await Promise.all(fronts.map((f) => f.close()));
      await legacy.stop();
    }
  });

  it('is two requests against a server with aggregated discovery, where the legacy lists take one per group version', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ca.crt'), TEST_CERT);
    const front = await startRecorder({ tls: true, forwardTo: { url: server.url, token: ADMIN_TOKEN } });
    try {
      const flags = ['--server', front.url, '--certificate-authority', join(dir, 'ca.crt'), '--token', 't'];
      const r = await kubectl([
        'crossplane-rbac',
        'who-can',
        'get',
        'compositeresourcedefinitions',
        ...flags,
      ]);
      expect(r.code, r.stderr).toBe(0);
      const paths = front.requests.map((q) => new URL(q.url, 'https://x').pathname);
      expect(
        paths.filter((p) => /^\/apis?(\/[^/]+){0,2}$/.test(p) && !p.startsWith('/api/v1/')),
      ).toStrictEqual(expect.arrayContaining(['/api', '/apis']));
      expect(paths.filter((p) => /^\/apis?(\/[^/]+){0,2}$/.test(p))).toHaveLength(2);
    } finally {
      await front.close();
    }
  });
});

describe('discovery faults', () => {
  const path = (req: { url?: string | undefined }): string => new URL(req.url ?? '', 'https://x').pathname;
  async function through(
    intercept: NonNullable<RecorderOptions['intercept']>,
    args: string[],
  ): Promise<RunResult> {
    const front = await startRecorder({
      tls: true,
      forwardTo: { url: server.url, token: ADMIN_TOKEN },
      intercept,
    });
    try {
      const dir = tempDir();
      writeFileSync(join(dir, 'ca.crt'), TEST_CERT);
      const flags = ['--server', front.url, '--certificate-authority', join(dir, 'ca.crt'), '--token', 't'];
      return await kubectl([...args, ...flags], { env: { KUBECACHEDIR: tempDir() } });
    } finally {
      await front.close();
    }
  }

  it('works where kubectl works when /api answers 404 (client-go reads that as a server without the core group)', async () => {
    const notFound = (req: { url?: string | undefined }) =>
      path(req) === '/api'
        ? { status: 404, headers: { 'content-type': 'text/plain' }, body: '404 page not found' }
        : undefined;
    const theirs = await through(notFound, ['auth', 'can-i', 'get', 'compositeresourcedefinitions']);
    expect(theirs.code, theirs.stderr).toBe(0);
    const ours = await through(notFound, [
      'crossplane-rbac',
      'who-can',
      'get',
      'compositeresourcedefinitions',
    ]);
    expect(ours.code, ours.stderr).toBe(0);
    expect(ours.stdout).toMatch(/^system:masters\s+Group\s/m);
  });

  it('names the failure in one line when /apis answers 500, exit 2', async () => {
    const failing = (req: { url?: string | undefined }) =>
      path(req) === '/apis'
        ? {
            status: 500,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              kind: 'Status',
              apiVersion: 'v1',
              status: 'Failure',
              message: 'etcdserver: request timed out',
              code: 500,
            }),
          }
        : undefined;
    const ours = await through(failing, [
      'crossplane-rbac',
      'who-can',
      'get',
      'compositeresourcedefinitions',
    ]);
    expect(ours.code).toBe(2);
    expect(ours.stdout).toBe('');
    expect(ours.stderr.split('\n')[0]).toBe(
      "error: HTTP 500 while discovering the server's resources: etcdserver: request timed out",
    );
  });
});

describe('User-Agent', () => {
  let front: Recorder;
  beforeAll(async () => {
    front = await startRecorder({ tls: true, forwardTo: { url: server.url, token: ADMIN_TOKEN } });
  });
  afterAll(async () => {
    await front.close();
  });

  it('is kubectl-crossplane-rbac/VERSION (OS/ARCH), the shape of kubectl/VERSION (OS/ARCH)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ca.crt'), TEST_CERT);
    const flags = ['--server', front.url, '--certificate-authority', join(dir, 'ca.crt'), '--token', 't'];
    const ref = await kubectl(['get', 'clusterrole', 'crossplane-edit', '-o', 'name', ...flags]);
    expect(ref.stderr).toBe('');
    const kubectlAgents = new Set(front.requests.splice(0).map((r) => r.headers['user-agent']?.[0] ?? ''));
    const r = await kubectl(['crossplane-rbac', 'explain', 'crossplane-edit', ...flags]);
    expect(r.stderr).toBe('');
    const agents = new Set(front.requests.splice(0).map((r) => r.headers['user-agent']?.[0] ?? ''));

    const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string })
      .version;
    const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string] ?? process.arch;
    expect([...agents]).toStrictEqual([`kubectl-crossplane-rbac/v${version} (${process.platform}/${arch})`]);
    const shape = /^[\w-]+\/v\d+\.\d+\.\d+\S* \((\w+)\/(\w+)\)/;
    const kubectlAgent = [...kubectlAgents].find((a) => a.startsWith('kubectl/')) ?? '';
    expect(kubectlAgent).toMatch(shape);
    expect(shape.exec([...agents][0] ?? '')?.slice(1)).toStrictEqual(shape.exec(kubectlAgent)?.slice(1));
  });
});

describe('-v request logs', () => {
  // klog's header, then kubectl's request line: VERB URL STATUS in N milliseconds.
  const KLOG = String.raw`I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ [^\]]+\] `;
  const REQUEST_LINE = new RegExp(
    String.raw`^${KLOG}(GET|POST|PUT|PATCH|DELETE) (https://[^\s#]+) (\d{3} [A-Za-z ]+) in \d+ milliseconds$`,
  );

  it('-v=6 prints one line per request in the shape of kubectl -v=6', async () => {
    const ref = await run(['get', 'clusterrole', 'crossplane-edit', '-o', 'name', '-v=6']);
    const refLines = linesOf(ref.stderr).filter((l) => l.includes(' milliseconds'));
    expect(refLines.length).toBeGreaterThan(0);
    for (const line of refLines) expect(line).toMatch(REQUEST_LINE);

    server.counters.reset();
    const r = await run(['crossplane-rbac', 'explain', 'crossplane-edit', '-v=6']);
    expect(r.code, r.stderr).toBe(0);
    const lines = linesOf(r.stderr);
    expect(lines).toHaveLength(server.counters.total());
    for (const line of lines) expect(line).toMatch(REQUEST_LINE);
    expect(lines.map((l) => REQUEST_LINE.exec(l)?.[3])).toStrictEqual(lines.map(() => '200 OK'));
  });

  it('-v=8 shows headers and bodies cut at 1 KiB, never the bearer token (kubectl masks it too)', async () => {
    const ref = await run(['get', 'clusterrole', 'crossplane-edit', '-o', 'name', '-v=8']);
    expect(ref.stderr).not.toContain(ADMIN_TOKEN);
    expect(ref.stderr).toMatch(/Authorization: Bearer <masked>/);

    const r = await run(['crossplane-rbac', 'explain', 'crossplane-edit', '-v=8']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain(ADMIN_TOKEN);
    expect(r.stderr).toMatch(/Authorization: Bearer <masked>/);
    const bodies = linesOf(r.stderr).filter((l) => / Response Body: /.test(l));
    expect(bodies.length).toBeGreaterThan(0);
    for (const line of bodies)
      expect(
        line.split(' Response Body: ')[1]?.replace(/ \[truncated \d+ chars\]$/, '').length,
      ).toBeLessThanOrEqual(1024);
    expect(bodies.some((l) => / \[truncated \d+ chars\]$/.test(l))).toBe(true);
    // Header names as kubectl prints them, Go's http.Header keys (textproto.CanonicalMIMEHeaderKey), and only those
    // kubectl shows: not what Go's transport handles below its log (the request's Accept-Encoding and
    // Content-Length, an unzipped answer's Content-Encoding and Content-Length). The same server's answers, so the
    // same names.
    const headerNames = (stderr: string, block: 'Request' | 'Response'): Set<string> => {
      const names = new Set<string>();
      let inBlock = false;
      for (const l of linesOf(stderr)) {
        if (l.endsWith(`] ${block} Headers:`)) inBlock = true;
        else if (!/\] {5}[^ ]/.test(l)) inBlock = false;
        else if (inBlock) names.add(/\] {5}([^:]+):/.exec(l)?.[1] ?? '');
      }
      return names;
    };
    for (const block of ['Request', 'Response'] as const) {
      const kubectlNames = headerNames(ref.stderr, block);
      expect(kubectlNames).toContain(block === 'Request' ? 'Accept' : 'Content-Type');
      const ours = [...headerNames(r.stderr, block)];
      expect(ours.length).toBeGreaterThan(0);
      expect(
        ours.filter((n) => !kubectlNames.has(n)),
        block,
      ).toStrictEqual([]);
    }
  });

  it('-v abc is one usage error, as in kubectl', async () => {
    const ref = await run(['get', 'clusterroles', '-v', 'abc']);
    expect(ref.code).not.toBe(0);
    expect(linesOf(ref.stderr)[0]).toMatch(/^Error: invalid argument "abc" for "-v, --v" flag/);
    expect(linesOf(ref.stderr).filter((l) => /^error:/i.test(l))).toHaveLength(1);

    const r = await run(['crossplane-rbac', 'explain', 'crossplane-edit', '-v', 'abc']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(linesOf(r.stderr)[0]).toMatch(/^error: invalid -v "abc"/);
    expect(linesOf(r.stderr).filter((l) => l.startsWith('error:'))).toHaveLength(1);
  });
});

describe("kubectl's plugin completion", () => {
  /** `kubectl __complete crossplane-rbac WORDS...` with the completion script on PATH, as its comment says. */
  async function complete(words: string[]): Promise<{ items: string[]; directive: string }> {
    const script = await kubectl(['crossplane-rbac', 'completion', 'kubectl']);
    expect(script.code, script.stderr).toBe(0);
    const dir = tempDir('xrbac-e2e-complete-');
    mkdirSync(join(dir, 'bin'));
    const file = join(dir, 'bin', 'kubectl_complete-crossplane_rbac');
    writeFileSync(file, script.stdout);
    chmodSync(file, 0o755);
    const r = await kubectl(['__complete', 'crossplane-rbac', ...words], {
      env: { PATH: `${join(dir, 'bin')}:${binDir}:${process.env.PATH ?? ''}`, KUBECONFIG: kubeconfig },
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = linesOf(r.stdout);
    return { items: lines.slice(0, -1), directive: lines.at(-1) ?? '' };
  }

  it('completes the flags of sync: --pr gives --prune and --provider', async () => {
    const { items } = await complete(['sync', '--pr']);
    expect(items).toEqual(expect.arrayContaining(['--prune', '--provider']));
    for (const item of items) expect(item).toMatch(/^--pr/);
  });

  it('lists no one-letter long flags (--n, --o, --v)', async () => {
    const { items } = await complete(['sync', '--']);
    expect(items).toEqual(expect.arrayContaining(['--namespace', '--output', '--kubeconfig']));
    expect(items.filter((i) => /^--\w$/.test(i))).toEqual([]);
  });

  /** What kubectl itself lists: `kubectl ARGS -o name`, without the TYPE/ prefixes. */
  async function kubectlNames(args: string[]): Promise<string[]> {
    const r = await run([...args, '-o', 'name']);
    expect(r.code, r.stderr).toBe(0);
    return linesOf(r.stdout)
      .map((l) => l.slice(l.indexOf('/') + 1))
      .sort();
  }

  it('explain ROLE: the ClusterRoles kubectl get lists, read from the cluster the flags select', async () => {
    const { items, directive } = await complete(['explain', '']);
    expect(items).toStrictEqual(await kubectlNames(['get', 'clusterroles']));
    expect(directive).toBe(':4');
    const prefixed = await complete(['explain', 'crossplane-e']);
    expect(prefixed.items).toStrictEqual(items.filter((n) => n.startsWith('crossplane-e')));
    // With --subject there is no role to name.
    expect((await complete(['explain', '--subject', 'User:alice', ''])).items).toStrictEqual([]);
  });

  it('-n: the namespaces kubectl get lists; --context: the contexts kubectl config lists', async () => {
    expect((await complete(['who-can', 'get', 'pods', '-n', ''])).items).toStrictEqual(
      await kubectlNames(['get', 'namespaces']),
    );
    expect((await complete(['lookup', '--context', ''])).items).toStrictEqual(
      await kubectlNames(['config', 'get-contexts']),
    );
  });

  it('who-can: verbs, then every resource kubectl api-resources lists (and the XRDs and providers read)', async () => {
    expect((await complete(['who-can', 'de'])).items).toStrictEqual(['delete', 'deletecollection']);
    const { items } = await complete(['who-can', 'get', '']);
    const served = await run(['api-resources', '-o', 'name']);
    expect(served.code, served.stderr).toBe(0);
    const missing = linesOf(served.stdout).filter((r) => !items.includes(r));
    expect(missing).toStrictEqual([]);
  });

  it("-o: the command's own formats, as its --help lists them (explain: the formats of the mode the line names)", async () => {
    for (const command of ['who-can', 'explain', 'sync', 'lookup', 'version']) {
      const help = await run(['crossplane-rbac', command, '--help']);
      const line = /Output format: ([^\s(]+)(?: \(([^)]*)\))?/.exec(help.stdout.replace(/\s+/g, ' '));
      expect(line, command).not.toBeNull();
      expect((await complete([command, '-o', ''])).items, command).toStrictEqual(
        (line?.[1] ?? '').split('|'),
      );
      // explain: each mode's own formats, as "with --subject: ..." and "with --matrix: ..." list them.
      for (const [, flag, formats] of (line?.[2] ?? '').matchAll(/with --([a-z]+): ([a-z|]+)/g)) {
        const mode = flag === 'matrix' ? ['--subject', 'User:x', '--matrix'] : [`--${flag ?? ''}`, 'User:x'];
        const { items } = await complete([command, ...mode, '-o', '']);
        expect(items, `${command} --${flag ?? ''}`).toStrictEqual((formats ?? '').split('|'));
      }
    }
  });

  /** What SHELL offers for LINE once the plugin's own completion script for it is loaded. */
  async function shellCompletes(shell: 'bash' | 'fish', line: string): Promise<string[]> {
    const script = await kubectl(['crossplane-rbac', 'completion', shell]);
    expect(script.code, script.stderr).toBe(0);
    const file = join(tempDir('xrbac-e2e-shell-'), `completion.${shell}`);
    writeFileSync(file, script.stdout);
    const words = line.split(' ');
    const command =
      shell === 'fish'
        ? `source ${file}; complete -C '${line}'`
        : `source ${file}; COMP_WORDS=(${words.join(' ')}); COMP_CWORD=${String(words.length - 1)}; _kubectl_crossplane_rbac_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return new Promise((resolve, reject) => {
      execFile(
        shell,
        ['-c', command],
        { env: { PATH: `${binDir}:${process.env.PATH ?? ''}`, KUBECONFIG: kubeconfig, HOME: tempDir() } },
        (err, stdout) => {
          if (err !== null) reject(new Error(`${shell} -c failed: ${err.message}`));
          else resolve(linesOf(stdout).map((l) => l.split('\t')[0] ?? ''));
        },
      );
    });
  }

  it('bash: the script completes verbs and ClusterRoles through the binary', async () => {
    expect(await shellCompletes('bash', 'kubectl-crossplane_rbac who-can de')).toStrictEqual([
      'delete',
      'deletecollection',
    ]);
    expect(await shellCompletes('bash', 'kubectl-crossplane_rbac explain crossplane-ed')).toStrictEqual([
      'crossplane-edit',
    ]);
  });

  it.skipIf(!['/usr/bin/fish', '/usr/local/bin/fish', '/opt/homebrew/bin/fish'].some(existsSync))(
    'fish (where installed): the script completes verbs and ClusterRoles through the binary',
    async () => {
      expect(await shellCompletes('fish', 'kubectl-crossplane_rbac who-can de')).toStrictEqual([
        'delete',
        'deletecollection',
      ]);
      expect(await shellCompletes('fish', 'kubectl-crossplane_rbac explain crossplane-ed')).toStrictEqual([
        'crossplane-edit',
      ]);
    },
  );

  it('lists the commands for an empty word', async () => {
    const { items } = await complete(['']);
    expect(items).toEqual(
      expect.arrayContaining(['sync', 'enable-xrd', 'explain', 'bind', 'version', 'completion']),
    );
  });
});

describe.skipIf(!existsSync('/usr/bin/script'))('a terminal that reports no width (run under script)', () => {
  /** Runs COMMAND in a pseudo-terminal of the given width, with `script`; resolves with its output and time. */
  function inTerminal(
    columns: number,
    command: string,
  ): Promise<{ code: number; output: string; ms: number }> {
    const started = Date.now();
    return new Promise((resolve) => {
      execFile(
        'script',
        ['-qec', `stty cols ${String(columns)} rows 24; ${command}`, '/dev/null'],
        {
          env: {
            PATH: `${binDir}:${process.env.PATH ?? ''}`,
            HOME: tempDir(),
            KUBECONFIG: kubeconfig,
            TERM: 'xterm',
          },
          timeout: 30_000,
        },
        (err, stdout) => {
          resolve({
            code: err === null ? 0 : typeof err.code === 'number' ? err.code : 124,
            output: stdout,
            ms: Date.now() - started,
          });
        },
      );
    });
  }

  const sync = 'kubectl crossplane-rbac sync --dry-run=server --yes';

  it('with 80 columns, the progress spinner is shown (the control)', async () => {
    const r = await inTerminal(80, sync);
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(/applying 0\/\d+/);
  });

  it('a read names what it lists, with the counts kubectl get finds, and nothing of it reaches a pipe', async () => {
    // Each request takes 150 ms, so the spinner draws a frame (every 80 ms) while the LISTs are out.
    server.faults.latencyMs = 150;
    let r: Awaited<ReturnType<typeof inTerminal>>;
    try {
      // --converged lists every ClusterRole, as the counts below expect.
      r = await inTerminal(120, 'kubectl crossplane-rbac who-can get configmaps -A --converged');
    } finally {
      server.faults.latencyMs = 0;
    }
    expect(r.code, r.output).toBe(0);
    const counted = async (resource: string): Promise<string> =>
      linesOf((await run(['get', resource, '-A', '--no-headers'])).stdout).length.toLocaleString('en-US');
    expect(r.output).toContain(`ClusterRoles: ${await counted('clusterroles')}`);
    expect(r.output).toContain(`ClusterRoleBindings: ${await counted('clusterrolebindings')}`);
    const piped = await run(['crossplane-rbac', 'who-can', 'get', 'configmaps', '-A', '--converged']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toBe('');
  });

  it('with 0 columns, the command completes without a spinner', async () => {
    const r = await inTerminal(0, sync);
    expect(r.code, r.output).toBe(0);
    expect(r.ms).toBeLessThan(20_000);
    expect(r.output).toMatch(/^ClusterRole\s+\d+/m);
  });
});
