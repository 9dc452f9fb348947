/**
 * RESOURCE as kubectl takes it (`pods`, `po`, `Pod`, `deployments.apps`, `deployments.v1.apps`, `deploy/scale`,
 * `buckets.s3.aws.upbound.io`, a non-resource URL such as `/healthz`) resolved to what the authorizer matches:
 * API group, resource, subresource, and whether the resource is namespaced. The names known come from live discovery,
 * from CRDs, and from XRDs (their composite resources and claims); with files only, Kubernetes' common built-in
 * resources are known too. Matching follows kubectl's RESTMapper: plural, singular, kind and short names, each
 * alone or followed by `.group` (or a prefix of it) or `.version.group`, case-insensitive; of several groups, the one
 * kubectl picks (resource-names.ts pick).
 */
import { UsageError } from '../errors.js';
import type { DiscoveredResource, KubeObject, ProviderRevision, Xrd } from '../kube/types.js';
import { definedResources } from './provider/roles.js';
import { groupResourceAlias, pick, type KnownResource } from './resource-names.js';

export { inServerOrder } from './resource-names.js';

/** A resource request, or a non-resource URL (`path`). */
export interface ResolvedResource {
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespaced: boolean;
  readonly kind: string;
  readonly source: KnownResource['source'];
  readonly xrd?: string;
  readonly provider?: string;
  readonly scopeUnknown?: boolean;
  readonly path?: string;
}

type Builtin = [
  group: string,
  version: string,
  plural: string,
  kind: string,
  namespaced: boolean,
  short?: string[],
];

/** Kubernetes' commonly asked-about resources (as `kubectl api-resources` lists them), for -f where there is no discovery. */
const BUILTINS: readonly Builtin[] = [
  ['', 'v1', 'bindings', 'Binding', true],
  ['', 'v1', 'configmaps', 'ConfigMap', true, ['cm']],
  ['', 'v1', 'endpoints', 'Endpoints', true, ['ep']],
  ['', 'v1', 'events', 'Event', true, ['ev']],
  ['', 'v1', 'limitranges', 'LimitRange', true, ['limits']],
  ['', 'v1', 'namespaces', 'Namespace', false, ['ns']],
  ['', 'v1', 'nodes', 'Node', false, ['no']],
  ['', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, ['pvc']],
  ['', 'v1', 'persistentvolumes', 'PersistentVolume', false, ['pv']],
  ['', 'v1', 'pods', 'Pod', true, ['po']],
  ['', 'v1', 'podtemplates', 'PodTemplate', true],
  ['', 'v1', 'replicationcontrollers', 'ReplicationController', true, ['rc']],
  ['', 'v1', 'resourcequotas', 'ResourceQuota', true, ['quota']],
  ['', 'v1', 'secrets', 'Secret', true],
  ['', 'v1', 'serviceaccounts', 'ServiceAccount', true, ['sa']],
  ['', 'v1', 'services', 'Service', true, ['svc']],
  [
    'apiextensions.k8s.io',
    'v1',
    'customresourcedefinitions',
    'CustomResourceDefinition',
    false,
    ['crd', 'crds'],
  ],
  ['apps', 'v1', 'controllerrevisions', 'ControllerRevision', true],
  ['apps', 'v1', 'daemonsets', 'DaemonSet', true, ['ds']],
  ['apps', 'v1', 'deployments', 'Deployment', true, ['deploy']],
  ['apps', 'v1', 'replicasets', 'ReplicaSet', true, ['rs']],
  ['apps', 'v1', 'statefulsets', 'StatefulSet', true, ['sts']],
  ['authentication.k8s.io', 'v1', 'tokenreviews', 'TokenReview', false],
  ['authorization.k8s.io', 'v1', 'localsubjectaccessreviews', 'LocalSubjectAccessReview', true],
  ['authorization.k8s.io', 'v1', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview', false],
  ['authorization.k8s.io', 'v1', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview', false],
  ['authorization.k8s.io', 'v1', 'subjectaccessreviews', 'SubjectAccessReview', false],
  ['autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, ['hpa']],
  ['batch', 'v1', 'cronjobs', 'CronJob', true, ['cj']],
  ['batch', 'v1', 'jobs', 'Job', true],
  ['certificates.k8s.io', 'v1', 'certificatesigningrequests', 'CertificateSigningRequest', false, ['csr']],
  ['coordination.k8s.io', 'v1', 'leases', 'Lease', true],
  ['networking.k8s.io', 'v1', 'ingresses', 'Ingress', true, ['ing']],
  ['networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy', true, ['netpol']],
  ['policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget', true, ['pdb']],
  ['rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false],
  ['rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false],
  ['rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding', true],
  ['rbac.authorization.k8s.io', 'v1', 'roles', 'Role', true],
  ['storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', false, ['sc']],
];

export function builtinResources(): KnownResource[] {
  return BUILTINS.map(([group, version, plural, kind, namespaced, short]) => ({
    group,
    versions: [version],
    plural,
    singular: kind.toLowerCase(),
    kind,
    shortNames: short ?? [],
    namespaced,
    source: 'builtin',
  }));
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** The resource a CustomResourceDefinition defines (none when it is malformed). */
export function resourceOfCrd(crd: KubeObject): KnownResource | undefined {
  const spec = record(crd.spec);
  const names = record(spec.names);
  const group = str(spec.group);
  const plural = str(names.plural);
  const kind = str(names.kind);
  if (group === undefined || plural === undefined || kind === undefined) return undefined;
  // Stryker disable next-line ArrayDeclaration: a string version has no name, so it is left out as no version is
  const versions = (Array.isArray(spec.versions) ? spec.versions : [])
    .map(record)
    .filter((v) => v.served !== false)
    .map((v) => str(v.name))
    .filter((v): v is string => v !== undefined);
  return {
    group,
    versions,
    plural,
    singular: str(names.singular) ?? kind.toLowerCase(),
    kind,
    shortNames: strings(names.shortNames),
    namespaced: spec.scope !== 'Cluster',
    source: 'crd',
  };
}

/**
 * The composite resource and the claim an XRD defines. A v1 XRD's composite resources are cluster-scoped; a v2
 * XRD's are namespaced unless its scope is Cluster or LegacyCluster. Claims are always namespaced.
 */
export function resourcesOfXrd(xrd: Xrd): KnownResource[] {
  const out: KnownResource[] = [];
  const spec = xrd.spec;
  const versions = (spec.versions ?? []).filter((v) => v.served !== false).map((v) => v.name);
  const v2 = xrd.apiVersion.endsWith('/v2');
  const scope = spec.scope ?? (v2 ? 'Namespaced' : 'Cluster');
  const add = (names: Record<string, unknown>, namespaced: boolean, source: 'xrd' | 'claim'): void => {
    const plural = str(names.plural);
    const kind = str(names.kind);
    if (plural === undefined || kind === undefined) return;
    out.push({
      group: spec.group,
      versions,
      plural,
      singular: str(names.singular) ?? kind.toLowerCase(),
      kind,
      shortNames: strings(names.shortNames),
      namespaced,
      source,
      xrd: xrd.metadata.name,
    });
  };
  add(record(spec.names), scope === 'Namespaced', 'xrd');
  if (spec.claimNames !== undefined) add(record(spec.claimNames), true, 'claim');
  return out;
}

/**
 * The managed resources a ProviderRevision defines, from its objectRefs (`<plural>.<group>`, as Crossplane's RBAC
 * manager reads them): only their names, so their scope is unknown until the CRD itself is read.
 */
export function resourcesOfProviderRevision(rev: ProviderRevision): KnownResource[] {
  return definedResources(rev.status?.objectRefs).map((r) => ({
    group: r.group,
    versions: [],
    plural: r.plural,
    singular: '',
    kind: '',
    shortNames: [],
    namespaced: false,
    source: 'provider',
    provider: rev.metadata.name,
    scopeUnknown: true,
  }));
}

/** Known resources, one per group and plural: the first source given wins (discovery before CRDs before XRDs). */
export function catalogue(...sources: readonly (readonly KnownResource[])[]): KnownResource[] {
  const seen = new Map<string, KnownResource>();
  for (const list of sources) {
    for (const r of list) {
      const key = `${r.plural}.${r.group}`;
      const had = seen.get(key);
      // A claim or XR learnt from discovery still belongs to its XRD.
      if (had === undefined) seen.set(key, r);
      else if (had.xrd === undefined && r.xrd !== undefined)
        seen.set(key, { ...had, xrd: r.xrd, source: r.source });
      else if (had.provider === undefined && r.provider !== undefined)
        seen.set(key, { ...had, provider: r.provider });
    }
  }
  return [...seen.values()];
}

/**
 * What the API server's impersonation filter asks the authorizer about, one resource per identity it takes on
 * (kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation/impersonation.go
 * @4f6fdb4551e8dd7b783d29e4d936d3756e4813ed, buildImpersonationRequests and WithImpersonation): the user, group and
 * service account are object references without an API version, so the core group (`users`, `groups`,
 * `serviceaccounts` in the service account's namespace); a user extra (`userextras`, the extra's key as subresource)
 * and the UID (`uids`) carry authentication.k8s.io/v1. These resources are virtual: discovery lists none but
 * serviceaccounts, and a CRD may serve the same plural in its own group (provider-aws's users.iam.aws.upbound.io),
 * which is not what an `impersonate` rule names.
 */
const IMPERSONATED: Readonly<Record<string, { group: string; kind: string; namespaced: boolean }>> = {
  users: { group: '', kind: 'User', namespaced: false },
  groups: { group: '', kind: 'Group', namespaced: false },
  serviceaccounts: { group: '', kind: 'ServiceAccount', namespaced: true },
  uids: { group: 'authentication.k8s.io', kind: 'UID', namespaced: false },
  userextras: { group: 'authentication.k8s.io', kind: 'UserExtra', namespaced: false },
};

/** RESOURCE of an `impersonate` request (plural, or plural.group for authentication.k8s.io), as the filter asks it. */
function impersonated(base: string, sub: string | undefined, text: string): ResolvedResource | undefined {
  const found = Object.entries(IMPERSONATED).find(
    ([plural, r]) =>
      base === plural ||
      (r.group !== '' && (base === `${plural}.${r.group}` || base === `${plural}.v1.${r.group}`)),
  );
  if (found === undefined) return undefined;
  const [plural, r] = found;
  if (plural === 'userextras' && sub === undefined) {
    throw new UsageError(`impersonating a user extra is authorized per key: give "${text}/KEY"`, {
      hint: 'e.g. userextras/scopes (the key of the Impersonate-Extra-KEY header, lower-cased)',
    });
  }
  if (plural !== 'userextras' && sub !== undefined) {
    throw new UsageError(`"${text}": impersonating ${plural} has no subresource`, {
      hint: `which ${r.kind} is the request's name (who-can impersonate ${plural} NAME), not a subresource`,
    });
  }
  return {
    group: r.group,
    resource: plural,
    ...(sub !== undefined ? { subresource: sub } : {}),
    namespaced: r.namespaced,
    kind: r.kind,
    source: 'builtin',
  };
}

/**
 * Resolves RESOURCE[/SUBRESOURCE] (or the GROUP/RESOURCE[/SUBRESOURCE] alias); throws UsageError for an unknown or ambiguous name. With VERB `impersonate`,
 * users, groups, serviceaccounts, uids and userextras/KEY are the resources the impersonation filter asks about,
 * whatever CRDs share their plural (a name with a group, e.g. users.iam.aws.upbound.io, still names the CRD).
 */
export function resolveResource(
  text: string,
  known: readonly KnownResource[],
  verb?: string,
): ResolvedResource {
  return resolveResourceNoting(text, known, verb).resource;
}

/**
 * resolveResource, and what to warn of: kubectl's own line for a short name other groups give too, and ours for a
 * name other groups serve (kubectl picks one silently; the answer names its group, so the user is told).
 */
export function resolveResourceNoting(
  text: string,
  known: readonly KnownResource[],
  verb?: string,
): { resource: ResolvedResource; warnings: readonly string[] } {
  if (text.startsWith('/')) {
    const path: ResolvedResource = {
      group: '',
      resource: '',
      namespaced: false,
      kind: '',
      source: 'builtin',
      path: text,
    };
    return { resource: path, warnings: [] };
  }
  const slash = text.indexOf('/');
  const base = (slash < 0 ? text : text.slice(0, slash)).toLowerCase();
  const sub = slash < 0 ? undefined : text.slice(slash + 1);
  const malformed = base === '' || sub === '' || (sub !== undefined && sub.includes('/'));
  if (verb === 'impersonate' && !malformed) {
    const virtual = impersonated(base, sub, slash < 0 ? text : text.slice(0, slash));
    if (virtual !== undefined) return { resource: virtual, warnings: [] };
  }
  const alias = groupResourceAlias(text, known);
  if (alias !== undefined) {
    const resolved = resolveResourceNoting(alias, known, verb);
    // core/RESOURCE names the core group's: a bare name may resolve to another group's resource.
    if (text.toLowerCase().startsWith('core/') && resolved.resource.group !== '') {
      throw new UsageError(`the server doesn't have a resource type "${alias.split('/')[0] ?? ''}"`, {
        hint: `in the core group; did you mean "${alias.split('/')[0] ?? ''}.${resolved.resource.group}"?`,
      });
    }
    return resolved;
  }
  if (malformed) {
    throw new UsageError(`invalid resource "${text}"`, {
      hint: 'use RESOURCE[.GROUP][/SUBRESOURCE], e.g. pods, deployments.apps/scale, buckets.s3.aws.upbound.io',
    });
  }
  const { chosen, warnings } = pick(base, text, known);
  return {
    resource: {
      group: chosen.group,
      resource: chosen.plural,
      ...(sub !== undefined ? { subresource: sub } : {}),
      namespaced: chosen.namespaced,
      kind: chosen.kind,
      source: chosen.source,
      ...(chosen.xrd !== undefined ? { xrd: chosen.xrd } : {}),
      ...(chosen.provider !== undefined ? { provider: chosen.provider } : {}),
      ...(chosen.scopeUnknown === true ? { scopeUnknown: true } : {}),
    },
    warnings,
  };
}

/** The resources discovery lists (subresource entries left out: they are asked for as RESOURCE/SUBRESOURCE). */
export function resourcesFromDiscovery(entries: readonly DiscoveredResource[]): KnownResource[] {
  const verbs = new Map<string, Set<string>>();
  for (const e of entries) {
    const key = `${e.group}/${e.name.split('/')[0] ?? ''}`;
    for (const v of e.verbs ?? []) verbs.set(key, (verbs.get(key) ?? new Set()).add(v));
  }
  return entries
    .filter((e) => !e.name.includes('/'))
    .map((e) => {
      const listed = verbs.get(`${e.group}/${e.name}`);
      return {
        group: e.group,
        versions: [e.version],
        plural: e.name,
        singular: e.singularName !== '' ? e.singularName : e.kind.toLowerCase(),
        kind: e.kind,
        shortNames: e.shortNames,
        namespaced: e.namespaced,
        source: 'discovery',
        ...(listed !== undefined ? { verbs: [...listed] } : {}),
      };
    });
}

/**
 * The resource of KIND in GROUP among KNOWN: the one of that kind, or else a ProviderRevision's managed resource
 * (its CRD read by name only) whose plural is the kind's as apimachinery guesses it (kubernetes
 * staging/src/k8s.io/apimachinery/pkg/api/meta/restmapper.go UnsafeGuessKindToResource: lower case, then `s`, `es`
 * after an s, `ies` for a final y), and only when one CRD of the group has it. Such a resource's scope is
 * Crossplane v2's convention: namespaced in a `.m.` group.
 */
export function resourceOfKind(
  known: readonly KnownResource[],
  group: string,
  kind: string,
): KnownResource | undefined {
  const exact = known.find((k) => k.group === group && k.kind === kind);
  if (exact !== undefined || kind === '') return exact;
  const lower = kind.toLowerCase();
  const guess = lower.endsWith('s')
    ? `${lower}es`
    : lower.endsWith('y')
      ? `${lower.slice(0, -1)}ies`
      : `${lower}s`;
  const found = known.filter((k) => k.group === group && k.scopeUnknown === true && k.plural === guess);
  const [only] = found;
  if (only === undefined || found.length > 1) return undefined;
  return { ...only, kind, namespaced: group.includes('.m.'), scopeUnknown: false };
}
