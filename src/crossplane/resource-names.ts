/**
 * A resource the cluster serves and the names it answers to, for resolve-resource.ts: kubectl's forms (plural,
 * singular, kind, short name, each alone or with `.group` or `.version.group`), the `GROUP/RESOURCE` alias explain's
 * --for took first, the known names close to one that matches nothing (the "did you mean" of an unknown one), and
 * which resource kubectl picks when several answer to a name (pick; inServerOrder, the order it picks in from files).
 */
import { UsageError } from '../errors.js';
import { compareNames } from '../kube/order.js';
import { closeMatches } from '../kube/did-you-mean.js';

/** One resource the cluster serves (or would serve). */
export interface KnownResource {
  readonly group: string;
  /** Served versions, preferred first (may be empty when unknown). */
  readonly versions: readonly string[];
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly shortNames: readonly string[];
  readonly namespaced: boolean;
  /** Where the name was learnt. */
  readonly source: 'discovery' | 'builtin' | 'crd' | 'xrd' | 'claim' | 'provider';
  /** The XRD that defines it (its composite resource or its claim). */
  readonly xrd?: string;
  /** The ProviderRevision that defines it (a managed resource). */
  readonly provider?: string;
  /** Only the name is known (a ProviderRevision's objectRef, no CRD read): whether it is namespaced is not. */
  readonly scopeUnknown?: boolean;
  /** The verbs discovery lists for it and its subresources (live only; absent when it lists none). */
  readonly verbs?: readonly string[];
}

/** `plural.group`, or the plural alone in the core group. */
export function qualified(r: KnownResource): string {
  return r.group === '' ? r.plural : `${r.plural}.${r.group}`;
}

/** Whether `text` (lower-cased, without subresource) names the resource in one of kubectl's forms. */
export function names(r: KnownResource, text: string): boolean {
  const bare = [r.plural, r.singular, r.kind, ...r.shortNames]
    .filter((n) => n !== '')
    .map((n) => n.toLowerCase());
  if (bare.includes(text)) return true;
  if (r.group === '') return false;
  const group = r.group.toLowerCase();
  for (const n of bare) {
    if (text === `${n}.${group}`) return true;
    for (const v of r.versions) if (text === `${n}.${v.toLowerCase()}.${group}`) return true;
  }
  return false;
}

/**
 * `GROUP/RESOURCE[/SUBRESOURCE]` (the form explain's --for took first; `core` for the core group) rewritten as
 * kubectl's `RESOURCE.GROUP[/SUBRESOURCE]`; undefined for text in kubectl's form. Two parts are the alias when the
 * first is `core`, or a group that serves the second, or else names no resource but is a known group or a dotted
 * name (`s3.aws.upbound.io/buckets` without the provider's CRDs is then refused as buckets.s3.aws.upbound.io, not
 * as a resource named after the group); `deploy/scale` and `deployments.apps/scale` stay kubectl's
 * RESOURCE/SUBRESOURCE. Three parts can only be the alias.
 */
export function groupResourceAlias(text: string, known: readonly KnownResource[]): string | undefined {
  const parts = text.split('/');
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => p === '')) return undefined;
  const [first = '', resource = '', sub] = parts;
  const group = first.toLowerCase();
  if (parts.length === 3 && group !== 'core' && !known.some((r) => r.group.toLowerCase() === group))
    return undefined;
  if (parts.length === 2 && group !== 'core') {
    const inGroup = known.filter((r) => r.group.toLowerCase() === group);
    // apps/deployments is the alias even where an XRD serves a resource named apps.
    const servedThere = inGroup.some((r) => names(r, resource.toLowerCase()));
    const namesResource = known.some((r) => names(r, group));
    if (!servedThere && (namesResource || (inGroup.length === 0 && !group.includes('.')))) return undefined;
  }
  const qualifiedName = group === 'core' || group === '' ? resource : `${resource}.${group}`;
  return sub !== undefined ? `${qualifiedName}/${sub}` : qualifiedName;
}

/** Up to three qualified names close to BASE: as written (plural.group), or by its plural alone (`compositons`). */
export function closeNames(base: string, known: readonly KnownResource[]): string[] {
  const byName = new Map<string, Set<string>>();
  const add = (name: string, q: string): void => {
    byName.set(name, (byName.get(name) ?? new Set()).add(q));
  };
  for (const r of known) {
    add(qualified(r), qualified(r));
    add(r.plural, qualified(r));
  }
  const out = new Set(closeMatches(base, [...byName.keys()]).flatMap((n) => [...(byName.get(n) ?? [])]));
  return [...out].slice(0, 3);
}

/**
 * What kubectl makes of a lower-cased name (kubernetes/kubectl pkg/cmd/auth/cani.go resourceFor, apimachinery
 * pkg/runtime/schema ParseResourceArg): `a.b.c...` is first resource.version.group, then resource.group (the group
 * being everything after the first dot).
 */
interface Query {
  readonly resource: string;
  readonly group: string;
  readonly version: string;
}

/** The resources KNOWN has for one query, as kubectl's RESTMapper finds them; SHORT: kubectl's warnings. */
export interface Matches {
  readonly candidates: readonly KnownResource[];
  /** The group the query named after expansion ('' for none): a candidate in it is what was asked for. */
  readonly group: string;
  readonly warnings: readonly string[];
}

const named = (k: KnownResource, resource: string): boolean =>
  (k.plural !== '' && k.plural.toLowerCase() === resource) ||
  (k.singular !== '' && k.singular.toLowerCase() === resource);

/**
 * client-go restmapper/shortcut.go expandResourceShortcut: a plural or singular (in the group given, if any) is
 * left as it is; else the first short name in discovery order (in the group given exactly) names its resource, the
 * others answering to it warned of; else, with a group, the first short name of a group the given one begins.
 */
function expandShortName(q: Query, known: readonly KnownResource[]): { q: Query; warnings: string[] } {
  if (known.some((k) => (q.group === '' || k.group === q.group) && named(k, q.resource))) {
    return { q, warnings: [] };
  }
  const shorts = known.flatMap((k) =>
    k.shortNames.map((s) => ({ short: s.toLowerCase(), group: k.group, plural: k.plural })),
  );
  let found: { group: string; plural: string } | undefined;
  const warnings: string[] = [];
  for (const s of shorts) {
    if ((q.group !== '' && q.group !== s.group) || s.short !== q.resource) continue;
    if (found === undefined) found = s;
    else if (found.group !== s.group || found.plural !== s.plural) {
      const line = `short name "${q.resource}" could also match lower priority resource ${s.group === '' ? s.plural : `${s.plural}.${s.group}`}`;
      if (!warnings.includes(line)) warnings.push(line);
    }
  }
  if (found !== undefined)
    return { q: { resource: found.plural, group: found.group, version: '' }, warnings };
  if (q.group === '') return { q, warnings: [] };
  const prefixed = shorts.find((s) => s.group.startsWith(q.group) && s.short === q.resource);
  return prefixed === undefined
    ? { q, warnings: [] }
    : { q: { ...q, resource: prefixed.plural, group: prefixed.group }, warnings: [] };
}

/**
 * apimachinery pkg/api/meta/restmapper.go DefaultRESTMapper.ResourcesFor over every group: plural or singular; with
 * a version, the exact group and version; with a group, the groups it begins (an exact group among them).
 */
function restMapperMatches(q: Query, known: readonly KnownResource[]): KnownResource[] {
  return known.filter((k) => {
    if (!named(k, q.resource)) return false;
    if (q.version !== '') return k.group === q.group && k.versions.some((v) => v.toLowerCase() === q.version);
    return q.group === '' || k.group.startsWith(q.group);
  });
}

/**
 * The resources TEXT (lower-cased, no subresource) names as kubectl resolves it: resource.version.group first, then
 * resource.group, each after kubectl's short-name expansion. Empty when kubectl finds none.
 */
function kubectlMatches(text: string, known: readonly KnownResource[]): Matches {
  const parts = text.split('.');
  const queries: Query[] = [];
  if (parts.length >= 3) {
    queries.push({ resource: parts[0] ?? '', version: parts[1] ?? '', group: parts.slice(2).join('.') });
  }
  queries.push({ resource: parts[0] ?? '', version: '', group: parts.slice(1).join('.') });
  for (const query of queries) {
    if (query.resource === '') continue;
    const { q, warnings } = expandShortName(query, known);
    const candidates = restMapperMatches(q, known);
    if (candidates.length > 0) return { candidates, group: q.group, warnings };
  }
  return { candidates: [], group: '', warnings: [] };
}

/**
 * The resource BASE names among KNOWN (in discovery order), as kubectl picks it (kubectlMatches; a kind, which
 * `kubectl get` takes too, when no resource answers): of several, the core group's, else the first group's in
 * discovery order (apimachinery pkg/api/meta/priority.go PriorityRESTMapper, its priorities made by client-go
 * restmapper/discovery.go NewDiscoveryRESTMapper). Two of that one group are ambiguous, as kubectl finds them.
 */
export function pick(
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
