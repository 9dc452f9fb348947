import type { ResourceKind } from '../port/cluster.js';

/**
 * The URL of a collection (no NAME) or of one object: /api/v1 or /apis/GROUP/VERSION, the namespace if given, the
 * plural, the name. Relative to the server with a trailing slash, so a server URL with a path (a proxy's prefix,
 * as Rancher's /k8s/clusters/ID) keeps it.
 */
export function resourceUrl(server: string, kind: ResourceKind, namespace?: string, name?: string): URL {
  const root = kind.group === '' ? `api/${kind.version}` : `apis/${kind.group}/${kind.version}`;
  const scope =
    kind.namespaced && namespace !== undefined ? `namespaces/${encodeURIComponent(namespace)}/` : '';
  const one = name !== undefined ? `/${encodeURIComponent(name)}` : '';
  return new URL(`${root}/${scope}${kind.plural}${one}`, server.endsWith('/') ? server : `${server}/`);
}
