// The validator's rules one by one. Names as Kubernetes validates them: apiextensions-apiserver
// ValidateCustomResourceDefinition (a CRD is named <plural>.<group>, the plural a DNS-1035 label, the group a DNS
// subdomain with a dot), and Crossplane names an XR's CRD after its XRD (so an XRD must be named so too).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/kube/types.js';
import {
  describeObject,
  findInvalidField,
  findInvalidObjects,
  InvalidInputError,
  invalidInputError,
  isOwnerObject,
} from '../../../src/crossplane/validate-input.js';

const PLURAL_RULE =
  'only lower-case letters, digits and "-", starting with a letter and ending with a letter or digit';
const GROUP_RULE = 'only lower-case letters, digits, "-" and ".", starting and ending with a letter or digit';
const K8S_GROUP =
  "it is one of Kubernetes' own API groups, which no XRD or provider is granted through Crossplane's roles";

function xrd(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'apiextensions.crossplane.io/v1',
    kind: 'CompositeResourceDefinition',
    metadata: { name },
    spec,
  };
}

function revision(objectRefs: Record<string, unknown>[] | undefined): KubeObject {
  return {
    apiVersion: 'pkg.crossplane.io/v1',
    kind: 'ProviderRevision',
    metadata: { name: 'provider-a-1' },
    ...(objectRefs !== undefined ? { status: { objectRefs } } : {}),
  };
}

const crd = (name: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  name,
});

describe('findInvalidField: XRDs', () => {
  const cases: Record<string, { reason: string; obj: KubeObject; want: unknown }> = {
    Valid: {
      reason: 'An XRD named <plural>.<group> with a valid group and plurals.',
      obj: xrd('things.example.org', {
        group: 'example.org',
        names: { kind: 'Thing', plural: 'things' },
        claimNames: { kind: 'Claim', plural: 'claims' },
      }),
      want: undefined,
    },
    WrongType: {
      reason: 'The schema comes first: the field path starts at the object.',
      obj: xrd('x', { group: 5, names: { plural: 'x' } }),
      want: { field: 'spec.group', problem: 'spec.group must be a string, found a number' },
    },
    StarGroup: {
      reason: 'A group is a DNS subdomain.',
      obj: xrd('things.*', { group: '*', names: { plural: 'things' } }),
      want: { field: 'spec.group', problem: `spec.group "*" is not a valid API group: ${GROUP_RULE}` },
    },
    KubernetesGroup: {
      reason: "Kubernetes' own groups (*.k8s.io) are never an XRD's.",
      obj: xrd('things.apps.k8s.io', { group: 'apps.k8s.io', names: { plural: 'things' } }),
      want: {
        field: 'spec.group',
        problem: `spec.group "apps.k8s.io" is not a valid API group: ${K8S_GROUP}`,
      },
    },
    NoPlural: {
      reason: 'Crossplane names the CRD after the plural: it must be there.',
      obj: xrd('things.example.org', { group: 'example.org', names: { kind: 'Thing' } }),
      want: { field: 'spec.names.plural', problem: 'spec.names.plural is required' },
    },
    BadPlural: {
      reason: 'A plural is a DNS-1035 label.',
      obj: xrd('3things.example.org', { group: 'example.org', names: { plural: '3things' } }),
      want: {
        field: 'spec.names.plural',
        problem: `spec.names.plural "3things" is not a valid resource name: ${PLURAL_RULE}`,
      },
    },
    ClaimWithoutPlural: {
      reason: 'claimNames, when given, need a plural too.',
      obj: xrd('things.example.org', {
        group: 'example.org',
        names: { plural: 'things' },
        claimNames: { kind: 'C' },
      }),
      want: { field: 'spec.claimNames.plural', problem: 'spec.claimNames.plural is required' },
    },
    BadClaimPlural: {
      reason: "The claim's plural is a DNS-1035 label too.",
      obj: xrd('things.example.org', {
        group: 'example.org',
        names: { plural: 'things' },
        claimNames: { plural: 'Claims' },
      }),
      want: {
        field: 'spec.claimNames.plural',
        problem: `spec.claimNames.plural "Claims" is not a valid resource name: ${PLURAL_RULE}`,
      },
    },
    OtherName: {
      reason: "The XR's CRD is named after the XRD, and a CRD must be named <plural>.<group>.",
      obj: xrd('other.example.org', { group: 'example.org', names: { plural: 'things' } }),
      want: {
        field: 'metadata.name',
        problem:
          'metadata.name "other.example.org" must be spec.names.plural + "." + spec.group ("things.example.org")',
      },
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(findInvalidField(tc.obj), tc.reason).toEqual(tc.want);
  });
});

describe('findInvalidField: ProviderRevisions', () => {
  const cases: Record<string, { reason: string; obj: KubeObject; want: unknown }> = {
    NoStatus: {
      reason: 'A revision that has defined nothing yet.',
      obj: revision(undefined),
      want: undefined,
    },
    Valid: {
      reason: 'A CRD named <plural>.<group>.',
      obj: revision([crd('things.example.org')]),
      want: undefined,
    },
    BadPluralSecondRef: {
      reason: 'The field names the ref by its index; the plural is checked first.',
      obj: revision([crd('things.example.org'), crd('3things.apps.k8s.io')]),
      want: {
        field: 'status.objectRefs[1].name',
        problem: `status.objectRefs[1].name "3things.apps.k8s.io" is not a valid CustomResourceDefinition name (<plural>.<group>): plural "3things": ${PLURAL_RULE}`,
      },
    },
    EmptyPlural: {
      reason: 'A leading dot leaves an empty plural (Crossplane cuts at the first dot).',
      obj: revision([crd('.example.org')]),
      want: {
        field: 'status.objectRefs[0].name',
        problem:
          'status.objectRefs[0].name ".example.org" is not a valid CustomResourceDefinition name (<plural>.<group>): plural "": it is empty',
      },
    },
    KubernetesGroup: {
      reason: 'The group after the first dot may not be one of Kubernetes own.',
      obj: revision([crd('things.apps.k8s.io')]),
      want: {
        field: 'status.objectRefs[0].name',
        problem: `status.objectRefs[0].name "things.apps.k8s.io" is not a valid CustomResourceDefinition name (<plural>.<group>): group "apps.k8s.io": ${K8S_GROUP}`,
      },
    },
    BadMrd: {
      reason: 'MRD refs define resources too (Crossplane v2).',
      obj: revision([
        {
          apiVersion: 'apiextensions.crossplane.io/v1alpha1',
          kind: 'ManagedResourceDefinition',
          name: 'buckets.*',
        },
      ]),
      want: {
        field: 'status.objectRefs[0].name',
        problem: `status.objectRefs[0].name "buckets.*" is not a valid ManagedResourceDefinition name (<plural>.<group>): group "*": ${GROUP_RULE}`,
      },
    },
    MrdKindInOtherGroup: {
      reason: 'Only apiextensions.crossplane.io ManagedResourceDefinitions define resources.',
      obj: revision([{ apiVersion: 'example.org/v1', kind: 'ManagedResourceDefinition', name: '3bad.*' }]),
      want: undefined,
    },
    OtherKindInMrdGroup: {
      reason: 'Only the ManagedResourceDefinition kind of apiextensions.crossplane.io.',
      obj: revision([{ apiVersion: 'apiextensions.crossplane.io/v1', kind: 'Composition', name: '3bad.*' }]),
      want: undefined,
    },
    NoDot: {
      reason: 'Crossplane skips a name without a dot: it defines nothing.',
      obj: revision([crd('nodot')]),
      want: undefined,
    },
    OtherKind: {
      reason: 'Refs that define no resource are not names of resources.',
      obj: revision([{ apiVersion: 'v1', kind: 'Service', name: '3bad.*' }]),
      want: undefined,
    },
    CrdKindInOtherGroup: {
      reason: 'Only apiextensions.k8s.io CustomResourceDefinitions define resources.',
      obj: revision([{ apiVersion: 'example.org/v1', kind: 'CustomResourceDefinition', name: '3bad.*' }]),
      want: undefined,
    },
    OtherKindInCrdGroup: {
      reason: 'Only the CustomResourceDefinition kind of that group.',
      obj: revision([{ apiVersion: 'apiextensions.k8s.io/v1', kind: 'Other', name: '3bad.*' }]),
      want: undefined,
    },
    TwoSlashes: {
      reason: 'An apiVersion with two "/" has no group (schema.ParseGroupVersion fails): no CRD.',
      obj: revision([
        { apiVersion: 'apiextensions.k8s.io/v1/x', kind: 'CustomResourceDefinition', name: '3bad.*' },
      ]),
      want: undefined,
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(findInvalidField(tc.obj), tc.reason).toEqual(tc.want);
  });
});

describe('isOwnerObject', () => {
  it('is true for XRDs and ProviderRevisions only', () => {
    expect(isOwnerObject(xrd('things.example.org', {}))).toBe(true);
    expect(isOwnerObject(revision(undefined))).toBe(true);
    expect(
      isOwnerObject({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'r' },
      }),
    ).toBe(false);
  });
});

describe('findInvalidObjects: Roles and RootSyncs among the other objects', () => {
  const role = (apiVersion: string): KubeObject => ({
    apiVersion,
    kind: 'Role',
    metadata: { name: 'r', namespace: 'team-a' },
    rules: [{ resources: ['pods'] }],
  });
  const rootSync = (apiVersion: string): KubeObject => ({
    apiVersion,
    kind: 'RootSync',
    metadata: { name: 5 } as unknown as KubeObject['metadata'],
  });

  it('checks RBAC Roles and Config Sync RootSyncs whatever the parts', () => {
    const found = findInvalidObjects(
      [role('rbac.authorization.k8s.io/v1'), rootSync('configsync.gke.io/v1beta1')],
      ['clusterRoles'],
    );
    expect(found.map((f) => [f.object.kind, f.field])).toEqual([
      ['Role', 'rules[0].verbs'],
      ['RootSync', 'metadata.name'],
    ]);
  });

  it('does not check another kind of those groups, even one whose schema it knows', () => {
    const clusterRoleOfConfigSync: KubeObject = {
      apiVersion: 'configsync.gke.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'c' },
      rules: [{}],
    };
    const rootSyncOfRbac: KubeObject = { ...rootSync('rbac.authorization.k8s.io/v1') };
    expect(findInvalidObjects([clusterRoleOfConfigSync, rootSyncOfRbac], ['clusterRoles'])).toEqual([]);
  });

  it('does not check a Role or RootSync of another API group', () => {
    expect(
      findInvalidObjects([role('example.org/v1'), rootSync('example.org/v1')], ['clusterRoles']),
    ).toEqual([]);
  });
});

describe('describeObject and invalidInputError', () => {
  const ns = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

  it('names a namespaced object with its namespace, and an empty namespace not at all', () => {
    const cm = (namespace: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace },
    });
    expect(describeObject(cm('team-a'))).toBe('ConfigMap "team-a/c"');
    expect(describeObject(cm(''))).toBe('ConfigMap "c"');
    expect(describeObject(ns('a'))).toBe('Namespace "a"');
  });

  it('names one object alone, and says what to do', () => {
    const err = invalidInputError(findInvalidObjects([ns('A')], ['namespaces']), () => 'in.yaml');
    expect(err.message).toBe(
      'in.yaml: Namespace "A": metadata.name "A" is not a valid namespace name: only lower-case letters, digits and "-", starting and ending with a letter or digit',
    );
    expect(err.name).toBe('InvalidInputError');
    expect(err.hint).toBe(
      'fix or remove the object (Kubernetes itself would refuse it); nothing was rendered or written',
    );
    expect(err.invalid).toHaveLength(1);
  });

  it('lists up to three more without counting', () => {
    const err = invalidInputError(
      findInvalidObjects(['A', 'B_', 'C ', 'D.'].map(ns), ['namespaces']),
      () => 'in.yaml',
    );
    expect(err.message).toMatch(
      /; also invalid: Namespace "B_" \(metadata.name\), Namespace "C " \(metadata.name\), Namespace "D." \(metadata.name\)$/,
    );
    expect(err).toBeInstanceOf(InvalidInputError);
  });

  it('refuses to make an error of nothing', () => {
    expect(() => invalidInputError([], () => 'in.yaml')).toThrow(
      'invalidInputError needs at least one invalid object',
    );
  });
});
