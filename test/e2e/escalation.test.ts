/**
 * The attack that made the plugin the escalation check: a user bound to crossplane-edit (which may create XRDs)
 * creates an XRD in the rbac.authorization.k8s.io group whose plural is clusterroles and whose claim plural is
 * clusterrolebindings; an administrator runs a plain `sync --yes`. The XRD's aggregate-to-edit/admin/crossplane
 * roles would grant `*` (escalate and bind included) on clusterroles and clusterrolebindings and aggregate into
 * crossplane-edit. A ProviderRevision defining `signers.certificates.k8s.io` is the provider-side twin. The oracle is
 * the test API server's authorizer, asked through `kubectl auth can-i --as`: the user stays unable to bind
 * cluster-admin, and everything else is synced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xrd } from '../support/cluster-state.js';
import type { RunResult } from './harness.js';
import { asFlags, startSeeded, type SeededCluster } from './seeded-cluster.js';

const USER = 'mallory';
/** kubectl's flags to act as USER (the server's authorizer answers for the user, not the administrator). */
const AS_USER = asFlags({ kind: 'User', name: USER }, USER);

let cluster: SeededCluster;

const run = (args: readonly string[], input?: string): Promise<RunResult> => cluster.run(args, input);

const evilXrd = xrd(
  'rbac.authorization.k8s.io',
  { kind: 'ClusterRole', plural: 'clusterroles' },
  { kind: 'ClusterRoleBinding', plural: 'clusterrolebindings' },
);

const evilRevision = {
  apiVersion: 'pkg.crossplane.io/v1',
  kind: 'ProviderRevision',
  metadata: { name: 'provider-evil-1', labels: { 'pkg.crossplane.io/package': 'provider-evil' } },
  spec: { image: 'xpkg.example.org/evil/provider-evil:v1', desiredState: 'Active', revision: 1 },
};
const evilRevisionStatus = {
  status: {
    objectRefs: [
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name: 'signers.certificates.k8s.io',
      },
    ],
  },
};

async function canI(verb: string, resource: string): Promise<string> {
  const r = await run(['auth', 'can-i', verb, resource, ...AS_USER]);
  expect([0, 1], r.stderr).toContain(r.code);
  return r.stdout.trim();
}

beforeAll(async () => {
  cluster = await startSeeded('xrbac-e2e-escalation-', ['cluster']);
  const bound = await run([
    'create',
    'clusterrolebinding',
    'mallory-edit',
    '--clusterrole',
    'crossplane-edit',
    '--user',
    USER,
  ]);
  expect(bound.code, bound.stderr).toBe(0);
});

afterAll(async () => {
  await cluster.server.stop();
});

describe('an XRD or provider in Kubernetes’ own API groups', () => {
  it('the user may create XRDs but not ClusterRoleBindings before', async () => {
    expect(await canI('create', 'compositeresourcedefinitions.apiextensions.crossplane.io')).toBe('yes');
    expect(await canI('create', 'clusterrolebindings')).toBe('no');
    const made = await run(['create', '-f', '-', ...AS_USER], JSON.stringify(evilXrd));
    expect(made.code, made.stderr).toBe(0);
    const rev = await run(['create', '-f', '-'], JSON.stringify(evilRevision));
    expect(rev.code, rev.stderr).toBe(0);
    const status = await run([
      'patch',
      'providerrevision',
      'provider-evil-1',
      '--subresource',
      'status',
      '--type',
      'merge',
      '-p',
      JSON.stringify(evilRevisionStatus),
    ]);
    expect(status.code, status.stderr).toBe(0);
  });

  it('a plain sync --yes holds both, syncs everything else, and exits 2', async () => {
    const r = await run(['crossplane-rbac', 'sync', '--yes']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /^held .*CompositeResourceDefinition "clusterroles\.rbac\.authorization\.k8s\.io": spec\.group "rbac\.authorization\.k8s\.io" is not a valid API group: it is one of Kubernetes' own API groups/m,
    );
    expect(r.stderr).toMatch(
      /^held .*ProviderRevision "provider-evil-1": status\.objectRefs\[0\]\.name "signers\.certificates\.k8s\.io"/m,
    );
    expect(r.stderr).toMatch(/^error: 2 owners are held/m);
    const roles = await run(['get', 'clusterroles', '-o', 'name']);
    expect(roles.stdout, 'the rest is synced').toContain(
      'clusterrole.rbac.authorization.k8s.io/crossplane:provider:',
    );
    expect(roles.stdout).not.toContain('clusterroles.rbac.authorization.k8s.io:');
    expect(roles.stdout).not.toContain('provider-evil-1');
  });

  it('after sync the user still cannot create ClusterRoleBindings, escalate or bind', async () => {
    expect(await canI('create', 'clusterrolebindings')).toBe('no');
    expect(await canI('escalate', 'clusterroles')).toBe('no');
    expect(await canI('bind', 'clusterroles')).toBe('no');
    const made = await run([
      'create',
      'clusterrolebinding',
      'mallory-admin',
      '--clusterrole',
      'cluster-admin',
      '--user',
      USER,
      ...AS_USER,
    ]);
    expect(made.code).not.toBe(0);
    expect(made.stderr).toMatch(/forbidden/);
  });

  it("an XRD named after a provider's CRD is held: that CRD is the provider revision's, not the XRD's", async () => {
    const squatter = xrd('s3.aws.upbound.io', { kind: 'Bucket', plural: 'buckets' });
    const made = await run(['create', '-f', '-', ...AS_USER], JSON.stringify(squatter));
    expect(made.code, made.stderr).toBe(0);
    const r = await run(['crossplane-rbac', 'sync', '--dry-run=server']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^held .*CompositeResourceDefinition "buckets\.s3\.aws\.upbound\.io": its CustomResourceDefinition "buckets\.s3\.aws\.upbound\.io" is controlled by ProviderRevision "upbound-provider-aws-s3-e7585f0184b8", not by this XRD/m,
    );
  });

  it('--check reports the held owners and exits 2', async () => {
    const r = await run(['crossplane-rbac', 'sync', '--check']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^held /m);
  });
});
