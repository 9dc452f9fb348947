/**
 * One resource syntax and one verb check in every command that takes them (explain ROLE --for, explain --subject
 * --for, who-can; the matrix takes neither), live through the real kubectl and offline from examples/cluster. Each
 * form kubectl takes (plural, singular, kind, short name, plural.group, plural.version.group, /subresource) and the
 * GROUP/RESOURCE alias must resolve to the request kubectl itself sends, and be answered as `kubectl auth can-i`
 * answers it for a user bound to crossplane-edit (the test API server's authorizer, which shares no code with the
 * plugin). A name nothing serves is an error with the closest names, never "not allowed". An unknown verb gets
 * kubectl's own warning line, taken from kubectl's stderr for the same request.
 *
 * The live questions run the built plugin through kubectl; the offline ones (-f) run it in-process (runPlugin): they
 * differ from the live ones only in where the catalogue is read, which is the same JavaScript in the binary, and
 * kubectl's answers they are held to are asked of the real kubectl all the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { runPlugin } from '../integration/harness.js';
import { assertBuilt, discoveryCache, kubectl, repoRoot, tempDir, type RunResult } from './harness.js';

const PROBE = 'xrbac-probe-edit'; // bound to crossplane-edit and nothing else
const EXAMPLES = join(repoRoot, 'examples', 'cluster');

let server: TestApiServer;
let kubeconfig: string;
let bindingDir: string;

const run = (args: readonly string[], input?: string): Promise<RunResult> =>
  kubectl(args, {
    env: { KUBECONFIG: kubeconfig, KUBECACHEDIR: discoveryCache(kubeconfig) },
    ...(input !== undefined ? { input } : {}),
  });

const BINDING = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name: PROBE },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'crossplane-edit' },
  subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: PROBE }],
};

beforeAll(async () => {
  assertBuilt();
  server = await startApiServer({ seed: loadSeedFiles([EXAMPLES]) });
  const dir = tempDir('xrbac-e2e-syntax-');
  kubeconfig = join(dir, 'kubeconfig');
  server.writeKubeconfig(kubeconfig);
  const r = await run(['apply', '-f', '-'], JSON.stringify(BINDING));
  expect(r.code, r.stderr).toBe(0);
  bindingDir = tempDir('xrbac-e2e-syntax-binding-');
  writeFileSync(join(bindingDir, 'binding.json'), JSON.stringify(BINDING));
}, 60_000);

afterAll(async () => {
  await server.stop();
});

interface Request {
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
}

/** The request kubectl sends for REQ, as `kubectl auth can-i VERB plural.group [--subresource S] --as PROBE` asks it. */
async function kubectlSays(verb: string, req: Request): Promise<{ allowed: boolean; warning: string }> {
  const key = JSON.stringify([verb, req]);
  const known = answers.get(key);
  if (known !== undefined) return known;
  const name = req.group === '' ? req.resource : `${req.resource}.${req.group}`;
  const sub = req.subresource !== undefined ? [`--subresource=${req.subresource}`] : [];
  // Not -A: kubectl checks the verb only for a request in a namespace (cani.go Validate).
  const r = await run(['auth', 'can-i', verb, name, ...sub, '--as', PROBE, '-n', 'default']);
  expect([0, 1], r.stderr).toContain(r.code);
  const warning = r.stderr.split('\n').find((l) => l.includes('verb')) ?? '';
  const answer = { allowed: r.code === 0, warning };
  answers.set(key, answer);
  return answer;
}
const answers = new Map<string, { allowed: boolean; warning: string }>();

const source = (live: boolean): string[] => (live ? [] : ['-f', EXAMPLES, '-f', bindingDir]);

/** The plugin with ARGS: live through kubectl and the built binary, offline (-f FILES) in-process. */
const plugin = (
  args: readonly string[],
  live: boolean,
  files: readonly string[] = source(live),
): Promise<RunResult> =>
  live
    ? run(['crossplane-rbac', ...args])
    : runPlugin([...args, ...files], { env: { KUBECONFIG: kubeconfig } });

interface Answer {
  readonly request: { apiGroup?: string; resource?: string; subresource?: string; path?: string };
  readonly allowed: boolean;
  readonly stderr: string;
}

/** Every command that takes RESOURCE and VERB, asked the same question, each answer as JSON. */
const COMMANDS: Record<string, (resource: string, verb: string, live: boolean) => Promise<Answer>> = {
  'explain ROLE --for': async (resource, verb, live) => {
    const r = await plugin(
      ['explain', 'crossplane-edit', '--for', resource, '--verb', verb, '-o', 'json'],
      live,
    );
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as { access: { request: Answer['request']; allowed: boolean } };
    return { request: j.access.request, allowed: j.access.allowed, stderr: r.stderr };
  },
  'explain --subject --for': async (resource, verb, live) => {
    const r = await plugin(
      ['explain', '--subject', `User:${PROBE}`, '--for', resource, '--verb', verb, '-o', 'json'],
      live,
    );
    expect([0, 1], r.stderr).toContain(r.code);
    const j = JSON.parse(r.stdout) as { access: { request: Answer['request']; allowed: boolean } };
    expect(r.code === 0).toBe(j.access.allowed);
    return { request: j.access.request, allowed: j.access.allowed, stderr: r.stderr };
  },
  'who-can': async (resource, verb, live) => {
    const r = await plugin(['who-can', verb, resource, '-o', 'json'], live);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as {
      request: Answer['request'];
      subjects: { kind: string; name: string }[];
    };
    const allowed = j.subjects.some((s) => s.kind === 'User' && s.name === PROBE);
    return { request: j.request, allowed, stderr: r.stderr };
  },
};

const COMPOSITIONS: Request = { group: 'apiextensions.crossplane.io', resource: 'compositions' };
/** Each form, and the request kubectl resolves it to. */
const FORMS: readonly (readonly [string, Request])[] = [
  ['compositions', COMPOSITIONS],
  ['composition', COMPOSITIONS],
  ['Composition', COMPOSITIONS],
  ['comp', COMPOSITIONS],
  ['compositions.apiextensions.crossplane.io', COMPOSITIONS],
  ['compositions.v1.apiextensions.crossplane.io', COMPOSITIONS],
  ['apiextensions.crossplane.io/compositions', COMPOSITIONS],
  ['pods/log', { group: '', resource: 'pods', subresource: 'log' }],
  ['core/pods/log', { group: '', resource: 'pods', subresource: 'log' }],
  ['deploy/scale', { group: 'apps', resource: 'deployments', subresource: 'scale' }],
  ['deployments.apps', { group: 'apps', resource: 'deployments' }],
  ['apps/deployments', { group: 'apps', resource: 'deployments' }],
  ['deploy', { group: 'apps', resource: 'deployments' }],
];
/** Offline, fewer forms: the resolution is the same code, the catalogue is read from the files. */
const OFFLINE_FORMS = new Set([
  'comp',
  'compositions.v1.apiextensions.crossplane.io',
  'apiextensions.crossplane.io/compositions',
  'core/pods/log',
  'deploy/scale',
]);

describe.each([true, false])('live: %s', (live) => {
  describe.each(Object.keys(COMMANDS))('%s', (command) => {
    const ask = COMMANDS[command] as (typeof COMMANDS)[string];

    it.each(FORMS.filter(([f]) => live || OFFLINE_FORMS.has(f)))(
      '%s is resolved as kubectl resolves it, and answered as kubectl answers',
      async (form, want) => {
        const got = await ask(form, 'create', live);
        expect(got.request).toMatchObject({
          apiGroup: want.group,
          resource: want.resource,
          ...(want.subresource !== undefined ? { subresource: want.subresource } : {}),
        });
        expect(got.request.subresource).toBe(want.subresource);
        expect(got.stderr).toBe('');
        expect(got.allowed, form).toBe((await kubectlSays('create', want)).allowed);
      },
    );

    it.each([
      ['compositons', 'compositions.apiextensions.crossplane.io'],
      ['apiextensions.crossplane.io/compositons', 'compositions.apiextensions.crossplane.io'],
      ['deploymnts.apps', 'deployments.apps'],
    ])('%s names nothing: an error with the closest names, never "not allowed"', async (form, close) => {
      const args =
        command === 'who-can'
          ? ['who-can', 'create', form]
          : command === 'explain ROLE --for'
            ? ['explain', 'crossplane-edit', '--for', form, '--verb', 'create']
            : ['explain', '--subject', `User:${PROBE}`, '--for', form, '--verb', 'create'];
      const r = await plugin(args, live);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.split('\n').filter((l) => l !== '');
      expect(lines[0]).toMatch(/^error: the server doesn't have a resource type "/);
      expect(lines[1]).toContain(`"${close}"`);
      expect(lines).toHaveLength(2);
    });

    it.each(['delet', 'Get'])("the unknown verb %s gets kubectl's own warning line", async (verb) => {
      const got = await ask('compositions', verb, live);
      const k = await kubectlSays(verb, COMPOSITIONS);
      expect(k.warning).toBe(`Warning: verb '${verb}' is not a known verb`);
      expect(got.stderr).toBe(`${k.warning}\n`);
      expect(got.allowed).toBe(k.allowed);
    });

    // Every known verb: test/unit/known-verbs.test.ts; here one kubectl knows and one only Kubernetes does.
    it.each(['deletecollection', 'escalate'])('the verb %s is known: no warning', async (verb) => {
      const got = await ask('compositions', verb, live);
      expect(got.stderr).toBe('');
    });
  });
});

describe("non-resource URLs take kubectl's URL verbs", () => {
  it.each([
    ['get', false],
    ['post', false],
    ['create', true],
  ])('who-can %s /healthz warns: %s, as kubectl does', async (verb, warns) => {
    const r = await run(['crossplane-rbac', 'who-can', verb, '/healthz', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const k = await run(['auth', 'can-i', verb, '/healthz', '--as', PROBE]);
    const want = warns ? `Warning: verb '${verb}' is not a known verb` : '';
    expect(k.stderr.split('\n')[0]).toBe(want);
    expect(r.stderr).toBe(warns ? `${want}\n` : '');
  });
});

describe('the matrix answers every resource and verb', () => {
  it.each([
    ['--for', 'compositions'],
    ['--verb', 'delet'],
  ])('refuses %s', async (flag, value) => {
    const r = await run([
      'crossplane-rbac',
      'explain',
      '--subject',
      `User:${PROBE}`,
      '--matrix',
      flag,
      value,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --matrix answers every resource and verb/);
  });
});

describe('a name several groups serve is the one kubectl picks, the others warned of', () => {
  // Beside examples/cluster's (deployments.apigateway.aws.upbound.io shadowing deployments.apps,
  // secrets.secretsmanager beside the core's, users in three provider groups), two CRDs giving the short name wd,
  // one of them deploy too. Added last: the tests above see examples/cluster alone. The other forms and ties are
  // test/unit/crossplane/resolve-resource-priority.test.ts's table.
  const SHORT_NAMES = [
    ['widgets', 'one.example.org', ['wd']],
    ['gadgets', 'two.example.org', ['wd', 'deploy']],
  ] as const;
  let filesDir: string;
  let cacheDir: string;
  beforeAll(async () => {
    cacheDir = tempDir('xrbac-e2e-syntax-cache-');
    const crds = SHORT_NAMES.map(([plural, group, shortNames]) => ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${plural}.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural, singular: plural.slice(0, -1), kind: 'Thing', shortNames },
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
        ],
      },
    }));
    const r = await run(
      ['apply', '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'List', items: crds }),
    );
    expect(r.code, r.stderr).toBe(0);
    filesDir = tempDir('xrbac-e2e-syntax-crds-');
    writeFileSync(
      join(filesDir, 'crds.json'),
      JSON.stringify({ apiVersion: 'v1', kind: 'List', items: crds }),
    );
  }, 30_000);

  /** The group and resource kubectl auth can-i asks about (its request, echoed in the review it logs at -v=8). */
  async function kubectlPicks(name: string): Promise<{ request: string; shortNameWarnings: string[] }> {
    // A discovery cache of its own: the one of the tests above predates the CRDs added here.
    const r = await kubectl(['auth', 'can-i', 'create', name, '-v=8'], {
      env: { KUBECONFIG: kubeconfig, KUBECACHEDIR: cacheDir },
    });
    const line = (r.stderr.split('\n').find((l) => l.includes('resourceAttributes')) ?? '').replaceAll(
      '\\"',
      '"',
    );
    const m = /"group":"([^"]*)".*?"resource":"([^"]*)"/.exec(line);
    expect(m, r.stderr.slice(-2000)).not.toBeNull();
    const [, group = '', resource = ''] = m ?? [];
    return {
      request: group === '' ? resource : `${resource}.${group}`,
      shortNameWarnings: r.stderr.split('\n').filter((l) => l.startsWith('Warning: short name')),
    };
  }

  it.each([
    ['deployments', ['deployments.apigateway.aws.upbound.io']],
    ['Deployment', ['deployments.apigateway.aws.upbound.io']],
    ['secret', ['secrets.secretsmanager.aws.upbound.io']],
    ['users', ['users.elasticache.aws.upbound.io', 'users.iam.aws.upbound.io']],
    ['users.iam', []],
    ['wd', []],
    ['deploy', []],
  ])('who-can create %s: live and from files, what kubectl asks about', async (name, others) => {
    const k = await kubectlPicks(name);
    // Two groups give each of these short names: kubectl warns of the one it did not pick.
    expect(k.shortNameWarnings).toHaveLength(name === 'wd' || name === 'deploy' ? 1 : 0);
    for (const live of [true, false]) {
      const args = ['who-can', 'create', name, '-o', 'json'];
      const r = await plugin(args, live, live ? [] : [...source(false), '-f', filesDir]);
      expect(r.code, r.stderr).toBe(0);
      const { request } = JSON.parse(r.stdout) as { request: { apiGroup: string; resource: string } };
      const got = request.apiGroup === '' ? request.resource : `${request.resource}.${request.apiGroup}`;
      expect(got, `live: ${live}`).toBe(k.request);
      // kubectl's own line for a short name; ours for each other group serving the name.
      expect(r.stderr.split('\n').filter((l) => l !== '')).toEqual([
        ...k.shortNameWarnings,
        ...others.map(
          (o) =>
            `Warning: resource "${name.toLowerCase()}" could also match lower priority resource ${o} (${got} answered, as kubectl picks it)`,
        ),
      ]);
    }
  });
});
