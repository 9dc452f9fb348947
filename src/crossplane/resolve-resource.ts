/**
 * RESOURCE as kubectl takes it (`pods`, `po`, `Pod`, `deployments.apps`, `deployments.v1.apps`, `deploy/scale`,
 * `buckets.s3.aws.upbound.io`, a non-resource URL such as `/healthz`) resolved to what the authorizer matches:
 * API group, resource, subresource, and whether the resource is namespaced. The names known come from live discovery,
 * from CRDs, and from XRDs (their composite resources and claims); with files only, Kubernetes' common built-in
 * resources are known too. Matching follows kubectl's RESTMapper: plural, singular, kind and short names, each
 * alone or followed by `.group` or `.version.group`, case-insensitive.
 */
import { UsageError } from '../errors.js';
import type { DiscoveredResource, KubeObject, ProviderRevision, Xrd } from '../kube/types.js';
import { definedResources } from './provider/roles.js';
import { compareNames } from '../kube/order.js';
import {
  closeNames,
  groupResourceAlias,
  kubectlMatches,
  names,
  qualified,
  type KnownResource,
} from './resource-names.js';

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

/**
 * kube-apiserver's priorities of its built-in groups (GroupPriorityMinimum; kubernetes/kubernetes
 * cmd/kube-apiserver/app/aggregator.go@39ae3f4346cc7970491ee89bbe8dcf00ca038356 apiVersionPriorities over
 * pkg/controlplane/apiserver/aggregator.go@008b3652959ca58af8be3fb5b6ecfe9ae7638282
 * DefaultGenericAPIServicePriorities). Every CRD's group has 1000 (pkg/controlplane/controller/crdregistration
 * crdregistration_controller.go@f1dc607f321a2f4430539ffe90c9b6072af197bb).
 */
const GROUP_PRIORITY: Readonly<Record<string, number>> = {
  '': 18000,
  apps: 17800,
  'events.k8s.io': 17750,
  'authentication.k8s.io': 17700,
  'authorization.k8s.io': 17600,
  autoscaling: 17500,
  batch: 17400,
  'certificates.k8s.io': 17300,
  'networking.k8s.io': 17200,
  policy: 17100,
  'rbac.authorization.k8s.io': 17000,
  'storage.k8s.io': 16800,
  'admissionregistration.k8s.io': 16700,
  'apiextensions.k8s.io': 16700,
  'scheduling.k8s.io': 16600,
  'coordination.k8s.io': 16500,
  'node.k8s.io': 16300,
  'discovery.k8s.io': 16200,
  'resource.k8s.io': 16200,
  'flowcontrol.apiserver.k8s.io': 16100,
  'internal.apiserver.k8s.io': 16000,
  'storagemigration.k8s.io': 15800,
};

/**
 * KNOWN (read from files, where no discovery answered) in the order kube-apiserver's aggregated discovery would
 * serve their groups, which is the order kubectl prefers them in: higher group priority first, equal ones by name
 * (kubernetes/apiserver pkg/endpoints/discovery/aggregated/handler.go@24a394e516bfda066d7e2221d7d92c052de27c54).
 * Stable: within a group, the order given.
 */
export function inServerOrder(known: readonly KnownResource[]): KnownResource[] {
  const priority = (g: string): number => GROUP_PRIORITY[g] ?? 1000;
  return [...known].sort(
    (a, b) => priority(b.group) - priority(a.group) || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0),
  );
}

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

/**
 * The resource BASE names among KNOWN (in discovery order), as kubectl picks it (kubectlMatches; a kind, which
 * `kubectl get` takes too, when no resource answers): of several, the core group's, else the first group's in
 * discovery order (apimachinery pkg/api/meta/priority.go PriorityRESTMapper, its priorities made by client-go
 * restmapper/discovery.go NewDiscoveryRESTMapper). Two of that one group are ambiguous, as kubectl finds them.
 */
function pick(
  base: string,
  text: string,
  known: readonly KnownResource[],
): { chosen: KnownResource; warnings: string[] } {
  const found = kubectlMatches(base, known);
  const candidates = found.candidates.length > 0 ? found.candidates : known.filter((r) => names(r, base));
  const rank = new Map<string, number>();
  for (const [i, r] of known.entries()) if (!rank.has(r.group)) rank.set(r.group, r.group === '' ? -1 : i);
  const ordered = [...candidates].sort((a, b) => (rank.get(a.group) ?? 0) - (rank.get(b.group) ?? 0));
  const [chosen] = ordered;
  if (chosen === undefined) {
    const suggestions = closeNames(base, known);
    throw new UsageError(`the server doesn't have a resource type "${base}"`, {
      hint:
        suggestions.length > 0
          ? `did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?`
          : 'kubectl api-resources lists the served ones; with -f, pass the CRDs and XRDs too (kubectl get crds,xrds -A -o yaml)',
    });
  }
  const tied = ordered.filter((r) => r.group === chosen.group);
  if (tied.length > 1) {
    const options = tied.map(qualified).sort(compareNames);
    throw new UsageError(`resource "${text}" is ambiguous: ${options.join(', ')}`, {
      hint: `name one with its group, e.g. ${options[0] ?? ''}`,
    });
  }
  // A name that spelt out the group answered needs no word on the groups it is a prefix of.
  const others =
    found.group !== '' && found.group === chosen.group ? [] : ordered.filter((r) => r !== chosen);
  return {
    chosen,
    warnings: [
      ...found.warnings,
      ...others.map(
        (r) =>
          `resource "${base}" could also match lower priority resource ${qualified(r)} (${qualified(chosen)} answered, as kubectl picks it)`,
      ),
    ],
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
