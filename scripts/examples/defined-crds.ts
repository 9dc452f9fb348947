// The CustomResourceDefinitions Crossplane creates for the XRDs and provider packages of the examples, with the
// owner references it sets: an XRD controls the CRDs of its XR and claim (the definition and offered
// controllers); a provider revision that establishes its package objects controls them and the others own them
// (crossplane/crossplane internal/controller/pkg/revision/establisher.go prepareApply). MRD refs are left out:
// the ManagedResourceDefinition controller, not the package, creates those CRDs.
import type { KubeObject, OwnerReference } from '../../src/kube/types.js';
import { compareStrings } from '../../src/kube/order.js';
import { uid } from './ids.js';

interface Names {
  readonly plural: string;
  readonly kind: string;
}

interface Version {
  readonly name: string;
  readonly served?: boolean;
  readonly referenceable?: boolean;
}

/** A package CRD's one version: the examples' objectRefs do not say which versions it serves. */
const PACKAGE_VERSIONS: readonly Version[] = [{ name: 'v1beta1', served: true, referenceable: true }];

function crd(
  group: string,
  names: Names,
  scope: string,
  owners: readonly OwnerReference[],
  versions: readonly Version[],
): KubeObject {
  const name = `${names.plural}.${group}`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name, uid: uid('CustomResourceDefinition', name), ownerReferences: owners },
    spec: {
      group,
      names: {
        plural: names.plural,
        singular: names.kind.toLowerCase(),
        kind: names.kind,
        listKind: `${names.kind}List`,
      },
      scope,
      versions: versions.map((v) => ({
        name: v.name,
        served: v.served ?? true,
        storage: v.referenceable ?? false,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        subresources: { status: {} },
      })),
    },
  };
}

/** What a package's inventory says of one of its CRDs (inventories.ts's CrdRow). */
interface CrdDetail {
  readonly kind: string;
  readonly scope: string;
  readonly versions: readonly string[];
}

interface XrdSpec {
  readonly group: string;
  readonly names: Names;
  readonly claimNames?: Names;
  readonly scope?: string;
  readonly versions?: readonly Version[];
}

interface RevisionView {
  readonly metadata: { readonly name: string; readonly uid?: string };
  readonly spec: { readonly desiredState?: string; readonly revision?: number };
  readonly status?: {
    readonly objectRefs?: readonly { readonly apiVersion: string; readonly kind: string; readonly name: string }[];
  };
}

/** The kind a plural of a package's CRD stands for: the examples' objectRefs carry only names. */
function kindOf(plural: string): string {
  const singular = plural.endsWith('ies') ? `${plural.slice(0, -3)}y` : plural.replace(/s$/, '');
  return singular.charAt(0).toUpperCase() + singular.slice(1);
}

/**
 * The CRDs Crossplane would have created for the XRDs and provider revisions among DOCS, in name order. A package
 * CRD that DETAILS (the packages' inventories) describes gets its kind, scope and versions from there (the last
 * version stores); any other gets them guessed from its name.
 */
export function definedCrds(
  docs: readonly KubeObject[],
  details: ReadonlyMap<string, CrdDetail> = new Map(),
): KubeObject[] {
  const out = new Map<string, KubeObject>();
  for (const d of docs) {
    if (d.kind !== 'CompositeResourceDefinition') continue;
    const spec = (d as KubeObject & { spec: XrdSpec }).spec;
    const owner: OwnerReference = {
      apiVersion: d.apiVersion,
      kind: d.kind,
      name: d.metadata.name,
      uid: d.metadata.uid ?? '',
      controller: true,
      blockOwnerDeletion: true,
    };
    const xrScope = spec.scope === 'Namespaced' ? 'Namespaced' : 'Cluster';
    const versions = spec.versions ?? PACKAGE_VERSIONS;
    out.set(`${spec.names.plural}.${spec.group}`, crd(spec.group, spec.names, xrScope, [owner], versions));
    if (spec.claimNames !== undefined) {
      out.set(`${spec.claimNames.plural}.${spec.group}`, crd(spec.group, spec.claimNames, 'Namespaced', [owner], versions));
    }
  }
  // Per package CRD, the revisions that reference it: the active one controls it, the others own it.
  const refs = new Map<string, RevisionView[]>();
  for (const d of docs) {
    if (d.kind !== 'ProviderRevision') continue;
    const rev = d as KubeObject & RevisionView;
    for (const r of rev.status?.objectRefs ?? []) {
      if (r.kind !== 'CustomResourceDefinition') continue;
      refs.set(r.name, [...(refs.get(r.name) ?? []), rev]);
    }
  }
  const kinds = new Set<string>();
  for (const [name, revs] of [...refs].sort(([a], [b]) => compareStrings(a, b))) {
    const dot = name.indexOf('.');
    const plural = name.slice(0, dot);
    const group = name.slice(dot + 1);
    const known = details.get(name);
    // A kind is unique in its group: a guess that collides gets a suffix.
    let kind = known?.kind ?? kindOf(plural);
    for (let i = 2; known === undefined && kinds.has(`${group}/${kind}`); i++) kind = `${kindOf(plural)}${String(i)}`;
    kinds.add(`${group}/${kind}`);
    const active = revs.find((r) => r.spec.desiredState === 'Active') ?? revs[revs.length - 1];
    const owners = revs.map(
      (r): OwnerReference => ({
        apiVersion: 'pkg.crossplane.io/v1',
        kind: 'ProviderRevision',
        name: r.metadata.name,
        uid: r.metadata.uid ?? '',
        ...(r === active ? { controller: true, blockOwnerDeletion: true } : {}),
      }),
    );
    const scope = known?.scope ?? (group.includes('.m.') ? 'Namespaced' : 'Cluster');
    const versions =
      known === undefined
        ? PACKAGE_VERSIONS
        : known.versions.map((v, i) => ({ name: v, referenceable: i === known.versions.length - 1 }));
    out.set(name, crd(group, { plural, kind }, scope, owners, versions));
  }
  return [...out.values()].sort((a, b) => compareStrings(a.metadata.name, b.metadata.name));
}
