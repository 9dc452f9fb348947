import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startApiServer, type TestApiServer } from './server.js';

let server: TestApiServer;

beforeAll(async () => {
  server = await startApiServer();
});
afterAll(async () => {
  await server.stop();
});

async function discovery(path: string): Promise<{ resources: Record<string, unknown>[] }> {
  const res = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as { resources: Record<string, unknown>[] };
}

const CRUD = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const GPU = ['get', 'patch', 'update'];
const PROXY = ['create', 'delete', 'get', 'patch', 'update'];

/** A resource's entry: everything but storageVersionHash, which the server does not compute. */
function res(
  name: string,
  kind: string,
  namespaced: boolean,
  verbs: string[],
  extra: { shortNames?: string[]; categories?: string[]; singularName?: string } = {},
): Record<string, unknown> {
  const singularName = extra.singularName ?? (name.includes('/') ? '' : kind.toLowerCase());
  const { singularName: _s, ...rest } = extra;
  return { name, singularName, namespaced, kind, verbs, ...rest };
}

function sub(name: string, kind: string, namespaced: boolean, verbs: string[], gv?: [string, string]) {
  return { ...res(name, kind, namespaced, verbs), ...(gv ? { group: gv[0], version: gv[1] } : {}) };
}

describe('discovery of the built-in resources, as Kubernetes 1.32 lists them', () => {
  // kubernetes/kubernetes api/discovery/api__v1.json@7c554ea1d91eddac32fcd89f37d7ed0347e1f311: every entry,
  // transcribed in upstream's order, without storageVersionHash.
  it('lists every core v1 resource and subresource', async () => {
    const doc = await discovery('/api/v1');
    expect(doc.resources).toEqual([
      res('bindings', 'Binding', true, ['create']),
      res('componentstatuses', 'ComponentStatus', false, ['get', 'list'], { shortNames: ['cs'] }),
      res('configmaps', 'ConfigMap', true, CRUD, { shortNames: ['cm'] }),
      res('endpoints', 'Endpoints', true, CRUD, { shortNames: ['ep'], singularName: 'endpoints' }),
      res('events', 'Event', true, CRUD, { shortNames: ['ev'] }),
      res('limitranges', 'LimitRange', true, CRUD, { shortNames: ['limits'] }),
      res('namespaces', 'Namespace', false, ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], {
        shortNames: ['ns'],
      }),
      sub('namespaces/finalize', 'Namespace', false, ['update']),
      sub('namespaces/status', 'Namespace', false, GPU),
      res('nodes', 'Node', false, CRUD, { shortNames: ['no'] }),
      sub('nodes/proxy', 'NodeProxyOptions', false, PROXY),
      sub('nodes/status', 'Node', false, GPU),
      res('persistentvolumeclaims', 'PersistentVolumeClaim', true, CRUD, { shortNames: ['pvc'] }),
      sub('persistentvolumeclaims/status', 'PersistentVolumeClaim', true, GPU),
      res('persistentvolumes', 'PersistentVolume', false, CRUD, { shortNames: ['pv'] }),
      sub('persistentvolumes/status', 'PersistentVolume', false, GPU),
      res('pods', 'Pod', true, CRUD, { shortNames: ['po'], categories: ['all'] }),
      sub('pods/attach', 'PodAttachOptions', true, ['create', 'get']),
      sub('pods/binding', 'Binding', true, ['create']),
      sub('pods/ephemeralcontainers', 'Pod', true, GPU),
      sub('pods/eviction', 'Eviction', true, ['create'], ['policy', 'v1']),
      sub('pods/exec', 'PodExecOptions', true, ['create', 'get']),
      sub('pods/log', 'Pod', true, ['get']),
      sub('pods/portforward', 'PodPortForwardOptions', true, ['create', 'get']),
      sub('pods/proxy', 'PodProxyOptions', true, PROXY),
      sub('pods/status', 'Pod', true, GPU),
      res('podtemplates', 'PodTemplate', true, CRUD),
      res('replicationcontrollers', 'ReplicationController', true, CRUD, {
        shortNames: ['rc'],
        categories: ['all'],
      }),
      sub('replicationcontrollers/scale', 'Scale', true, GPU, ['autoscaling', 'v1']),
      sub('replicationcontrollers/status', 'ReplicationController', true, GPU),
      res('resourcequotas', 'ResourceQuota', true, CRUD, { shortNames: ['quota'] }),
      sub('resourcequotas/status', 'ResourceQuota', true, GPU),
      res('secrets', 'Secret', true, CRUD),
      res('serviceaccounts', 'ServiceAccount', true, CRUD, { shortNames: ['sa'] }),
      sub('serviceaccounts/token', 'TokenRequest', true, ['create'], ['authentication.k8s.io', 'v1']),
      res('services', 'Service', true, CRUD, { shortNames: ['svc'], categories: ['all'] }),
      sub('services/proxy', 'ServiceProxyOptions', true, PROXY),
      sub('services/status', 'Service', true, GPU),
    ]);
  });

  // kubernetes/kubernetes api/discovery/apis__apps__v1.json@7c66d0f84a20136b37a301223c7a3b42f1133ac9: the names,
  // short names, categories and subresources (the verbs are the server's CRUD, watch included, as for every kind).
  it('lists the apps workloads with their short names, categories and scale subresources', async () => {
    const doc = await discovery('/apis/apps/v1');
    const summary = doc.resources.map((r) =>
      [r.name, r.kind, r.group ?? '', r.shortNames ?? [], r.categories ?? []].flat().join(' '),
    );
    expect(summary).toEqual([
      'controllerrevisions ControllerRevision ',
      'daemonsets DaemonSet  ds all',
      'daemonsets/status DaemonSet ',
      'deployments Deployment  deploy all',
      'deployments/scale Scale autoscaling',
      'deployments/status Deployment ',
      'replicasets ReplicaSet  rs all',
      'replicasets/scale Scale autoscaling',
      'replicasets/status ReplicaSet ',
      'statefulsets StatefulSet  sts all',
      'statefulsets/scale Scale autoscaling',
      'statefulsets/status StatefulSet ',
    ]);
  });

  it('serves pods: created, listed and read back like any kind', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'team-a' },
      spec: { containers: [{ name: 'web', image: 'nginx' }] },
    };
    const headers = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${server.url}/api/v1/namespaces/team-a/pods`, {
      method: 'POST',
      headers,
      body: JSON.stringify(pod),
    });
    expect(created.status).toBe(201);
    expect(server.list('pods', 'team-a')).toMatchObject([{ metadata: { name: 'web' } }]);
    const log = await fetch(`${server.url}/api/v1/namespaces/team-a/pods/web/log`, { headers });
    expect(log.status, 'subresources other than status are listed, not served').toBe(404);
  });
});

describe('aggregated discovery (apidiscovery.k8s.io/v2), by the Accept header', () => {
  const AGG = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
  const answer = async (path: string, accept: string | undefined) => {
    const res = await fetch(`${server.url}${path}`, {
      headers: {
        Authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(accept !== undefined ? { Accept: accept } : {}),
      },
    });
    expect(res.status).toBe(200);
    return { type: res.headers.get('content-type'), body: (await res.json()) as Record<string, unknown> };
  };

  it('answers the aggregated list only when it is the first format asked for that the server serves', async () => {
    const cases: readonly [string | undefined, boolean][] = [
      [undefined, false],
      ['application/json, */*', false],
      ['*/*', false],
      [`${AGG},application/json`, true],
      // kubectl 1.32 asks for v2, then v2beta1 (not served here), then legacy.
      [
        `${AGG},application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json`,
        true,
      ],
      ['application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json', false],
      [`application/json,${AGG}`, false],
      [`application/json;as=Table;v=v1;g=meta.k8s.io,${AGG}`, true],
    ];
    for (const [accept, aggregated] of cases) {
      for (const path of ['/api', '/apis']) {
        const { type, body } = await answer(path, accept);
        expect(type, `${path} ${String(accept)}`).toBe(aggregated ? AGG : 'application/json');
        expect(body.kind, `${path} ${String(accept)}`).toBe(
          aggregated ? 'APIGroupDiscoveryList' : path === '/api' ? 'APIVersions' : 'APIGroupList',
        );
      }
    }
  });

  it('lists each group version as the legacy lists do, subresources nested under their resource', async () => {
    const { body } = await answer('/apis', AGG);
    const items = body.items as {
      metadata: { name: string };
      versions: { version: string; freshness: string; resources: Record<string, unknown>[] }[];
    }[];
    const apps = items.find((i) => i.metadata.name === 'apps');
    const deployments = apps?.versions[0]?.resources.find((r) => r.resource === 'deployments');
    expect(apps?.versions.map((v) => [v.version, v.freshness])).toEqual([['v1', 'Current']]);
    expect(deployments).toEqual({
      resource: 'deployments',
      responseKind: { group: '', version: '', kind: 'Deployment' },
      scope: 'Namespaced',
      singularResource: 'deployment',
      verbs: CRUD,
      shortNames: ['deploy'],
      categories: ['all'],
      subresources: [
        {
          subresource: 'scale',
          responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
          verbs: GPU,
        },
        {
          subresource: 'status',
          responseKind: { group: '', version: '', kind: 'Deployment' },
          verbs: GPU,
        },
      ],
    });
    const core = (await answer('/api', AGG)).body.items as {
      metadata: Record<string, unknown>;
      versions: { version: string }[];
    }[];
    expect(core.map((i) => [i.metadata.name, i.versions.map((v) => v.version)])).toEqual([
      [undefined, ['v1']],
    ]);
  });
});

describe("the groups in kube-apiserver's order, in both discovery formats", () => {
  // Built-in groups by their priorities, highest first (cmd/kube-apiserver/app/aggregator.go
  // @39ae3f4346cc7970491ee89bbe8dcf00ca038356: apps 17800, authorization.k8s.io 17600, batch 17400,
  // networking.k8s.io 17200, policy 17100, rbac.authorization.k8s.io 17000, and admissionregistration.k8s.io and apiextensions.k8s.io 16700 from
  // pkg/controlplane/apiserver/aggregator.go@008b3652959ca58af8be3fb5b6ecfe9ae7638282), then the CRD groups, all at
  // 1000 (crdregistration_controller.go@f1dc607f321a2f4430539ffe90c9b6072af197bb). Ties: the aggregated list by group
  // name (apiserver pkg/endpoints/discovery/aggregated/handler.go@24a394e516bfda066d7e2221d7d92c052de27c54), the
  // legacy /apis by APIService name, VERSION.GROUP (kube-aggregator apiregistration/v1/helper/helpers.go
  // @232ca687ab24bc9f9a378cba74716b5f7d6b82eb), so a group serving v1 comes before one serving only v1beta1.
  const BUILTIN = [
    'apps',
    'authorization.k8s.io',
    'batch',
    'networking.k8s.io',
    'policy',
    'rbac.authorization.k8s.io',
    'admissionregistration.k8s.io',
    'apiextensions.k8s.io',
  ];
  let crds: TestApiServer;
  const crd = (group: string, plural: string, version: string) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Cluster',
      names: { plural, singular: plural.slice(0, -1), kind: 'Thing', listKind: 'ThingList' },
      versions: [
        { name: version, served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
      ],
    },
  });
  beforeAll(async () => {
    crds = await startApiServer();
    // Stored in neither order.
    crds.seed([
      crd('zeta.example.org', 'things', 'v1'),
      crd('alpha.example.org', 'things', 'v1beta1'),
      crd('mid.example.org', 'things', 'v1alpha1'),
    ]);
  });
  afterAll(async () => {
    await crds.stop();
  });
  const names = async (accept?: string): Promise<string[]> => {
    const res = await fetch(`${crds.url}/apis`, {
      headers: {
        Authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(accept !== undefined ? { Accept: accept } : {}),
      },
    });
    const body = (await res.json()) as {
      groups?: { name: string }[];
      items?: { metadata: { name: string } }[];
    };
    return body.groups?.map((g) => g.name) ?? body.items?.map((g) => g.metadata.name) ?? [];
  };

  it('the aggregated list: CRD groups by name', async () => {
    expect(await names('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList')).toEqual([
      ...BUILTIN,
      'alpha.example.org',
      'mid.example.org',
      'zeta.example.org',
    ]);
  });

  it('the legacy list: CRD groups by their first APIService name', async () => {
    expect(await names()).toEqual([...BUILTIN, 'zeta.example.org', 'mid.example.org', 'alpha.example.org']);
  });
});
