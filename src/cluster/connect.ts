import {
  ApisApi,
  AuthorizationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  ServerConfiguration,
  createConfiguration,
  setHeaderOptions,
  wrapHttpLibrary,
} from '@kubernetes/client-node';
import { UserError } from '../errors.js';
import type { KubeObject, PolicyRule, DiscoveredResource } from '../kube/types.js';
import type {
  AccessCheck,
  Cluster,
  DeleteOptions,
  ListOptions,
  ResourceKind,
  RulesReview,
  WatchEvent,
  WatchOptions,
  WriteOptions,
} from '../port/cluster.js';
import { loadKubeconfig } from './connection/kubeconfig.js';
import type { RestConfig } from './connection/rest-config.js';
import type { ConnectionFlags } from '../port/connection-flags.js';
import { Transport, type TransportDeps } from './connection/transport.js';
import { ApiError } from '../port/translate-error.js';
import {
  answerError,
  dryRunParam,
  METADATA_LIST_ACCEPT,
  plain,
  retrying,
  withKind,
} from './connection/client-answers.js';
import { watchKind } from './watch.js';
import { resourceUrl } from './resource-url.js';
import { discovered, preferredResources } from './discovery.js';

const PAGE_SIZE = 500;

/** What a connection needs from the process; composition-root.ts passes the real ones. */
export type ConnectDeps = TransportDeps;

/**
 * Connects to the cluster of the kubeconfig and flags, as kubectl would: one transport for the whole run
 * (connection pool, credentials, proxy, timeouts and retries live there), client-node's API clients on top.
 */
export function connect(
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv,
  deps: ConnectDeps = defaultDeps(env),
): Cluster {
  const config = loadKubeconfig(flags, env);
  return new ClientCluster(config, new Transport(config, deps, flags.verbosity ?? 0));
}

function defaultDeps(env: NodeJS.ProcessEnv): ConnectDeps {
  return {
    env,
    userAgent: 'kubectl-crossplane-rbac/v0.0.0-dev',
    log: (line) => process.stderr.write(line),
    pid: process.pid,
    execIo: {
      env,
      stdin: process.stdin,
      stdinIsTTY: false,
      stderr: process.stderr,
      now: () => Date.now(),
    },
  };
}

class ClientCluster implements Cluster {
  readonly describe: string;
  readonly defaultNamespace: string;
  private readonly custom: CustomObjectsApi;
  private readonly core: CoreV1Api;
  private readonly authz: AuthorizationV1Api;
  private readonly apis: ApisApi;

  constructor(
    private readonly config: RestConfig,
    private readonly transport: Transport,
  ) {
    this.defaultNamespace = config.namespace;
    this.describe =
      config.contextName === '' ? config.server : `${config.server} (context ${config.contextName})`;
    const api = createConfiguration({
      baseServer: new ServerConfiguration(config.server, {}),
      httpApi: wrapHttpLibrary(transport),
    });
    this.custom = new CustomObjectsApi(api);
    this.core = new CoreV1Api(api);
    this.authz = new AuthorizationV1Api(api);
    this.apis = new ApisApi(api);
  }

  close(): void {
    this.transport.close();
  }

  async list(kind: ResourceKind, opts: ListOptions = {}): Promise<KubeObject[]> {
    const items: KubeObject[] = [];
    const seen = new Set<string>();
    let cont: string | undefined;
    do {
      let page: { items?: unknown[]; metadata?: { continue?: string; _continue?: string } };
      try {
        page = (await retrying(() => this.listPage(kind, opts, cont))) as typeof page;
      } catch (err) {
        if (opts.optional === true && err instanceof ApiError && err.code === 404) return [];
        throw err;
      }
      // Custom objects arrive as parsed JSON already; only client-node's models (core kinds) need converting.
      const typed = kind.group === '';
      for (const item of page.items ?? []) {
        items.push(withKind(kind, typed ? plain(item) : (item as Record<string, unknown>)));
      }
      opts.onPage?.(items.length);
      // Typed lists (client-node's models) name the token `_continue`; custom-object lists keep the wire name.
      cont = page.metadata?._continue ?? page.metadata?.continue;
      if (cont !== undefined && cont !== '') {
        if (seen.has(cont)) {
          throw new UserError(
            `the API server sent the same continue token twice while listing ${kind.plural}; stopped after ${String(items.length)} items instead of looping`,
            {
              hint: 'the server or a proxy in front of it pages incorrectly: run kubectl get --v=6 to see the requests',
            },
          );
        }
        seen.add(cont);
      }
    } while (cont !== undefined && cont !== '');
    return items;
  }

  watch(kind: ResourceKind, opts: WatchOptions, signal: AbortSignal): AsyncIterable<WatchEvent> {
    return watchKind(this.transport, this.config.server, kind, opts, signal);
  }

  private listPage(kind: ResourceKind, opts: ListOptions, cont: string | undefined): Promise<unknown> {
    const page = {
      limit: PAGE_SIZE,
      ...(cont !== undefined ? { _continue: cont } : {}),
      ...(opts.labelSelector !== undefined ? { labelSelector: opts.labelSelector } : {}),
      ...(opts.fieldSelector !== undefined ? { fieldSelector: opts.fieldSelector } : {}),
    };
    if (kind.group === '') {
      if (kind.plural === 'namespaces') return this.core.listNamespace(page);
      if (kind.plural === 'configmaps') {
        return opts.namespace === undefined
          ? this.core.listConfigMapForAllNamespaces(page)
          : this.core.listNamespacedConfigMap({ ...page, namespace: opts.namespace });
      }
      if (kind.plural === 'events') {
        return opts.namespace === undefined
          ? this.core.listEventForAllNamespaces(page)
          : this.core.listNamespacedEvent({ ...page, namespace: opts.namespace });
      }
      throw new Error(`listing core resource ${kind.plural} is not supported`);
    }
    const res = { group: kind.group, version: kind.version, plural: kind.plural, ...page };
    // The transport keeps an Accept header with `as=`; every other request asks for plain JSON.
    const call = opts.metadataOnly === true ? setHeaderOptions('Accept', METADATA_LIST_ACCEPT) : undefined;
    if (kind.namespaced && opts.namespace !== undefined) {
      return this.custom.listNamespacedCustomObject({ ...res, namespace: opts.namespace }, call);
    }
    return kind.namespaced
      ? this.custom.listCustomObjectForAllNamespaces(res, call)
      : this.custom.listClusterCustomObject(res, call);
  }

  async get(kind: ResourceKind, name: string, namespace?: string): Promise<KubeObject | undefined> {
    try {
      const obj: unknown = await retrying((): Promise<unknown> => {
        if (kind.group === '') {
          if (kind.plural === 'namespaces') return this.core.readNamespace({ name });
          if (kind.plural === 'configmaps') {
            return this.core.readNamespacedConfigMap({ name, namespace: namespace ?? 'default' });
          }
          if (kind.plural === 'serviceaccounts') {
            return this.core.readNamespacedServiceAccount({ name, namespace: namespace ?? 'default' });
          }
          throw new Error(`reading core resource ${kind.plural} is not supported`);
        }
        const res = { group: kind.group, version: kind.version, plural: kind.plural, name };
        return kind.namespaced
          ? this.custom.getNamespacedCustomObject({ ...res, namespace: namespace ?? 'default' })
          : this.custom.getClusterCustomObject(res);
      });
      return withKind(kind, plain(obj));
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    }
  }

  async create(kind: ResourceKind, obj: KubeObject, opts: WriteOptions = {}): Promise<void> {
    await this.writeObject('POST', kind, obj, undefined, opts);
  }

  async replace(kind: ResourceKind, obj: KubeObject, opts: WriteOptions = {}): Promise<void> {
    await this.writeObject('PUT', kind, obj, obj.metadata.name, opts);
  }

  /**
   * POST to the collection or PUT to the object (NAME), the object as JSON. A 2xx answer is checked to be a JSON
   * object (a proxy's page is not a write), not parsed: nothing reads it. Any other answer is the ApiError the
   * client-node requests throw for it.
   */
  private async writeObject(
    method: 'POST' | 'PUT',
    kind: ResourceKind,
    obj: KubeObject,
    name: string | undefined,
    opts: WriteOptions,
  ): Promise<void> {
    const namespace = kind.namespaced ? (obj.metadata.namespace ?? 'default') : undefined;
    const url = resourceUrl(this.config.server, kind, namespace, name);
    if (opts.dryRun === true) url.searchParams.set('dryRun', 'All');
    const answer = await this.transport.write(url, method, JSON.stringify(obj));
    if (answer.status < 200 || answer.status > 299) throw answerError(answer);
    const type = answer.headers['content-type'] ?? '';
    if (!type.includes('json') || !/^\s*\{/.test(answer.body.subarray(0, 64).toString('utf8'))) {
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
    const asMerge = setHeaderOptions('Content-Type', 'application/merge-patch+json');
    const out: unknown = await retrying((): Promise<unknown> => {
      if (kind.group === '') {
        if (kind.plural !== 'namespaces')
          throw new Error(`patching core resource ${kind.plural} is not supported`);
        return this.core.patchNamespace({ name, body: patch, ...dryRunParam(opts) }, asMerge);
      }
      const req = { ...this.target(kind), name, body: patch, ...dryRunParam(opts) };
      return kind.namespaced
        ? this.custom.patchNamespacedCustomObject({ ...req, namespace: namespace ?? 'default' }, asMerge)
        : this.custom.patchClusterCustomObject(req, asMerge);
    });
    return withKind(kind, plain(out));
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
    const req = {
      ...this.target(kind),
      name,
      propagationPolicy: 'Background',
      body,
      ...dryRunParam(opts),
    };
    await retrying(() =>
      kind.namespaced
        ? this.custom.deleteNamespacedCustomObject({ ...req, namespace: namespace ?? 'default' })
        : this.custom.deleteClusterCustomObject(req),
    );
  }

  private target(kind: ResourceKind): { group: string; version: string; plural: string } {
    if (kind.group === '') throw new Error(`writing core resource ${kind.plural} is not supported`);
    return { group: kind.group, version: kind.version, plural: kind.plural };
  }

  async canI(check: AccessCheck): Promise<boolean> {
    const review = await retrying(() =>
      this.authz.createSelfSubjectAccessReview({
        body: {
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
      }),
    );
    return review.status?.allowed === true;
  }

  async discoverResources(): Promise<DiscoveredResource[]> {
    const [core, groups] = await Promise.all([
      retrying(() => this.core.getAPIResources()),
      retrying(() => this.apis.getAPIVersions()),
    ]);
    // Every version of every group is read (see preferredResources). A group version that fails to answer (an
    // aggregated API that is down) is left out, as kubectl leaves it out.
    const perGroup = await Promise.all(
      (groups.groups ?? []).map(async (g) => {
        const lists = await Promise.all(
          g.versions.map(async ({ version }) => {
            try {
              const list = await retrying(() => this.custom.getAPIResources({ group: g.name, version }));
              return discovered(g.name, version, plain(list));
            } catch {
              return [];
            }
          }),
        );
        return preferredResources(lists, g.preferredVersion?.version);
      }),
    );
    return [...discovered('', 'v1', plain(core)), ...perGroup.flat()];
  }

  async rulesReview(namespace: string): Promise<RulesReview> {
    const review = await retrying(() =>
      this.authz.createSelfSubjectRulesReview({
        body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace } },
      }),
    );
    const status = plain(review.status ?? {}) as {
      resourceRules?: PolicyRule[];
      nonResourceRules?: PolicyRule[];
      incomplete?: boolean;
    };
    return {
      resourceRules: status.resourceRules ?? [],
      nonResourceRules: status.nonResourceRules ?? [],
      incomplete: status.incomplete ?? false,
    };
  }
}
