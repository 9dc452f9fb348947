/**
 * Nobody who can only create an Event, or one kind of composite resource, steers what `sync --only ...,composed`
 * grants Crossplane. Two low-privileged users, set up with real kubectl: eve may only create Events in team-a, and
 * writes one that looks exactly like Crossplane's composite controller reporting the API server's forbidden message
 * for Crossplane's account (about the App team-a/web, from Crossplane's own event source) on nodes,
 * persistentvolumes, daemonsets and rolebindings; xavier may only create Apps in team-a, and makes a paused App
 * (`crossplane.io/paused: "true"`, so Crossplane would never rewrite it) whose `spec.crossplane.resourceRefs` name
 * Pods and PersistentVolumeClaims. The administrator then runs the README's composed sync. The oracle is the test API
 * server's authorizer, asked through `kubectl auth can-i --as` Crossplane's account: what the Compositions compose is
 * granted, what only the forgeries name stays denied, and the run (and an --output-dir render) exits 0.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { assertBuilt, discoveryCache, kubectl, repoRoot, tempDir, type RunResult } from './harness.js';

const CROSSPLANE = 'system:serviceaccount:crossplane-system:crossplane';
const EVE = 'eve';
const XAVIER = 'xavier';
// Crossplane's composite controllers record events through the XRD controller's recorder, named
// "defined/" + strings.ToLower(CompositeResourceDefinitionGroupKind) (crossplane/crossplane
// internal/controller/apiextensions/definition/reconciler.go, Setup, @2d040d2daf4e001799c4154a4a09b9e1f40d7fde).
const XR_EVENT_SOURCE = 'defined/compositeresourcedefinition.apiextensions.crossplane.io';

/** [verb, resource]: asked across all namespaces (kubectl auth can-i -A), as Crossplane composes anywhere. */
type Check = readonly [string, string];
/** What only the forgeries name: never granted. */
const FORGED: readonly Check[] = [
  ['create', 'nodes'],
  ['create', 'persistentvolumes'],
  ['create', 'daemonsets.apps'],
  ['create', 'rolebindings.rbac.authorization.k8s.io'],
  ['create', 'pods'],
  ['create', 'persistentvolumeclaims'],
];
/** What the example's Compositions compose (tenant-namespace, the only privileged one, removed): granted. */
const COMPOSED: readonly Check[] = [
  ['patch', 'cronjobs.batch'],
  ['create', 'jobs.batch'],
  ['patch', 'ingresses.networking.k8s.io'],
];

/** The API server's forbidden message for Crossplane's account (apiserver's forbiddenMessage, as Crossplane wraps it). */
function forbidden(resource: string, group: string, namespace?: string): string {
  const qualified = group === '' ? resource : `${resource}.${group}`;
  const scope = namespace === undefined ? 'at the cluster scope' : `in the namespace "${namespace}"`;
  return `${qualified} "x" is forbidden: User "${CROSSPLANE}" cannot patch resource "${resource}" in API group "${group}" ${scope}`;
}

const forgedEvent = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web.forged', namespace: 'team-a' },
  involvedObject: { apiVersion: 'platform.acme.io/v1alpha1', kind: 'App', name: 'web', namespace: 'team-a' },
  type: 'Warning',
  reason: 'ComposeResources',
  message: `cannot compose resources: ${[
    forbidden('nodes', ''),
    forbidden('persistentvolumes', ''),
    forbidden('daemonsets', 'apps', 'team-a'),
    forbidden('rolebindings', 'rbac.authorization.k8s.io', 'team-a'),
  ].join('; ')}`,
  source: { component: XR_EVENT_SOURCE },
  reportingComponent: XR_EVENT_SOURCE,
  reportingInstance: '',
  count: 1,
};

const forgedApp = {
  apiVersion: 'platform.acme.io/v1alpha1',
  kind: 'App',
  metadata: { name: 'forged', namespace: 'team-a', annotations: { 'crossplane.io/paused': 'true' } },
  spec: {
    crossplane: {
      compositionRef: { name: 'app-web' },
      resourceRefs: [
        { apiVersion: 'v1', kind: 'Pod', name: 'anything' },
        { apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: 'anything' },
      ],
    },
  },
};

let server: TestApiServer;
let dir: string;
let kubeconfig: string;

const run = (args: readonly string[], input?: string): Promise<RunResult> =>
  kubectl(args, {
    env: { KUBECONFIG: kubeconfig, KUBECACHEDIR: discoveryCache(kubeconfig) },
    ...(input !== undefined ? { input } : {}),
  });

async function canI(verb: string, resource: string, as: string, ns: readonly string[]): Promise<boolean> {
  const r = await run(['auth', 'can-i', verb, resource, ...ns, '--as', as]);
  if (r.code !== 0 && r.code !== 1) throw new Error(`kubectl auth can-i failed (${r.code}): ${r.stderr}`);
  return r.code === 0;
}

/** The checks whose answer for Crossplane's account is not WANT, once it is WANT for all (or 10 s pass). */
async function crossplaneWrong(checks: readonly Check[], want: boolean): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const wrong: string[] = [];
    for (const [verb, resource] of checks)
      if ((await canI(verb, resource, CROSSPLANE, ['-A'])) !== want) wrong.push(`${verb} ${resource}`);
    if (wrong.length === 0 || Date.now() > deadline) return wrong;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function ok(args: readonly string[], input?: string): Promise<RunResult> {
  const r = await run(args, input);
  expect(r.code, `kubectl ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r;
}

beforeAll(async () => {
  assertBuilt();
  server = await startApiServer({
    aggregation: true,
    seed: loadSeedFiles([join(repoRoot, 'examples', 'cluster')]),
  });
  dir = tempDir('xrbac-e2e-forgery-');
  kubeconfig = join(dir, 'kubeconfig');
  server.writeKubeconfig(kubeconfig);
  // The example's tenant-namespace composes RoleBindings (privileged: held, exit 2); without it the run is clean.
  await ok(['delete', 'composition', 'tenant-namespace']);
  await ok(['create', 'role', 'event-writer', '-n', 'team-a', '--verb', 'create', '--resource', 'events']);
  await ok(['create', 'rolebinding', 'eve', '-n', 'team-a', '--role', 'event-writer', '--user', EVE]);
  await ok([
    'create',
    'role',
    'app-writer',
    '-n',
    'team-a',
    '--verb',
    'create',
    '--resource',
    'apps.platform.acme.io',
  ]);
  await ok(['create', 'rolebinding', 'xavier', '-n', 'team-a', '--role', 'app-writer', '--user', XAVIER]);
});

afterAll(async () => {
  await server.stop();
});

describe('forged Events and resourceRefs never steer a composed grant', () => {
  it('each user may write only their forgery', async () => {
    const inTeamA = ['-n', 'team-a'];
    expect(await canI('create', 'events', EVE, inTeamA)).toBe(true);
    expect(await canI('create', 'events', EVE, ['-n', 'team-b'])).toBe(false);
    expect(await canI('create', 'apps.platform.acme.io', EVE, inTeamA)).toBe(false);
    expect(await canI('create', 'apps.platform.acme.io', XAVIER, inTeamA)).toBe(true);
    expect(await canI('create', 'events', XAVIER, inTeamA)).toBe(false);
    for (const who of [EVE, XAVIER]) {
      expect(await canI('create', 'compositions.apiextensions.crossplane.io', who, [])).toBe(false);
      expect(await canI('create', 'watchoperations.ops.crossplane.io', who, [])).toBe(false);
    }
    await ok(['create', '-f', '-', '--as', EVE], JSON.stringify(forgedEvent));
    await ok(['create', '-f', '-', '--as', XAVIER], JSON.stringify(forgedApp));
    // Before the sync, Crossplane's account may do none of it.
    expect(await crossplaneWrong([...FORGED, ...COMPOSED], false)).toEqual([]);
  });

  it("the README's composed sync grants what Compositions compose, nothing the forgeries name, and exits 0", async () => {
    const r = await run([
      'crossplane-rbac',
      'sync',
      '--only',
      'providers,composites,namespaces,base,composed',
      '--yes',
    ]);
    // The composed roles reach the account (aggregation has run) ...
    expect(await crossplaneWrong(COMPOSED, true)).toEqual([]);
    // ... and none of them grants what only the forgeries name.
    expect(await crossplaneWrong(FORGED, false)).toEqual([]);
    // Nothing the forgeries name holds the run.
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/^held /m);
    // The report still shows the forgeries as evidence, reported only.
    expect(r.stderr).toMatch(/^ {2}reported-only nodes \[lacks [^\]]+\]: an Event about App\/team-a\/web/m);
    expect(r.stderr).toMatch(
      /^ {2}reported-only pods \[lacks [^\]]+\]: App\/team-a\/forged \(composed anything\)/m,
    );
  });

  it('composed -o json lists the forged kinds as reported-only, with the forgery that names each', async () => {
    const r = await run(['crossplane-rbac', 'composed', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const view = JSON.parse(r.stdout) as {
      resources: { resource: string; status: string; role?: string; neededBy: { source: string }[] }[];
    };
    for (const [, resource] of FORGED) {
      const row = view.resources.find((x) => x.resource === resource);
      expect(row, resource).toMatchObject({ status: 'reported-only' });
      expect(row?.role, resource).toBeUndefined();
      expect(row?.neededBy.every((e) => e.source === 'Denial' || e.source === 'Composite')).toBe(true);
    }
  });

  it('an --output-dir render exits 0 and writes no rule for a forged kind', async () => {
    const out = join(dir, 'render');
    const r = await run([
      'crossplane-rbac',
      'sync',
      '--only',
      'providers,composites,namespaces,base,composed',
      '--output-dir',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const composed = readdirSync(out).filter((f) => f.includes('composed'));
    expect(composed.length).toBeGreaterThan(0);
    const text = composed.map((f) => readFileSync(join(out, f), 'utf8')).join('\n');
    for (const word of ['nodes', 'persistentvolumes', 'daemonsets', 'pods', 'persistentvolumeclaims'])
      expect(text).not.toMatch(new RegExp(`- ${word}$`, 'm'));
    expect(text).toMatch(/- cronjobs$/m);
  });
});
