// What the adapter makes of a write's answer, now that creates and replaces go through the transport and their
// answers are not parsed: a 2xx answer must still be a JSON object (a proxy's login page answering 200 is no write),
// and an error answer is the ApiError (code, Status message, Retry-After) that the rest of the plugin reads. A
// recording server answers as the test sets; the requests it saw are checked as the API server would see them.
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../support/connect.js';
import { Kinds } from '../../src/port/cluster.js';
import { ApiError } from '../../src/port/translate-error.js';
import { startRecorder, type Answer, type Recorder } from '../support/net-servers.js';
import { freshDir, writeConfig } from './connection-harness.js';

const ROLE = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'crossplane:x', resourceVersion: '7' },
  rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
};
const BINDING = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'RoleBinding',
  metadata: { name: 'b', namespace: 'team-a' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
  subjects: [],
};

let recorder: Recorder | undefined;

afterEach(async () => {
  await recorder?.close();
  recorder = undefined;
});

async function clusterAnswering(answer: Answer) {
  recorder = await startRecorder({ answer: () => answer });
  const kubeconfig = writeConfig(freshDir(), { server: `${recorder.url}/prefix` }, {});
  return connect({ kubeconfig }, {});
}

const json = { 'content-type': 'application/json' };

describe('creates and replaces through the transport', () => {
  it('a 201 JSON object is a create; POST to the collection below the server path, the object as JSON', async () => {
    const cluster = await clusterAnswering({ status: 201, headers: json, body: JSON.stringify(ROLE) });
    await expect(cluster.create(Kinds.clusterRole, ROLE)).resolves.toBeUndefined();
    await expect(cluster.create(Kinds.roleBinding, BINDING, { dryRun: true })).resolves.toBeUndefined();
    cluster.close?.();
    expect(recorder?.requests.map((r) => [r.method, r.url, r.headers['content-type']?.[0]])).toStrictEqual([
      ['POST', '/prefix/apis/rbac.authorization.k8s.io/v1/clusterroles', 'application/json'],
      [
        'POST',
        '/prefix/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings?dryRun=All',
        'application/json',
      ],
    ]);
  });

  it('a replace is a PUT to the object', async () => {
    const cluster = await clusterAnswering({ status: 200, headers: json, body: JSON.stringify(ROLE) });
    await expect(cluster.replace(Kinds.clusterRole, ROLE)).resolves.toBeUndefined();
    cluster.close?.();
    expect(recorder?.requests.map((r) => [r.method, r.url])).toStrictEqual([
      ['PUT', '/prefix/apis/rbac.authorization.k8s.io/v1/clusterroles/crossplane%3Ax'],
    ]);
  });

  it('a 200 that is not a JSON object (a proxy login page) is an error, not a write', async () => {
    const cluster = await clusterAnswering({
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: '<html>Sign in</html>',
    });
    await expect(cluster.create(Kinds.clusterRole, ROLE)).rejects.toThrow(
      'the API server answered POST /prefix/apis/rbac.authorization.k8s.io/v1/clusterroles with text/html, not a JSON object',
    );
    cluster.close?.();
  });

  it.each([
    {
      name: 'a Status body',
      answer: {
        status: 409,
        headers: json,
        body: JSON.stringify({
          kind: 'Status',
          reason: 'AlreadyExists',
          message: 'clusterroles "x" already exists',
        }),
      },
      code: 409,
      message: 'clusterroles "x" already exists',
      reason: 'AlreadyExists',
    },
    {
      name: 'a text body (its text is the message)',
      answer: { status: 422, headers: { 'content-type': 'text/plain' }, body: 'no such thing' },
      code: 422,
      message: 'no such thing',
      reason: undefined,
    },
  ])('an error answer with $name is an ApiError with its code and message', async (t) => {
    const cluster = await clusterAnswering(t.answer);
    const err: unknown = await cluster.create(Kinds.clusterRole, ROLE).catch((e: unknown) => e);
    cluster.close?.();
    expect(err).toBeInstanceOf(ApiError);
    const api = err as ApiError;
    expect(api.code).toBe(t.code);
    expect(api.status?.message).toBe(t.message);
    expect(api.status?.reason).toBe(t.reason);
  });
});
