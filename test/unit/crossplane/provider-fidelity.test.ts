// Provider roles and bindings against Crossplane's own behaviour: provider/binding/reconciler.go and
// provider/roles/{reconciler,roles,requests}.go at v2.3.4 and, for --crossplane-version v1, at release-1.20.
import { describe, expect, it } from 'vitest';
import {
  definedResources,
  renderProviderRoles,
  renderRevisionClusterRoles,
  type ProviderRolePolicy,
} from '../../../src/crossplane/provider/roles.js';
import { sameRegistryAndOrg } from '../../../src/crossplane/provider/image.js';
import { renderSync } from '../../../src/sync/render.js';
import type { SyncOptions } from '../../../src/sync/settings.js';
import { SyncInputError } from '../../../src/crossplane/input-error.js';
import type {
  ClusterRole,
  ClusterSnapshot,
  PolicyRule,
  ProviderRevision,
  RbacObject,
} from '../../../src/kube/types.js';
import { chartClusterRoles } from './fidelity-fixtures.js';
import { crdRef, deployment, rev, snapshot } from '../sync/sync-fixtures.js';
import { objectKey } from '../../../src/kube/meta.js';

const keys = (objs: readonly RbacObject[]): string[] => objs.map(objectKey);

/** A revision with status.permissionRequests. */
function requesting(r: ProviderRevision, permissionRequests: PolicyRule[]): ProviderRevision {
  return { ...r, status: { ...r.status, permissionRequests } };
}

/** The v1.20 chart's allowed-provider-permissions role, with rules as the aggregation controller filled them in. */
function allowedRole(rules: PolicyRule[], name = 'crossplane:allowed-provider-permissions'): ClusterRole {
  const chart = chartClusterRoles('crossplane-chart-v1.20-rbac.yaml').find(
    (r) => r.metadata.name === 'crossplane:allowed-provider-permissions',
  )!;
  return { ...chart, metadata: { ...chart.metadata, name }, rules };
}

const SYSTEM_EXTRA: PolicyRule = {
  apiGroups: ['', 'coordination.k8s.io'],
  resources: ['secrets', 'configmaps', 'events', 'leases'],
  verbs: ['*'],
};
const SAFE_START: PolicyRule = {
  apiGroups: ['apiextensions.k8s.io'],
  resources: ['customresourcedefinitions'],
  verbs: ['get', 'list', 'watch'],
};
const NODES_READ: PolicyRule = { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] };
const PODS_DELETE: PolicyRule = { apiGroups: [''], resources: ['pods'], verbs: ['delete'] };

describe('a revision that defines no resources yet (installing)', () => {
  const installing = rev('provider-sql-1', []);
  const cases: Record<
    string,
    { reason: string; run: () => readonly RbacObject[]; want: string[]; subjects?: unknown }
  > = {
    InstallingGetsItsBinding: {
      reason:
        'provider/binding/reconciler.go Reconcile binds every revision that is neither paused nor being deleted, whatever its objectRefs; provider/roles/roles.go RenderClusterRoles returns nothing for no resources.',
      run: () => renderProviderRoles(installing, [installing], []),
      want: ['ClusterRoleBinding/crossplane:provider:provider-sql-1:system'],
    },
    InstallingWithItsDeployment: {
      reason:
        'The binding subjects are the ServiceAccounts of the Deployments the revision owns (binding/reconciler.go Reconcile), objectRefs or not.',
      run: () =>
        renderProviderRoles(
          installing,
          [installing],
          [deployment('provider-sql-1', 'crossplane-system', 'uid-provider-sql-1', 'provider-sql-1')],
        ),
      want: ['ClusterRoleBinding/crossplane:provider:provider-sql-1:system'],
      subjects: [{ kind: 'ServiceAccount', name: 'provider-sql-1', namespace: 'crossplane-system' }],
    },
    InstallingInSync: {
      reason: 'renderSync adds the binding of an installing revision and no ClusterRole for it.',
      run: () => renderSync(snapshot({ providerRevisions: [installing] }), { only: ['providers'] }).objects,
      want: ['ClusterRoleBinding/crossplane:provider:provider-sql-1:system'],
    },
    InstallingAtServiceAccountsLevel: {
      reason: 'The system binding is a software role binding: made at --manage serviceaccounts too.',
      run: () =>
        renderSync(snapshot({ providerRevisions: [installing] }), {
          only: ['providers'],
          manage: 'serviceaccounts',
        }).objects,
      want: ['ClusterRoleBinding/crossplane:provider:provider-sql-1:system'],
    },
    InstallingFamilyMember: {
      reason:
        'A family member without refs of its own still gets the family resources (provider/roles/reconciler.go Reconcile appends every member), so it gets its roles.',
      run: () => {
        const member = rev('aws-s3-1', [], { family: 'fam' });
        const family = rev('aws-family-1', ['providerconfigs.aws.io'], { family: 'fam' });
        return renderProviderRoles(member, [member, family], []);
      },
      want: [
        'ClusterRole/crossplane:provider:aws-s3-1:aggregate-to-edit',
        'ClusterRole/crossplane:provider:aws-s3-1:aggregate-to-view',
        'ClusterRole/crossplane:provider:aws-s3-1:system',
        'ClusterRoleBinding/crossplane:provider:aws-s3-1:system',
      ],
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    const out = tc.run();
    expect(keys(out), tc.reason).toEqual(tc.want);
    const binding = out.find((o) => o.kind === 'ClusterRoleBinding');
    if (tc.subjects !== undefined) expect(binding?.subjects, tc.reason).toEqual(tc.subjects);
    else if (tc.want.length === 1) expect(binding, tc.reason).not.toHaveProperty('subjects');
  });

  it('binds an installing revision with a RoleBinding per Deployment namespace in namespace scope', () => {
    const out = renderProviderRoles(
      installing,
      [installing],
      [deployment('provider-sql-1', 'team-a', 'uid-provider-sql-1', 'sa')],
      { bindingScope: 'namespace' },
    );
    expect(keys(out)).toEqual(['RoleBinding/team-a/crossplane:provider:provider-sql-1:system']);
  });
});

describe('duplicate refs within one revision', () => {
  const widgets = rev('provider-widgets-1', []);
  const dup: ProviderRevision = {
    ...widgets,
    status: {
      objectRefs: [
        crdRef('widgets.example.org'),
        crdRef('widgets.example.org'),
        crdRef('widgets.example.org', true),
      ],
    },
  };
  const thrice = ['widgets', 'widgets/status', 'widgets', 'widgets/status', 'widgets', 'widgets/status'];

  it('DuplicateRefsAreNotCollapsed', () => {
    const reason =
      'provider/roles/reconciler.go DefinedResources appends every CRD or MRD ref; roles.go RenderClusterRoles appends plural and plural/status per resource, so two CRD refs and an MRD ref of one name give them three times.';
    expect(definedResources(dup.status?.objectRefs), reason).toHaveLength(3);
    const [edit, view, system] = renderProviderRoles(dup, [dup], []) as ClusterRole[];
    expect(edit!.rules, reason).toEqual([{ apiGroups: ['example.org'], resources: thrice, verbs: ['*'] }]);
    expect(view!.rules![0]!.resources, reason).toEqual(thrice);
    expect(system!.rules!.slice(0, 2), reason).toEqual([
      {
        apiGroups: ['example.org'],
        resources: thrice,
        verbs: ['get', 'list', 'watch', 'update', 'patch', 'create'],
      },
      { apiGroups: ['example.org'], resources: ['*/finalizers'], verbs: ['update'] },
    ]);
  });
});

describe('--crossplane-version v1 (release-1.20)', () => {
  const v1 = (allowed?: ClusterRole): ProviderRolePolicy => ({
    crossplaneVersion: 'v1',
    ...(allowed !== undefined ? { providerClusterRole: allowed } : {}),
  });
  const base = rev('provider-a-1', ['things.a.io'], { capabilities: ['SafeStart'] });
  const systemOf = (out: { roles: readonly ClusterRole[] }) => out.roles[2]?.rules;

  const cases: Record<
    string,
    {
      reason: string;
      rev: ProviderRevision;
      policy: ProviderRolePolicy;
      wantSystemTail?: PolicyRule[];
      wantRejected: number;
    }
  > = {
    RequestsAppendedWhenAllowed: {
      reason:
        'v1.20 roles.go RenderClusterRoles appends status.permissionRequests verbatim after the extra rule, once reconciler.go Reconcile found none rejected; v1.20 has no safe-start rule.',
      rev: requesting(base, [NODES_READ]),
      policy: v1(allowedRole([{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] }])),
      wantSystemTail: [SYSTEM_EXTRA, NODES_READ],
      wantRejected: 0,
    },
    AnyRejectedRendersNoRoles: {
      reason:
        'v1.20 reconciler.go Reconcile returns before rendering any ClusterRole when ClusterRoleBackedValidator rejects one granular rule of the requests.',
      rev: requesting(base, [NODES_READ, PODS_DELETE]),
      policy: v1(allowedRole([{ apiGroups: [''], resources: ['nodes'], verbs: ['*'] }])),
      wantRejected: 1,
    },
    NoProviderClusterRoleRejectsEveryRequest: {
      reason:
        'Without --provider-clusterrole v1.20 keeps the VerySecureValidator (requests.go), which rejects every requested rule.',
      rev: requesting(base, [NODES_READ]),
      policy: v1(),
      wantRejected: 2,
    },
    NoRequestsNoProviderClusterRole: {
      reason:
        'VerySecureValidator rejects nothing when nothing is requested; v1.20 renders no safe-start rule.',
      rev: base,
      policy: v1(),
      wantSystemTail: [SYSTEM_EXTRA],
      wantRejected: 0,
    },
    V2IgnoresRequests: {
      reason:
        'v2.3.4 roles.go RenderClusterRoles never reads permissionRequests and adds the safe-start rule.',
      rev: requesting(base, [PODS_DELETE]),
      policy: { crossplaneVersion: 'v2' },
      wantSystemTail: [SYSTEM_EXTRA, SAFE_START],
      wantRejected: 0,
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    const out = renderRevisionClusterRoles(tc.rev, [tc.rev], tc.policy);
    expect(out.rejected, tc.reason).toHaveLength(tc.wantRejected);
    if (tc.wantSystemTail === undefined) expect(out.roles, tc.reason).toEqual([]);
    else expect(systemOf(out)!.slice(-tc.wantSystemTail.length), tc.reason).toEqual(tc.wantSystemTail);
  });

  it('AppendsRequestsAsTheApiServerStoresThem', () => {
    // PolicyRule's apiGroups, resources, resourceNames and nonResourceURLs are omitempty.
    const r = requesting(base, [
      { nonResourceURLs: ['/healthz'], verbs: ['get'], apiGroups: [], resources: [] },
    ]);
    const out = renderRevisionClusterRoles(
      r,
      [r],
      v1(allowedRole([{ nonResourceURLs: ['*'], verbs: ['get'] }])),
    );
    expect(systemOf(out)!.at(-1)).toStrictEqual({ nonResourceURLs: ['/healthz'], verbs: ['get'] });
  });

  it('V1DefinesOnlyCrds: release-1.20 DefinedResources knows no ManagedResourceDefinition', () => {
    const refs = [crdRef('buckets.s3.aws.io', true), crdRef('providerconfigs.aws.io')];
    expect(definedResources(refs, 'v1')).toEqual([{ group: 'aws.io', plural: 'providerconfigs' }]);
    expect(definedResources(refs, 'v2')).toHaveLength(2);
  });

  describe('family org with the default registry (v1.20 reconciler.go OrgDiffer, TestOrgDiffer)', () => {
    const orgCases: Record<
      string,
      { reason: string; a: string; b: string; registry: string; want: boolean }
    > = {
      SameOrg: {
        reason: 'A reference without a registry is in the default registry.',
        a: 'xpkg.example.org/cool/provider:v1.0.0',
        b: 'cool/other-provider:v1.0.0',
        registry: 'xpkg.example.org',
        want: true,
      },
      DifferentOrgs: {
        reason: 'Two orgs in the default registry differ.',
        a: 'cool/provider:v1.0.0',
        b: 'evil/other-provider:v1.0.0',
        registry: 'xpkg.example.org',
        want: false,
      },
      DifferentRegistriesWithDefaulting: {
        reason: 'Docker Hub is not the default registry.',
        a: 'index.docker.io/cool/provider:v1.0.0',
        b: 'cool/other-provider:v1.0.0',
        registry: 'xpkg.example.org',
        want: false,
      },
      NoDefaultRegistry: {
        reason: 'With no default registry (v2, or v1 without --provider-clusterrole) the two differ.',
        a: 'xpkg.example.org/cool/provider:v1.0.0',
        b: 'cool/other-provider:v1.0.0',
        registry: '',
        want: false,
      },
    };
    it.each(Object.entries(orgCases))('%s', (_n, tc) => {
      expect(sameRegistryAndOrg(tc.a, tc.b, tc.registry), tc.reason).toBe(tc.want);
    });

    it('merges crossplane-contrib/a with xpkg.crossplane.io/crossplane-contrib/b only with a provider clusterrole', () => {
      // cmd/crossplane/rbac/rbac.go: --registry defaults to xpkg.DefaultRegistry, "xpkg.crossplane.io" in v1.20, and
      // provider/roles/reconciler.go Setup passes it to the OrgDiffer only when --provider-clusterrole is set.
      const a = rev('provider-a-1', ['as.a.io'], {
        family: 'f',
        image: 'crossplane-contrib/provider-a:v1.0.0',
      });
      const b = rev('provider-b-1', ['bs.b.io'], {
        family: 'f',
        image: 'xpkg.crossplane.io/crossplane-contrib/provider-b:v1.0.0',
      });
      const groups = (p: ProviderRolePolicy) =>
        renderRevisionClusterRoles(a, [a, b], p).roles[0]!.rules!.map((r) => r.apiGroups![0]);
      expect(groups(v1(allowedRole([])))).toEqual(['a.io', 'b.io']);
      expect(groups(v1())).toEqual(['a.io']);
      expect(groups({ crossplaneVersion: 'v2' })).toEqual(['a.io']);
    });
  });
});

describe('renderSync --crossplane-version v1 and --provider-clusterrole', () => {
  const chartV120 = chartClusterRoles('crossplane-chart-v1.20-rbac.yaml');
  const withAllowed = (rules: PolicyRule[]) =>
    chartV120.map((r) =>
      r.metadata.name === 'crossplane:allowed-provider-permissions' ? { ...r, rules } : r,
    );
  const revs = [
    requesting(rev('provider-a-1', ['things.a.io']), [NODES_READ]),
    requesting(rev('provider-b-1', ['others.b.io']), [PODS_DELETE]),
    rev('provider-c-1', ['cs.c.io']),
  ];
  const snap = (clusterRoles: ClusterRole[]): ClusterSnapshot =>
    snapshot({ providerRevisions: revs, clusterRoles });
  const provider = (s: ClusterSnapshot, opts: SyncOptions) =>
    renderSync(s, { only: ['providers'], crossplaneVersion: 'v1', ...opts });
  const systemRoles = (objects: readonly RbacObject[]) =>
    objects.filter((o) => o.kind === 'ClusterRole' && o.metadata.name.endsWith(':system')).map(objectKey);

  it('DetectsTheChartRoleByItsSelector: the chart passes --provider-clusterrole=<name>:allowed-provider-permissions', () => {
    const out = provider(
      snap(withAllowed([{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] }])),
      {},
    );
    expect(out.settings.providerClusterRole).toBe('crossplane:allowed-provider-permissions');
    expect(systemRoles(out.objects)).toEqual([
      'ClusterRole/crossplane:provider:provider-a-1:system',
      'ClusterRole/crossplane:provider:provider-c-1:system',
    ]);
    expect(keys(out.objects)).toContain('ClusterRoleBinding/crossplane:provider:provider-b-1:system');
    expect(out.warnings).toEqual([
      expect.stringMatching(
        /^ProviderRevision "provider-b-1": .*"crossplane:allowed-provider-permissions".*resource: "pods".*verb: "delete"/,
      ),
    ]);
  });

  it('NamedRoleOverridesDetection', () => {
    const own = allowedRole([{ apiGroups: [''], resources: ['*'], verbs: ['*'] }], 'providers-may');
    const out = provider(snap([...withAllowed([]), own]), { providerClusterRole: 'providers-may' });
    expect(out.settings.providerClusterRole).toBe('providers-may');
    expect(systemRoles(out.objects)).toHaveLength(3);
    expect(out.warnings).toEqual([]);
  });

  it('NoChartRoleRejectsEveryRequest and says how to allow them', () => {
    const out = provider(snap([]), {});
    expect(out.settings.providerClusterRole).toBeUndefined();
    expect(systemRoles(out.objects)).toEqual(['ClusterRole/crossplane:provider:provider-c-1:system']);
    expect(out.warnings).toHaveLength(2);
    expect(out.warnings[0]).toContain('--provider-clusterrole');
  });

  it('AnUnknownNamedRoleIsAnError', () => {
    expect(() => provider(snap([]), { providerClusterRole: 'ghost' })).toThrow(SyncInputError);
    expect(() => provider(snap([]), { providerClusterRole: 'ghost' })).toThrow(/"ghost"/);
  });

  it('V2IgnoresTheFlagWithAWarning', () => {
    const out = renderSync(snap([]), {
      only: ['providers'],
      crossplaneVersion: 'v2',
      providerClusterRole: 'x',
    });
    expect(systemRoles(out.objects)).toHaveLength(3);
    expect(out.settings.providerClusterRole).toBeUndefined();
    expect(out.warnings).toEqual([expect.stringContaining('--provider-clusterrole')]);
  });

  it('DetectsTheRoleUnderNameOverride', () => {
    const renamed = chartClusterRoles('crossplane-chart-rbac-name-override.yaml');
    expect(provider(snap(renamed), {}).settings.providerClusterRole).toBe('xp:allowed-provider-permissions');
  });
});
