/**
 * renderInput, the render key: the renderer is given, and a shared render is keyed by, only the fields it reads. What
 * controllers and clusters stamp without changing a render (Deployments' rollouts, XRDs' and revisions' conditions,
 * the applications' namespaces) is left out, so real clusters share; the renderer's answer from the projection must
 * be its answer from the whole objects (the oracle), and a difference it reads must still render again.
 */
import { describe, expect, it } from 'vitest';
import { RenderShare, renderInput } from '../../../src/app/render-share.js';
import type { ClusterSnapshot, KubeObject } from '../../../src/kube/types.js';
import { renderSync } from '../../../src/sync/render.js';
import { REVISION_X, variant, uidOf, deployment, alone, shareInTurn } from './render-share-example.js';

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
    expect(shareInTurn([base, otherSa, v1])).toEqual({ rendered: 3, shared: 0 });
    // Each differs in what is rendered (the subject's name; Crossplane v1's roles), so sharing would have shown.
    expect(alone(otherSa)).not.toEqual(alone(base));
    expect(alone(v1)).not.toEqual(alone(base));
  });
});

/** The example's Crossplane as v1.20 (its Deployment's image). */
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

describe('XRDs and ProviderRevisions: keyed without the conditions their controllers stamp, XRDs without their schemas', () => {
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
    expect(shareInTurn([a, b])).toEqual({ rendered: 1, shared: 1 });
  });

  /**
   * Each XRD as another cluster's copy could differ where the renderer never looks: its versions' schemas (by
   * SCHEMA_BYTES of descriptions), printer columns, deprecation, connection secret keys and default composition.
   */
  const xrdExtras =
    (tag: string) =>
    (o: KubeObject): KubeObject => {
      if (o.kind !== 'CompositeResourceDefinition') return o;
      const x = o as KubeObject & { spec: { versions?: Record<string, unknown>[] } };
      return {
        ...x,
        spec: {
          ...x.spec,
          connectionSecretKeys: [`kubeconfig-${tag}`],
          defaultCompositionRef: { name: `composition-${tag}` },
          versions: (x.spec.versions ?? []).map((v) => ({
            ...v,
            deprecated: tag === 'b',
            additionalPrinterColumns: [{ name: tag, type: 'string', jsonPath: `.status.${tag}` }],
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: { spec: { type: 'object', description: `${tag} `.repeat(2_000) } },
              },
            },
          })),
        },
      };
    };
  const xrdsOf = (s: ClusterSnapshot): unknown[] => s.xrds.map((x) => x.spec);

  it('renders from the projection exactly what it renders from XRDs with their schemas and the rest', () => {
    for (const s of [variant(xrdExtras('a')), variant((o) => v1(xrdExtras('b')(o)))]) {
      expect(s.xrds.length).toBeGreaterThan(0);
      const whole = renderSync({ ...s, clusterRoleBindings: [], roleBindings: [], others: [] }, {});
      expect(renderSync(renderInput(s), {})).toEqual(whole);
      // What the renderer is given holds no schema (what the key would otherwise walk for every context).
      expect(JSON.stringify(renderInput(s).xrds)).not.toContain('openAPIV3Schema');
    }
  });

  it('shares between clusters whose XRDs differ only in schemas, printer columns, secret keys or compositions', () => {
    const a = variant(xrdExtras('a'));
    const b = variant(xrdExtras('b'));
    expect(xrdsOf(b)).not.toEqual(xrdsOf(a));
    const share = new RenderShare();
    for (const s of [a, b]) expect(share.render(s, {}, renderSync)).toEqual(alone(s));
    expect(share.counts()).toEqual({ rendered: 1, shared: 1 });
  });

  it('renders again when an XRD member the renderer reads differs: a claim name', () => {
    const claim = (o: KubeObject): KubeObject =>
      o.kind === 'CompositeResourceDefinition' && o.metadata.name === 'xclusters.aws.platformref.upbound.io'
        ? (JSON.parse(
            JSON.stringify(o).replace('"plural":"clusters"', '"plural":"eksclusters"'),
          ) as KubeObject)
        : o;
    const base = variant((o) => o);
    const renamed = variant(claim);
    expect(xrdsOf(renamed)).not.toEqual(xrdsOf(base));
    expect(shareInTurn([base, renamed])).toEqual({ rendered: 2, shared: 0 });
    expect(alone(renamed)).not.toEqual(alone(base));
  });

  it('renders again when a status member the renderer reads differs: capabilities, permission requests', () => {
    const base = variant((o) => v1(o));
    const safeStart = variant((o) => revisionStatus('capabilities', ['SafeStart'])(v1(o)));
    const asking = variant((o) =>
      revisionStatus('permissionRequests', [
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] },
      ])(v1(o)),
    );
    expect(shareInTurn([base, safeStart, asking])).toEqual({ rendered: 3, shared: 0 });
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

describe('ClusterRoles: keyed by the roles the renderer reads, as it reads them', () => {
  const role = (name: string, verbs: string[], labels?: Record<string, string>): KubeObject => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, ...(labels !== undefined ? { labels } : {}) },
    rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs }],
  });
  /** The ClusterRole NAME with RULES (an aggregating role as the aggregation controller fills it in). */
  const withRules =
    (name: string, verbs: string[]) =>
    (o: KubeObject): KubeObject =>
      o.kind === 'ClusterRole' && o.metadata.name === name
        ? { ...o, rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs }] }
        : o;
  const ALLOWED = 'crossplane:allowed-provider-permissions';
  /** Crossplane v1 whose provider REVISION_X asks to get and list Deployments. */
  const asking = (o: KubeObject): KubeObject =>
    revisionStatus('permissionRequests', [
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] },
    ])(v1(o));
  const whole = (s: ClusterSnapshot): ClusterSnapshot => ({
    ...s,
    clusterRoleBindings: [],
    roleBindings: [],
    others: [],
  });

  it('renders from the projection exactly what it renders from every ClusterRole', () => {
    const cases: [ClusterSnapshot, { providerClusterRole?: string }][] = [
      // Roles of its own and the rules aggregated into admin, which the renderer never reads.
      [variant(withRules('admin', ['get']), [role('addon-widgets', ['get'])]), {}],
      // Crossplane v1: the requests are checked against the rules aggregated into allowed-provider-permissions.
      [variant((o) => withRules(ALLOWED, ['get', 'list'])(asking(o))), {}],
      [variant((o) => withRules(ALLOWED, ['get'])(asking(o))), {}],
      // Crossplane v1 with --provider-clusterrole naming a role that aggregates nothing.
      [
        variant(asking, [role('provider-permissions', ['get', 'list'])]),
        { providerClusterRole: 'provider-permissions' },
      ],
      [
        variant(asking, [role('provider-permissions', ['get'])]),
        { providerClusterRole: 'provider-permissions' },
      ],
      // The namespace base roles, looked up by name: one made by someone else is left alone.
      [variant((o) => o, [role('crossplane:aggregate-to-ns-edit', ['get'])]), {}],
    ];
    const renders = cases.map(([s, opts]) => {
      const rendered = renderSync(renderInput(s, opts), opts);
      expect(rendered).toEqual(renderSync(whole(s), opts));
      return rendered;
    });
    // What each case is about changes the render, so a role left out of the projection would have shown.
    expect(renders[1]).not.toEqual(renders[2]);
    expect(renders[3]).not.toEqual(renders[4]);
    expect(renders[5]).not.toEqual(renders[0]);
  });

  it('shares between clusters whose other ClusterRoles differ: their own, and the rules aggregated into admin', () => {
    const a = variant(withRules('admin', ['get']), [role('addon-widgets', ['get'])]);
    const b = variant(withRules('admin', ['get', 'list', 'watch']), [role('other-addon', ['*'])]);
    const share = new RenderShare();
    for (const s of [a, b]) expect(share.render(s, {}, renderSync)).toEqual(alone(s));
    expect(share.counts()).toEqual({ rendered: 1, shared: 1 });
  });

  it('renders again when the rules the requests are checked against differ (Crossplane v1)', () => {
    const a = variant((o) => withRules(ALLOWED, ['get', 'list'])(asking(o)));
    const b = variant((o) => withRules(ALLOWED, ['get'])(asking(o)));
    expect(shareInTurn([a, b])).toEqual({ rendered: 2, shared: 0 });
  });

  it('fails alike when --provider-clusterrole names a ClusterRole the cluster lacks', () => {
    const s = variant(asking);
    const opts = { providerClusterRole: 'no-such-role' };
    expect(() => renderSync(whole(s), opts)).toThrow(/no-such-role/);
    expect(() => renderSync(renderInput(s, opts), opts)).toThrow(/no-such-role/);
  });
});
