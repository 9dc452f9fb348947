/**
 * The request pipeline: read the request, count it, inject faults, authenticate (and impersonate), authorize, then
 * serve discovery or dispatch the resource request to its verb.
 */
import type http from 'node:http';
import type { UserInfo } from './authz.js';
import { authorize, forbiddenMessage } from './authz.js';
import { authenticate, impersonate } from './authn.js';
import { RequestCounters } from './counters.js';
import { handleNonResource } from './discovery.js';
import { pickFault } from './faults.js';
import { decodeObject, decodeProtobuf, parseJson, readBody, sendJson, sleep } from './http.js';
import { present } from './objects.js';
import { clone } from './patch.js';
import { pathAttributes, resourceAttributes } from './rbac-rules.js';
import { listObjects, table, watch, type OpenWatch, type WatchSettings } from './reads.js';
import type { RequestInfo } from './request-info.js';
import { parseRequestInfo } from './request-info.js';
import { review } from './reviews.js';
import type { ServerState } from './state.js';
import {
  badRequest,
  forbidden,
  forbiddenPath,
  methodNotSupported,
  notFound,
  pathNotFound,
} from './status.js';
import { storeKeyOf } from './store.js';
import type { AdmissionWarning, FaultConfig, Obj } from './types.js';
import { Writes } from './writes.js';

/** What the router needs from the server that owns it. */
export interface RouterDeps {
  readonly counters: RequestCounters;
  /** Whether /api and /apis answer in the aggregated format to clients that ask for it. */
  readonly aggregatedDiscovery: boolean;
  /** The faults in force now (tests replace them between requests). */
  faults(): FaultConfig;
  readonly tokens: ReadonlyMap<string, UserInfo>;
  /** Open watches by their answer: bookmarked on demand, ended when the server stops. */
  readonly openWatches: Map<http.ServerResponse, OpenWatch>;
  /** How watches are served now (tests replace it between requests). */
  watchSettings(): WatchSettings;
  /** The admission warnings in force now (tests replace them between requests). */
  admissionWarnings(): readonly AdmissionWarning[];
}

const WRITES = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * One warning as kube-apiserver writes its header: code 299, agent `-`, the text quoted with `"` and `\` escaped
 * (apimachinery pkg/util/net/http.go NewWarningHeader), its UTF-8 bytes as they are (Node writes a header's string
 * as Latin-1, one byte per character).
 */
function warningHeader(text: string): string {
  const quoted = `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  return Buffer.from(`299 - ${quoted}`, 'utf8').toString('latin1');
}

export class Router {
  private readonly writes: Writes;

  constructor(
    private readonly state: ServerState,
    private readonly deps: RouterDeps,
  ) {
    this.writes = new Writes(state);
  }

  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const ri = parseRequestInfo(url.pathname, method, url.searchParams);
    // Counted first: faulted, unauthenticated, forbidden and failing requests count too.
    const counted = ri.subresource !== '' ? `${ri.resource}/${ri.subresource}` : ri.resource;
    if (ri.resourceRequest) this.deps.counters.record(ri.verb, counted);
    if (ri.resourceRequest && this.deps.counters.loggingWrites && RequestCounters.isWrite(ri.verb, counted)) {
      this.logWrite(ri, counted, body, res);
    }
    await sleep(this.deps.faults().latencyMs);
    if (method === 'GET') this.state.aggregation.flush();
    if (ri.resourceRequest) {
      const fault = pickFault(this.deps.faults(), ri);
      if (fault !== undefined)
        this.deps.counters.recordFault(typeof fault === 'string' ? fault : String(fault.code));
      if (fault === 'drop') {
        req.socket.destroy();
        return;
      }
      // The request is still served below; the answer is written to a destroyed socket, which discards it.
      if (fault === 'drop-answer') req.socket.destroy();
      else if (fault !== undefined) throw fault;
    }
    const user = impersonate(this.state.policy, req, authenticate(this.deps.tokens, req));
    const attrs = ri.resourceRequest
      ? resourceAttributes({
          verb: ri.verb,
          apiGroup: ri.group,
          resource: ri.resource,
          subresource: ri.subresource,
          name: ri.name,
          namespace: ri.namespace,
        })
      : pathAttributes(ri.verb, ri.path);
    const decision = authorize(this.state.policy, user, attrs);
    if (!decision.allowed) {
      const message = forbiddenMessage(user, attrs, decision.reason);
      if (!ri.resourceRequest) throw forbiddenPath(message);
      throw forbidden({ group: ri.group, resource: ri.resource }, ri.name, message);
    }
    if (!ri.resourceRequest) {
      handleNonResource(this.state.registry, ri, req, res, this.deps.aggregatedDiscovery);
      return;
    }
    this.handleResource(ri, url.searchParams, req, res, body, user);
  }

  /** Hands the write to the counters' listeners once it is answered (or its connection is gone). */
  private logWrite(ri: RequestInfo, resource: string, body: Buffer, res: http.ServerResponse): void {
    const at = process.hrtime.bigint();
    let name = ri.name;
    if (name === '' && body.length > 0) {
      try {
        const parsed = parseJson(body) as { metadata?: { name?: unknown } };
        if (typeof parsed.metadata?.name === 'string') name = parsed.metadata.name;
      } catch {
        // Not JSON (protobuf): logged without its name.
      }
    }
    res.once('close', () => {
      this.deps.counters.recordWrite({
        verb: ri.verb,
        resource,
        namespace: ri.namespace,
        name,
        at,
        status: res.writableFinished ? res.statusCode : 0,
      });
    });
  }

  /** Dispatches a resource request to its verb. */
  private handleResource(
    ri: RequestInfo,
    query: URLSearchParams,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    body: Buffer,
    user: UserInfo,
  ): void {
    const info = this.state.registry.find(ri.group, ri.version, ri.resource);
    if (info === undefined || ri.malformed) throw pathNotFound();
    if (ri.subresource !== '' && !(ri.subresource === 'status' && info.status)) throw pathNotFound();
    if (!info.namespaced && ri.namespace !== '' && info.resource !== 'namespaces') throw pathNotFound();
    const gr = { group: info.group, resource: info.resource };
    const warnings = info.deprecationWarning === undefined ? [] : [info.deprecationWarning];
    if (WRITES.has(ri.verb) && ri.subresource === '') {
      for (const a of this.deps.admissionWarnings()) {
        if (a.resource === info.resource && (a.name === undefined || a.name === ri.name))
          warnings.push(...a.warnings);
      }
    }
    if (warnings.length > 0) res.setHeader('Warning', warnings.map(warningHeader));
    if (!info.verbs.includes(ri.verb) && ri.subresource === '') {
      const action = ri.verb === 'deletecollection' ? 'deletecollection' : ri.verb;
      throw methodNotSupported(gr, action);
    }
    const dryRun = query.getAll('dryRun').includes('All');
    if (query.getAll('dryRun').some((d) => d !== 'All'))
      throw badRequest(`Invalid dry run value: ${query.getAll('dryRun').join(',')}`);
    const needsNamespace =
      info.namespaced && ri.verb !== 'list' && ri.verb !== 'watch' && ri.verb !== 'deletecollection';
    if (needsNamespace && ri.namespace === '' && !info.review) throw pathNotFound();
    const namespace = info.namespaced ? ri.namespace : '';

    if (info.review) {
      if (ri.verb !== 'create') throw methodNotSupported(gr, ri.verb);
      const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
      const reviewBody: Obj =
        type === 'application/vnd.kubernetes.protobuf' ? decodeProtobuf(body) : parseJson(body);
      sendJson(res, 201, review(this.state.policy, info, reviewBody, user, ri.namespace));
      return;
    }
    const accept = req.headers.accept ?? '';
    const asTable = /as=Table/.test(accept);
    // `as=PartialObjectMetadataList` (and `as=PartialObjectMetadata` for a get): metadata only, as the API server
    // serves it to metadata-only clients (apimachinery meta/v1 PartialObjectMetadata, PartialObjectMetadataList).
    const asMetadata = /as=PartialObjectMetadata(List)?(;|,|$)/.test(accept);
    const metadataOnly = (o: Obj): Obj => ({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: o.metadata ?? {},
    });
    switch (ri.verb) {
      case 'get': {
        const obj = this.state.store.get(storeKeyOf(info), namespace, ri.name);
        if (obj === undefined) throw notFound(gr, ri.name);
        const out = present(info, obj);
        sendJson(
          res,
          200,
          asTable ? table(this.state.store, info, [out], query) : asMetadata ? metadataOnly(out) : out,
        );
        return;
      }
      case 'list': {
        const list = listObjects(this.state.store, info, ri, query);
        sendJson(
          res,
          200,
          asTable
            ? table(this.state.store, info, list.items as Obj[], query, list.metadata as Obj)
            : asMetadata
              ? {
                  kind: 'PartialObjectMetadataList',
                  apiVersion: 'meta.k8s.io/v1',
                  metadata: list.metadata ?? {},
                  items: (list.items as Obj[]).map(metadataOnly),
                }
              : list,
        );
        return;
      }
      case 'watch':
        watch(this.state.store, this.deps.openWatches, this.deps.watchSettings(), info, ri, query, res);
        return;
      case 'create': {
        const obj = decodeObject(info, body, req.headers['content-type']);
        const created = this.writes.create(info, ri, obj, user, dryRun);
        sendJson(res, 201, present(info, created));
        return;
      }
      case 'update': {
        const obj = decodeObject(info, body, req.headers['content-type']);
        const { result, created } = this.writes.update(info, ri, obj, user, dryRun, true);
        sendJson(res, created ? 201 : 200, present(info, result));
        return;
      }
      case 'patch': {
        const { result, created } = this.writes.patch(info, ri, query, req, body, user, dryRun);
        sendJson(res, created ? 201 : 200, present(info, result));
        return;
      }
      case 'delete': {
        const options = body.length > 0 ? parseJson(body) : {};
        if (query.has('propagationPolicy')) options.propagationPolicy = query.get('propagationPolicy');
        if (query.getAll('dryRun').includes('All')) options.dryRun = ['All'];
        const result = this.writes.delete(info, namespace, ri.name, options);
        sendJson(res, 200, result);
        return;
      }
      case 'deletecollection': {
        const options = body.length > 0 ? parseJson(body) : {};
        if (query.has('propagationPolicy')) options.propagationPolicy = query.get('propagationPolicy');
        if (dryRun) options.dryRun = ['All'];
        // A deep copy: the answer lists the objects as they were before the deletes below.
        const list = clone(listObjects(this.state.store, info, ri, query));
        for (const item of list.items as Obj[]) {
          this.writes.delete(info, item.metadata.namespace ?? '', item.metadata.name, {
            ...options,
            preconditions: undefined,
          });
        }
        sendJson(res, 200, list);
        return;
      }
      default:
        throw methodNotSupported(gr, ri.verb);
    }
  }
}
