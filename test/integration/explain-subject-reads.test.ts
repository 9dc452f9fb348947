/**
 * What explain --subject reads by default to resolve --for RESOURCE: as who-can (resolve-live.ts), discovery first and
 * the XRDs and ProviderRevisions only as far as the answer needs them; the ProviderRevisions only when the request is
 * denied in a provider's group, for the reason that names the revision whose roles were never made. Counted at the
 * test API server (its request counters), with the server's own SubjectAccessReview and stored objects as the oracle.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { identityHolding, subjectAccessReview } from '../support/access-review.js';
import { runPlugin, startSeeded } from './harness.js';

interface Explained {
  readonly access: {
    readonly request: { verb: string; apiGroup?: string; resource?: string; namespace?: string };
    readonly allowed: boolean;
    readonly whyNot: { reason: string; message: string }[];
  };
}

let server: TestApiServer;
let kubeconfig: string;
beforeAll(async () => {
  ({ server, kubeconfig } = await startSeeded());
});
afterAll(async () => {
  await server.stop();
});
beforeEach(() => {
  server.counters.reset();
});

async function explain(subject: string, args: readonly string[]): Promise<Explained> {
  const r = await runPlugin([
    'explain',
    '--subject',
    subject,
    ...args,
    '--kubeconfig',
    kubeconfig,
    '-o',
    'json',
  ]);
  expect([0, 1], r.stderr).toContain(r.code);
  const out = JSON.parse(r.stdout) as Explained;
  expect(r.code).toBe(out.access.allowed ? 0 : 1);
  const user = identityHolding(
    subject.startsWith('User:')
      ? { kind: 'User', name: subject.slice(5) }
      : { kind: 'Group', name: subject.slice(6) },
    'explain-reads-probe',
  );
  expect(out.access.allowed, 'the server agrees').toBe(
    await subjectAccessReview(
      server.url,
      { ...user, groups: [...user.groups, 'system:authenticated'] },
      out.access.request,
    ),
  );
  return out;
}

/** The request counts of the Crossplane kinds explain --subject may read to resolve RESOURCE. */
function crossplaneReads(): Record<string, number> {
  return {
    listXrds: server.counters.get('list', 'compositeresourcedefinitions'),
    getXrds: server.counters.get('get', 'compositeresourcedefinitions'),
    listRevisions: server.counters.get('list', 'providerrevisions'),
  };
}

describe('explain --subject --for resolves RESOURCE live as who-can does', () => {
  it('a resource of a Kubernetes group: no XRD and no ProviderRevision is read', async () => {
    await explain('Group:crossplane:masters', [
      '--for',
      'deployments.apps',
      '--verb',
      'create',
      '-n',
      'team-a',
    ]);
    expect(crossplaneReads()).toStrictEqual({ listXrds: 0, getXrds: 0, listRevisions: 0 });
  });

  it('without --for: none either', async () => {
    const r = await runPlugin(['explain', '--subject', 'User:nobody', '--kubeconfig', kubeconfig]);
    expect(r.code, r.stderr).toBe(0);
    expect(crossplaneReads()).toStrictEqual({ listXrds: 0, getXrds: 0, listRevisions: 0 });
  });

  it("a claim discovery serves: the XRDs' names, then a GET of each of its group; its XRD named in the reason", async () => {
    const inGroup = server
      .list('compositeresourcedefinitions')
      .filter((x) => (x as { spec: { group: string } }).spec.group === 'storage.platform.acme.io').length;
    expect(inGroup).toBeGreaterThan(0);
    const out = await explain('User:nobody', [
      '--for',
      'buckets.storage.platform.acme.io',
      '--verb',
      'create',
      '-n',
      'team-a',
    ]);
    expect(crossplaneReads()).toStrictEqual({ listXrds: 1, getXrds: inGroup, listRevisions: 0 });
    expect(out.access.whyNot.map((w) => w.message).join('\n')).toMatch(
      /xbuckets\.storage\.platform\.acme\.io/,
    );
  });

  it("a provider's resource, denied: one LIST of the ProviderRevisions names the active revision whose CRDs serve it", async () => {
    // The oracle: the revisions whose objectRefs list the CRD (examples/cluster holds an active and an inactive one),
    // the active one of them (the provider that runs; every revision gets roles of its own).
    type Revision = {
      metadata: { name: string };
      spec: { desiredState?: string };
      status?: { objectRefs?: { name: string }[] };
    };
    const serving = (server.list('providerrevisions') as Revision[])
      .filter((r) => (r.status?.objectRefs ?? []).some((o) => o.name === 'buckets.s3.aws.upbound.io'))
      .filter((r) => r.spec.desiredState === 'Active')
      .map((r) => r.metadata.name);
    expect(serving.length).toBe(1);
    const out = await explain('User:nobody', ['--for', 'buckets.s3.aws.upbound.io', '--verb', 'get']);
    expect(out.access.allowed).toBe(false);
    expect(crossplaneReads()).toStrictEqual({ listXrds: 1, getXrds: 0, listRevisions: 1 });
    const named =
      /^the roles of provider revision (\S+) were never made \(no ClusterRole crossplane:provider:\1:\*\)$/.exec(
        out.access.whyNot.find((w) => w.reason === 'roles-not-synced')?.message ?? '',
      );
    expect(named?.[1]).toBe(serving[0]);
  });
});
