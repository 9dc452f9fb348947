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
