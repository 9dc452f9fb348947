/**
 * A loopback Kubernetes API server for tests, demos and benchmarks (SPEC §9): discovery, storage with
 * the real object semantics, bearer-token authentication, impersonation, the RBAC authorizer and its
 * escalation checks, the clusterrole aggregation controller, fault injection and request counters.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createHash, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import YAML from 'yaml';
import type { ClusterRole, PolicyRule } from '../../src/rbac/types.js';
import type { AccessAttributes } from '../../src/rbac/authorize.js';
import { aggregateClusterRoles, sameRules } from '../../src/explain/aggregate.js';
import {
  ApiError,
  alreadyExists,
  badRequest,
  conflict,
  forbidden,
  forbiddenPath,
  internalError,
  invalid,
  MODIFIED,
  methodNotSupported,
  notFound,
  pathNotFound,
  serviceUnavailable,
  tooManyRequests,
  unauthorized,
  unsupportedMediaType,
} from './status.js';
import type { ResourceInfo } from './registry.js';
import { Registry } from './registry.js';
import { Store, nowTimestamp, objectKey, storeKeyOf } from './store.js';
import { fieldsMatch, labelsMatch, parseFieldSelector, parseLabelSelector } from './selectors.js';
import { PatchError, applyDelta, clone, jsonPatch, mergePatch, strategicMergePatch } from './patch.js';
import { validateObject } from './validate.js';
import type { PolicySource, UserInfo } from './authz.js';
import {
  AUTHENTICATED,
  MASTERS,
  authorize,
  checkRbacWrite,
  forbiddenMessage,
  reviewAttributes,
  rulesReviewStatus,
} from './authz.js';
import { RequestCounters } from './counters.js';
import { TEST_CERT, TEST_KEY } from './tls.js';
import { ProtobufError, decodeProtobufObject } from './protobuf.js';

export { RequestCounters } from './counters.js';

type Obj = Record<string, any>;

export interface FaultConfig {
  /** Added to every request, discovery included. */
  latencyMs: number;
  /** Fraction (0..1) of resource requests answered with errorCode. */
  errorRate: number;
  errorCode: 500 | 503;
  /** Fraction answered 429 with Retry-After: retryAfterSeconds. */
  throttleRate: number;
  retryAfterSeconds: number;
  /** Fraction of updates (PUT) answered 409 Conflict as if the object had changed. */
  conflictRate: number;
  /** Fraction of resource requests whose connection is destroyed without an answer. */
  dropRate: number;
  /** When set, the rate-based faults apply only to these verbs / resources (plural, "res/sub" for subresources). */
  onlyVerbs?: string[] | undefined;
  onlyResources?: string[] | undefined;
  /** Fails the next `count` matching resource requests with `code`, before the rate-based faults. */
  failNext?: { count: number; code: number; verbs?: string[] | undefined } | undefined;
}

export interface ApiServerOptions {
  port?: number;
  latencyMs?: number;
  aggregation?: boolean;
  aggregationDelayMs?: number;
  seed?: readonly unknown[];
}

export interface TestApiServer {
  readonly url: string;
  stop(): Promise<void>;
  seed(objects: readonly unknown[]): void;
  addUser(token: string, user: string, groups?: readonly string[]): void;
  writeKubeconfig(file: string, opts?: { token?: string; context?: string }): void;
  readonly counters: RequestCounters;
  faults: FaultConfig;
  get(resource: string, name: string, namespace?: string): unknown;
  list(resource: string, namespace?: string): unknown[];
  setAggregation(enabled: boolean): void;
}

export const ADMIN_TOKEN = 'test-apiserver-admin-token';
const ADMIN_USER = 'admin';

const NO_FAULTS: FaultConfig = {
  latencyMs: 0,
  errorRate: 0,
  errorCode: 500,
  throttleRate: 0,
  retryAfterSeconds: 1,
  conflictRate: 0,
  dropRate: 0,
};

interface RequestInfo {
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

function parseRequestInfo(pathname: string, method: string, query: URLSearchParams): RequestInfo {
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

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

function randomSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++)
    s += GENERATE_ALPHABET[Math.floor(Math.random() * GENERATE_ALPHABET.length)] ?? '';
  return s;
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

function groupVersion(info: Pick<ResourceInfo, 'group' | 'version'>): string {
  return info.group === '' ? info.version : `${info.group}/${info.version}`;
}

function apiVersionGroup(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** Resources whose metadata.generation follows spec changes. */
function hasGeneration(info: ResourceInfo): boolean {
  return info.custom || info.resource === 'deployments' || info.resource === 'customresourcedefinitions';
}

/** The CRD status a healthy apiextensions controller converges to. */
function crdStatus(crd: Obj): Obj {
  const now = nowTimestamp();
  const versions = Array.isArray(crd.spec?.versions) ? (crd.spec.versions as Obj[]) : [];
  return {
    acceptedNames: clone(crd.spec?.names ?? {}),
    conditions: [
      {
        type: 'NamesAccepted',
        status: 'True',
        lastTransitionTime: now,
        reason: 'NoConflicts',
        message: 'no conflicts found',
      },
      {
        type: 'Established',
        status: 'True',
        lastTransitionTime: now,
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      },
    ],
    storedVersions: versions.filter((v) => v.storage === true).map((v) => v.name as string),
  };
}

function canonical(obj: Obj): string {
  const c = clone(obj);
  if (c.metadata) {
    delete c.metadata.resourceVersion;
    delete c.metadata.managedFields;
  }
  return JSON.stringify(sortKeys(c));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Obj)[k])]),
    );
  }
  return v;
}

class Server implements TestApiServer {
  readonly counters = new RequestCounters();
  faults: FaultConfig;
  url = '';
  private readonly store = new Store();
  private readonly registry = new Registry();
  private readonly tokens = new Map<string, UserInfo>();
  private readonly lastApplied = new Map<string, Obj>();
  private readonly http: http.Server;
  private readonly https: https.Server;
  private readonly listener: net.Server;
  private readonly openWatches = new Set<http.ServerResponse>();
  private aggregation: boolean;
  private readonly aggregationDelayMs: number;
  private aggregationTimer: NodeJS.Timeout | undefined;

  constructor(opts: ApiServerOptions) {
    this.faults = { ...NO_FAULTS, latencyMs: opts.latencyMs ?? 0 };
    this.aggregation = opts.aggregation ?? true;
    this.aggregationDelayMs = opts.aggregationDelayMs ?? 0;
    this.tokens.set(ADMIN_TOKEN, { name: ADMIN_USER, groups: [MASTERS, AUTHENTICATED] });
    const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
      this.handle(req, res).catch((err: unknown) => {
        this.sendError(res, err);
      });
    };
    this.http = http.createServer(onRequest);
    this.https = https.createServer({ cert: TEST_CERT, key: TEST_KEY }, onRequest);
    // One port for both: a TLS handshake starts with byte 0x16, anything else is plain HTTP.
    this.listener = net.createServer((socket) => {
      socket.once('data', (first: Buffer) => {
        socket.pause();
        socket.unshift(first);
        (first[0] === 0x16 ? this.https : this.http).emit('connection', socket);
        process.nextTick(() => socket.resume());
      });
      socket.on('error', () => socket.destroy());
    });
  }

  /** The https address the written kubeconfigs use. */
  httpsUrl(): string {
    return this.url.replace(/^http:/, 'https:');
  }

  listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.listener.once('error', reject);
      this.listener.listen(port, '127.0.0.1', () => {
        const addr = this.listener.address() as AddressInfo;
        this.url = `http://127.0.0.1:${addr.port}`;
        resolve();
      });
    });
  }

  stop(): Promise<void> {
    if (this.aggregationTimer !== undefined) clearTimeout(this.aggregationTimer);
    for (const w of this.openWatches) w.end();
    return new Promise((resolve) => {
      this.listener.close(() => {
        resolve();
      });
      this.http.closeAllConnections();
      this.https.closeAllConnections();
    });
  }

  // ---- public helpers -------------------------------------------------------------------------------------

  addUser(token: string, user: string, groups: readonly string[] = []): void {
    const all = groups.includes(AUTHENTICATED) ? [...groups] : [...groups, AUTHENTICATED];
    this.tokens.set(token, { name: user, groups: all });
  }

  writeKubeconfig(file: string, opts: { token?: string; context?: string } = {}): void {
    const context = opts.context ?? 'admin';
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'test-apiserver',
          cluster: {
            server: this.httpsUrl(),
            'certificate-authority-data': Buffer.from(TEST_CERT).toString('base64'),
          },
        },
      ],
      users: [{ name: context, user: { token: opts.token ?? ADMIN_TOKEN } }],
      contexts: [{ name: context, context: { cluster: 'test-apiserver', user: context } }],
      'current-context': context,
      preferences: {},
    };
    writeFileSync(file, YAML.stringify(config), { mode: 0o600 });
  }

  seed(objects: readonly unknown[]): void {
    const objs = objects.filter((o): o is Obj => typeof o === 'object' && o !== null).map((o) => clone(o));
    const isCrd = (o: Obj): boolean =>
      o.kind === 'CustomResourceDefinition' &&
      apiVersionGroup(String(o.apiVersion)) === 'apiextensions.k8s.io';
    for (const o of [...objs.filter(isCrd), ...objs.filter((o) => !isCrd(o))]) {
      const info = this.registry.byKind(String(o.apiVersion), String(o.kind));
      if (info === undefined) {
        throw new Error(
          `seed: no served resource for ${String(o.apiVersion)} ${String(o.kind)} (seed its CustomResourceDefinition too)`,
        );
      }
      if (typeof o.metadata?.name !== 'string')
        throw new Error(`seed: ${String(o.kind)} without metadata.name`);
      if (!info.namespaced) delete o.metadata.namespace;
      else o.metadata.namespace ??= 'default';
      if (info.resource === 'customresourcedefinitions' && o.status === undefined) o.status = crdStatus(o);
      this.store.put(
        storeKeyOf(info),
        o,
        this.store.get(storeKeyOf(info), o.metadata.namespace ?? '', o.metadata.name) ? 'MODIFIED' : 'ADDED',
      );
      if (info.resource === 'customresourcedefinitions') this.refreshCrds();
    }
    this.scheduleAggregation();
  }

  get(resource: string, name: string, namespace?: string): unknown {
    this.flushAggregation();
    const info = this.registry.byResource(resource);
    if (info === undefined) return undefined;
    const o = this.store.get(storeKeyOf(info), info.namespaced ? (namespace ?? 'default') : '', name);
    return o === undefined ? undefined : clone(o);
  }

  list(resource: string, namespace?: string): unknown[] {
    this.flushAggregation();
    const info = this.registry.byResource(resource);
    if (info === undefined) return [];
    return this.store.list(storeKeyOf(info), info.namespaced ? namespace : undefined).map((o) => clone(o));
  }

  setAggregation(enabled: boolean): void {
    this.aggregation = enabled;
    if (enabled) this.aggregateNow();
  }

  // ---- aggregation controller --------------------------------------------------------------------------

  private scheduleAggregation(): void {
    if (!this.aggregation) return;
    if (this.aggregationDelayMs <= 0) {
      // Computed before the next read (see flushAggregation): every read sees converged rules, and a burst of
      // writes costs one aggregation instead of one per write.
      this.aggregationDirty = true;
      return;
    }
    if (this.aggregationTimer !== undefined) return;
    this.aggregationTimer = setTimeout(() => {
      this.aggregationTimer = undefined;
      this.aggregateNow();
    }, this.aggregationDelayMs);
  }

  private aggregationDirty = false;

  /** Runs a pending immediate aggregation; called before anything reads ClusterRoles. */
  private flushAggregation(): void {
    if (!this.aggregationDirty) return;
    this.aggregationDirty = false;
    this.aggregateNow();
  }

  /** Stores, for every aggregated ClusterRole, the rules the controller converges to (changed ones only). */
  private aggregateNow(): void {
    if (!this.aggregation) return;
    const key = 'rbac.authorization.k8s.io/clusterroles';
    const roles = this.store.list(key).map((r) => {
      const c = clone(r);
      if (c.aggregationRule === null) delete c.aggregationRule;
      return c as unknown as ClusterRole;
    });
    const computed = aggregateClusterRoles(roles);
    for (const [name, rules] of computed) {
      const stored = this.store.get(key, '', name);
      if (stored === undefined) continue;
      if (sameRules((stored.rules ?? []) as PolicyRule[], rules)) continue;
      const updated = clone(stored);
      updated.rules = clone(rules);
      this.store.put(key, updated, 'MODIFIED');
    }
  }

  private refreshCrds(): void {
    this.registry.setCrds(this.store.list('apiextensions.k8s.io/customresourcedefinitions'));
  }

  private readonly policy: PolicySource = {
    list: (resource, namespace) => {
      this.flushAggregation();
      return this.store.list(`rbac.authorization.k8s.io/${resource}`, namespace);
    },
    get: (resource, name, namespace) => {
      this.flushAggregation();
      return this.store.get(`rbac.authorization.k8s.io/${resource}`, namespace ?? '', name);
    },
  };

  // ---- request pipeline -----------------------------------------------------------------------------------

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const ri = parseRequestInfo(url.pathname, method, url.searchParams);
    // Counted first: faulted, unauthenticated, forbidden and failing requests count too.
    if (ri.resourceRequest)
      this.counters.record(ri.verb, ri.subresource !== '' ? `${ri.resource}/${ri.subresource}` : ri.resource);
    await sleep(this.faults.latencyMs);
    if (method === 'GET') this.flushAggregation();
    if (ri.resourceRequest) {
      const fault = this.pickFault(ri);
      if (fault === 'drop') {
        req.socket.destroy();
        return;
      }
      if (fault !== undefined) throw fault;
    }
    const user = this.impersonate(req, this.authenticate(req));
    const attrs: AccessAttributes = ri.resourceRequest
      ? {
          verb: ri.verb,
          apiGroup: ri.group,
          resource: ri.resource,
          subresource: ri.subresource,
          name: ri.name,
          namespace: ri.namespace,
        }
      : { verb: ri.verb, path: ri.path };
    if (!authorize(this.policy, user, attrs)) {
      if (!ri.resourceRequest) throw forbiddenPath(forbiddenMessage(user, attrs));
      throw forbidden({ group: ri.group, resource: ri.resource }, ri.name, forbiddenMessage(user, attrs));
    }
    if (!ri.resourceRequest) {
      this.handleNonResource(ri, req, res);
      return;
    }
    this.handleResource(ri, url.searchParams, req, res, body, user);
  }

  private pickFault(ri: RequestInfo): ApiError | 'drop' | undefined {
    const f = this.faults;
    const resource = ri.subresource !== '' ? `${ri.resource}/${ri.subresource}` : ri.resource;
    if (
      f.failNext !== undefined &&
      f.failNext.count > 0 &&
      (f.failNext.verbs === undefined || f.failNext.verbs.includes(ri.verb))
    ) {
      f.failNext.count -= 1;
      const code = f.failNext.code;
      if (f.failNext.count <= 0) f.failNext = undefined;
      return this.faultError(code, ri);
    }
    if (f.onlyVerbs !== undefined && !f.onlyVerbs.includes(ri.verb)) return undefined;
    if (f.onlyResources !== undefined && !f.onlyResources.includes(resource)) return undefined;
    if (f.dropRate > 0 && Math.random() < f.dropRate) return 'drop';
    if (f.throttleRate > 0 && Math.random() < f.throttleRate) return tooManyRequests(f.retryAfterSeconds);
    if (f.errorRate > 0 && Math.random() < f.errorRate) return this.faultError(f.errorCode, ri);
    if (ri.verb === 'update' && f.conflictRate > 0 && Math.random() < f.conflictRate) {
      return conflict({ group: ri.group, resource: ri.resource }, ri.name, MODIFIED);
    }
    return undefined;
  }

  private faultError(code: number, ri: RequestInfo): ApiError {
    switch (code) {
      case 429:
        return tooManyRequests(this.faults.retryAfterSeconds);
      case 503:
        return serviceUnavailable('the server is currently unable to handle the request (injected fault)');
      case 409:
        return conflict({ group: ri.group, resource: ri.resource }, ri.name, MODIFIED);
      case 500:
        return internalError('injected fault');
      default:
        return new ApiError(code, 'Unknown', `injected fault (${code})`);
    }
  }

  private authenticate(req: http.IncomingMessage): UserInfo {
    const header = req.headers.authorization ?? '';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const user = m === null ? undefined : this.tokens.get(m[1] ?? '');
    if (user === undefined) throw unauthorized();
    return user;
  }

  /** The impersonation filter: every requested identity needs `impersonate` on it. */
  private impersonate(req: http.IncomingMessage, user: UserInfo): UserInfo {
    const users = req.headersDistinct['impersonate-user'] ?? [];
    const groups = req.headersDistinct['impersonate-group'] ?? [];
    const extras = Object.keys(req.headers).filter((h) => h.startsWith('impersonate-extra-'));
    if (users.length === 0) {
      if (groups.length > 0 || extras.length > 0) {
        throw internalError(
          `requested [${groups.map((g) => `{Group  ${g}  }`).join(' ')}] without impersonating a user`,
        );
      }
      return user;
    }
    const name = users[0] ?? '';
    const check = (attrs: AccessAttributes): void => {
      if (!authorize(this.policy, user, attrs)) {
        throw forbidden(
          { group: attrs.apiGroup ?? '', resource: attrs.resource ?? '' },
          attrs.name ?? '',
          forbiddenMessage(user, attrs),
        );
      }
    };
    const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(name);
    if (sa !== null)
      check({
        verb: 'impersonate',
        apiGroup: '',
        resource: 'serviceaccounts',
        namespace: sa[1] ?? '',
        name: sa[2] ?? '',
      });
    else check({ verb: 'impersonate', apiGroup: '', resource: 'users', name });
    for (const g of groups) check({ verb: 'impersonate', apiGroup: '', resource: 'groups', name: g });
    for (const h of extras) {
      const key = h.slice('impersonate-extra-'.length);
      for (const v of req.headersDistinct[h] ?? []) {
        check({
          verb: 'impersonate',
          apiGroup: 'authentication.k8s.io',
          resource: 'userextras',
          subresource: key,
          name: v,
        });
      }
    }
    const out = [...groups];
    if (sa !== null && groups.length === 0)
      out.push('system:serviceaccounts', `system:serviceaccounts:${sa[1] ?? ''}`);
    if (name !== 'system:anonymous' && !out.includes(AUTHENTICATED)) out.push(AUTHENTICATED);
    return { name, groups: out };
  }

  // ---- discovery and other non-resource paths -------------------------------------------------------------

  private handleNonResource(ri: RequestInfo, req: http.IncomingMessage, res: http.ServerResponse): void {
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
    // Legacy discovery only: kubectl asks for aggregated discovery first and, seeing a plain
    // application/json answer, falls back to reading every group/version.
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
      sendJson(res, 200, this.registry.apiGroupList());
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
        this.registry.openApiIndex((d) =>
          createHash('sha256').update(JSON.stringify(d)).digest('hex').slice(0, 32),
        ),
      );
      return;
    }
    let doc: Obj | undefined;
    if (parts[0] === 'openapi' && parts[1] === 'v3' && parts.length > 2)
      doc = this.registry.openApiDocument(parts.slice(2).join('/'));
    if (parts[0] === 'api' && parts.length === 2) doc = this.registry.apiResourceList('', parts[1] ?? '');
    if (parts[0] === 'apis' && parts.length === 2) doc = this.registry.apiGroup(parts[1] ?? '');
    if (parts[0] === 'apis' && parts.length === 3)
      doc = this.registry.apiResourceList(parts[1] ?? '', parts[2] ?? '');
    if (doc === undefined) throw pathNotFound();
    sendJson(res, 200, doc);
  }

  // ---- resources ---------------------------------------------------------------------------------------

  private handleResource(
    ri: RequestInfo,
    query: URLSearchParams,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    body: Buffer,
    user: UserInfo,
  ): void {
    const info = this.registry.find(ri.group, ri.version, ri.resource);
    if (info === undefined || ri.malformed) throw pathNotFound();
    if (ri.subresource !== '' && !(ri.subresource === 'status' && info.status)) throw pathNotFound();
    if (!info.namespaced && ri.namespace !== '' && info.resource !== 'namespaces') throw pathNotFound();
    const gr = { group: info.group, resource: info.resource };
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
      const review: Obj =
        type === 'application/vnd.kubernetes.protobuf' ? decodeProtobuf(body) : parseJson(body);
      sendJson(res, 201, this.review(info, review, user, ri.namespace));
      return;
    }
    const accept = req.headers.accept ?? '';
    const asTable = /as=Table/.test(accept);
    switch (ri.verb) {
      case 'get': {
        const obj = this.store.get(storeKeyOf(info), namespace, ri.name);
        if (obj === undefined) throw notFound(gr, ri.name);
        const out = this.present(info, obj);
        sendJson(res, 200, asTable ? this.table(info, [out], query) : out);
        return;
      }
      case 'list': {
        const list = this.listObjects(info, ri, query);
        sendJson(
          res,
          200,
          asTable ? this.table(info, list.items as Obj[], query, list.metadata as Obj) : list,
        );
        return;
      }
      case 'watch':
        this.watch(info, ri, query, res);
        return;
      case 'create': {
        const obj = this.decode(info, body, req.headers['content-type']);
        const created = this.create(info, ri, obj, user, dryRun);
        sendJson(res, 201, this.present(info, created));
        return;
      }
      case 'update': {
        const obj = this.decode(info, body, req.headers['content-type']);
        const { result, created } = this.update(info, ri, obj, user, dryRun, true);
        sendJson(res, created ? 201 : 200, this.present(info, result));
        return;
      }
      case 'patch': {
        const { result, created } = this.patch(info, ri, query, req, body, user, dryRun);
        sendJson(res, created ? 201 : 200, this.present(info, result));
        return;
      }
      case 'delete': {
        const options = body.length > 0 ? parseJson(body) : {};
        if (query.has('propagationPolicy')) options.propagationPolicy = query.get('propagationPolicy');
        if (query.getAll('dryRun').includes('All')) options.dryRun = ['All'];
        const result = this.delete(info, namespace, ri.name, options);
        sendJson(res, 200, result);
        return;
      }
      case 'deletecollection': {
        const options = body.length > 0 ? parseJson(body) : {};
        if (query.has('propagationPolicy')) options.propagationPolicy = query.get('propagationPolicy');
        if (dryRun) options.dryRun = ['All'];
        const list = this.listObjects(info, ri, query);
        for (const item of list.items as Obj[]) {
          this.delete(info, item.metadata.namespace ?? '', item.metadata.name, {
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

  /** An object as the API returns it: the requested version's apiVersion (all versions share storage). */
  private present(info: ResourceInfo, obj: Obj): Obj {
    const out = clone(obj);
    out.apiVersion = groupVersion(info);
    out.kind = info.kind;
    return { apiVersion: out.apiVersion, kind: out.kind, ...out };
  }

  private decode(info: ResourceInfo, body: Buffer, contentType: string | undefined): Obj {
    const type = (contentType ?? 'application/json').split(';')[0]?.trim() ?? '';
    let obj: unknown;
    if (type === 'application/yaml') {
      try {
        obj = YAML.parse(body.toString('utf8'));
      } catch (e) {
        throw badRequest(`error decoding YAML: ${(e as Error).message}`);
      }
    } else if (type === 'application/json' || type === '') {
      obj = parseJson(body);
    } else if (type === 'application/vnd.kubernetes.protobuf') {
      obj = decodeProtobuf(body);
    } else {
      throw new ApiError(
        415,
        'UnsupportedMediaType',
        `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`,
      );
    }
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
      throw badRequest(`the object provided is unrecognized (must be of type ${info.kind})`);
    }
    const o = obj as Obj;
    o.apiVersion ??= groupVersion(info);
    o.kind ??= info.kind;
    if (
      apiVersionGroup(String(o.apiVersion)) !== info.group ||
      (!info.custom && o.apiVersion !== groupVersion(info))
    ) {
      throw badRequest(
        `the API version in the data (${String(o.apiVersion)}) does not match the expected API version (${groupVersion(info)})`,
      );
    }
    if (o.kind !== info.kind)
      throw badRequest(
        `the kind in the data (${String(o.kind)}) does not match the expected kind (${info.kind})`,
      );
    if (
      o.metadata !== undefined &&
      (typeof o.metadata !== 'object' || o.metadata === null || Array.isArray(o.metadata))
    ) {
      throw badRequest('metadata must be an object');
    }
    o.metadata ??= {};
    return o;
  }

  private listObjects(info: ResourceInfo, ri: RequestInfo, query: URLSearchParams): Obj {
    const labelReqs = parseLabelSelector(query.get('labelSelector') ?? '');
    const supported = (f: string): boolean =>
      f === 'metadata.name' ||
      f === 'metadata.namespace' ||
      (info.resource === 'events' &&
        /^(involvedObject\.\w+|reason|reportingComponent|source|type)$/.test(f)) ||
      (info.resource === 'secrets' && f === 'type') ||
      (info.resource === 'namespaces' && f === 'status.phase');
    const fieldReqs = parseFieldSelector(query.get('fieldSelector') ?? '', supported);
    const all = this.store
      .list(storeKeyOf(info), info.namespaced && ri.namespace !== '' ? ri.namespace : undefined)
      .filter((o) => labelsMatch(labelReqs, o.metadata?.labels) && fieldsMatch(fieldReqs, o));
    const limit = Number(query.get('limit') ?? '0');
    if (!Number.isInteger(limit) || limit < 0) throw badRequest(`invalid limit: ${query.get('limit') ?? ''}`);
    let start = 0;
    const cont = query.get('continue') ?? '';
    if (cont !== '') {
      let token: Obj;
      try {
        token = JSON.parse(Buffer.from(cont, 'base64').toString('utf8')) as Obj;
      } catch {
        throw badRequest('continue key is not valid: illegal base64 data');
      }
      if (typeof token.start !== 'string')
        throw badRequest(
          'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
        );
      const key = token.start;
      start = all.findIndex((o) => objectKey(o.metadata.namespace ?? '', o.metadata.name) > key);
      if (start < 0) start = all.length;
    }
    const page = limit > 0 ? all.slice(start, start + limit) : all.slice(start);
    const metadata: Obj = { resourceVersion: String(this.store.currentRv()) };
    const last = page[page.length - 1];
    if (limit > 0 && start + limit < all.length && last !== undefined) {
      metadata.continue = Buffer.from(
        JSON.stringify({
          v: 'meta.k8s.io/v1',
          rv: this.store.currentRv(),
          start: objectKey(last.metadata.namespace ?? '', last.metadata.name),
        }),
      ).toString('base64');
      metadata.remainingItemCount = all.length - start - limit;
    }
    const items = page.map((o) => {
      const c = clone(o);
      // Like the real server, items of built-in lists carry no apiVersion/kind; custom resources do.
      if (info.custom) return { ...c, apiVersion: groupVersion(info), kind: info.kind };
      delete c.apiVersion;
      delete c.kind;
      return c;
    });
    return { kind: info.listKind, apiVersion: groupVersion(info), metadata, items };
  }

  private table(info: ResourceInfo, items: Obj[], query: URLSearchParams, listMeta?: Obj): Obj {
    const includeObject = query.get('includeObject') ?? 'Metadata';
    return {
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: listMeta ?? { resourceVersion: String(this.store.currentRv()) },
      columnDefinitions: [
        {
          name: 'Name',
          type: 'string',
          format: 'name',
          description: 'Name must be unique within a namespace.',
          priority: 0,
        },
        {
          name: 'Created At',
          type: 'date',
          format: '',
          description:
            'CreationTimestamp is a timestamp representing the server time when this object was created.',
          priority: 0,
        },
      ],
      rows: items.map((o) => ({
        cells: [o.metadata?.name ?? '', o.metadata?.creationTimestamp ?? ''],
        object:
          includeObject === 'Object'
            ? { ...o, apiVersion: groupVersion(info), kind: info.kind }
            : includeObject === 'None'
              ? undefined
              : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata },
      })),
    };
  }

  private watch(info: ResourceInfo, ri: RequestInfo, query: URLSearchParams, res: http.ServerResponse): void {
    const labelReqs = parseLabelSelector(query.get('labelSelector') ?? '');
    const fieldReqs = parseFieldSelector(
      query.get('fieldSelector') ?? '',
      (f) => f === 'metadata.name' || f === 'metadata.namespace',
    );
    const key = storeKeyOf(info);
    const matches = (o: Obj): boolean =>
      (!info.namespaced || ri.namespace === '' || o.metadata?.namespace === ri.namespace) &&
      labelsMatch(labelReqs, o.metadata?.labels) &&
      fieldsMatch(fieldReqs, o);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    this.openWatches.add(res);
    const send = (type: string, o: Obj): void => {
      res.write(`${JSON.stringify({ type, object: this.present(info, o) })}\n`);
    };
    const rv = query.get('resourceVersion') ?? '';
    if (rv === '' || rv === '0') {
      for (const o of this.store.list(key)) if (matches(o)) send('ADDED', o);
    } else {
      for (const e of this.store.history)
        if (e.storeKey === key && e.rv > Number(rv) && matches(e.object)) send(e.type, e.object);
    }
    const unsubscribe = this.store.subscribe((e) => {
      if (e.storeKey === key && matches(e.object)) send(e.type, e.object);
    });
    const timeout = Number(query.get('timeoutSeconds') ?? '1800');
    const timer = setTimeout(() => res.end(), Math.max(0, timeout) * 1000);
    res.on('close', () => {
      clearTimeout(timer);
      unsubscribe();
      this.openWatches.delete(res);
    });
  }

  // ---- writes -------------------------------------------------------------------------------------------

  private checkWrite(
    info: ResourceInfo,
    ri: RequestInfo,
    user: UserInfo,
    obj: Obj,
    old: Obj | undefined,
  ): void {
    const causes = validateObject(obj, info, old);
    if (causes.length > 0) throw invalid(info.group, info.kind, String(obj.metadata?.name ?? ''), causes);
    if (info.group === 'rbac.authorization.k8s.io') {
      const outcome = checkRbacWrite(
        this.policy,
        user,
        info.resource,
        info.namespaced ? ri.namespace : '',
        ri.name,
        obj,
        old,
      );
      if (!outcome.ok) {
        if (outcome.notFound !== undefined)
          throw notFound(
            { group: 'rbac.authorization.k8s.io', resource: outcome.notFound.resource },
            outcome.notFound.name,
          );
        throw forbidden(
          { group: info.group, resource: info.resource },
          String(obj.metadata?.name ?? ''),
          outcome.message,
        );
      }
    }
  }

  private create(info: ResourceInfo, ri: RequestInfo, obj: Obj, user: UserInfo, dryRun: boolean): Obj {
    const meta = obj.metadata as Obj;
    if (info.namespaced) {
      if (meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== ri.namespace) {
        throw badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      meta.namespace = ri.namespace;
    } else delete meta.namespace;
    if ((meta.name ?? '') === '' && typeof meta.generateName === 'string' && meta.generateName !== '') {
      meta.name = `${meta.generateName}${randomSuffix()}`;
    }
    for (const f of [
      'uid',
      'resourceVersion',
      'creationTimestamp',
      'deletionTimestamp',
      'generation',
      'managedFields',
    ])
      Reflect.deleteProperty(meta, f);
    if (info.status && info.resource !== 'namespaces') delete obj.status;
    if (info.resource === 'namespaces') obj.status = { phase: 'Active' };
    if (info.resource === 'customresourcedefinitions') obj.status = crdStatus(obj);
    if (hasGeneration(info)) meta.generation = 1;
    this.checkWrite(info, { ...ri, name: '' }, user, obj, undefined);
    const key = storeKeyOf(info);
    const gr = { group: info.group, resource: info.resource };
    if (this.store.get(key, meta.namespace ?? '', meta.name) !== undefined)
      throw alreadyExists(gr, meta.name);
    if (dryRun) {
      meta.uid = randomUUID();
      meta.creationTimestamp = nowTimestamp();
      return obj;
    }
    const stored = this.store.put(key, obj, 'ADDED');
    this.afterWrite(info);
    return stored;
  }

  private update(
    info: ResourceInfo,
    ri: RequestInfo,
    obj: Obj,
    user: UserInfo,
    dryRun: boolean,
    isPut: boolean,
  ): { result: Obj; created: boolean } {
    const gr = { group: info.group, resource: info.resource };
    const meta = obj.metadata as Obj;
    if (meta.name !== undefined && meta.name !== ri.name) {
      throw badRequest(
        `the name of the object (${String(meta.name)}) does not match the name on the URL (${ri.name})`,
      );
    }
    meta.name = ri.name;
    if (info.namespaced) {
      if (meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== ri.namespace) {
        throw badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      meta.namespace = ri.namespace;
    } else delete meta.namespace;
    const key = storeKeyOf(info);
    const namespace = info.namespaced ? ri.namespace : '';
    const old = this.store.get(key, namespace, ri.name);
    if (old === undefined) {
      // The RBAC kinds allow create on update (their strategies' AllowCreateOnUpdate); the others are 404.
      if (info.group === 'rbac.authorization.k8s.io' && ri.subresource === '') {
        return { result: this.create(info, ri, obj, user, dryRun), created: true };
      }
      throw notFound(gr, ri.name);
    }
    const rv = meta.resourceVersion;
    if (rv !== undefined && rv !== '' && rv !== old.metadata.resourceVersion)
      throw conflict(gr, ri.name, MODIFIED);
    if (isPut && info.custom && (rv === undefined || rv === '')) {
      throw invalid(info.group, info.kind, ri.name, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: 0x0: must be specified for an update',
          field: 'metadata.resourceVersion',
        },
      ]);
    }
    if (meta.uid !== undefined && meta.uid !== '' && meta.uid !== old.metadata.uid) {
      throw conflict(
        gr,
        ri.name,
        `Precondition failed: UID in precondition: ${String(meta.uid)}, UID in object meta: ${String(old.metadata.uid)}`,
      );
    }
    let next = obj;
    if (ri.subresource === 'status') {
      next = clone(old);
      next.status = clone(obj.status);
    } else if (info.status) {
      if (old.status === undefined) delete next.status;
      else next.status = clone(old.status);
    }
    const nm = next.metadata as Obj;
    nm.uid = old.metadata.uid;
    nm.creationTimestamp = old.metadata.creationTimestamp;
    if (old.metadata.deletionTimestamp !== undefined) nm.deletionTimestamp = old.metadata.deletionTimestamp;
    else delete nm.deletionTimestamp;
    if (hasGeneration(info)) {
      const gen = Number(old.metadata.generation ?? 1);
      nm.generation =
        JSON.stringify(sortKeys(next.spec)) !== JSON.stringify(sortKeys(old.spec)) ? gen + 1 : gen;
    } else delete nm.generation;
    if (info.resource === 'customresourcedefinitions' && ri.subresource === '') next.status = crdStatus(next);
    nm.resourceVersion = old.metadata.resourceVersion;
    this.checkWrite(info, ri, user, next, old);
    if (canonical(next) === canonical(old)) return { result: old, created: false };
    if (dryRun) return { result: next, created: false };
    if (nm.deletionTimestamp !== undefined && (nm.finalizers ?? []).length === 0) {
      this.store.remove(key, namespace, ri.name);
      this.collectGarbage(String(old.metadata.uid), 'Background');
      this.afterWrite(info);
      return { result: next, created: false };
    }
    const stored = this.store.put(key, next, 'MODIFIED');
    this.afterWrite(info);
    return { result: stored, created: false };
  }

  private patch(
    info: ResourceInfo,
    ri: RequestInfo,
    query: URLSearchParams,
    req: http.IncomingMessage,
    body: Buffer,
    user: UserInfo,
    dryRun: boolean,
  ): { result: Obj; created: boolean } {
    const gr = { group: info.group, resource: info.resource };
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
    const namespace = info.namespaced ? ri.namespace : '';
    const key = storeKeyOf(info);
    const old = this.store.get(key, namespace, ri.name);
    if (type === 'application/apply-patch+yaml') {
      const manager = query.get('fieldManager') ?? '';
      if (manager === '') {
        throw invalid('meta.k8s.io', 'PatchOptions', '', [
          {
            reason: 'FieldValueRequired',
            message: 'Required value: is required for apply patch',
            field: 'fieldManager',
          },
        ]);
      }
      let applied: unknown;
      try {
        applied = YAML.parse(body.toString('utf8'));
      } catch (e) {
        throw badRequest(`error decoding YAML: ${(e as Error).message}`);
      }
      if (typeof applied !== 'object' || applied === null || Array.isArray(applied))
        throw badRequest('invalid object for apply patch');
      const a = applied as Obj;
      if (typeof a.apiVersion !== 'string' || typeof a.kind !== 'string') {
        throw badRequest('invalid object type: /, Kind=');
      }
      const appliedKey = `${key}|${namespace}/${ri.name}|${manager}`;
      let result: { result: Obj; created: boolean };
      if (old === undefined) {
        const obj = this.decode(info, Buffer.from(JSON.stringify(a)), 'application/json');
        obj.metadata.name ??= ri.name;
        if (obj.metadata.name !== ri.name) {
          throw badRequest(
            `the name of the object (${String(obj.metadata.name)}) does not match the name on the URL (${ri.name})`,
          );
        }
        result = { result: this.create(info, ri, obj, user, dryRun), created: true };
      } else {
        const delta = applyDelta(this.lastApplied.get(appliedKey) ?? {}, a) as Obj;
        if (delta.metadata) {
          delete delta.metadata.resourceVersion;
          delete delta.metadata.uid;
        }
        const next = mergePatch(clone(old), delta) as Obj;
        next.metadata.resourceVersion = old.metadata.resourceVersion;
        result = this.update(info, ri, this.decodeObj(info, next), user, dryRun, false);
      }
      if (!dryRun) this.lastApplied.set(appliedKey, clone(a));
      return result;
    }
    if (old === undefined) throw notFound(gr, ri.name);
    const patch = parseJson(body);
    let next: unknown;
    try {
      switch (type) {
        case 'application/merge-patch+json':
          next = mergePatch(clone(old), patch);
          break;
        case 'application/strategic-merge-patch+json':
          if (info.custom) throw unsupportedMediaType(type);
          next = strategicMergePatch(clone(old), patch);
          break;
        case 'application/json-patch+json':
          next = jsonPatch(clone(old), patch);
          break;
        default:
          throw unsupportedMediaType(type);
      }
    } catch (e) {
      if (e instanceof PatchError)
        throw invalid(info.group, info.kind, ri.name, [
          { reason: 'FieldValueInvalid', message: e.message, field: '' },
        ]);
      throw e;
    }
    if (typeof next !== 'object' || next === null || Array.isArray(next))
      throw badRequest('the patch produced an invalid object');
    const n = next as Obj;
    if (n.metadata?.name !== undefined && n.metadata.name !== ri.name) {
      throw badRequest(
        `the name of the object (${String(n.metadata.name)}) does not match the name on the URL (${ri.name})`,
      );
    }
    return this.update(info, ri, this.decodeObj(info, n), user, dryRun, false);
  }

  private decodeObj(info: ResourceInfo, obj: Obj): Obj {
    return this.decode(info, Buffer.from(JSON.stringify(obj)), 'application/json');
  }

  private delete(info: ResourceInfo, namespace: string, name: string, options: Obj): Obj {
    const gr = { group: info.group, resource: info.resource };
    const key = storeKeyOf(info);
    const obj = this.store.get(key, namespace, name);
    if (obj === undefined) throw notFound(gr, name);
    const pre = (options.preconditions ?? {}) as Obj;
    if (pre.uid !== undefined && pre.uid !== null && pre.uid !== obj.metadata.uid) {
      throw conflict(
        gr,
        name,
        `Precondition failed: UID in precondition: ${String(pre.uid)}, UID in object meta: ${String(obj.metadata.uid)}`,
      );
    }
    if (
      pre.resourceVersion !== undefined &&
      pre.resourceVersion !== null &&
      pre.resourceVersion !== obj.metadata.resourceVersion
    ) {
      throw conflict(
        gr,
        name,
        `Precondition failed: ResourceVersion in precondition: ${String(pre.resourceVersion)}, ResourceVersion in object meta: ${String(obj.metadata.resourceVersion)}`,
      );
    }
    const dryRun = Array.isArray(options.dryRun) && options.dryRun.includes('All');
    const policy = typeof options.propagationPolicy === 'string' ? options.propagationPolicy : 'Background';
    if (!['Background', 'Foreground', 'Orphan'].includes(policy)) {
      throw badRequest(
        `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan"`,
      );
    }
    const successStatus = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name, group: info.group, kind: info.resource, uid: obj.metadata.uid },
    };
    if (dryRun) return info.custom ? this.present(info, obj) : successStatus;
    if ((obj.metadata.finalizers ?? []).length > 0) {
      if (obj.metadata.deletionTimestamp === undefined) {
        const marked = clone(obj);
        marked.metadata.deletionTimestamp = nowTimestamp();
        marked.metadata.deletionGracePeriodSeconds = 0;
        this.store.put(key, marked, 'MODIFIED');
        return this.present(info, marked);
      }
      return this.present(info, obj);
    }
    this.store.remove(key, namespace, name);
    for (const k of [...this.lastApplied.keys()])
      if (k.startsWith(`${key}|${namespace}/${name}|`)) this.lastApplied.delete(k);
    if (info.resource === 'customresourcedefinitions') {
      const spec = obj.spec as Obj;
      for (const [k, o] of [...this.store.all()]) {
        if (k === `${String(spec.group)}/${String(spec.names?.plural)}`)
          this.store.remove(k, o.metadata.namespace ?? '', o.metadata.name);
      }
    }
    if (info.resource === 'namespaces') {
      for (const [k, o] of [...this.store.all()])
        if (o.metadata?.namespace === name) this.store.remove(k, name, o.metadata.name);
    }
    this.collectGarbage(String(obj.metadata.uid), policy);
    this.afterWrite(info);
    return info.custom ? this.present(info, obj) : successStatus;
  }

  /**
   * The garbage collector, run at once: dependents whose owners are all gone are deleted (recursively);
   * dangling owner references are removed from dependents that keep a live owner; Orphan only removes
   * the references to the deleted owner.
   */
  private collectGarbage(ownerUid: string, policy: string): void {
    const queue = [ownerUid];
    while (queue.length > 0) {
      const uid = queue.shift() ?? '';
      for (const [k, o] of [...this.store.all()]) {
        const refs = (o.metadata?.ownerReferences ?? []) as Obj[];
        if (!refs.some((r) => r.uid === uid)) continue;
        const live = refs.filter((r) => r.uid !== uid && this.store.findByUid(String(r.uid)) !== undefined);
        if (policy === 'Orphan' || live.length > 0) {
          const c = clone(o);
          c.metadata.ownerReferences = policy === 'Orphan' ? refs.filter((r) => r.uid !== uid) : live;
          if (c.metadata.ownerReferences.length === 0) delete c.metadata.ownerReferences;
          this.store.put(k, c, 'MODIFIED');
          continue;
        }
        if ((o.metadata.finalizers ?? []).length > 0) {
          const c = clone(o);
          c.metadata.deletionTimestamp ??= nowTimestamp();
          this.store.put(k, c, 'MODIFIED');
          continue;
        }
        this.store.remove(k, o.metadata.namespace ?? '', o.metadata.name);
        queue.push(String(o.metadata.uid));
        if (k === 'rbac.authorization.k8s.io/clusterroles') this.scheduleAggregation();
      }
    }
  }

  private afterWrite(info: ResourceInfo): void {
    if (info.resource === 'customresourcedefinitions') this.refreshCrds();
    if (info.resource === 'clusterroles' && info.group === 'rbac.authorization.k8s.io')
      this.scheduleAggregation();
  }

  // ---- access reviews -----------------------------------------------------------------------------------

  private review(info: ResourceInfo, body: Obj, user: UserInfo, namespace: string): Obj {
    const spec = (body.spec ?? {}) as Obj;
    const out: Obj = {
      kind: info.kind,
      apiVersion: groupVersion(info),
      metadata: { creationTimestamp: null },
      spec,
    };
    switch (info.resource) {
      case 'selfsubjectrulesreviews':
        out.status = rulesReviewStatus(this.policy, user, String(spec.namespace ?? ''));
        return out;
      case 'selfsubjectaccessreviews':
        out.status = this.decide(user, reviewAttributes(spec));
        return out;
      case 'subjectaccessreviews':
      case 'localsubjectaccessreviews': {
        const subject: UserInfo = {
          name: String(spec.user ?? ''),
          groups: Array.isArray(spec.groups) ? (spec.groups as string[]) : [],
        };
        const attrs = reviewAttributes(spec);
        if (info.resource === 'localsubjectaccessreviews') {
          if (attrs.namespace !== undefined && attrs.namespace !== '' && attrs.namespace !== namespace) {
            throw badRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
          }
          attrs.namespace = namespace;
        }
        out.status = this.decide(subject, attrs);
        return out;
      }
      default:
        throw pathNotFound();
    }
  }

  private decide(user: UserInfo, attrs: AccessAttributes): Obj {
    return authorize(this.policy, user, attrs) ? { allowed: true } : { allowed: false };
  }

  private sendError(res: http.ServerResponse, err: unknown): void {
    const e = err instanceof ApiError ? err : internalError(err instanceof Error ? err.message : String(err));
    if (res.headersSent) {
      res.end();
      return;
    }
    sendJson(res, e.code, e.body(), e.headers);
  }
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

function parseJson(body: Buffer): Obj {
  const text = body.toString('utf8');
  if (text.trim() === '') throw badRequest('request body must not be empty');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw badRequest(`json parse error: ${(e as Error).message}`);
  }
  if (typeof v !== 'object' || v === null)
    throw badRequest(`json: cannot unmarshal ${typeof v} into Go value of type struct`);
  return v;
}

function decodeProtobuf(body: Buffer): Obj {
  try {
    return decodeProtobufObject(body);
  } catch (e) {
    if (e instanceof ProtobufError) throw new ApiError(415, 'UnsupportedMediaType', e.message);
    throw e;
  }
}

function sendJson(
  res: http.ServerResponse,
  code: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export async function startApiServer(opts: ApiServerOptions = {}): Promise<TestApiServer> {
  const server = new Server(opts);
  if (opts.seed !== undefined) server.seed(opts.seed);
  await server.listen(opts.port ?? 0);
  return server;
}
