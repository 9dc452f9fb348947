import { describe, expect, it } from 'vitest';
import { renderSync } from '../../../src/sync/render.js';
import type { SyncOptions } from '../../../src/sync/settings.js';
import { SyncInputError } from '../../../src/crossplane/input-error.js';
import type {
  ClusterRole,
  ClusterSnapshot,
  ConfigMap,
  Deployment,
  ProviderRevision,
} from '../../../src/kube/types.js';
import { deployment, loadYaml, namespace, rev, shuffled, snapshot, xrd } from './sync-fixtures.js';
import { detectCrossplane, readSyncConfig } from '../../../src/sync/settings.js';
import { isInPruneScope } from '../../../src/crossplane/owned-objects.js';
import { objectKey } from '../../../src/kube/meta.js';

const crossplaneDeployment: Deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'crossplane', namespace: 'platform' },
  spec: {
    template: {
      spec: {
        serviceAccountName: 'xp',
        containers: [{ name: 'core', image: 'xpkg.crossplane.io/crossplane/crossplane:v1.20.1' }],
      },
    },
  },
};

function cluster(): ClusterSnapshot {
  const r1 = rev('p-a-1', ['things.a.io'], { provider: 'p-a' });
  return snapshot({
    xrds: [
      xrd('xs.a.io', { claimNames: { kind: 'C', plural: 'cs' } }),
      xrd('ys.a.io', {}, {}, 'apiextensions.crossplane.io/v2'),
      xrd('zs.a.io', {}, { deletionTimestamp: '2025-01-01T00:00:00Z' }),
    ],
    providerRevisions: [
      r1,
      rev('p-b-1', ['bs.b.io'], { annotations: { 'crossplane.io/paused': 'true' } }),
      rev('p-c-1', ['cs.c.io'], { deletionTimestamp: '2025-01-01T00:00:00Z' }),
    ],
    deployments: [deployment('p-a-1', 'crossplane-system', 'uid-p-a-1', 'sa-a')],
    namespaces: [
      namespace('team-a', {
        'rbac.crossplane.io/xs.a.io': 'xrd-claim-accepted',
        'rbac.crossplane.io/nope.a.io': 'xrd-enabled',
      }),
      namespace('team-b', { 'rbac.crossplane.io/enabled-xrds': 'ys.a.io' }),
      namespace('quiet'),
    ],
  });
}

const names = (opts: SyncOptions = {}, snap = cluster()) => renderSync(snap, opts).objects.map(objectKey);

describe('renderSync', () => {
  it('skips deleting and paused owners and reports them', () => {
    const out = renderSync(cluster());
    expect(out.skipped).toEqual([
      { kind: 'CompositeResourceDefinition', name: 'zs.a.io', reason: 'being deleted' },
      { kind: 'ProviderRevision', name: 'p-b-1', reason: 'paused' },
      { kind: 'ProviderRevision', name: 'p-c-1', reason: 'being deleted' },
    ]);
    expect(out.objects.map(objectKey).filter((k) => /zs\.a\.io|p-b-1|p-c-1/.test(k))).toEqual([]);
    expect(out.warnings).toEqual([
      'namespace "team-a" enables unknown CompositeResourceDefinition "nope.a.io"',
    ]);
  });

  const levels: Record<string, { reason: string; opts: SyncOptions; has: string[]; lacks: string[] }> = {
    ServiceAccounts: {
      reason:
        'Only software roles: XRD aggregate-to-crossplane, provider edit/system/binding, crossplane:aggregated.',
      opts: { manage: 'serviceaccounts' },
      has: [
        'ClusterRole/crossplane:composite:xs.a.io:aggregate-to-crossplane',
        'ClusterRole/crossplane:provider:p-a-1:aggregate-to-edit',
        'ClusterRole/crossplane:provider:p-a-1:system',
        'ClusterRoleBinding/crossplane:provider:p-a-1:system',
        'ClusterRole/crossplane:aggregated',
      ],
      lacks: [
        'ClusterRole/crossplane:composite:xs.a.io:aggregate-to-edit',
        'ClusterRole/crossplane:provider:p-a-1:aggregate-to-view',
        'ClusterRole/crossplane-admin',
        'ClusterRole/crossplane-ns-team-a-edit',
      ],
    },
    Basic: {
      reason: 'Adds user-facing roles and base roles, not namespace roles.',
      opts: { manage: 'basic' },
      has: [
        'ClusterRole/crossplane:composite:xs.a.io:aggregate-to-browse',
        'ClusterRole/crossplane:provider:p-a-1:aggregate-to-view',
        'ClusterRole/crossplane-admin',
        'ClusterRoleBinding/crossplane-admin',
      ],
      lacks: ['ClusterRole/crossplane-ns-team-a-edit'],
    },
    All: {
      reason: 'Adds namespace roles for namespaces that enable an XRD, in either annotation form.',
      opts: {},
      has: [
        'ClusterRole/crossplane-ns-team-a-edit',
        'ClusterRole/crossplane-ns-team-b-view',
        'ClusterRole/crossplane:composite:xs.a.io:aggregate-to-ns-edit',
        'ClusterRole/crossplane:composite:ys.a.io:aggregate-to-ns-view',
        'ClusterRole/crossplane:aggregate-to-ns-edit',
      ],
      lacks: ['ClusterRole/crossplane-ns-quiet-edit'],
    },
    OnlyComposites: {
      reason: '--only narrows to families.',
      opts: { only: ['composites'] },
      has: ['ClusterRole/crossplane:composite:ys.a.io:aggregate-to-view'],
      lacks: ['ClusterRole/crossplane:provider:p-a-1:system', 'ClusterRole/crossplane:aggregated'],
    },
    ProviderFilterByProviderName: {
      reason: '--provider accepts the Provider name and narrows to its revisions.',
      opts: { providers: ['p-a'] },
      has: ['ClusterRole/crossplane:provider:p-a-1:system'],
      lacks: ['ClusterRole/crossplane:composite:xs.a.io:aggregate-to-edit', 'ClusterRole/crossplane-admin'],
    },
    NamespaceBinding: {
      reason: 'providerBindingScope namespace binds with a RoleBinding in the provider namespace.',
      opts: { providerBindingScope: 'namespace' },
      has: ['RoleBinding/crossplane-system/crossplane:provider:p-a-1:system'],
      lacks: ['ClusterRoleBinding/crossplane:provider:p-a-1:system'],
    },
    DisableAggregateRoles: {
      reason: 'The opt-out drops the user-facing aggregate roles, keeping what software needs.',
      opts: { disableAggregateRoles: true },
      has: ['ClusterRole/crossplane:provider:p-a-1:aggregate-to-edit'],
      lacks: [
        'ClusterRole/crossplane:composite:xs.a.io:aggregate-to-view',
        'ClusterRole/crossplane:provider:p-a-1:aggregate-to-view',
      ],
    },
  };
  it.each(Object.entries(levels))('%s', (_n, tc) => {
    const got = names(tc.opts);
    for (const k of tc.has) expect(got, `${tc.reason} (wants ${k})`).toContain(k);
    for (const k of tc.lacks) expect(got, `${tc.reason} (must not have ${k})`).not.toContain(k);
  });

  it('lets flags override the crossplane-rbac ConfigMap', () => {
    const cm: ConfigMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'crossplane-rbac', namespace: 'crossplane-system' },
      data: { manage: 'serviceaccounts', disableBaseRoles: 'true' },
    };
    const snap = { ...cluster(), configMaps: [cm] };
    expect(renderSync(snap).settings.manage).toBe('serviceaccounts');
    expect(renderSync(snap, { manage: 'all' }).settings.manage).toBe('all');
    expect(names({ manage: 'basic' }, snap)).not.toContain('ClusterRole/crossplane-admin');
  });

  it('rejects bad ConfigMap values naming the key', () => {
    const bad = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'crossplane-rbac' },
      data: { providerBindingScope: 'galaxy' },
    } as const;
    expect(() => readSyncConfig(bad)).toThrow(SyncInputError);
    expect(() => readSyncConfig(bad)).toThrow(/providerBindingScope/);
  });

  const bad: Record<string, { reason: string; snap: ClusterSnapshot; opts: SyncOptions; match: RegExp }> = {
    UnknownXrds: {
      reason: 'Every unknown --xrd is listed.',
      snap: cluster(),
      opts: { xrds: ['no.a.io', 'xs.a.io', 'nein.a.io'] },
      match: /"nein\.a\.io", "no\.a\.io"/,
    },
    UnknownProvider: {
      reason: 'Unknown --provider names are an error.',
      snap: cluster(),
      opts: { providers: ['ghost'] },
      match: /ghost/,
    },
    UnknownNamespace: {
      reason: 'Unknown namespaces are an error.',
      snap: cluster(),
      opts: { namespaces: ['ghost-ns'] },
      match: /ghost-ns/,
    },
  };
  it.each(Object.entries(bad))('rejects %s', (_n, tc) => {
    expect(() => renderSync(tc.snap, tc.opts), tc.reason).toThrow(SyncInputError);
    expect(() => renderSync(tc.snap, tc.opts), tc.reason).toThrow(tc.match);
  });

  it('is deterministic: a shuffled snapshot renders identical output', () => {
    const base = cluster();
    const want = JSON.stringify(renderSync(base));
    for (const seed of [1, 7, 42]) {
      const s: ClusterSnapshot = {
        ...base,
        xrds: shuffled(base.xrds, seed),
        providerRevisions: shuffled(base.providerRevisions, seed),
        namespaces: shuffled(base.namespaces, seed),
        deployments: shuffled(base.deployments, seed),
      };
      expect(JSON.stringify(renderSync(s)), `seed ${seed}`).toBe(want);
    }
  });

  it('is deterministic on the real v2 AWS family', () => {
    const objs = loadYaml('providerrevisions-family-aws-v2.yaml');
    const snap = snapshot({
      providerRevisions: objs.filter((o) => o.kind === 'ProviderRevision') as unknown as ProviderRevision[],
      deployments: objs.filter((o) => o.kind === 'Deployment') as unknown as Deployment[],
    });
    const want = JSON.stringify(renderSync(snap).objects);
    const s = {
      ...snap,
      providerRevisions: shuffled(snap.providerRevisions, 3),
      deployments: shuffled(snap.deployments, 3),
    };
    expect(JSON.stringify(renderSync(s).objects)).toBe(want);
  });

  it('makes crossplane:aggregated and base roles only when the chart lacks them', () => {
    const roles = (f: string) =>
      loadYaml(f).filter((o) => o.kind === 'ClusterRole') as unknown as ClusterRole[];
    const full = names({}, snapshot({ clusterRoles: roles('crossplane-chart-rbac.yaml') }));
    expect(full).not.toContain('ClusterRole/crossplane:aggregated');
    expect(full).not.toContain('ClusterRole/crossplane-admin');
    const bare = names({}, snapshot({ clusterRoles: roles('crossplane-chart-rbac-no-rbac-manager.yaml') }));
    expect(bare).toContain('ClusterRoleBinding/crossplane:aggregated');
    expect(bare).toContain('ClusterRole/crossplane-admin');
  });
});

describe('detectCrossplane', () => {
  it('reads namespace, service account and major version from the Deployment', () => {
    expect(detectCrossplane([deployment('p', 'x', 'u', 'sa'), crossplaneDeployment])).toEqual({
      deploymentName: 'crossplane',
      namespace: 'platform',
      serviceAccountName: 'xp',
      image: 'xpkg.crossplane.io/crossplane/crossplane:v1.20.1',
      version: 'v1',
    });
    const out = renderSync(snapshot({ deployments: [crossplaneDeployment], xrds: [xrd('xs.a.io')] }));
    expect(out.settings).toMatchObject({
      crossplaneVersion: 'v1',
      crossplaneNamespace: 'platform',
      crossplaneServiceAccount: 'xp',
    });
    expect(
      (
        out.objects.find(
          (o) => o.metadata.name === 'crossplane:composite:xs.a.io:aggregate-to-edit',
        ) as ClusterRole
      ).metadata.labels,
    ).toHaveProperty('rbac.crossplane.io/xrd');
  });
});

describe('isInPruneScope', () => {
  it('limits namespace roles to the namespaces considered and ignores unknown plugin objects', () => {
    const ns = renderSync(cluster(), { namespaces: ['team-a'] });
    const role = (name: string, labels: Record<string, string> = {}) => ({
      kind: 'ClusterRole',
      metadata: { name, labels },
    });
    expect(
      isInPruneScope(
        role('crossplane-ns-team-a-edit', { 'namespace.crossplane.io/team-a': 'true' }),
        ns.scope,
      ),
    ).toBe(true);
    expect(
      isInPruneScope(
        role('crossplane-ns-team-b-edit', { 'namespace.crossplane.io/team-b': 'true' }),
        ns.scope,
      ),
    ).toBe(false);
    expect(isInPruneScope(role('something-else'), ns.scope)).toBe(false);
    const sa = renderSync(cluster(), { manage: 'serviceaccounts' });
    expect(
      isInPruneScope(role('crossplane-ns-team-a-edit'), sa.scope),
      'serviceaccounts never considers namespace roles',
    ).toBe(false);
  });
});
