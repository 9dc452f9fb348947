import { describe, expect, it } from 'vitest';
import { RBAC, clusterRole, raw, rbac, server, useClientServer } from './client-harness.js';
import { startApiServer } from './server.js';

useClientServer();

describe('authorization, impersonation and escalation', () => {
  it('honours impersonation only for callers allowed to impersonate', async () => {
    server.addUser('gina-token', 'gina');
    const denied = await raw('GET', '/api/v1/namespaces', undefined, {
      Authorization: 'Bearer gina-token',
      'Impersonate-User': 'admin',
    });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe(
      'users "admin" is forbidden: User "gina" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    const asGroup = await raw('GET', `/apis/${RBAC}/v1/clusterroles`, undefined, {
      'Impersonate-User': 'someone',
      'Impersonate-Group': 'system:masters',
    });
    expect(asGroup.status).toBe(200);
    const asUser = await raw('GET', `/apis/${RBAC}/v1/clusterroles`, undefined, {
      'Impersonate-User': 'someone',
    });
    expect(asUser.status).toBe(403);
    expect(asUser.body.message).toBe(
      'clusterroles.rbac.authorization.k8s.io is forbidden: User "someone" cannot list resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope',
    );
    const ssar = await raw(
      'POST',
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      { spec: { resourceAttributes: { verb: 'get', resource: 'configmaps', namespace: 'x' } } },
      { 'Impersonate-User': 'system:serviceaccount:x:robot' },
    );
    expect(ssar.body.status.allowed).toBe(false);
  });

  it('needs bind or coverage for bindings, and full authority for aggregationRule', async () => {
    server.addUser('hank-token', 'hank');
    const asHank = { Authorization: 'Bearer hank-token' };
    server.seed([
      clusterRole('hank-rbac', {
        rules: [
          {
            apiGroups: [RBAC],
            resources: ['clusterroles', 'clusterrolebindings', 'rolebindings'],
            verbs: ['create'],
          },
          { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
        ],
      }),
      {
        apiVersion: `${RBAC}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'hank' },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'hank-rbac' },
        subjects: [{ kind: 'User', name: 'hank', apiGroup: RBAC }],
      },
      clusterRole('cm-getter', { rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] }),
      clusterRole('secret-getter', { rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] }),
    ]);
    const binding = (name: string, role: string): unknown => ({
      apiVersion: `${RBAC}/v1`,
      kind: 'RoleBinding',
      metadata: { name },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
      subjects: [{ kind: 'User', name: 'ivy', apiGroup: RBAC }],
    });
    const covered = await raw(
      'POST',
      `/apis/${RBAC}/v1/namespaces/ns1/rolebindings`,
      binding('ok', 'cm-getter'),
      asHank,
    );
    expect(covered.status).toBe(201);
    const notCovered = await raw(
      'POST',
      `/apis/${RBAC}/v1/namespaces/ns1/rolebindings`,
      binding('no', 'secret-getter'),
      asHank,
    );
    expect(notCovered.status).toBe(403);
    expect(notCovered.body.message).toBe(
      'rolebindings.rbac.authorization.k8s.io "no" is forbidden: user "hank" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
    );
    const missingRole = await raw(
      'POST',
      `/apis/${RBAC}/v1/namespaces/ns1/rolebindings`,
      binding('gone', 'does-not-exist'),
      asHank,
    );
    expect(missingRole.status).toBe(404);
    expect(missingRole.body.message).toBe(
      'clusterroles.rbac.authorization.k8s.io "does-not-exist" not found',
    );
    server.seed([
      clusterRole('hank-bind', {
        rules: [
          {
            apiGroups: [RBAC],
            resources: ['clusterroles'],
            verbs: ['bind'],
            resourceNames: ['secret-getter'],
          },
        ],
      }),
      {
        apiVersion: `${RBAC}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'hank-bind' },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'hank-bind' },
        subjects: [{ kind: 'User', name: 'hank', apiGroup: RBAC }],
      },
    ]);
    expect(
      (
        await raw(
          'POST',
          `/apis/${RBAC}/v1/namespaces/ns1/rolebindings`,
          binding('bound', 'secret-getter'),
          asHank,
        )
      ).status,
    ).toBe(201);
    const agg = await raw(
      'POST',
      `/apis/${RBAC}/v1/clusterroles`,
      clusterRole('hank-agg', { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } }),
      asHank,
    );
    expect(agg.status).toBe(403);
    expect(agg.body.message).toBe(
      'clusterroles.rbac.authorization.k8s.io "hank-agg" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    );
  });

  it('answers SelfSubjectRulesReview and SubjectAccessReview from the same rules', async () => {
    server.addUser('jo-token', 'jo', ['readers']);
    server.seed([
      clusterRole('reader', {
        rules: [
          { apiGroups: [''], resources: ['configmaps'], verbs: ['list'] },
          { nonResourceURLs: ['/metrics/*'], verbs: ['get'] },
        ],
      }),
      {
        apiVersion: `${RBAC}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'readers' },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'reader' },
        subjects: [{ kind: 'Group', name: 'readers', apiGroup: RBAC }],
      },
    ]);
    const rules = await raw(
      'POST',
      '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
      { spec: { namespace: 'default' } },
      { Authorization: 'Bearer jo-token' },
    );
    expect(rules.body.status.incomplete).toBe(false);
    expect(rules.body.status.resourceRules).toContainEqual({
      verbs: ['list'],
      apiGroups: [''],
      resources: ['configmaps'],
    });
    expect(rules.body.status.nonResourceRules).toContainEqual({
      verbs: ['get'],
      nonResourceURLs: ['/metrics/*'],
    });
    const sar = (spec: unknown): Promise<boolean> =>
      raw('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { spec }).then(
        (r) => r.body.status.allowed as boolean,
      );
    expect(
      await sar({
        user: 'jo',
        groups: ['readers'],
        nonResourceAttributes: { verb: 'get', path: '/metrics/cpu' },
      }),
    ).toBe(true);
    expect(
      await sar({ user: 'jo', groups: [], resourceAttributes: { verb: 'list', resource: 'configmaps' } }),
    ).toBe(false);
  });
});

describe('aggregation controller', () => {
  it('recomputes aggregated roles after each change, and can be switched off', async () => {
    server.seed([
      clusterRole('agg-parent', {
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'test/agg': 'true' } }] },
      }),
      clusterRole('agg-b', {
        metadata: { name: 'agg-b', labels: { 'test/agg': 'true' } },
        rules: [{ apiGroups: [''], resources: ['b'], verbs: ['get'] }],
      }),
    ]);
    expect((server.get('clusterroles', 'agg-parent') as any).rules).toStrictEqual([
      { apiGroups: [''], resources: ['b'], verbs: ['get'] },
    ]);
    await rbac.createClusterRole({
      body: clusterRole('agg-a', {
        metadata: { name: 'agg-a', labels: { 'test/agg': 'true' } },
        rules: [{ apiGroups: [''], resources: ['a'], verbs: ['get'] }],
      }),
    });
    expect(
      (server.get('clusterroles', 'agg-parent') as any).rules.map((r: any) => String(r.resources[0])),
    ).toStrictEqual(['a', 'b']);
    server.setAggregation(false);
    await rbac.deleteClusterRole({ name: 'agg-a' });
    expect((server.get('clusterroles', 'agg-parent') as any).rules).toHaveLength(2);
    server.setAggregation(true);
    expect((server.get('clusterroles', 'agg-parent') as any).rules).toHaveLength(1);
  });

  it('lags by aggregationDelayMs when asked to', async () => {
    const lagging = await startApiServer({ aggregationDelayMs: 50 });
    try {
      lagging.seed([
        clusterRole('p', { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { l: 'x' } }] } }),
      ]);
      lagging.seed([
        clusterRole('c', {
          metadata: { name: 'c', labels: { l: 'x' } },
          rules: [{ apiGroups: [''], resources: ['c'], verbs: ['get'] }],
        }),
      ]);
      expect((lagging.get('clusterroles', 'p') as any).rules).toStrictEqual([]);
      await new Promise((r) => setTimeout(r, 150));
      expect((lagging.get('clusterroles', 'p') as any).rules).toHaveLength(1);
    } finally {
      await lagging.stop();
    }
  });
});
