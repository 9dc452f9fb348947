/**
 * What a request asks for, read from its method and path as the API server's RequestInfoFactory does:
 * /api/v1/... and /apis/<group>/<version>/..., namespaced or not, with a name and a subresource.
 */

export interface RequestInfo {
  resourceRequest: boolean;
  path: string;
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  name: string;
  namespace: string;
  /** Set when the path had more segments than a resource path can have. */
  malformed: boolean;
}

export function parseRequestInfo(pathname: string, method: string, query: URLSearchParams): RequestInfo {
  const parts = pathname
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  const base: RequestInfo = {
    resourceRequest: false,
    path: pathname,
    verb: method.toLowerCase(),
    group: '',
    version: '',
    resource: '',
    subresource: '',
    name: '',
    namespace: '',
    malformed: false,
  };
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    base.version = parts[1] ?? '';
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    base.group = parts[1] ?? '';
    base.version = parts[2] ?? '';
    rest = parts.slice(3);
  } else {
    return base;
  }
  base.resourceRequest = true;
  if (rest[0] === 'namespaces' && rest.length > 1) {
    base.namespace = rest[1] ?? '';
    if (rest.length > 2 && rest[2] !== 'status' && rest[2] !== 'finalize') rest = rest.slice(2);
  }
  base.resource = rest[0] ?? '';
  base.name = rest[1] ?? '';
  base.subresource = rest[2] ?? '';
  base.malformed = rest.length > 3;
  switch (method) {
    case 'GET':
    case 'HEAD':
      base.verb =
        base.name !== ''
          ? 'get'
          : query.get('watch') === 'true' || query.get('watch') === '1'
            ? 'watch'
            : 'list';
      break;
    case 'POST':
      base.verb = 'create';
      break;
    case 'PUT':
      base.verb = 'update';
      break;
    case 'PATCH':
      base.verb = 'patch';
      break;
    case 'DELETE':
      base.verb = base.name !== '' ? 'delete' : 'deletecollection';
      break;
    default:
      base.verb = method.toLowerCase();
  }
  return base;
}
