// A provider Deployment without serviceAccountName. Crossplane's binding reconciler
// (crossplane/crossplane internal/controller/rbac/provider/binding/reconciler.go
// @2d040d2daf4e001799c4154a4a09b9e1f40d7fde Reconcile) lists the Deployments owned by the revision and makes one
// ServiceAccount subject per owner reference with `Name: d.Spec.Template.Spec.ServiceAccountName`, as it is: empty
// when unset. The API server refuses such a binding (kubernetes/kubernetes pkg/apis/rbac/validation/validation.go
// @036ae50761389440bd949a548e24d9e622492bb8 validateRoleBindingSubject: `subjects[i].name: Required value`), so the
// revision ends up with no binding at all. Binding "default" instead would give the provider's permissions to every
// pod of crossplane-system that runs as "default".
import { describe, expect, it } from 'vitest';
import { renderProviderRoles } from '../../../src/crossplane/provider/roles.js';
import { renderSync } from '../../../src/sync/render.js';
import type {
  ClusterRoleBinding,
  Deployment,
  RbacObject,
  RoleBinding,
  Subject,
} from '../../../src/kube/types.js';
import { deployment, rev, snapshot } from '../sync/sync-fixtures.js';

/** deployment() of the sync fixtures with serviceAccountName removed (SA undefined) or set to SA. */
function deploymentWithSa(name: string, ns: string, uid: string, sa: string | undefined): Deployment {
  const d = deployment(name, ns, uid, 'placeholder');
  const spec = { ...d.spec!.template!.spec! };
  delete (spec as { serviceAccountName?: string }).serviceAccountName;
  return {
    ...d,
    spec: { template: { spec: sa === undefined ? spec : { ...spec, serviceAccountName: sa } } },
  };
}

const isBinding = (o: RbacObject): o is ClusterRoleBinding | RoleBinding =>
  o.kind === 'ClusterRoleBinding' || o.kind === 'RoleBinding';
const subjectsOf = (objs: readonly RbacObject[]): Subject[] =>
  objs.filter(isBinding).flatMap((o) => o.subjects ?? []);

describe('a provider Deployment without serviceAccountName', () => {
  const r = rev('provider-a-1', ['things.a.io']);
  const cases: Record<string, { reason: string; deployments: Deployment[] }> = {
    Unset: {
      reason: 'No serviceAccountName: Crossplane binds "", which the API server refuses.',
      deployments: [deploymentWithSa('provider-a-1', 'crossplane-system', 'uid-provider-a-1', undefined)],
    },
    Empty: {
      reason: 'An empty serviceAccountName is the same.',
      deployments: [deploymentWithSa('provider-a-1', 'crossplane-system', 'uid-provider-a-1', '')],
    },
    OneOfTwo: {
      reason:
        'One binding holds every subject: one empty name makes the API server refuse the whole binding, the named one too.',
      deployments: [
        deploymentWithSa('provider-a-1', 'crossplane-system', 'uid-provider-a-1', 'provider-a-1'),
        deploymentWithSa('provider-a-1-extra', 'crossplane-system', 'uid-provider-a-1', undefined),
      ],
    },
  };

  it.each(Object.entries(cases))('%s: renders no binding (cluster scope)', (_n, tc) => {
    const out = renderProviderRoles(r, [r], tc.deployments);
    expect(out.filter(isBinding), tc.reason).toEqual([]);
    expect(
      out.map((o) => o.kind),
      'the roles are rendered as before',
    ).toEqual(['ClusterRole', 'ClusterRole', 'ClusterRole']);
  });

  it.each(Object.entries(cases))('%s: renders no RoleBinding (namespace scope)', (_n, tc) => {
    const out = renderProviderRoles(r, [r], tc.deployments, { bindingScope: 'namespace' });
    expect(out.filter(isBinding), tc.reason).toEqual([]);
  });

  it.each(['cluster', 'namespace'] as const)(
    'sync (%s scope) binds no "default" ServiceAccount and warns naming the revision and the Deployment',
    (scope) => {
      const snap = snapshot({
        providerRevisions: [r],
        deployments: [deploymentWithSa('provider-a-1', 'crossplane-system', 'uid-provider-a-1', undefined)],
      });
      const out = renderSync(snap, { only: ['providers'], providerBindingScope: scope });
      const bindings = out.objects.filter(isBinding);
      expect(bindings).toEqual([]);
      expect(subjectsOf(out.objects).filter((s) => s.name === 'default' || s.name === '')).toEqual([]);
      const warning = out.warnings.find((w) => w.includes('"provider-a-1"'));
      expect(warning).toBeDefined();
      expect(warning).toContain('crossplane-system/provider-a-1');
      expect(warning).toContain('serviceAccountName');
    },
  );

  it('still binds a revision whose Deployment names its ServiceAccount, and an inactive one without subjects', () => {
    const inactive = rev('provider-a-0', ['things.a.io'], { desiredState: 'Inactive' });
    const snap = snapshot({
      providerRevisions: [r, inactive],
      deployments: [
        deploymentWithSa('provider-a-1', 'crossplane-system', 'uid-provider-a-1', 'provider-a-1'),
      ],
    });
    const out = renderSync(snap, { only: ['providers'] });
    expect(out.warnings).toEqual([]);
    expect(out.objects.filter(isBinding).map((b) => [b.metadata.name, subjectsOf([b])])).toEqual([
      ['crossplane:provider:provider-a-0:system', []],
      [
        'crossplane:provider:provider-a-1:system',
        [{ kind: 'ServiceAccount', name: 'provider-a-1', namespace: 'crossplane-system' }],
      ],
    ]);
  });
});
