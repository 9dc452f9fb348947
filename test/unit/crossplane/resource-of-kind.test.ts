// A Composition names a kind; live, a provider's managed resources are known only by their CRDs' names in its
// ProviderRevision's objectRefs (`plural.group`). The plural a kind maps to is apimachinery's guess (kubernetes
// staging/src/k8s.io/apimachinery/pkg/api/meta/restmapper.go UnsafeGuessKindToResource: lower case, then `s`, `es`
// after an s, `ies` for a final y); the scope, Crossplane v2's `.m.` convention.
import { describe, expect, it } from 'vitest';
import { resourceOfKind } from '../../../src/crossplane/resolve-resource.js';
import type { KnownResource } from '../../../src/crossplane/resource-names.js';

function fromRevision(plural: string, group: string): KnownResource {
  return {
    group,
    versions: [],
    plural,
    singular: '',
    kind: '',
    shortNames: [],
    namespaced: false,
    source: 'provider',
    provider: 'rev',
    scopeUnknown: true,
  };
}

const KNOWN: KnownResource[] = [
  fromRevision('objects', 'kubernetes.crossplane.io'),
  fromRevision('objects', 'kubernetes.m.crossplane.io'),
  fromRevision('releases', 'helm.m.crossplane.io'),
  fromRevision('bucketpolicies', 's3.aws.upbound.io'),
  fromRevision('accesses', 'iam.example.io'),
  { ...fromRevision('widgets', 'exact.example.io'), kind: 'Gadget', scopeUnknown: false, namespaced: true },
];

const cases: Record<
  string,
  { group: string; kind: string; want: [string, boolean] | undefined; reason: string }
> = {
  ClusterScopedObject: {
    group: 'kubernetes.crossplane.io',
    kind: 'Object',
    want: ['objects', false],
    reason: 'provider-kubernetes\u2019 legacy Object: objects, cluster-scoped',
  },
  NamespacedObject: {
    group: 'kubernetes.m.crossplane.io',
    kind: 'Object',
    want: ['objects', true],
    reason: 'a `.m.` group holds Crossplane v2\u2019s namespaced managed resources',
  },
  FinalY: {
    group: 's3.aws.upbound.io',
    kind: 'BucketPolicy',
    want: ['bucketpolicies', false],
    reason: 'a final y becomes ies',
  },
  FinalS: { group: 'iam.example.io', kind: 'Access', want: ['accesses', false], reason: 'after an s, es' },
  ExactKindWins: {
    group: 'exact.example.io',
    kind: 'Gadget',
    want: ['widgets', true],
    reason: 'a resource whose kind is known (a CRD read, discovery) is taken as it is',
  },
  OtherGroup: {
    group: 'helm.crossplane.io',
    kind: 'Release',
    want: undefined,
    reason: 'no CRD of that group is known: nothing is guessed',
  },
  NoSuchPlural: {
    group: 'kubernetes.crossplane.io',
    kind: 'ObservedObjectCollection',
    want: undefined,
    reason: 'the revision defines no CRD of that plural',
  },
};

describe('resourceOfKind', () => {
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    const r = resourceOfKind(KNOWN, tc.group, tc.kind);
    expect(r === undefined ? undefined : [r.plural, r.namespaced], tc.reason).toStrictEqual(tc.want);
    if (r !== undefined) expect(r.kind, tc.reason).toBe(tc.kind);
  });
});
