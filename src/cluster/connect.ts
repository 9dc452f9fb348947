import type { KubeObject, PolicyRule, DiscoveredResource } from '../kube/types.js';
import type {
  AccessCheck,
  Cluster,
  DeleteOptions,
  ListOptions,
  ResourceKind,
  RulesReview,
  UndecodedRole,
  WatchEvent,
  WatchOptions,
  WriteOptions,
} from '../port/cluster.js';
import { loadKubeconfig } from './connection/kubeconfig.js';
import type { RestConfig } from './connection/rest-config.js';
import type { ConnectionFlags } from '../port/connection-flags.js';
import { Transport, type TransportDeps } from './connection/transport.js';
import { ApiError } from '../port/translate-error.js';
import { answerError, checkJsonAnswer, jsonAnswer, type Answer } from './connection/http-answer.js';
import { mayAllowGroup } from './rule-groups.js';
import { readAllPages, type ListPage } from './list-pages.js';
import { METADATA_LIST_ACCEPT, withKind } from './connection/client-answers.js';
import { watchKind } from './watch.js';
import { resourceUrl } from './resource-url.js';
import {
  aggregatedGroups,
  discovered,
  DISCOVERY_ACCEPT,
  isAggregatedDiscovery,
  legacyGroups,
  preferredResources,
} from './discovery.js';

const PAGE_SIZE = 500;
/** How much of a write's 2xx answer is read: enough to see that it is a JSON object. */
const ANSWER_PREFIX = 64;

/** What a connection needs from the process (its -v log, an exec plugin's stdin and stderr); composition-root.ts passes the real ones. */
export type ConnectDeps = TransportDeps;

/**
 * Connects to the cluster of the kubeconfig and flags, as kubectl would: one transport for the whole run
 * (connection pool, credentials, proxy, timeouts and retries live there), the Cluster's requests on top.
 */
export function connect(flags: ConnectionFlags, env: NodeJS.ProcessEnv, deps: ConnectDeps): Cluster {
  const config = loadKubeconfig(flags, env);
  const withWarnings = flags.serverWarnings === undefined ? deps : { ...deps, warn: flags.serverWarnings };
  const transport = new Transport(
    config,
    withWarnings,
    flags.verbosity ?? 0,
    flags.logContext,
    flags.maxInFlight,
  );
  return new ClientCluster(config, transport);
}

/**
 * The Cluster over the transport: each call is the request kubectl would send (URL, query, body), its answer read as
 * JSON. No generated API client: client-node's would add 1.2 MB of code to load at every start (a quarter of a
 * second) and convert every object read into model classes and back, for nothing the plugin needs; its test is the
 * test API server and kubectl beside it.
 */
class ClientCluster implements Cluster {
  readonly describe: string;
  readonly defaultNamespace: string;
  readonly namespaceSource: Cluster['namespaceSource'];

  constructor(
    private readonly config: RestConfig,
    private readonly transport: Transport,
  ) {
    this.defaultNamespace = config.namespace;
    this.namespaceSource = config.namespaceSource;
    this.describe =
      config.contextName === '' ? config.server : `${config.server} (context ${config.contextName})`;
  }

  close(): void {
    this.transport.close();
  }

  /** METHOD to URL, BODY as JSON (HEADERS may name another Content-Type), the answer's JSON (see jsonAnswer). */
  private async call(
    method: string,
    url: URL,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<unknown> {
    const sent = body === undefined ? undefined : JSON.stringify(body);
    const all = sent === undefined ? headers : { 'Content-Type': 'application/json', ...headers };
    return jsonAnswer(
      await this.transport.request(url, method, all, sent),
      method,
      url,
      this.config.contextName,
    );
  }

  /** A path below the server's URL (which may have a path of its own, a proxy's prefix). */
  private serverUrl(path: string): URL {
    const server = this.config.server;
    return new URL(path, server.endsWith('/') ? server : `${server}/`);
  }

  async list(kind: ResourceKind, opts: ListOptions = {}): Promise<KubeObject[]> {
    const items: KubeObject[] = [];
    // What a message about any page names: the list's first (one URL, built once per list, not per page).
    const url = this.listUrl(kind, opts);
    try {
      await readAllPages(
        {
          fetch: (cont) => this.listPage(kind, opts, cont),
          read: (answer) => jsonAnswer(answer, 'GET', url, this.config.contextName) as ListPage | undefined,
        },
        kind.plural,
        (page) => {
          for (const item of page) items.push(withKind(kind, item as Record<string, unknown>));
          opts.onPage?.(items.length);
        },
      );
    } catch (err) {
      if (opts.optional === true && err instanceof ApiError && err.code === 404) return [];
      throw err;
    }
    return items;
  }

  async count(kind: ResourceKind): Promise<number | undefined> {
    const url = resourceUrl(this.config.server, kind);
    url.searchParams.set('limit', '1');
    const page = (await this.call('GET', url, undefined, { Accept: METADATA_LIST_ACCEPT })) as
      { items?: unknown[]; metadata?: { remainingItemCount?: number; continue?: string } } | undefined;
    const items = page?.items?.length ?? 0;
    const remaining = page?.metadata?.remainingItemCount;
    if (typeof remaining === 'number') return items + remaining;
    // No continue: that one page was all of them; else the server does not count (it may not, with a selector).
    return (page?.metadata?.continue ?? '') === '' ? items : undefined;
  }

  watch(kind: ResourceKind, opts: WatchOptions, signal: AbortSignal): AsyncIterable<WatchEvent> {
    return watchKind(this.transport, this.config, kind, opts, signal);
  }

  /** One page of a list, its query in the order client-go sends it (url.Values encodes sorted keys). */
  private listPage(kind: ResourceKind, opts: ListOptions, cont: string | undefined): Promise<Answer> {
    const url = this.listUrl(kind, opts, cont);
    // The transport keeps an Accept header with `as=`; every other request asks for plain JSON.
    const headers: Record<string, string> =
      opts.metadataOnly === true ? { Accept: METADATA_LIST_ACCEPT } : {};
    return this.transport.request(url, 'GET', headers, undefined);
  }

  private listUrl(kind: ResourceKind, opts: ListOptions, cont?: string): URL {
    const url = resourceUrl(this.config.server, kind, kind.namespaced ? opts.namespace : undefined);
    if (cont !== undefined) url.searchParams.set('continue', cont);
    if (opts.fieldSelector !== undefined) url.searchParams.set('fieldSelector', opts.fieldSelector);
    if (opts.labelSelector !== undefined) url.searchParams.set('labelSelector', opts.labelSelector);
    url.searchParams.set('limit', String(PAGE_SIZE));
    return url;
  }

  async get(kind: ResourceKind, name: string, namespace?: string): Promise<KubeObject | undefined> {
    return (await this.getUndecoded(kind, name, namespace))?.decode();
  }

  /**
   * A GET, its answer checked (a 404 is undefined; another failure, or an answer that is not JSON, throws) but kept as
   * bytes until decoded: get() decodes it at once; who-can decodes only the roles whose rules may answer its question
   * (most of a provider's roles name only its own groups).
   */
  async getUndecoded(
    kind: ResourceKind,
    name: string,
    namespace?: string,
  ): Promise<UndecodedRole | undefined> {
    const url = resourceUrl(this.config.server, kind, this.namespaceOf(kind, namespace), name);
    const answer = await this.transport.request(url, 'GET', {}, undefined);
    if (answer.status === 404) return undefined;
    const context = this.config.contextName;
    checkJsonAnswer(answer, 'GET', url, context);
    return {
      mayAllowGroup: (group) => mayAllowGroup(answer.body, group),
      decode: () => withKind(kind, jsonAnswer(answer, 'GET', url, context) as Record<string, unknown>),
    };
  }

  private namespaceOf(kind: ResourceKind, namespace: string | undefined): string | undefined {
    return kind.namespaced ? (namespace ?? 'default') : undefined;
  }

  async create(kind: ResourceKind, obj: KubeObject, opts: WriteOptions = {}): Promise<void> {
    await this.writeObject('POST', kind, obj, undefined, opts);
  }

  async replace(kind: ResourceKind, obj: KubeObject, opts: WriteOptions = {}): Promise<void> {
    await this.writeObject('PUT', kind, obj, obj.metadata.name, opts);
  }

  /**
   * POST to the collection or PUT to the object (NAME), the object as JSON. A 2xx answer is checked to be a JSON
   * object (a proxy's page is not a write), not parsed: nothing reads it. Any other answer is answerError's ApiError.
   */
  private async writeObject(
    method: 'POST' | 'PUT',
    kind: ResourceKind,
    obj: KubeObject,
    name: string | undefined,
    opts: WriteOptions,
  ): Promise<void> {
    const url = resourceUrl(this.config.server, kind, this.namespaceOf(kind, obj.metadata.namespace), name);
    if (opts.dryRun === true) url.searchParams.set('dryRun', 'All');
    const answer = await this.transport.request(
      url,
      method,
      { 'Content-Type': 'application/json' },
      JSON.stringify(obj),
      ANSWER_PREFIX,
    );
    if (answer.status < 200 || answer.status > 299) throw answerError(answer);
    const type = answer.headers['content-type'] ?? '';
    if (!type.includes('json') || !/^\s*\{/.test(answer.body.subarray(0, ANSWER_PREFIX).toString('utf8'))) {
      throw new Error(
        `the API server answered ${method} ${url.pathname} with ${type === '' ? 'no content type' : type}, not a JSON object`,
      );
    }
  }

  async mergePatch(
    kind: ResourceKind,
    name: string,
    namespace: string | undefined,
    patch: object,
    opts: WriteOptions = {},
  ): Promise<KubeObject> {
    const url = resourceUrl(this.config.server, kind, this.namespaceOf(kind, namespace), name);
    if (opts.dryRun === true) url.searchParams.set('dryRun', 'All');
    const out = await this.call('PATCH', url, patch, { 'Content-Type': 'application/merge-patch+json' });
    return withKind(kind, out as Record<string, unknown>);
  }

  async delete(
    kind: ResourceKind,
    name: string,
    namespace: string | undefined,
    opts: DeleteOptions = {},
  ): Promise<void> {
    const body = {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      propagationPolicy: 'Background',
      ...(opts.preconditions !== undefined ? { preconditions: opts.preconditions } : {}),
      ...(opts.dryRun === true ? { dryRun: ['All'] } : {}),
    };
    const url = resourceUrl(this.config.server, kind, this.namespaceOf(kind, namespace), name);
    if (opts.dryRun === true) url.searchParams.set('dryRun', 'All');
    url.searchParams.set('propagationPolicy', 'Background');
    await this.call('DELETE', url, body);
  }

  async canI(check: AccessCheck): Promise<boolean> {
    const review = (await this.call(
      'POST',
      this.serverUrl('apis/authorization.k8s.io/v1/selfsubjectaccessreviews'),
      {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: {
          resourceAttributes: {
            verb: check.verb,
            group: check.group,
            resource: check.resource,
            ...(check.subresource !== undefined ? { subresource: check.subresource } : {}),
            ...(check.name !== undefined ? { name: check.name } : {}),
            ...(check.namespace !== undefined ? { namespace: check.namespace } : {}),
          },
        },
      },
    )) as { status?: { allowed?: unknown } } | undefined;
    return review?.status?.allowed === true;
  }

  /**
   * Every resource the server serves, as kubectl discovers them: /api and /apis asked for the aggregated list first
   * (two requests for the whole server); a server that answers with the legacy lists (before Kubernetes 1.26, or
   * with it turned off) is read as before, /api/v1 and each group version. As client-go, the aggregated resources
   * are used only when both answers have them.
   */
  async discoverResources(): Promise<DiscoveredResource[]> {
    const [api, apis] = await Promise.all([this.discoveryRoot('api'), this.discoveryRoot('apis')]);
    const groups = apis.aggregated ? aggregatedGroups(apis.json) : legacyGroups(apis.json);
    // As client-go: a 404 at /api (an aggregated API server alone) is a server without the core group.
    const both = (api.missing || api.aggregated) && apis.aggregated;
    const core = api.missing
      ? []
      : both
        ? (aggregatedGroups(api.json)
            .find((g) => g.name === '')
            ?.resources?.get('v1') ?? [])
        : discovered('', 'v1', await this.call('GET', this.serverUrl('api/v1')));
    // Every version of every group is read (see preferredResources). A group version that fails to answer (an
    // aggregated API that is down), or that the aggregated list marks stale, is left out, as kubectl leaves it out.
    const perGroup = await Promise.all(
      groups.map(async (g) => {
        const lists = await Promise.all(
          g.versions.map(async (version) => {
            if (both) return g.resources?.get(version) ?? [];
            try {
              const path = `apis/${encodeURIComponent(g.name)}/${encodeURIComponent(version)}`;
              return discovered(g.name, version, await this.call('GET', this.serverUrl(path)));
            } catch {
              return [];
            }
          }),
        );
        return preferredResources(lists, g.preferred);
      }),
    );
    return [...core, ...perGroup.flat()];
  }

  /**
   * /api or /apis, asked for the aggregated list first: its JSON and whether it is the aggregated list. A 404 at
   * /api is `missing`, as client-go tolerates it there (only there).
   */
  private async discoveryRoot(
    path: 'api' | 'apis',
  ): Promise<{ json: unknown; aggregated: boolean; missing: boolean }> {
    const url = this.serverUrl(path);
    const answer = await this.transport.request(url, 'GET', { Accept: DISCOVERY_ACCEPT }, undefined);
    if (path === 'api' && answer.status === 404) return { json: undefined, aggregated: false, missing: true };
    const json = jsonAnswer(answer, 'GET', url, this.config.contextName);
    return { json, aggregated: isAggregatedDiscovery(answer.headers['content-type']), missing: false };
  }

  async rulesReview(namespace: string): Promise<RulesReview> {
    const review = (await this.call(
      'POST',
      this.serverUrl('apis/authorization.k8s.io/v1/selfsubjectrulesreviews'),
      { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace } },
    )) as { status?: RulesStatus } | undefined;
    const status = review?.status ?? {};
    return {
      resourceRules: status.resourceRules ?? [],
      nonResourceRules: status.nonResourceRules ?? [],
      incomplete: status.incomplete ?? false,
    };
  }
}

interface RulesStatus {
  readonly resourceRules?: PolicyRule[];
  readonly nonResourceRules?: PolicyRule[];
  readonly incomplete?: boolean;
}
