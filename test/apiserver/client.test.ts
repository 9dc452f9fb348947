/* eslint-disable @typescript-eslint/no-unsafe-class-instance-assignment --
   the client's model classes are plain data; object literals are how its own docs build them */
import { describe, expect, it } from 'vitest';
import { RBAC, apiError, clusterRole, core, raw, rbac, server, useClientServer } from './client-harness.js';

useClientServer();

describe('object semantics through @kubernetes/client-node', () => {
  it('creates with uid, resourceVersion and timestamp, and refuses duplicates with AlreadyExists', async () => {
    const created = await rbac.createClusterRole({ body: clusterRole('dup') });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(created.metadata?.resourceVersion)).toBeGreaterThan(0);
    expect(created.metadata?.creationTimestamp).toBeInstanceOf(Date);
    const err = await apiError(rbac.createClusterRole({ body: clusterRole('dup') }));
    expect(err.code).toBe(409);
    expect(err.body).toStrictEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'clusterroles.rbac.authorization.k8s.io "dup" already exists',
      reason: 'AlreadyExists',
      details: { name: 'dup', group: RBAC, kind: 'clusterroles' },
      code: 409,
    });
    const missing = await apiError(rbac.readClusterRole({ name: 'nope' }));
    expect(missing.body.message).toBe('clusterroles.rbac.authorization.k8s.io "nope" not found');
    expect(missing.body.reason).toBe('NotFound');
  });

  it('names objects from generateName', async () => {
    const cm = await core.createNamespacedConfigMap({
      namespace: 'gen',
      body: { metadata: { generateName: 'cfg-' } },
    });
    expect(cm.metadata?.name).toMatch(/^cfg-[a-z0-9]{5}$/);
  });

  it('rejects updates with a stale resourceVersion with the real Conflict', async () => {
    const first = await rbac.createClusterRole({ body: clusterRole('conflicted') });
    const updated = await rbac.replaceClusterRole({
      name: 'conflicted',
      body: Object.assign(first, { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }),
    });
    expect(Number(updated.metadata?.resourceVersion)).toBeGreaterThan(
      Number(first.metadata?.resourceVersion),
    );
    const err = await apiError(rbac.replaceClusterRole({ name: 'conflicted', body: first }));
    expect(err.code).toBe(409);
    expect(err.body.message).toBe(
      'Operation cannot be fulfilled on clusterroles.rbac.authorization.k8s.io "conflicted": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('persists nothing on dryRun=All yet validates and authorizes', async () => {
    await rbac.createClusterRole({ body: clusterRole('dry'), dryRun: 'All' });
    expect(server.get('clusterroles', 'dry')).toBeUndefined();
    const invalid = await apiError(
      rbac.createClusterRole({ body: clusterRole('Not_Valid/x'), dryRun: 'All' }),
    );
    expect(invalid.code).toBe(422);
    const stored = await rbac.createClusterRole({ body: clusterRole('dry-del') });
    await rbac.deleteClusterRole({ name: 'dry-del', dryRun: 'All' });
    expect(server.get('clusterroles', 'dry-del')).toMatchObject({ metadata: { uid: stored.metadata?.uid } });
    const patched = await raw(
      'PATCH',
      `/apis/${RBAC}/v1/clusterroles/dry-del?dryRun=All`,
      { metadata: { labels: { a: 'b' } } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(patched.body.metadata.labels).toStrictEqual({ a: 'b' });
    expect((server.get('clusterroles', 'dry-del') as any).metadata.labels).toBeUndefined();
  });

  it('checks delete preconditions with the real message', async () => {
    const obj = await rbac.createClusterRole({ body: clusterRole('guarded') });
    const err = await apiError(
      rbac.deleteClusterRole({ name: 'guarded', body: { preconditions: { uid: 'not-the-uid' } } }),
    );
    expect(err.code).toBe(409);
    expect(err.body.message).toBe(
      `Operation cannot be fulfilled on clusterroles.rbac.authorization.k8s.io "guarded": Precondition failed: UID in precondition: not-the-uid, UID in object meta: ${obj.metadata?.uid ?? ''}`,
    );
    const rvErr = await apiError(
      rbac.deleteClusterRole({ name: 'guarded', body: { preconditions: { resourceVersion: '1' } } }),
    );
    expect(rvErr.body.message).toContain(
      'Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta:',
    );
    await rbac.deleteClusterRole({
      name: 'guarded',
      body: { preconditions: { uid: obj.metadata?.uid ?? '' } },
    });
    expect(server.get('clusterroles', 'guarded')).toBeUndefined();
  });

  it('garbage-collects dependents through ownerReferences, keeping those with a live owner', async () => {
    const owner = await core.createNamespacedConfigMap({
      namespace: 'gc',
      body: { metadata: { name: 'owner' } },
    });
    const other = await core.createNamespacedConfigMap({
      namespace: 'gc',
      body: { metadata: { name: 'other-owner' } },
    });
    const ref = (o: typeof owner): any => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: o.metadata?.name,
      uid: o.metadata?.uid,
    });
    const child = await core.createNamespacedConfigMap({
      namespace: 'gc',
      body: { metadata: { name: 'child', ownerReferences: [ref(owner)] } },
    });
    await core.createNamespacedConfigMap({
      namespace: 'gc',
      body: { metadata: { name: 'grandchild', ownerReferences: [ref(child)] } },
    });
    await core.createNamespacedConfigMap({
      namespace: 'gc',
      body: { metadata: { name: 'shared', ownerReferences: [ref(owner), ref(other)] } },
    });
    await core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'gc' });
    expect(
      server
        .list('configmaps', 'gc')
        .map((o: any) => String(o.metadata.name))
        .sort(),
    ).toStrictEqual(['other-owner', 'shared']);
    expect((server.get('configmaps', 'shared', 'gc') as any).metadata.ownerReferences).toStrictEqual([
      ref(other),
    ]);
    await core.deleteNamespacedConfigMap({
      name: 'other-owner',
      namespace: 'gc',
      propagationPolicy: 'Orphan',
    });
    expect((server.get('configmaps', 'shared', 'gc') as any).metadata.ownerReferences).toBeUndefined();
  });

  it('pages lists with limit/continue and filters by label and field selectors', async () => {
    for (const [name, labels] of [
      ['p-a', { tier: 'web', env: 'prod' }],
      ['p-b', { tier: 'api', env: 'prod' }],
      ['p-c', { tier: 'db' }],
      ['p-d', { tier: 'web' }],
      ['p-e', {}],
    ] as const) {
      await core.createNamespacedConfigMap({ namespace: 'page', body: { metadata: { name, labels } } });
    }
    const names: string[] = [];
    let cont: string | undefined;
    let pages = 0;
    do {
      const page = await core.listNamespacedConfigMap({
        namespace: 'page',
        limit: 2,
        ...(cont ? { _continue: cont } : {}),
      });
      names.push(...page.items.map((i) => i.metadata?.name ?? ''));
      cont = page.metadata?._continue;
      pages++;
    } while (cont);
    expect(names).toStrictEqual(['p-a', 'p-b', 'p-c', 'p-d', 'p-e']);
    expect(pages).toBe(3);
    const cases: { name: string; selector: string; want: string[]; reason: string }[] = [
      { name: 'Equality', selector: 'tier=web', want: ['p-a', 'p-d'], reason: '= matches the value' },
      { name: 'DoubleEquals', selector: 'tier==api', want: ['p-b'], reason: '== is the same as =' },
      {
        name: 'NotEquals',
        selector: 'tier!=web',
        want: ['p-b', 'p-c', 'p-e'],
        reason: '!= also matches objects without the key',
      },
      {
        name: 'In',
        selector: 'tier in (api,db)',
        want: ['p-b', 'p-c'],
        reason: 'in matches any listed value',
      },
      {
        name: 'NotIn',
        selector: 'tier notin (web)',
        want: ['p-b', 'p-c', 'p-e'],
        reason: 'notin matches missing keys too',
      },
      { name: 'Exists', selector: 'env', want: ['p-a', 'p-b'], reason: 'a bare key requires the key' },
      {
        name: 'NotExists',
        selector: '!env',
        want: ['p-c', 'p-d', 'p-e'],
        reason: '!key requires its absence',
      },
      { name: 'Conjunction', selector: 'tier=web,env=prod', want: ['p-a'], reason: 'requirements are ANDed' },
    ];
    for (const tc of cases) {
      const list = await core.listNamespacedConfigMap({ namespace: 'page', labelSelector: tc.selector });
      expect(
        list.items.map((i) => i.metadata?.name),
        `${tc.name}: ${tc.reason}`,
      ).toStrictEqual(tc.want);
    }
    const byName = await core.listConfigMapForAllNamespaces({
      fieldSelector: 'metadata.name=p-c,metadata.namespace=page',
    });
    expect(byName.items.map((i) => i.metadata?.name)).toStrictEqual(['p-c']);
    const bad = await raw('GET', '/api/v1/configmaps?fieldSelector=spec.foo%3Dbar');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('field label not supported: spec.foo');
  });

  it('applies merge, strategic merge, JSON patches and server-side apply', async () => {
    await rbac.createClusterRole({
      body: clusterRole('patched', {
        metadata: { name: 'patched', labels: { a: '1' } },
        rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      }),
    });
    const path = `/apis/${RBAC}/v1/clusterroles/patched`;
    const smp = await raw(
      'PATCH',
      path,
      {
        metadata: { labels: { b: '2' } },
        rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['list'] }],
      },
      { 'Content-Type': 'application/strategic-merge-patch+json' },
    );
    expect(smp.status).toBe(200);
    expect(smp.body.metadata.labels).toStrictEqual({ a: '1', b: '2' });
    expect(smp.body.rules).toStrictEqual([
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['list'] },
    ]);
    const jp = await raw(
      'PATCH',
      path,
      [
        { op: 'add', path: '/rules/-', value: { apiGroups: [''], resources: ['secrets'], verbs: ['get'] } },
        { op: 'remove', path: '/metadata/labels/a' },
      ],
      { 'Content-Type': 'application/json-patch+json' },
    );
    expect(jp.body.rules).toHaveLength(2);
    expect(jp.body.metadata.labels).toStrictEqual({ b: '2' });
    const failed = await raw('PATCH', path, [{ op: 'test', path: '/metadata/name', value: 'other' }], {
      'Content-Type': 'application/json-patch+json',
    });
    expect(failed.status).toBe(422);
    const apply = (obj: unknown): Promise<{ status: number; body: any }> =>
      raw('PATCH', `/apis/${RBAC}/v1/clusterroles/applied?fieldManager=test`, obj, {
        'Content-Type': 'application/apply-patch+yaml',
      });
    const first = await apply({
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'applied', labels: { x: '1', y: '2' } },
      rules: [],
    });
    expect(first.status).toBe(201);
    await raw(
      'PATCH',
      `/apis/${RBAC}/v1/clusterroles/applied`,
      { metadata: { labels: { other: 'kept' } } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    const second = await apply({
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'applied', labels: { x: '1' } },
      rules: [],
    });
    expect(second.status).toBe(200);
    expect(second.body.metadata.labels).toStrictEqual({ x: '1', other: 'kept' });
    const noManager = await raw(
      'PATCH',
      `/apis/${RBAC}/v1/clusterroles/applied`,
      {},
      { 'Content-Type': 'application/apply-patch+yaml' },
    );
    expect(noManager.status).toBe(422);
  });

  it('validates names, labels and aggregationRule with 422 Invalid and causes', async () => {
    const cases: { name: string; obj: any; field: string; reason: string }[] = [
      {
        name: 'BadConfigMapName',
        obj: { metadata: { name: 'Bad_Name' } },
        field: 'metadata.name',
        reason: 'configmap names are DNS subdomains',
      },
      {
        name: 'BadLabelKey',
        obj: { metadata: { name: 'ok', labels: { '-x': 'v' } } },
        field: 'metadata.labels',
        reason: 'label names start alphanumeric',
      },
      {
        name: 'BadLabelValue',
        obj: { metadata: { name: 'ok', labels: { x: 'a b' } } },
        field: 'metadata.labels',
        reason: 'label values have no spaces',
      },
    ];
    for (const tc of cases) {
      const res = await raw('POST', '/api/v1/namespaces/v/configmaps', tc.obj);
      expect(res.status, `${tc.name}: ${tc.reason}`).toBe(422);
      expect(res.body.reason).toBe('Invalid');
      expect(res.body.details.causes[0].field).toBe(tc.field);
    }
    const rbacName = await rbac.createClusterRole({
      body: clusterRole('crossplane:composite:x:aggregate-to-edit'),
    });
    expect(rbacName.metadata?.name).toBe('crossplane:composite:x:aggregate-to-edit');
    const noSelectors = await apiError(
      rbac.createClusterRole({
        body: clusterRole('agg-empty', { aggregationRule: { clusterRoleSelectors: [] } }),
      }),
    );
    expect(noSelectors.code).toBe(422);
    expect(noSelectors.body.message).toBe(
      'ClusterRole.rbac.authorization.k8s.io "agg-empty" is invalid: aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    );
  });

  it('answers malformed and unknown requests with the right codes and stays up', async () => {
    const cases: {
      name: string;
      method: string;
      path: string;
      body?: string;
      headers?: Record<string, string>;
      want: number;
      reason: string;
    }[] = [
      {
        name: 'BrokenJson',
        method: 'POST',
        path: '/api/v1/namespaces/x/configmaps',
        body: '{"metadata":',
        want: 400,
        reason: 'unparseable bodies are BadRequest',
      },
      {
        name: 'WrongKind',
        method: 'POST',
        path: '/api/v1/namespaces/x/configmaps',
        body: '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"a"}}',
        want: 400,
        reason: 'the kind must match the URL',
      },
      {
        name: 'UnknownResource',
        method: 'GET',
        path: '/api/v1/widgets',
        want: 404,
        reason: 'unknown resources are NotFound',
      },
      {
        name: 'UnknownGroup',
        method: 'GET',
        path: '/apis/nope.example.com/v1',
        want: 404,
        reason: 'unknown group versions are NotFound',
      },
      {
        name: 'UnknownPath',
        method: 'GET',
        path: '/nonsense',
        want: 404,
        reason: 'unknown paths are NotFound',
      },
      {
        name: 'TooDeep',
        method: 'GET',
        path: '/api/v1/namespaces/x/configmaps/a/b/c',
        want: 404,
        reason: 'paths longer than a subresource are NotFound',
      },
      {
        name: 'NoToken',
        method: 'GET',
        path: '/api/v1/namespaces',
        headers: { Authorization: '' },
        want: 401,
        reason: 'requests need a token',
      },
      {
        name: 'UnknownToken',
        method: 'GET',
        path: '/api/v1/namespaces',
        headers: { Authorization: 'Bearer nope' },
        want: 401,
        reason: 'unknown tokens are Unauthorized',
      },
      {
        name: 'BadPatchType',
        method: 'PATCH',
        path: `/apis/${RBAC}/v1/clusterroles/dup`,
        body: '{}',
        headers: { 'Content-Type': 'text/plain' },
        want: 415,
        reason: 'unknown patch types are UnsupportedMediaType',
      },
      {
        name: 'BadSelector',
        method: 'GET',
        path: '/api/v1/configmaps?labelSelector=a%20in%20',
        want: 400,
        reason: 'malformed selectors are BadRequest',
      },
      {
        name: 'BadContinue',
        method: 'GET',
        path: '/api/v1/configmaps?continue=%%%',
        want: 400,
        reason: 'malformed continue tokens are BadRequest',
      },
      {
        name: 'NameMismatch',
        method: 'PUT',
        path: `/apis/${RBAC}/v1/clusterroles/dup`,
        body: JSON.stringify(clusterRole('other')),
        want: 400,
        reason: 'the body name must match the URL',
      },
    ];
    for (const tc of cases) {
      const res = await raw(tc.method, tc.path, tc.body, tc.headers ?? {});
      expect(res.status, `${tc.name}: ${tc.reason}`).toBe(tc.want);
      expect(res.body.kind, tc.name).toBe('Status');
    }
    expect((await raw('GET', '/version')).body.major).toBe('1');
  });
});

describe('faults and counters', () => {
  it('counts each request once by verb and resource, failed ones included', async () => {
    server.counters.reset();
    await core.listNamespacedConfigMap({ namespace: 'page' });
    await core.listNamespacedConfigMap({ namespace: 'page' });
    await apiError(rbac.readClusterRole({ name: 'nope' }));
    await raw('GET', '/api/v1/namespaces', undefined, { Authorization: 'Bearer nope' });
    await raw('GET', '/apis');
    await raw('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      spec: { nonResourceAttributes: { verb: 'get', path: '/' } },
    });
    await raw(
      'PATCH',
      `/apis/${RBAC}/v1/clusterroles/dup`,
      { metadata: { labels: { c: '1' } } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(server.counters.snapshot()).toStrictEqual({
      'create selfsubjectaccessreviews': 1,
      'get clusterroles': 1,
      'list configmaps': 2,
      'list namespaces': 1,
      'patch clusterroles': 1,
    });
    expect(server.counters.get('list', 'configmaps')).toBe(2);
    expect(server.counters.total()).toBe(6);
    expect(server.counters.total('list')).toBe(3);
    expect(server.counters.writes()).toBe(1);
  });

  it('logs each answered write to its listeners with its name and status: creates named from the body, reviews left out', async () => {
    const log: string[] = [];
    const stop = server.counters.onWrite((w) =>
      log.push(`${w.verb} ${w.resource} ${w.namespace}/${w.name} ${String(w.status)}`),
    );
    await raw('POST', `/apis/${RBAC}/v1/clusterroles`, {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'logged' },
      rules: [],
    });
    await raw('POST', `/apis/${RBAC}/v1/clusterroles`, {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'logged' },
      rules: [],
    });
    await raw('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      spec: { nonResourceAttributes: { verb: 'get', path: '/' } },
    });
    await core.listNamespacedConfigMap({ namespace: 'page' });
    await raw('DELETE', `/apis/${RBAC}/v1/clusterroles/logged`);
    stop();
    await raw('DELETE', `/apis/${RBAC}/v1/clusterroles/logged`);
    expect(log).toStrictEqual([
      'create clusterroles /logged 201',
      'create clusterroles /logged 409',
      'delete clusterroles /logged 200',
    ]);
  });

  it('times the windows of reads and of writes: from the first received to the last, access reviews left out', async () => {
    server.counters.reset();
    const review = { spec: { nonResourceAttributes: { verb: 'get', path: '/' } } };
    await raw('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', review);
    expect(server.counters.window('read')).toBeUndefined();
    const beforeRead = process.hrtime.bigint();
    await core.listNamespacedConfigMap({ namespace: 'page' });
    const read = server.counters.window('read');
    expect(read !== undefined && read.first === read.last && read.first >= beforeRead).toBe(true);
    expect(server.counters.window('write')).toBeUndefined();
    const before = process.hrtime.bigint();
    const patch = (c: string) =>
      raw(
        'PATCH',
        `/apis/${RBAC}/v1/clusterroles/dup`,
        { metadata: { labels: { c } } },
        { 'Content-Type': 'application/merge-patch+json' },
      );
    await patch('2');
    const afterFirst = process.hrtime.bigint();
    await raw('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', review);
    await patch('3');
    const after = process.hrtime.bigint();
    const w = server.counters.window('write');
    expect(w).toBeDefined();
    expect(w!.first >= before && w!.first <= afterFirst).toBe(true);
    expect(w!.last > afterFirst && w!.last <= after).toBe(true);
    expect(server.counters.window('read')).toStrictEqual(read);
    server.counters.reset();
    expect(server.counters.window('write')).toBeUndefined();
    expect(server.counters.window('read')).toBeUndefined();
  });

  it('injects 500/503 errors, 429 with Retry-After, conflicts, drops and latency, and counts each kind it injected', async () => {
    server.counters.reset();
    server.faults.errorRate = 1;
    server.faults.errorCode = 503;
    expect((await raw('GET', '/api/v1/namespaces')).status).toBe(503);
    server.faults.errorCode = 500;
    const e500 = await raw('GET', '/api/v1/namespaces');
    expect(e500.status).toBe(500);
    expect(e500.body.reason).toBe('InternalError');
    expect((await raw('GET', '/version')).status).toBe(200);
    server.faults.errorRate = 0;
    server.faults.throttleRate = 1;
    server.faults.retryAfterSeconds = 7;
    const throttled = await raw('GET', '/api/v1/namespaces');
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('7');
    expect(throttled.body.details.retryAfterSeconds).toBe(7);
    server.faults.throttleRate = 0;
    server.faults.conflictRate = 1;
    const current = await rbac.readClusterRole({ name: 'dup' });
    expect((await apiError(rbac.replaceClusterRole({ name: 'dup', body: current }))).code).toBe(409);
    expect((await raw('GET', '/api/v1/namespaces')).status).toBe(200);
    server.faults.conflictRate = 0;
    server.faults.dropRate = 1;
    await expect(raw('POST', `/apis/${RBAC}/v1/clusterroles`, clusterRole('dropped'))).rejects.toThrow();
    server.faults.dropRate = 0;
    expect(server.get('clusterroles', 'dropped')).toBeUndefined();
    server.faults.answerDropRate = 1;
    await expect(raw('POST', `/apis/${RBAC}/v1/clusterroles`, clusterRole('answer-lost'))).rejects.toThrow();
    server.faults.answerDropRate = 0;
    expect(server.get('clusterroles', 'answer-lost')).toMatchObject({ metadata: { name: 'answer-lost' } });
    server.faults.errorRate = 1;
    server.faults.onlyVerbs = ['create'];
    expect((await raw('GET', '/api/v1/namespaces')).status).toBe(200);
    server.faults.onlyVerbs = undefined;
    server.faults.onlyResources = ['secrets'];
    expect((await raw('GET', '/api/v1/namespaces')).status).toBe(200);
    expect((await raw('GET', '/api/v1/secrets')).status).toBe(500);
    server.faults.onlyResources = undefined;
    server.faults.errorRate = 0;
    server.faults.failNext = { count: 2, code: 503, verbs: ['list'] };
    expect((await raw('GET', '/api/v1/namespaces/x/configmaps/none')).status).toBe(404);
    expect((await raw('GET', '/api/v1/namespaces')).status).toBe(503);
    expect((await raw('GET', '/api/v1/namespaces')).status).toBe(503);
    expect((await raw('GET', '/api/v1/namespaces')).status).toBe(200);
    // Every fault answered above, by kind; the requests served normally count none.
    expect(server.counters.faults()).toStrictEqual({
      '409': 1,
      '429': 1,
      '500': 2,
      '503': 3,
      drop: 1,
      'drop-answer': 1,
    });
    server.faults.latencyMs = 60;
    const start = Date.now();
    await raw('GET', '/api/v1/namespaces');
    expect(Date.now() - start).toBeGreaterThanOrEqual(55);
  });
});
