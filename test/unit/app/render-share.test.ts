/**
 * RenderShare: a render shared only between inputs equal by content, uids taken by place; each result must be the
 * render of its own input (renderSync on it alone), whether it was shared or not.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { RenderShare, renderInput } from '../../../src/app/render-share.js';
import { snapshotFromObjects } from '../../../src/crossplane/snapshot.js';
import type { ClusterSnapshot, KubeObject } from '../../../src/kube/types.js';
import { renderSync } from '../../../src/sync/render.js';

const example = join(import.meta.dirname, '..', '..', '..', 'examples', 'cluster');
const objects: KubeObject[] = readdirSync(example)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .flatMap((f) =>
    parseAllDocuments(readFileSync(join(example, f), 'utf8')).map((d) => d.toJS() as KubeObject),
  )
  .filter((o) => o !== null);

const REVISION_X = 'crossplane-contrib-provider-helm-9dcdf52e24b6';
const REVISION_Y = 'crossplane-contrib-provider-kubernetes-408e44da486e';

/** The example with each object passed through EDIT (a copy), plus EXTRA. */
function variant(edit: (o: KubeObject) => KubeObject, extra: readonly KubeObject[] = []): ClusterSnapshot {
  return snapshotFromObjects([...objects.map((o) => edit(structuredClone(o))), ...extra]);
}

const uidOf = (name: string): string => {
  const uid = objects.find((o) => o.metadata.name === name)?.metadata.uid;
  if (uid === undefined) throw new Error(`no uid on ${name}`);
  return uid;
};

/** A provider Deployment owned by the revision with OWNER_UID, running as SA. */
function deployment(ownerUid: string, sa: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'provider-pod',
      namespace: 'crossplane-system',
      ownerReferences: [
        {
          apiVersion: 'pkg.crossplane.io/v1',
          kind: 'ProviderRevision',
          name: 'r',
          uid: ownerUid,
          controller: true,
        },
      ],
    },
    spec: { template: { spec: { serviceAccountName: sa } } },
  };
}

/** Every uid string of A mapped to a new one (the same new one wherever it appears). */
function renamedUids(o: KubeObject): KubeObject {
  const text = JSON.stringify(o).replace(/"uid":"([^"]*)"/g, (_m, u: string) => `"uid":"renamed-${u}"`);
  return JSON.parse(text) as KubeObject;
}

const alone = (s: ClusterSnapshot) => renderSync(renderInput(s), {});

describe('RenderShare', () => {
  it('shares between inputs that differ only in server-stamped metadata or in uids, each with its own uids', () => {
    const base = variant((o) => o, [deployment(uidOf(REVISION_X), 'sa-x')]);
    const stamped = variant(
      (o) => ({
        ...o,
        metadata: {
          ...o.metadata,
          resourceVersion: '987',
          creationTimestamp: '2030-01-01T00:00:00Z',
          generation: 7,
        },
      }),
      [deployment(uidOf(REVISION_X), 'sa-x')],
    );
    const renamed = variant(renamedUids, [renamedUids(deployment(uidOf(REVISION_X), 'sa-x'))]);
    const share = new RenderShare();
    for (const s of [base, stamped, renamed]) expect(share.render(s, {}, renderSync)).toEqual(alone(s));
    expect(share.counts()).toEqual({ rendered: 1, shared: 2 });
    // The renamed uids reach the owner references (the example's XRDs and revisions own their roles).
    const owners = share
      .render(renamed, {}, renderSync)
      .objects.flatMap((o) => (o.metadata.ownerReferences ?? []).map((r) => r.uid ?? ''));
    expect(owners.length).toBeGreaterThan(10);
    expect(owners.every((u) => u.startsWith('renamed-'))).toBe(true);
  });

  it('renders again when the uids are placed differently: a Deployment owned by another revision', () => {
    const x = variant((o) => o, [deployment(uidOf(REVISION_X), 'sa')]);
    const y = variant((o) => o, [deployment(uidOf(REVISION_Y), 'sa')]);
    const share = new RenderShare();
    expect(share.render(x, {}, renderSync)).toEqual(alone(x));
    expect(share.render(y, {}, renderSync)).toEqual(alone(y));
    expect(share.counts()).toEqual({ rendered: 2, shared: 0 });
    // The two renders differ (which revision's binding names the service account), so sharing would have shown.
    expect(alone(x)).not.toEqual(alone(y));
  });

  it('renders again when a revision and its Deployment have an empty uid (no uid, to the renderer) where others have one', () => {
    const given = variant((o) => o, [deployment(uidOf(REVISION_X), 'sa')]);
    // Every reference to revision X's uid made empty: the same places, but an empty uid owns nothing.
    const x = uidOf(REVISION_X);
    const emptied = (o: KubeObject): KubeObject =>
      JSON.parse(JSON.stringify(o).replaceAll(`"uid":"${x}"`, '"uid":""')) as KubeObject;
    const empty = variant(emptied, [deployment('', 'sa')]);
    const share = new RenderShare();
    expect(share.render(given, {}, renderSync)).toEqual(alone(given));
    expect(share.render(empty, {}, renderSync)).toEqual(alone(empty));
    expect(share.counts()).toEqual({ rendered: 2, shared: 0 });
    expect(alone(given)).not.toEqual(alone(empty));
  });

  it('renders again when content or options differ, and keeps at most KEEP renders', () => {
    const base = variant((o) => o);
    const labelled = variant((o) =>
      o.kind === 'CompositeResourceDefinition'
        ? { ...o, metadata: { ...o.metadata, labels: { ...o.metadata.labels, tier: 'gold' } } }
        : o,
    );
    const share = new RenderShare(1);
    expect(share.render(base, {}, renderSync)).toEqual(alone(base));
    expect(share.render(labelled, {}, renderSync)).toEqual(alone(labelled));
    expect(share.render(base, { manage: 'basic' }, renderSync)).toEqual(
      renderSync(renderInput(base), { manage: 'basic' }),
    );
    expect(share.render(base, {}, renderSync)).toEqual(alone(base));
    expect(share.counts()).toEqual({ rendered: 4, shared: 0 });
  });

  describe('Deployments: keyed by the fields the renderer reads, not by their status or the rest of their spec', () => {
    /** A provider's Deployment (owned by revision X) as a real one: replicas, selector, pod labels, args, status. */
    const full = (sa: string, image: string, rollout: number): KubeObject => {
      const base = deployment(uidOf(REVISION_X), sa);
      return {
        ...base,
        // What the Deployment controller and tools stamp: the rollout's revision, a label of the release.
        metadata: {
          ...base.metadata,
          labels: { 'app.kubernetes.io/managed-by': `release-${String(rollout)}` },
          annotations: { 'deployment.kubernetes.io/revision': String(rollout) },
        },
        spec: {
          replicas: rollout,
          selector: { matchLabels: { pkg: 'provider-helm' } },
          template: {
            metadata: { labels: { pkg: 'provider-helm', rollout: String(rollout) } },
            spec: {
              serviceAccountName: sa,
              containers: [{ name: 'package-runtime', image, args: [`--poll=${String(rollout)}m`] }],
            },
          },
        },
        status: { observedGeneration: rollout, replicas: rollout, readyReplicas: rollout - 1 },
      };
    };
    const withCrossplaneImage =
      (image: string) =>
      (o: KubeObject): KubeObject =>
        o.kind === 'Deployment' && o.metadata.name === 'crossplane'
          ? (JSON.parse(JSON.stringify(o).replace(/"image":"[^"]*"/, `"image":"${image}"`)) as KubeObject)
          : o;

    it('renders from the projection exactly what it renders from the whole Deployments', () => {
      for (const s of [
        variant((o) => o, [full('sa-x', 'xpkg.upbound.io/p:v1', 3)]),
        variant(withCrossplaneImage('xpkg.crossplane.io/crossplane/crossplane:v1.20.0'), [
          full('', 'xpkg.upbound.io/p:v1', 1),
        ]),
      ]) {
        // The oracle: the renderer given every field of every Deployment (only the RBAC parts left out).
        const whole = renderSync({ ...s, clusterRoleBindings: [], roleBindings: [], others: [] }, {});
        expect(renderSync(renderInput(s), {})).toEqual(whole);
      }
    });

    it('shares between clusters whose Deployments differ only in status, replicas, pod labels, args, their own labels or annotations', () => {
      const a = variant((o) => o, [full('sa-x', 'xpkg.upbound.io/p:v1', 3)]);
      const b = variant((o) => o, [full('sa-x', 'xpkg.upbound.io/p:v1', 5)]);
      const share = new RenderShare();
      for (const s of [a, b]) expect(share.render(s, {}, renderSync)).toEqual(alone(s));
      expect(share.counts()).toEqual({ rendered: 1, shared: 1 });
    });

    it('renders again when a service account or an image differs', () => {
      const base = variant((o) => o, [full('sa-x', 'xpkg.upbound.io/p:v1', 3)]);
      const otherSa = variant((o) => o, [full('sa-y', 'xpkg.upbound.io/p:v1', 3)]);
      const v1 = variant(withCrossplaneImage('xpkg.crossplane.io/crossplane/crossplane:v1.20.0'), [
        full('sa-x', 'xpkg.upbound.io/p:v1', 3),
      ]);
      const share = new RenderShare();
      for (const s of [base, otherSa, v1]) expect(share.render(s, {}, renderSync)).toEqual(alone(s));
      expect(share.counts()).toEqual({ rendered: 3, shared: 0 });
      // Each differs in what is rendered (the subject's name; Crossplane v1's roles), so sharing would have shown.
      expect(alone(otherSa)).not.toEqual(alone(base));
      expect(alone(v1)).not.toEqual(alone(base));
    });
  });
});

describe('XRDs and ProviderRevisions: keyed without the conditions their controllers stamp', () => {
  const OWNER_KINDS = new Set(['CompositeResourceDefinition', 'ProviderRevision']);
  /** O's conditions as another cluster's Crossplane would have set them: each a day later, with another message. */
  const laterConditions = (o: KubeObject): KubeObject =>
    OWNER_KINDS.has(o.kind)
      ? (JSON.parse(
          JSON.stringify(o)
            .replace(/"lastTransitionTime":"([^"]*)"/g, (_m, t: string) => {
              return `"lastTransitionTime":"${new Date(Date.parse(t) + 86_400_000).toISOString()}"`;
            })
            .replace(/"reason":"([^"]*)"/g, '"reason":"$1","message":"observed again"'),
        ) as KubeObject)
      : o;
  const conditionsOf = (s: ClusterSnapshot): unknown[] =>
    [...s.xrds, ...s.providerRevisions].flatMap(
      (o) => (o as { status?: { conditions?: unknown[] } }).status?.conditions ?? [],
    );
  const v1 = (o: KubeObject): KubeObject =>
    o.kind === 'Deployment' && o.metadata.name === 'crossplane'
      ? (JSON.parse(
          JSON.stringify(o).replace(
            /"image":"[^"]*"/,
            '"image":"xpkg.crossplane.io/crossplane/crossplane:v1.20.0"',
          ),
        ) as KubeObject)
      : o;
  /** REVISION_X's status with MEMBER set to VALUE. */
  const revisionStatus =
    (member: string, value: unknown) =>
    (o: KubeObject): KubeObject =>
      o.kind === 'ProviderRevision' && o.metadata.name === REVISION_X
        ? { ...o, status: { ...(o as { status?: object }).status, [member]: value } }
        : o;

  it('renders from the projection exactly what it renders from the whole XRDs and revisions', () => {
    const requests = revisionStatus('permissionRequests', [
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] },
    ]);
    for (const s of [
      variant((o) => o),
      variant((o) => requests(v1(o))),
      variant(revisionStatus('capabilities', ['safe-start'])),
    ]) {
      expect(conditionsOf(s).length).toBeGreaterThan(10);
      // The oracle: the renderer given every field of every object (only the RBAC parts left out).
      const whole = renderSync({ ...s, clusterRoleBindings: [], roleBindings: [], others: [] }, {});
      expect(renderSync(renderInput(s), {})).toEqual(whole);
    }
  });

  it('shares between clusters whose XRDs and revisions differ only in their conditions', () => {
    const a = variant((o) => o);
    const b = variant(laterConditions);
    expect(conditionsOf(b)).not.toEqual(conditionsOf(a));
    const share = new RenderShare();
    for (const s of [a, b]) expect(share.render(s, {}, renderSync)).toEqual(alone(s));
    expect(share.counts()).toEqual({ rendered: 1, shared: 1 });
  });

  it('renders again when a status member the renderer reads differs: capabilities, permission requests', () => {
    const base = variant((o) => v1(o));
    const safeStart = variant((o) => revisionStatus('capabilities', ['SafeStart'])(v1(o)));
    const asking = variant((o) =>
      revisionStatus('permissionRequests', [
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] },
      ])(v1(o)),
    );
    const share = new RenderShare();
    for (const s of [base, safeStart, asking]) expect(share.render(s, {}, renderSync)).toEqual(alone(s));
    expect(share.counts()).toEqual({ rendered: 3, shared: 0 });
  });
});

describe('Namespaces: keyed by those that enable an XRD, all of them when sync names namespaces', () => {
  /** A namespace of an application: it enables no XRD (it has annotations, none of them the plugin's). */
  const app = (name: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name }, annotations: { owner: name } },
  });
  /** A namespace that enables XRD (the annotation a platform team sets, as enable-xrd does). */
  const enabling = (name: string, xrd: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, annotations: { [`rbac.crossplane.io/${xrd}`]: 'xrd-claim-accepted' } },
  });
  const XRD = 'xpostgresqlinstances.database.platform.acme.io';
  const enablingCount = (s: ClusterSnapshot): number =>
    s.namespaces.filter((n) =>
      Object.keys(n.metadata.annotations ?? {}).some((k) => k.startsWith('rbac.crossplane.io/')),
    ).length;

  it('renders from the projection exactly what it renders from every Namespace, with and without --namespaces', () => {
    const s = variant((o) => o, [app('shop'), app('billing'), enabling('analytics', XRD)]);
    expect(enablingCount(s)).toBeGreaterThan(2);
    expect(s.namespaces.length).toBeGreaterThan(enablingCount(s));
    const whole = { ...s, clusterRoleBindings: [], roleBindings: [], others: [] };
    for (const opts of [{}, { namespaces: ['team-a', 'shop'] }, { namespaces: ['analytics'] }]) {
      const rendered = renderSync(renderInput(s, opts), opts);
      expect(rendered).toEqual(renderSync(whole, opts));
      // Each case renders namespace roles (crossplane-ns-<namespace>-edit/view), so a namespace left out would show.
      expect(rendered.objects.some((o) => o.metadata.name.startsWith('crossplane-ns-'))).toBe(true);
    }
    // A namespace the cluster lacks is an error in both: with --namespaces, every namespace is in the input.
    const unknown = { namespaces: ['no-such-namespace'] };
    expect(() => renderSync(renderInput(s, unknown), unknown)).toThrow(/no-such-namespace/);
    expect(() => renderSync(whole, unknown)).toThrow(/no-such-namespace/);
  });

  it('shares between clusters whose other namespaces differ (their applications)', () => {
    const a = variant((o) => o, [app('shop'), app('billing')]);
    const b = variant((o) => o, [app('search'), app('ledger'), app('mail')]);
    const share = new RenderShare();
    for (const s of [a, b]) expect(share.render(s, {}, renderSync)).toEqual(alone(s));
    expect(share.counts()).toEqual({ rendered: 1, shared: 1 });
  });

  it('renders again when a namespace enables another XRD, or when sync names namespaces', () => {
    const a = variant((o) => o, [app('shop')]);
    const b = variant((o) => o, [app('shop'), enabling('analytics', XRD)]);
    const c = variant((o) => o, [app('billing')]);
    const share = new RenderShare();
    for (const s of [a, b]) expect(share.render(s, {}, renderSync)).toEqual(alone(s));
    expect(alone(b)).not.toEqual(alone(a));
    // Named: every namespace is compared (the names decide which are unknown).
    const named = { namespaces: ['team-a'] };
    expect(share.render(a, named, renderSync)).toEqual(renderSync(renderInput(a, named), named));
    expect(share.render(c, named, renderSync)).toEqual(renderSync(renderInput(c, named), named));
    expect(share.counts()).toEqual({ rendered: 4, shared: 0 });
  });
});

describe('RenderShare: inputs compared in place, field by field', () => {
  /** The example with one ProviderRevision's last objectRef renamed: a field the renderer reads, deep in status. */
  const renamedRef = (o: KubeObject): KubeObject => {
    if (o.kind !== 'ProviderRevision' || o.metadata.name !== REVISION_X) return o;
    const text = JSON.stringify(o);
    const at = text.lastIndexOf('"name":"');
    if (at < 0) throw new Error(`no objectRef name in ${REVISION_X}`);
    return JSON.parse(`${text.slice(0, at)}"name":"zz${text.slice(at + 8)}`) as KubeObject;
  };

  it('renders again when a field the renderer reads differs deep in an object (a revision objectRef)', () => {
    const base = variant((o) => o);
    const other = variant(renamedRef);
    // The oracle: the two inputs render differently, so a shared render would show.
    expect(alone(other)).not.toEqual(alone(base));
    const share = new RenderShare();
    expect(share.render(base, {}, renderSync)).toEqual(alone(base));
    expect(share.render(other, {}, renderSync)).toEqual(alone(other));
    expect(share.counts()).toEqual({ rendered: 2, shared: 0 });
  });

  it('renders again when two uids of one input are one uid in the other (the map must be one to one)', () => {
    // Revision Y's uid replaced by revision X's everywhere: each place of the first input maps to one of the second,
    // but not back.
    const x = uidOf(REVISION_X);
    const y = uidOf(REVISION_Y);
    const merged = (o: KubeObject): KubeObject =>
      JSON.parse(JSON.stringify(o).replaceAll(`"uid":"${y}"`, `"uid":"${x}"`)) as KubeObject;
    for (const [first, second] of [
      [variant((o) => o), variant(merged)],
      [variant(merged), variant((o) => o)],
    ] as const) {
      const share = new RenderShare();
      expect(share.render(first, {}, renderSync)).toEqual(alone(first));
      expect(share.render(second, {}, renderSync)).toEqual(alone(second));
      expect(share.counts()).toEqual({ rendered: 2, shared: 0 });
    }
  });

  // A hostile cluster's data must not take another context's render: metadata the renderer reads is compared, an
  // annotation that pauses a revision, and a deletionTimestamp (stamped by the server, but read: never one of the
  // fields left out). The oracle: each result is the render of its own input alone.
  it.each([
    [
      'a paused revision',
      (o: KubeObject): KubeObject =>
        o.metadata.name === REVISION_X
          ? { ...o, metadata: { ...o.metadata, annotations: { 'crossplane.io/paused': 'true' } } }
          : o,
    ],
    [
      'an XRD being deleted',
      (o: KubeObject): KubeObject =>
        o.kind === 'CompositeResourceDefinition'
          ? { ...o, metadata: { ...o.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }
          : o,
    ],
  ])('renders again for %s', (_what, edit) => {
    const base = variant((o) => o);
    const other = variant(edit);
    const share = new RenderShare();
    expect(share.render(base, {}, renderSync)).toEqual(alone(base));
    expect(share.render(other, {}, renderSync)).toEqual(alone(other));
    expect(share.counts()).toEqual({ rendered: 2, shared: 0 });
  });

  it('renders again when the same members come in another order (what the renderer copies keeps its order)', () => {
    const reordered = (o: KubeObject): KubeObject =>
      o.kind === 'CompositeResourceDefinition'
        ? { ...o, spec: Object.fromEntries(Object.entries(o.spec ?? {}).reverse()) }
        : o;
    const share = new RenderShare();
    for (const s of [variant((o) => o), variant(reordered)]) {
      expect(share.render(s, {}, renderSync)).toEqual(alone(s));
    }
    expect(share.counts()).toEqual({ rendered: 2, shared: 0 });
  });
});
