/**
 * The providers whose managed resources act on their own cluster (provider-kubernetes, provider-helm), as the audit
 * finds them: by the CRDs their active ProviderRevisions control (owner references only administrators write) and
 * the revisions' status.objectRefs, else by their package (spec.image), which a writer of the revisions' status
 * cannot change; with their accounts and the ProviderConfigs read of their kinds.
 */
import type { Deployment, KubeObject, ProviderRevision } from '../kube/types.js';
import type { Identity } from './rights.js';
import type { ConfigKind, InClusterConfig, InClusterProvider, UnreadConfigKind } from './steps.js';

/** What finding them takes: the revisions, the Deployments (whose account runs each), the ProviderConfigs read. */
export interface InClusterInput {
  readonly providerRevisions: readonly ProviderRevision[];
  readonly deployments: readonly Deployment[];
  readonly providerConfigs?: readonly KubeObject[] | undefined;
  readonly providerConfigsUnread?: readonly UnreadConfigKind[] | undefined;
  /** The in-cluster CRDs read (IN_CLUSTER_KINDS), whose controller references say which revision serves them. */
  readonly inClusterCrds?: readonly KubeObject[] | undefined;
}

/**
 * The ProviderConfig kinds of the in-cluster providers (provider-kubernetes, provider-helm), as `plural.group`:
 * cluster-scoped ProviderConfig in the legacy group, namespaced ProviderConfig and cluster-scoped
 * ClusterProviderConfig in the `.m.` group (Crossplane v2). Not the ProviderConfigUsages.
 */
export const IN_CLUSTER_CONFIG_CRDS: readonly string[] = ['kubernetes', 'helm'].flatMap((family) =>
  familyConfigKinds(family).map((k) => `${k.resource}.${k.group}`),
);

/**
 * A family's ProviderConfig kinds with their scope (provider-kubernetes package/crds: the legacy group's is
 * cluster-scoped; in the `.m.` group ProviderConfig is namespaced, ClusterProviderConfig cluster-scoped).
 */
function familyConfigKinds(family: string): ConfigKind[] {
  const legacy = `${family}.crossplane.io`;
  const m = `${family}.m.crossplane.io`;
  return [
    { group: legacy, resource: 'providerconfigs', kind: 'ProviderConfig', namespaced: false },
    { group: m, resource: 'providerconfigs', kind: 'ProviderConfig', namespaced: true },
    { group: m, resource: 'clusterproviderconfigs', kind: 'ClusterProviderConfig', namespaced: false },
  ];
}

/** The managed-resource CRDs of the providers that act on their own cluster (provider-kubernetes, provider-helm). */
export const IN_CLUSTER_KINDS: readonly string[] = [
  'objects.kubernetes.crossplane.io',
  'objects.kubernetes.m.crossplane.io',
  'releases.helm.crossplane.io',
  'releases.helm.m.crossplane.io',
];
/** The package repository (its last path segment) of each in-cluster provider's family. */
const IN_CLUSTER_PACKAGES: Readonly<Record<string, string>> = {
  'provider-kubernetes': 'kubernetes',
  'provider-helm': 'helm',
};

const isActive = (rev: ProviderRevision): boolean => (rev.spec.desiredState ?? 'Active') === 'Active';

/**
 * The CRD names (`plural.group`) an active ProviderRevision's objectRefs name: CustomResourceDefinitions, or the
 * ManagedResourceDefinitions of the same name Crossplane v2 makes of a provider's managed-resource CRDs and reports
 * instead (crossplane internal/converter/custom_to_managed.go@2d040d2daf4e001799c4154a4a09b9e1f40d7fde).
 */
function crdsOf(rev: ProviderRevision): string[] {
  if (!isActive(rev)) return [];
  return (rev.status?.objectRefs ?? [])
    .filter(
      (r) =>
        r.kind === 'CustomResourceDefinition' ||
        (r.kind === 'ManagedResourceDefinition' &&
          (r.apiVersion ?? '').startsWith('apiextensions.crossplane.io/')),
    )
    .map((r) => r.name ?? '');
}

/**
 * The in-cluster family (kubernetes, helm) an active revision's package is, by its spec.image's repository
 * (`REGISTRY/ORG/provider-kubernetes:TAG` or `@DIGEST`): the spec is written by whoever may update ProviderRevisions
 * (Crossplane's package manager), not by a writer of their status (crossplane apis/pkg/v1/revision_types.go
 * @07b8dfc66a53814fe9ff3e3d17735928a8d45064: spec.image is the package; status.objectRefs, the objects it made).
 */
function packageFamily(rev: ProviderRevision): string | undefined {
  const image = isActive(rev) ? rev.spec.image : undefined;
  if (typeof image !== 'string') return undefined;
  const path = image.split('@')[0] ?? '';
  const last = path.slice(path.lastIndexOf('/') + 1);
  const repository = last.includes(':') ? last.slice(0, last.indexOf(':')) : last;
  return IN_CLUSTER_PACKAGES[repository];
}

/** An in-cluster CRD read, and the ProviderRevision its controller reference names. */
interface CrdController {
  readonly crd: string;
  readonly revision: string;
  readonly uid: string | undefined;
}

/**
 * The controllers of the in-cluster CRDs read: Crossplane's package manager makes the active revision the controller
 * of each CRD it installs (crossplane internal/controller/pkg/revision/establisher.go
 * @2d040d2daf4e001799c4154a4a09b9e1f40d7fde, create and update; a revision no longer active is left an owner only,
 * ReleaseObjects), and of each CRD an MRD makes (internal/controller/apiextensions/managed/crd.go, the MRD's
 * controller copied). Only who may write CRDs sets them; a CRD's name is its plural and group (apiextensions
 * validation), so the name says which kind it serves.
 */
function crdControllers(crds: readonly KubeObject[]): CrdController[] {
  return crds.flatMap((c) => {
    // A CustomResourceDefinition of apiextensions.k8s.io only: an object of another group named so (a file's, a
    // custom resource someone else may write) is no evidence.
    if (
      c.kind !== 'CustomResourceDefinition' ||
      !c.apiVersion.startsWith('apiextensions.k8s.io/') ||
      !IN_CLUSTER_KINDS.includes(c.metadata.name)
    )
      return [];
    const owner = (c.metadata.ownerReferences ?? []).find(
      (o) =>
        o.controller === true &&
        o.kind === 'ProviderRevision' &&
        o.apiVersion.startsWith('pkg.crossplane.io/'),
    );
    return owner === undefined ? [] : [{ crd: c.metadata.name, revision: owner.name, uid: owner.uid }];
  });
}

/** Whether C's controller is REV (by name, and by uid where both carry one: a revision made again is another). */
const controls = (c: CrdController, rev: ProviderRevision): boolean =>
  c.revision === rev.metadata.name &&
  (c.uid === undefined || rev.metadata.uid === undefined || c.uid === rev.metadata.uid);

/** What is known of which active revision serves which in-cluster kind. */
interface Evidence {
  readonly revisions: readonly ProviderRevision[];
  readonly controllers: readonly CrdController[];
}

/** The active revision other than REV that controls CRD, if any: then REV does not serve its kind. */
function servedElsewhere(ev: Evidence, rev: ProviderRevision, crd: string): ProviderRevision | undefined {
  const c = ev.controllers.find((x) => x.crd === crd);
  if (c === undefined || controls(c, rev)) return undefined;
  return ev.revisions.find((r) => r !== rev && isActive(r) && controls(c, r));
}

const byKindOrder = (a: string, b: string): number =>
  IN_CLUSTER_KINDS.indexOf(a) - IN_CLUSTER_KINDS.indexOf(b);

/**
 * The in-cluster kinds a revision serves, and its family: the CRDs it controls and the kinds its status.objectRefs
 * name (but those whose CRD another active revision controls), else, its package being provider-kubernetes or
 * provider-helm, the family's kinds; a doubt where the evidence disagrees (the status misses a CRD it controls, or
 * names none while its package is one), and a note where another revision's status names a CRD it controls.
 */
function evidenceOf(
  rev: ProviderRevision,
  ev: Evidence,
): { crds: string[]; family: string; doubt?: string; note?: string } | undefined {
  if (!isActive(rev)) return undefined;
  const status = crdsOf(rev).filter((n) => IN_CLUSTER_KINDS.includes(n));
  const owned = ev.controllers.filter((c) => controls(c, rev)).map((c) => c.crd);
  const kept = status.filter((n) => servedElsewhere(ev, rev, n) === undefined);
  const crds = [...new Set([...owned, ...kept])].sort(byKindOrder);
  const note = claimsOf(rev, ev);
  const [first] = crds;
  const name = rev.metadata.name;
  if (first !== undefined) {
    const unnamed = owned.filter((n) => !status.includes(n)).sort(byKindOrder);
    return {
      crds,
      family: first.split('.')[1] ?? '',
      ...(unnamed.length > 0
        ? {
            doubt: `CustomResourceDefinition ${unnamed.join(', ')}'s controller is ProviderRevision ${name}, but its status.objectRefs do not name it; a CRD's owners are written by administrators, status by whoever may update providerrevisions/status, so its kinds are taken from the CRDs`,
          }
        : {}),
      ...(note !== undefined ? { note } : {}),
    };
  }
  const family = packageFamily(rev);
  if (family === undefined) return undefined;
  const familyCrds = IN_CLUSTER_KINDS.filter(
    (k) => k.split('.')[1] === family && servedElsewhere(ev, rev, k) === undefined,
  );
  if (familyCrds.length === 0) return undefined;
  return {
    crds: familyCrds,
    family,
    doubt: `ProviderRevision ${name}'s package is provider-${family} (spec.image ${rev.spec.image ?? ''}), but its status.objectRefs name none of its kinds; status is written by whoever may update providerrevisions/status, so its kinds are taken from the package`,
    ...(note !== undefined ? { note } : {}),
  };
}

/** What other active revisions' status.objectRefs claim of the CRDs REV controls (not believed: the CRD says REV). */
function claimsOf(rev: ProviderRevision, ev: Evidence): string | undefined {
  const claims = ev.revisions.flatMap((other) =>
    other === rev
      ? []
      : crdsOf(other)
          .filter((n) => servedElsewhere(ev, other, n) === rev)
          .map(
            (n) =>
              `ProviderRevision ${other.metadata.name}'s status.objectRefs name CustomResourceDefinition ${n}, but its controller is ProviderRevision ${rev.metadata.name}`,
          ),
  );
  return claims.length > 0 ? claims.join('; ') : undefined;
}

/**
 * The ProviderConfig CRDs (`plural.group`) of the in-cluster providers whose active revisions are read (by the CRDs
 * they control, their objectRefs or their package): what a live audit lists to decide their provider-identity steps.
 */
export function inClusterConfigCrds(
  revisions: readonly ProviderRevision[],
  crds: readonly KubeObject[],
): string[] {
  const ev: Evidence = { revisions, controllers: crdControllers(crds) };
  const names = revisions.flatMap((rev) => {
    const family = evidenceOf(rev, ev)?.family;
    return family === undefined ? [] : familyConfigKinds(family).map((k) => `${k.resource}.${k.group}`);
  });
  return [...new Set(names)].sort();
}

/** A ProviderConfig read: its kind, group, namespace (namespaced kinds) and name, and whether it is InjectedIdentity. */
function configRead(c: KubeObject): InClusterConfig {
  return {
    group: c.apiVersion.includes('/') ? c.apiVersion.slice(0, c.apiVersion.indexOf('/')) : '',
    kind: c.kind,
    name: c.metadata.name,
    ...(c.metadata.namespace !== undefined ? { namespace: c.metadata.namespace } : {}),
    injected: credentialsSource(c) === 'InjectedIdentity',
  };
}

/** The providers whose managed resources act as their own account, each with its account and kinds. */
export function inClusterProviders(input: InClusterInput, crossplaneNamespace: string): InClusterProvider[] {
  const out: InClusterProvider[] = [];
  const ev: Evidence = {
    revisions: input.providerRevisions,
    controllers: crdControllers(input.inClusterCrds ?? []),
  };
  for (const rev of input.providerRevisions) {
    const evidence = evidenceOf(rev, ev);
    if (evidence === undefined) continue;
    const deployment = input.deployments.find((d) =>
      (d.metadata.ownerReferences ?? []).some(
        (o) => o.kind === 'ProviderRevision' && o.name === rev.metadata.name,
      ),
    );
    const account: Identity =
      deployment !== undefined
        ? {
            kind: 'ServiceAccount',
            name: deployment.spec?.template?.spec?.serviceAccountName ?? 'default',
            namespace: deployment.metadata.namespace ?? crossplaneNamespace,
          }
        : { kind: 'ServiceAccount', name: rev.metadata.name, namespace: crossplaneNamespace };
    const split = (n: string): { group: string; resource: string } => {
      const dot = n.indexOf('.');
      return { group: n.slice(dot + 1), resource: n.slice(0, dot) };
    };
    const kinds = evidence.crds.map(split);
    // provider-kubernetes or provider-helm: their ProviderConfigs are in the kinds' group (and its .m. twin), each
    // kind as the family's CRDs define it, whatever the revision's status names.
    const { family } = evidence;
    const configKinds = familyConfigKinds(family);
    const groups = [`${family}.crossplane.io`, `${family}.m.crossplane.io`];
    const configs =
      input.providerConfigs === undefined
        ? undefined
        : input.providerConfigs.map(configRead).filter((c) => groups.includes(c.group));
    const unread = (input.providerConfigsUnread ?? []).filter((u) =>
      configKinds.some((k) => `${k.resource}.${k.group}` === u.crd),
    );
    out.push({
      account,
      kinds,
      configKinds,
      configs,
      unread,
      ...(evidence.doubt !== undefined ? { doubt: evidence.doubt } : {}),
      ...(evidence.note !== undefined ? { note: evidence.note } : {}),
    });
  }
  return out;
}

function credentialsSource(config: KubeObject): unknown {
  const spec = (config as { spec?: unknown }).spec;
  if (typeof spec !== 'object' || spec === null) return undefined;
  const credentials = (spec as { credentials?: unknown }).credentials;
  if (typeof credentials !== 'object' || credentials === null) return undefined;
  return (credentials as { source?: unknown }).source;
}
