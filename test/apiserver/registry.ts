/**
 * The resources the server serves: the built-in kinds (builtin-resources.ts, as Kubernetes 1.32's discovery lists
 * them) plus every resource a stored CustomResourceDefinition defines. Also renders the legacy discovery documents
 * from them.
 */

import { BUILTIN_RESOURCES, type ResourceInfo, type SubresourceInfo } from './builtin-resources.js';

export type { ResourceInfo } from './builtin-resources.js';

const CRUD = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;

type Obj = Record<string, any>;

/** The resources one CRD object defines (one entry per served version), or none if it is malformed. */
export function resourcesOfCrd(crd: Obj): ResourceInfo[] {
  const spec = crd.spec as Obj | undefined;
  const names = spec?.names as Obj | undefined;
  if (
    typeof spec?.group !== 'string' ||
    typeof names?.plural !== 'string' ||
    typeof names.kind !== 'string'
  ) {
    return [];
  }
  const versions = Array.isArray(spec.versions) ? (spec.versions as Obj[]) : [];
  const served = versions.filter((v) => v.served !== false && typeof v.name === 'string');
  const servedNames = served.map((v) => v.name as string);
  return served.map((v) => ({
    group: spec.group as string,
    version: v.name as string,
    versions: servedNames,
    resource: names.plural as string,
    singular: typeof names.singular === 'string' ? names.singular : (names.kind as string).toLowerCase(),
    kind: names.kind as string,
    listKind: typeof names.listKind === 'string' ? names.listKind : `${names.kind as string}List`,
    namespaced: spec.scope !== 'Cluster',
    verbs: CRUD,
    shortNames: Array.isArray(names.shortNames) ? (names.shortNames as string[]) : [],
    categories: Array.isArray(names.categories) ? (names.categories as string[]) : [],
    status: v.subresources?.status !== undefined && v.subresources.status !== null,
    subresources: [],
    review: false,
    custom: true,
    ...(v.deprecated === true ? { deprecationWarning: deprecationWarning(spec, v, served) } : {}),
  }));
}

/**
 * kube-apiserver's GroupPriorityMinimum of the built-in groups (kubernetes/kubernetes
 * cmd/kube-apiserver/app/aggregator.go@39ae3f4346cc7970491ee89bbe8dcf00ca038356 apiVersionPriorities, merged over
 * pkg/controlplane/apiserver/aggregator.go@008b3652959ca58af8be3fb5b6ecfe9ae7638282
 * DefaultGenericAPIServicePriorities); a CRD's group gets 1000 (pkg/controlplane/controller/crdregistration
 * crdregistration_controller.go@f1dc607f321a2f4430539ffe90c9b6072af197bb). The built-in groups here have one
 * version each, so their version priorities do not matter.
 */
const GROUP_PRIORITY: Readonly<Record<string, number>> = {
  apps: 17800,
  'events.k8s.io': 17750,
  'authentication.k8s.io': 17700,
  'authorization.k8s.io': 17600,
  autoscaling: 17500,
  batch: 17400,
  'certificates.k8s.io': 17300,
  'networking.k8s.io': 17200,
  policy: 17100,
  'rbac.authorization.k8s.io': 17000,
  'storage.k8s.io': 16800,
  'admissionregistration.k8s.io': 16700,
  'apiextensions.k8s.io': 16700,
  'scheduling.k8s.io': 16600,
  'coordination.k8s.io': 16500,
  'node.k8s.io': 16300,
  'discovery.k8s.io': 16200,
  'resource.k8s.io': 16200,
  'flowcontrol.apiserver.k8s.io': 16100,
};

/**
 * What kube-apiserver warns on every request a deprecated CRD version serves: the version's deprecationWarning, else
 * `GROUP/VERSION KIND is deprecated`, with `; use GROUP/NEWER KIND` naming the most preferred served version that is
 * not deprecated and ranks above it (kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/
 * customresource_handler.go @ 37c19ef857a8fcb12ec2c926e784e03474996797, defaultDeprecationWarning).
 */
function deprecationWarning(spec: Obj, v: Obj, served: readonly Obj[]): string {
  if (typeof v.deprecationWarning === 'string') return v.deprecationWarning;
  const group = spec.group as string;
  const kind = (spec.names as Obj).kind as string;
  const msg = `${group}/${v.name as string} ${kind} is deprecated`;
  const newer = served
    .filter((o) => o.deprecated !== true && compareVersions(v.name as string, o.name as string) > 0)
    .map((o) => o.name as string)
    .sort(compareVersions);
  return newer[0] === undefined ? msg : `${msg}; use ${group}/${newer[0]} ${kind}`;
}

/** Kubernetes' version priority: GA > beta > alpha, higher numbers first, then others alphabetically. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string): [number, number, number] | undefined => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (m === null) return undefined;
    const level = m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1;
    return [level, Number(m[1]), Number(m[3] ?? 0)];
  };
  const pa = parse(a);
  const pb = parse(b);
  if (pa === undefined && pb === undefined) return a < b ? -1 : a > b ? 1 : 0;
  if (pa === undefined) return 1;
  if (pb === undefined) return -1;
  for (let i = 0; i < 3; i++) {
    const d = (pb[i] ?? 0) - (pa[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** A resource's subresources as discovery lists them, by name: status (when it has one) and the others. */
function subresourcesOf(r: ResourceInfo): SubresourceInfo[] {
  return [
    ...(r.status ? [{ name: 'status', kind: r.kind, verbs: ['get', 'patch', 'update'] }] : []),
    ...r.subresources,
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export class Registry {
  private resources: ResourceInfo[] = [];
  /**
   * The first served entry of each group/version/resource and of each group/version/kind, for find() and byKind(),
   * which every request and every seeded object asks: a scan of the list cost most of a seed of examples/large
   * (thousands of CRDs).
   */
  private byResourceKey = new Map<string, ResourceInfo>();
  private byKindKey = new Map<string, ResourceInfo>();

  constructor() {
    this.serve([...BUILTIN_RESOURCES]);
  }

  private serve(resources: ResourceInfo[]): void {
    this.resources = resources;
    this.byResourceKey = new Map();
    this.byKindKey = new Map();
    for (const r of resources) {
      const resourceKey = `${r.group}/${r.version}/${r.resource}`;
      const kindKey = `${r.group}/${r.version}/${r.kind}`;
      if (!this.byResourceKey.has(resourceKey)) this.byResourceKey.set(resourceKey, r);
      if (!this.byKindKey.has(kindKey)) this.byKindKey.set(kindKey, r);
    }
  }

  /** Rebuilds the served set from the stored CRDs. */
  setCrds(crds: readonly Obj[]): void {
    const custom = crds.flatMap(resourcesOfCrd);
    const builtinKeys = new Set(BUILTIN_RESOURCES.map((r) => `${r.group}/${r.version}/${r.resource}`));
    this.serve([
      ...BUILTIN_RESOURCES,
      ...custom.filter((r) => !builtinKeys.has(`${r.group}/${r.version}/${r.resource}`)),
    ]);
  }

  find(group: string, version: string, resource: string): ResourceInfo | undefined {
    return this.byResourceKey.get(`${group}/${version}/${resource}`);
  }

  /** Any version of a group/resource (for assertions and storage lookups). */
  findAnyVersion(group: string, resource: string): ResourceInfo | undefined {
    return this.resources.find((r) => r.group === group && r.resource === resource);
  }

  byResource(resource: string): ResourceInfo | undefined {
    return (
      this.resources.find((r) => r.resource === resource) ??
      this.resources.find((r) => `${r.resource}.${r.group}` === resource)
    );
  }

  byKind(apiVersion: string, kind: string): ResourceInfo | undefined {
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    return this.byKindKey.get(`${group}/${version}/${kind}`);
  }

  /**
   * Group names with their versions, preferred version first, in the order kube-apiserver serves them: higher
   * group priority first (GROUP_PRIORITY; a CRD's group 1000); equal ones, in the aggregated list by group name
   * (kubernetes/apiserver pkg/endpoints/discovery/aggregated/handler.go@24a394e516bfda066d7e2221d7d92c052de27c54),
   * in the legacy /apis by the name of the group's first APIService, `VERSION.GROUP` (kubernetes/kube-aggregator
   * pkg/apis/apiregistration/v1/helper/helpers.go@232ca687ab24bc9f9a378cba74716b5f7d6b82eb SortedByGroupAndVersion).
   */
  groups(order: 'aggregated' | 'legacy' = 'aggregated'): { name: string; versions: string[] }[] {
    const byGroup = new Map<string, Set<string>>();
    for (const r of this.resources) {
      if (r.group === '') continue;
      const set = byGroup.get(r.group) ?? new Set<string>();
      set.add(r.version);
      byGroup.set(r.group, set);
    }
    const groups = [...byGroup.entries()].map(([name, versions]) => {
      const sorted = [...versions].sort(compareVersions);
      const apiServices = sorted.map((v) => `${v}.${name}`).sort();
      return { name, versions: sorted, key: order === 'aggregated' ? name : (apiServices[0] ?? name) };
    });
    const priority = (g: string): number => GROUP_PRIORITY[g] ?? 1000;
    return groups
      .sort((a, b) => priority(b.name) - priority(a.name) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(({ name, versions }) => ({ name, versions }));
  }

  apiResourceList(group: string, version: string): Obj | undefined {
    const list = this.resources.filter((r) => r.group === group && r.version === version);
    if (list.length === 0) return undefined;
    const resources: Obj[] = [];
    for (const r of list) {
      resources.push({
        name: r.resource,
        singularName: r.singular,
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: r.verbs,
        ...(r.shortNames.length > 0 ? { shortNames: r.shortNames } : {}),
        ...(r.categories.length > 0 ? { categories: r.categories } : {}),
      });
      for (const sub of subresourcesOf(r)) {
        resources.push({
          name: `${r.resource}/${sub.name}`,
          singularName: '',
          namespaced: r.namespaced,
          ...(sub.group !== undefined ? { group: sub.group, version: sub.version } : {}),
          kind: sub.kind,
          verbs: sub.verbs,
        });
      }
    }
    return {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: group === '' ? version : `${group}/${version}`,
      resources,
    };
  }

  /** /openapi/v3: one entry per group/version; the hash changes whenever its document does. */
  openApiIndex(hashOf: (doc: Obj) => string): Obj {
    const paths: Obj = {};
    const gvs = new Set(
      this.resources.map((r) => (r.group === '' ? `api/${r.version}` : `apis/${r.group}/${r.version}`)),
    );
    for (const gv of [...gvs].sort()) {
      const doc = this.openApiDocument(gv);
      if (doc !== undefined) paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${hashOf(doc)}` };
    }
    return { paths };
  }

  /**
   * A minimal OpenAPI v3 document of one group/version: for each resource, its item path with a PATCH
   * operation that declares the fieldValidation parameter, which is what kubectl checks before it leaves
   * field validation to the server. No schemas: kubectl then falls back to its built-in types.
   */
  openApiDocument(gvPath: string): Obj | undefined {
    const parts = gvPath.split('/');
    const [group, version] = parts[0] === 'api' ? ['', parts[1] ?? ''] : [parts[1] ?? '', parts[2] ?? ''];
    const list = this.resources.filter((r) => r.group === group && r.version === version);
    if (list.length === 0 || (parts[0] !== 'api' && parts[0] !== 'apis')) return undefined;
    const paths: Obj = {};
    const param = (name: string): Obj => ({
      name,
      in: 'query',
      schema: { type: 'string', uniqueItems: true },
    });
    for (const r of list) {
      if (!r.verbs.includes('patch')) continue;
      const base = `/${gvPath}${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.resource}/{name}`;
      paths[base] = {
        patch: {
          operationId: `patch${r.kind}`,
          parameters: [
            param('dryRun'),
            param('fieldManager'),
            param('fieldValidation'),
            { name: 'force', in: 'query', schema: { type: 'boolean', uniqueItems: true } },
          ],
          responses: { '200': { description: 'OK' } },
          'x-kubernetes-action': 'patch',
          'x-kubernetes-group-version-kind': { group, version, kind: r.kind },
        },
      };
    }
    return {
      openapi: '3.0.0',
      info: { title: 'Kubernetes', version: 'v1.32.0' },
      paths,
      components: { schemas: {} },
    };
  }

  /**
   * /api (CORE) or /apis in the aggregated format (apidiscovery.k8s.io/v2 APIGroupDiscoveryList): every group with
   * its versions (preferred first) and their resources, subresources nested, each with the kind it answers with,
   * in the shape of Kubernetes' own api/discovery/aggregated_v2.json.
   */
  apiGroupDiscoveryList(core: boolean): Obj {
    const groups = core ? [{ name: '', versions: ['v1'] }] : this.groups('aggregated');
    const items = groups.map((g) => ({
      metadata: g.name === '' ? { creationTimestamp: null } : { name: g.name, creationTimestamp: null },
      versions: g.versions.map((version) => ({
        version,
        resources: this.resources
          .filter((r) => r.group === g.name && r.version === version)
          .map((r) => {
            const subresources = subresourcesOf(r);
            return {
              resource: r.resource,
              // As Kubernetes writes it: group and version only where they differ from the list's (a scale).
              responseKind: { group: '', version: '', kind: r.kind },
              scope: r.namespaced ? 'Namespaced' : 'Cluster',
              singularResource: r.singular,
              verbs: r.verbs,
              ...(r.shortNames.length > 0 ? { shortNames: r.shortNames } : {}),
              ...(r.categories.length > 0 ? { categories: r.categories } : {}),
              ...(subresources.length > 0
                ? {
                    subresources: subresources.map((sub) => ({
                      subresource: sub.name,
                      responseKind: { group: sub.group ?? '', version: sub.version ?? '', kind: sub.kind },
                      verbs: sub.verbs,
                    })),
                  }
                : {}),
            };
          }),
        freshness: 'Current',
      })),
    }));
    return { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items };
  }

  apiGroup(name: string): Obj | undefined {
    const g = this.groups().find((x) => x.name === name);
    if (g === undefined) return undefined;
    const versions = g.versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
    return { kind: 'APIGroup', apiVersion: 'v1', name, versions, preferredVersion: versions[0] };
  }

  apiGroupList(): Obj {
    const groups = this.groups('legacy').map((g) => this.apiGroup(g.name));
    return { kind: 'APIGroupList', apiVersion: 'v1', groups };
  }
}
