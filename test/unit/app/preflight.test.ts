import { describe, expect, it } from 'vitest';
import { findMissingPatches, findMissingPermissions } from '../../../src/app/preflight.js';
import type { PlannedWrite } from '../../../src/authz/required-permissions.js';
import type { AccessCheck, Cluster } from '../../../src/port/cluster.js';

/**
 * A cluster whose authorizer allows exactly the questions in ALLOWED (`verb resource namespace-or-* name-or-*`),
 * as RBAC answers them: a question for all namespaces ("*") or any name is allowed only when asked so.
 */
function fakeCluster(allowed: readonly string[]): { cluster: Cluster; asked: string[] } {
  const asked: string[] = [];
  const key = (c: AccessCheck): string =>
    `${c.verb} ${c.resource}${c.subresource !== undefined ? `/${c.subresource}` : ''} ${c.namespace ?? '*'} ${c.name ?? '*'}`;
  const cluster = {
    describe: 'fake',
    defaultNamespace: 'default',
    canI: (c: AccessCheck) => {
      asked.push(key(c));
      return Promise.resolve(allowed.includes(key(c)));
    },
  } as unknown as Cluster;
  return { cluster, asked };
}

const binding = (namespace: string): PlannedWrite => ({
  action: 'create',
  object: {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'b', namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [],
  },
});

describe('the permission pre-flight', () => {
  const writes = ['a', 'b', 'c'].map(binding);

  it('asks once for all namespaces when that is allowed', async () => {
    const { cluster, asked } = fakeCluster(['create rolebindings * *']);
    expect((await findMissingPermissions(cluster, writes)).lines).toStrictEqual([]);
    expect(asked).toStrictEqual(['create rolebindings * *']);
  });

  it('asks each namespace when all namespaces are not allowed, and names the ones denied', async () => {
    const { cluster, asked } = fakeCluster(['create rolebindings a *']);
    const missing = await findMissingPermissions(cluster, writes);
    expect(missing.lines).toStrictEqual([
      'create rolebindings.rbac.authorization.k8s.io in 2 namespaces (b, c)',
    ]);
    expect(asked.sort()).toStrictEqual([
      'create rolebindings * *',
      'create rolebindings a *',
      'create rolebindings b *',
      'create rolebindings c *',
    ]);
  });

  it('asks a namespace alone without the all-namespaces question', async () => {
    const { cluster, asked } = fakeCluster([]);
    const missing = await findMissingPermissions(cluster, [binding('a')]);
    expect(missing.lines).toStrictEqual(['create rolebindings.rbac.authorization.k8s.io in namespace a']);
    expect(asked).toStrictEqual(['create rolebindings a *']);
  });

  const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

  it('asks a patch of several Namespaces once without a name, then name by name', async () => {
    const any = fakeCluster(['patch namespaces * *']);
    expect(await findMissingPatches(any.cluster, [ns('x'), ns('y')])).toStrictEqual([]);
    expect(any.asked).toStrictEqual(['patch namespaces * *']);
    const some = fakeCluster(['patch namespaces * x']);
    expect(await findMissingPatches(some.cluster, [ns('x'), ns('y')])).toStrictEqual(['patch namespaces/y']);
    expect(some.asked.sort()).toStrictEqual([
      'patch namespaces * *',
      'patch namespaces * x',
      'patch namespaces * y',
    ]);
  });
});
