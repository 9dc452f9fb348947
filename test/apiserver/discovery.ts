/** Discovery and the other paths that are not resources: /version, health checks, /api, /apis, OpenAPI. */
import { createHash } from 'node:crypto';
import type http from 'node:http';
import { sendJson } from './http.js';
import type { Registry } from './registry.js';
import type { RequestInfo } from './request-info.js';
import { ApiError, pathNotFound } from './status.js';
import type { Obj } from './types.js';

/** Answers a GET of a path that is not a resource: version, health, legacy discovery and OpenAPI. */
/** The media type of aggregated discovery, as a client asks for it and as the server answers with it. */
export const AGGREGATED_DISCOVERY = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/**
 * Whether ACCEPT asks for aggregated discovery before any format this server would answer otherwise: its media
 * ranges are taken in the order given (as the API server does, ignoring q), and the first it can serve wins.
 */
export function wantsAggregated(accept: string | undefined): boolean {
  for (const range of (accept ?? '').split(',')) {
    const [type = '', ...params] = range.split(';').map((p) => p.trim());
    const base = type.toLowerCase();
    if (base !== 'application/json' && base !== '*/*' && base !== 'application/*') continue;
    const named = new Map(
      params.map((p) => {
        const eq = p.indexOf('=');
        return [p.slice(0, eq).trim().toLowerCase(), p.slice(eq + 1).trim()] as const;
      }),
    );
    const g = named.get('g');
    const v = named.get('v');
    const as = named.get('as');
    if (g === undefined && v === undefined && as === undefined) return false;
    if (
      base === 'application/json' &&
      g === 'apidiscovery.k8s.io' &&
      v === 'v2' &&
      as === 'APIGroupDiscoveryList'
    )
      return true;
  }
  return false;
}

export function handleNonResource(
  registry: Registry,
  ri: RequestInfo,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  aggregated: boolean,
): void {
  const parts = ri.path.split('/').filter((p) => p !== '');
  const p = `/${parts.join('/')}`;
  if (ri.verb !== 'get')
    throw new ApiError(
      405,
      'MethodNotAllowed',
      'the server does not allow this method on the requested resource',
    );
  if (p === '/version') {
    sendJson(res, 200, {
      major: '1',
      minor: '32',
      gitVersion: 'v1.32.0-test',
      gitCommit: '0000000000000000000000000000000000000000',
      gitTreeState: 'clean',
      buildDate: '2025-01-01T00:00:00Z',
      goVersion: 'go1.23.0',
      compiler: 'gc',
      platform: 'linux/amd64',
    });
    return;
  }
  if (p === '/healthz' || p === '/livez' || p === '/readyz') {
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    return;
  }
  // Aggregated discovery when the client asks for it first (kubectl does): every group, version and resource in
  // one answer, its media type saying so. Otherwise (or when the server is made without it), the legacy lists, and
  // the client reads every group/version.
  if ((p === '/api' || p === '/apis') && aggregated && wantsAggregated(req.headers.accept)) {
    sendJson(res, 200, registry.apiGroupDiscoveryList(p === '/api'), {
      'Content-Type': AGGREGATED_DISCOVERY,
    });
    return;
  }
  if (p === '/api') {
    const host = req.headers.host ?? '127.0.0.1';
    sendJson(res, 200, {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: host }],
    });
    return;
  }
  if (p === '/apis') {
    sendJson(res, 200, registry.apiGroupList());
    return;
  }
  if (p === '/openapi/v2') {
    // An OpenAPI v2 document without definitions: kubectl's client-side validation then skips every
    // kind (it does so for kinds it finds no schema for), and its patcher uses its built-in types.
    // kubectl asks for the protobuf form: a gnostic Document whose field 1 (swagger) is "2.0".
    if ((req.headers.accept ?? '').includes('protobuf')) {
      const pb = Buffer.from([0x0a, 0x03, ...Buffer.from('2.0')]);
      res.writeHead(200, {
        'Content-Type': 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
        'Content-Length': pb.length,
      });
      res.end(pb);
      return;
    }
    sendJson(res, 200, {
      swagger: '2.0',
      info: { title: 'Kubernetes', version: 'v1.32.0' },
      paths: {},
      definitions: {},
    });
    return;
  }
  if (p === '/openapi/v3') {
    sendJson(
      res,
      200,
      registry.openApiIndex((d) => createHash('sha256').update(JSON.stringify(d)).digest('hex').slice(0, 32)),
    );
    return;
  }
  let doc: Obj | undefined;
  if (parts[0] === 'openapi' && parts[1] === 'v3' && parts.length > 2)
    doc = registry.openApiDocument(parts.slice(2).join('/'));
  if (parts[0] === 'api' && parts.length === 2) doc = registry.apiResourceList('', parts[1] ?? '');
  if (parts[0] === 'apis' && parts.length === 2) doc = registry.apiGroup(parts[1] ?? '');
  if (parts[0] === 'apis' && parts.length === 3)
    doc = registry.apiResourceList(parts[1] ?? '', parts[2] ?? '');
  if (doc === undefined) throw pathNotFound();
  sendJson(res, 200, doc);
}
