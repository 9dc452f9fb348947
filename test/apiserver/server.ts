/**
 * A loopback Kubernetes API server for tests, demos and benchmarks: discovery, storage with the real object
 * semantics, bearer-token authentication, impersonation, the RBAC authorizer and its escalation checks, the
 * clusterrole-aggregation controller, fault injection and request counters. README.md in this directory says what
 * it implements and what it is checked against. It imports nothing from the plugin's src/.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import YAML from 'yaml';
import type { UserInfo } from './authz.js';
import { AUTHENTICATED, MASTERS } from './authz.js';
import { bootstrapPolicy } from './bootstrap.js';
import { RequestCounters } from './counters.js';
import { NO_FAULTS } from './faults.js';
import { sendError } from './http.js';
import { apiVersionGroup, crdStatus } from './objects.js';
import { clone } from './patch.js';
import { DEFAULT_WATCH_SETTINGS, type OpenWatch, type WatchSettings } from './reads.js';
import { Router } from './router.js';
import { ServerState } from './state.js';
import { storeKeyOf } from './store.js';
import { TEST_CERT, TEST_KEY } from './tls.js';
import type { AdmissionWarning, ApiServerOptions, FaultConfig, Obj, TestApiServer } from './types.js';
import { ADMIN_TOKEN } from './types.js';

export { RequestCounters, type WriteRecord } from './counters.js';
export type { AdmissionWarning, ApiServerOptions, FaultConfig, TestApiServer } from './types.js';
export type { WatchSettings } from './reads.js';
export { ADMIN_TOKEN } from './types.js';

const ADMIN_USER = 'admin';

class Server implements TestApiServer {
  readonly counters = new RequestCounters();
  faults: FaultConfig;
  watchSettings: WatchSettings = { ...DEFAULT_WATCH_SETTINGS };
  admissionWarnings: AdmissionWarning[] = [];
  url = '';
  private readonly state: ServerState;
  private readonly tokens = new Map<string, UserInfo>();
  private readonly http: http.Server;
  private readonly https: https.Server;
  private readonly listener: net.Server;
  private readonly openWatches = new Map<http.ServerResponse, OpenWatch>();
  private readonly sockets = new Set<net.Socket>();
  private accepted = 0;
  private port = 0;

  constructor(opts: ApiServerOptions) {
    this.faults = { ...NO_FAULTS, latencyMs: opts.latencyMs ?? 0 };
    this.state = new ServerState({
      aggregation: opts.aggregation ?? true,
      aggregationDelayMs: opts.aggregationDelayMs ?? 0,
    });
    this.tokens.set(ADMIN_TOKEN, { name: ADMIN_USER, groups: [MASTERS, AUTHENTICATED] });
    const router = new Router(this.state, {
      counters: this.counters,
      aggregatedDiscovery: opts.aggregatedDiscovery ?? true,
      faults: () => this.faults,
      tokens: this.tokens,
      openWatches: this.openWatches,
      watchSettings: () => this.watchSettings,
      admissionWarnings: () => this.admissionWarnings,
    });
    const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
      router.handle(req, res).catch((err: unknown) => {
        sendError(res, err);
      });
    };
    this.http = http.createServer(onRequest);
    this.https = https.createServer({ cert: TEST_CERT, key: TEST_KEY }, onRequest);
    // One port for both: a TLS handshake starts with byte 0x16, anything else is plain HTTP.
    this.listener = net.createServer((socket) => {
      this.sockets.add(socket);
      this.accepted++;
      socket.on('close', () => this.sockets.delete(socket));
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
        this.port = addr.port;
        this.url = `http://127.0.0.1:${addr.port}`;
        resolve();
      });
    });
  }

  stop(): Promise<void> {
    this.state.aggregation.stop();
    for (const w of this.openWatches.keys()) w.end();
    return new Promise((resolve) => {
      this.listener.close(() => {
        resolve();
      });
      this.http.closeAllConnections();
      this.https.closeAllConnections();
      // Also those still waiting for their first byte, which neither HTTP server has seen yet.
      for (const socket of this.sockets) socket.destroy();
    });
  }

  restart(): Promise<void> {
    if (this.listener.listening) return Promise.reject(new Error('restart: the server is still listening'));
    return this.listen(this.port);
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
    const crds = objs.filter(isCrd);
    // The CRDs first, then the kinds they serve, once: a refresh per CRD re-read every stored CRD each time.
    for (const o of crds) this.seedOne(o);
    if (crds.length > 0) this.state.refreshCrds();
    for (const o of objs) if (!isCrd(o)) this.seedOne(o);
    this.state.aggregation.changed();
  }

  private seedOne(o: Obj): void {
    const info = this.state.registry.byKind(String(o.apiVersion), String(o.kind));
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
    this.state.store.put(
      storeKeyOf(info),
      o,
      this.state.store.get(storeKeyOf(info), o.metadata.namespace ?? '', o.metadata.name)
        ? 'MODIFIED'
        : 'ADDED',
    );
  }

  get(resource: string, name: string, namespace?: string): unknown {
    this.state.aggregation.flush();
    const info = this.state.registry.byResource(resource);
    if (info === undefined) return undefined;
    const o = this.state.store.get(storeKeyOf(info), info.namespaced ? (namespace ?? 'default') : '', name);
    return o === undefined ? undefined : clone(o);
  }

  list(resource: string, namespace?: string): unknown[] {
    this.state.aggregation.flush();
    const info = this.state.registry.byResource(resource);
    if (info === undefined) return [];
    return this.state.store
      .list(storeKeyOf(info), info.namespaced ? namespace : undefined)
      .map((o) => clone(o));
  }

  setAggregation(enabled: boolean): void {
    this.state.aggregation.setEnabled(enabled);
  }

  compact(resourceVersion?: number): number {
    return this.state.store.compact(resourceVersion);
  }

  bookmarkWatches(): number {
    let sent = 0;
    for (const w of this.openWatches.values()) if (w.bookmark()) sent++;
    return sent;
  }

  openWatchCount(): number {
    return this.openWatches.size;
  }

  connectionCount(): number {
    return this.sockets.size;
  }

  acceptedConnections(): number {
    return this.accepted;
  }
}

export async function startApiServer(opts: ApiServerOptions = {}): Promise<TestApiServer> {
  const server = new Server(opts);
  // As kube-apiserver, the bootstrap policy every user is authorized by is stored first; a seed may replace it.
  server.seed(bootstrapPolicy());
  if (opts.seed !== undefined) server.seed(opts.seed);
  await server.listen(opts.port ?? 0);
  return server;
}
