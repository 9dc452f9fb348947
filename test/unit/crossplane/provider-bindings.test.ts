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
import { renderProviderBindings } from '../../../src/crossplane/provider/bindings.js';
import { renderSync } from '../../../src/sync/render.js';
import type {
  ClusterRoleBinding,
  Deployment,
  OwnerReference,
  ProviderRevision,
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

/** Metadata without its namespace (an object of a file may have none). */
function withoutNamespace(m: Deployment['metadata']): Deployment['metadata'] {
  const { namespace: _namespace, ...rest } = m;
  return rest;
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

// The subjects of the system binding as crossplane's binding reconciler (provider/binding/reconciler.go Reconcile)
// makes them: the Deployments are listed (the API server lists them in namespace/name order), and every owner
// reference with the revision's UID gives one ServiceAccount subject in the Deployment's namespace.
describe('the system binding subjects', () => {
  const r = rev('provider-a-1', ['things.a.io']);
  const uid = 'uid-provider-a-1';
  const otherOwner = {
    apiVersion: 'pkg.crossplane.io/v1',
    kind: 'ProviderRevision',
    name: 'provider-b-1',
    uid: 'uid-provider-b-1',
  };
  const bindingOf = (objs: readonly RbacObject[]): ClusterRoleBinding | RoleBinding | undefined =>
    objs.find(isBinding);

  it('lists the Deployments in namespace, then name order, whatever the input order', () => {
    const out = renderProviderRoles(
      r,
      [r],
      [
        deploymentWithSa('z-deploy', 'b-ns', uid, 'sa-1'),
        deploymentWithSa('b-deploy', 'a-ns', uid, 'sa-2'),
        deploymentWithSa('a-deploy', 'b-ns', uid, 'sa-3'),
      ],
    );
    expect(bindingOf(out)?.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'sa-2', namespace: 'a-ns' },
      { kind: 'ServiceAccount', name: 'sa-3', namespace: 'b-ns' },
      { kind: 'ServiceAccount', name: 'sa-1', namespace: 'b-ns' },
    ]);
  });

  it('takes a Deployment the revision owns with another owner, once', () => {
    const d = deploymentWithSa('provider-a-1', 'crossplane-system', uid, 'sa-1');
    const shared: Deployment = {
      ...d,
      metadata: { ...d.metadata, ownerReferences: [otherOwner, ...(d.metadata.ownerReferences ?? [])] },
    };
    expect(bindingOf(renderProviderRoles(r, [r], [shared]))?.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'sa-1', namespace: 'crossplane-system' },
    ]);
  });

  it("ignores another revision's Deployment, even one without serviceAccountName", () => {
    const out = renderProviderBindings(r, [
      deploymentWithSa('provider-b-1', 'crossplane-system', 'uid-b', undefined),
    ]);
    expect(out.warning).toBeUndefined();
    expect(out.objects).toHaveLength(1);
    expect(out.objects[0]).not.toHaveProperty('subjects');
  });

  it('binds no subject for a revision without a UID (no owner reference can name it)', () => {
    const noUid: ProviderRevision = { ...r, metadata: { ...r.metadata, uid: '' } };
    const d = deploymentWithSa('provider-a-1', 'crossplane-system', '', 'sa-1');
    const out = renderProviderBindings(noUid, [d]);
    expect(out.objects).toHaveLength(1);
    expect(out.objects[0]).not.toHaveProperty('subjects');
    const undefinedUid: ProviderRevision = { ...r, metadata: { name: r.metadata.name } };
    const withoutUid: Deployment = {
      ...d,
      metadata: {
        ...d.metadata,
        // The schema (validate-input.ts) lets an owner reference of a file leave out its uid.
        ownerReferences: [
          {
            apiVersion: 'pkg.crossplane.io/v1',
            kind: 'ProviderRevision',
            name: 'provider-a-1',
          } as OwnerReference,
        ],
      },
    };
    expect(renderProviderBindings(undefinedUid, [withoutUid]).objects[0]).not.toHaveProperty('subjects');
  });

  it('orders a Deployment without namespace as one in "default", the namespace its subject names', () => {
    // Crossplane lists the Deployments in namespace/name order (the API server's); the one without namespace is
    // in "default", so it comes after crossplane-system (and the "1team" namespace before both).
    const d = deploymentWithSa('provider-a-1', 'crossplane-system', uid, 'sa-1');
    const noNs: Deployment = { ...d, metadata: withoutNamespace(d.metadata) };
    const out = renderProviderRoles(
      r,
      [r],
      [noNs, d, deploymentWithSa('provider-a-1', '1team', uid, 'sa-2')],
    );
    expect(bindingOf(out)?.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'sa-2', namespace: '1team' },
      { kind: 'ServiceAccount', name: 'sa-1', namespace: 'crossplane-system' },
      { kind: 'ServiceAccount', name: 'sa-1', namespace: 'default' },
    ]);
  });

  it('counts a Deployment without template, or a template without spec, as one without serviceAccountName', () => {
    const d = deploymentWithSa('provider-a-1', 'crossplane-system', uid, 'sa');
    for (const spec of [{}, { template: {} }]) {
      const out = renderProviderBindings(r, [{ ...d, spec }]);
      expect(out.objects).toEqual([]);
      expect(out.warning).toContain('Deployment crossplane-system/provider-a-1 sets no serviceAccountName');
    }
  });

  it('puts a Deployment without namespace in "default", as kubectl does with the objects of a file', () => {
    const d = deploymentWithSa('provider-a-1', 'crossplane-system', uid, 'sa-1');
    const noNs: Deployment = { ...d, metadata: withoutNamespace(d.metadata) };
    expect(bindingOf(renderProviderRoles(r, [r], [noNs]))?.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'sa-1', namespace: 'default' },
    ]);
  });

  it('makes the RoleBindings in namespace order, a Deployment without namespace in "default"', () => {
    const d = deploymentWithSa('provider-a-1', 'crossplane-system', uid, 'sa-1');
    const noNs: Deployment = { ...d, metadata: withoutNamespace(d.metadata) };
    const out = renderProviderBindings(
      r,
      [noNs, deploymentWithSa('provider-a-1', 'a-ns', uid, 'sa-2')],
      'namespace',
    );
    expect(out.objects.map((o) => [o.metadata.namespace, o.subjects])).toEqual([
      ['a-ns', [{ kind: 'ServiceAccount', name: 'sa-2', namespace: 'a-ns' }]],
      ['default', [{ kind: 'ServiceAccount', name: 'sa-1', namespace: 'default' }]],
    ]);
  });

  it('binds cluster-wide by default', () => {
    const out = renderProviderBindings(r, [deploymentWithSa('provider-a-1', 'team-a', uid, 'sa-1')]);
    expect(out.objects.map((o) => o.kind)).toEqual(['ClusterRoleBinding']);
  });
});

describe('the warning for Deployments without serviceAccountName', () => {
  const r = rev('provider-a-1', ['things.a.io']);
  const uid = 'uid-provider-a-1';

  it('names the one Deployment', () => {
    expect(
      renderProviderBindings(r, [deploymentWithSa('provider-a-1', 'crossplane-system', uid, undefined)])
        .warning,
    ).toBe(
      'ProviderRevision "provider-a-1": Deployment crossplane-system/provider-a-1 sets no serviceAccountName, so its ' +
        'system ClusterRole is bound to nothing (binding the "default" ServiceAccount would grant it to every pod ' +
        'that runs as "default")',
    );
  });

  it('names several Deployments, in namespace/name order, one without namespace as (and sorted as) default/', () => {
    const d = deploymentWithSa('provider-a-x', 'crossplane-system', uid, '');
    const noNs: Deployment = { ...d, metadata: withoutNamespace(d.metadata) };
    expect(
      renderProviderBindings(r, [deploymentWithSa('provider-a-1', 'crossplane-system', uid, undefined), noNs])
        .warning,
    ).toBe(
      'ProviderRevision "provider-a-1": Deployments crossplane-system/provider-a-1, default/provider-a-x set no ' +
        'serviceAccountName, so its system ClusterRole is bound to nothing (binding the "default" ServiceAccount ' +
        'would grant it to every pod that runs as "default")',
    );
  });

  it('counts a Deployment without spec as one without serviceAccountName', () => {
    const d = deploymentWithSa('provider-a-1', 'crossplane-system', uid, 'sa');
    const noSpec: Deployment = { apiVersion: d.apiVersion, kind: d.kind, metadata: d.metadata };
    const out = renderProviderBindings(r, [noSpec]);
    expect(out.objects).toEqual([]);
    expect(out.warning).toContain('Deployment crossplane-system/provider-a-1 sets no serviceAccountName');
  });
});
