import type { DiscoveredResource } from '../kube/types.js';

// Discovery answers (/api/v1, /apis/GROUP/VERSION) read as client-go's discovery client reads an APIResourceList.

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
        shortNames: Array.isArray(e.shortNames)
          ? e.shortNames.filter((n): n is string => typeof n === 'string')
          : [],
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
