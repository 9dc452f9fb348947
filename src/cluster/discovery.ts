import type { DiscoveredResource } from '../kube/types.js';

// Discovery answers read as client-go's discovery client reads them: the aggregated list of every group (/api and
// /apis as an APIGroupDiscoveryList, Kubernetes 1.26+), or the legacy lists (/apis, then an APIResourceList at
// /api/v1 and at each /apis/GROUP/VERSION).

/**
 * The Accept of /api and /apis: the aggregated list first (v2, then v2beta1 as servers 1.26-1.29 serve it), else
 * the legacy one; what kubectl 1.32 sends.
 */
export const DISCOVERY_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

/**
 * Whether an answer's Content-Type says it is the aggregated list (apidiscovery.k8s.io v2 or v2beta1
 * APIGroupDiscoveryList), in any order of its parameters and with others added (a proxy's charset), as client-go's
 * ContentTypeIsGVK reads it. A type that cannot be parsed is not.
 */
export function isAggregatedDiscovery(contentType: string | undefined): boolean {
  const [base = '', ...params] = (contentType ?? '').split(';');
  if (base.trim().toLowerCase() !== 'application/json') return false;
  const named = new Map<string, string>();
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq <= 0) return false;
    named.set(
      p.slice(0, eq).trim().toLowerCase(),
      p
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1'),
    );
  }
  const v = named.get('v');
  return (
    named.get('g') === 'apidiscovery.k8s.io' &&
    named.get('as') === 'APIGroupDiscoveryList' &&
    (v === 'v2' || v === 'v2beta1')
  );
}

/** A group as discovery names it: its versions in the server's order, and the one it prefers. */
export interface DiscoveredGroup {
  readonly name: string;
  readonly versions: readonly string[];
  readonly preferred: string | undefined;
  /** With the aggregated list: each version's resources (subresources as `plural/subresource` entries). */
  readonly resources?: ReadonlyMap<string, readonly DiscoveredResource[]>;
}

interface AggregatedKind {
  readonly kind?: unknown;
  readonly group?: unknown;
  readonly version?: unknown;
}

/** Whether a responseKind is set: client-go leaves out a resource (or subresource) without one. */
function kindOfResponse(k: AggregatedKind | undefined): string | undefined {
  if (k === undefined || k === null) return undefined;
  const kind = typeof k.kind === 'string' ? k.kind : '';
  return kind === '' && (k.group ?? '') === '' && (k.version ?? '') === '' ? undefined : kind;
}

const strings = (xs: unknown): string[] =>
  Array.isArray(xs) ? xs.filter((x): x is string => typeof x === 'string') : [];

/**
 * The groups of an aggregated list (decoded JSON), as client-go's SplitGroupsAndResources makes them: a version
 * whose freshness is Stale is left out (kubectl reports it as failed and goes on), the preferred version is the
 * first one left; each resource becomes an entry, then each of its subresources (`plural/subresource`, the
 * parent's singular name and scope), those without a responseKind left out.
 */
export function aggregatedGroups(list: unknown): DiscoveredGroup[] {
  const items = (list as { items?: unknown[] } | undefined)?.items ?? [];
  return items.flatMap((item): DiscoveredGroup[] => {
    const g = item as { metadata?: { name?: unknown }; versions?: unknown[] };
    const name = typeof g.metadata?.name === 'string' ? g.metadata.name : '';
    const versions: string[] = [];
    const resources = new Map<string, DiscoveredResource[]>();
    for (const v of g.versions ?? []) {
      const ver = v as { version?: unknown; freshness?: unknown; resources?: unknown[] };
      if (typeof ver.version !== 'string' || ver.freshness === 'Stale') continue;
      const version = ver.version;
      versions.push(version);
      resources.set(
        version,
        (ver.resources ?? []).flatMap((r) => aggregatedEntries(name, version, r)),
      );
    }
    return [{ name, versions, preferred: versions[0], resources }];
  });
}

function aggregatedEntries(group: string, version: string, r: unknown): DiscoveredResource[] {
  const e = r as {
    resource?: unknown;
    responseKind?: AggregatedKind;
    scope?: unknown;
    singularResource?: unknown;
    shortNames?: unknown;
    verbs?: unknown;
    subresources?: unknown[];
  };
  if (typeof e.resource !== 'string') return [];
  const parent = {
    group,
    version,
    name: e.resource,
    singularName: typeof e.singularResource === 'string' ? e.singularResource : '',
    namespaced: e.scope === 'Namespaced',
  };
  const out: DiscoveredResource[] = [];
  const kind = kindOfResponse(e.responseKind);
  if (kind !== undefined)
    out.push({ ...parent, kind, shortNames: strings(e.shortNames), ...verbsOf(e.verbs) });
  for (const s of e.subresources ?? []) {
    const sub = s as { subresource?: unknown; responseKind?: AggregatedKind; verbs?: unknown };
    const subKind = kindOfResponse(sub.responseKind);
    if (typeof sub.subresource !== 'string' || subKind === undefined) continue;
    out.push({
      ...parent,
      name: `${e.resource}/${sub.subresource}`,
      kind: subKind,
      shortNames: [],
      ...verbsOf(sub.verbs),
    });
  }
  return out;
}

/** `verbs` of a discovery entry, when it lists any (the unknown-verb warning counts them as known). */
function verbsOf(value: unknown): { verbs?: string[] } {
  const verbs = strings(value);
  return verbs.length > 0 ? { verbs } : {};
}

/** The groups of a legacy group list (/apis, an APIGroupList). */
export function legacyGroups(list: unknown): DiscoveredGroup[] {
  const groups = (list as { groups?: unknown[] } | undefined)?.groups ?? [];
  return groups.flatMap((x): DiscoveredGroup[] => {
    const g = x as { name?: unknown; versions?: unknown[]; preferredVersion?: { version?: unknown } };
    if (typeof g.name !== 'string') return [];
    const versions = (g.versions ?? []).flatMap((v) => {
      const version = (v as { version?: unknown }).version;
      return typeof version === 'string' ? [version] : [];
    });
    const preferred = g.preferredVersion?.version;
    return [{ name: g.name, versions, preferred: typeof preferred === 'string' ? preferred : undefined }];
  });
}

/** The entries of one APIResourceList (decoded JSON), as plain data; entries without a name or kind are skipped. */
export function discovered(group: string, version: string, list: unknown): DiscoveredResource[] {
  const resources = (list as { resources?: unknown[] }).resources ?? [];
  return resources.flatMap((r): DiscoveredResource[] => {
    const e = r as {
      name?: unknown;
      singularName?: unknown;
      kind?: unknown;
      namespaced?: unknown;
      shortNames?: unknown;
      verbs?: unknown;
    };
    if (typeof e.name !== 'string' || typeof e.kind !== 'string') return [];
    return [
      {
        group,
        version,
        name: e.name,
        singularName: typeof e.singularName === 'string' ? e.singularName : '',
        kind: e.kind,
        namespaced: e.namespaced === true,
        shortNames: strings(e.shortNames),
        ...verbsOf(e.verbs),
      },
    ];
  });
}

/**
 * One entry per resource of a group, as client-go's ServerPreferredResources picks them (what `kubectl
 * api-resources` lists): LISTS are the group's versions in discovery order; a resource is taken from the first
 * version that serves it, and from PREFERRED when that version serves it too. A resource served only by an older
 * version (Crossplane v2's compositions, v1 only, beside XRDs' preferred v2) is kept.
 */
export function preferredResources(
  lists: readonly (readonly DiscoveredResource[])[],
  preferred: string | undefined,
): DiscoveredResource[] {
  const chosen = new Map<string, DiscoveredResource>();
  for (const list of lists) {
    for (const r of list) if (!chosen.has(r.name) || r.version === preferred) chosen.set(r.name, r);
  }
  return [...chosen.values()];
}
