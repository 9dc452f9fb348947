/**
 * explain --subject and lookup answer as the API server's RBAC authorizer does: from the rules each bound ClusterRole stores
 * (plugin/pkg/auth/authorizer/rbac/rbac.go reads a ClusterRole's rules, never the roles aggregated into it), reading
 * the bindings and then only the ClusterRoles they bind. --converged reads every ClusterRole and answers with the
 * rules the aggregation controller converges to, marking those it has not stored yet (lookup: counting them, with the
 * roles an aggregated role draws from). The oracle is the test API
 * server's own SubjectAccessReview (its authorizer shares no code with the plugin), asked while its aggregation
 * controller is held back and once it has caught up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { subjectAccessReview } from '../support/access-review.js';
import { runPlugin, startSeeded } from './harness.js';

const RBAC = 'rbac.authorization.k8s.io';
const LABEL = 'xrbac.example.io/aggregate-to-lagging';
const AGGREGATED = 'xrbac-lagging';
const SOURCE = 'xrbac-lagging-secrets';
const USER = 'lagging-user';
/** ClusterRoles nobody binds: the default never reads them, --converged does. */
const UNBOUND = 20;

function objects(): object[] {
  const role = (name: string, extra: object): object => ({
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name },
    ...extra,
  });
  return [
    // What the controller stored before SOURCE was labelled: get on ConfigMaps only.
    role(AGGREGATED, {
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [LABEL]: 'true' } }] },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
    }),
    {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: SOURCE, labels: { [LABEL]: 'true' } },
      rules: [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['delete'] },
      ],
    },
    {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: AGGREGATED },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: AGGREGATED },
      subjects: [{ apiGroup: RBAC, kind: 'User', name: USER }],
    },
    ...Array.from({ length: UNBOUND }, (_, i) =>
      role(`xrbac-unbound-${String(i)}`, {
        rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      }),
    ),
  ];
}

interface Explained {
  readonly bindings: { role: { name: string; aggregated: boolean; drift: boolean }; rules: unknown[] }[];
  readonly access: {
    readonly allowed: boolean;
    readonly grants: { role: { name: string }; chain: string[]; stored: boolean }[];
    readonly whyNot: { reason: string }[];
  } | null;
}

let server: TestApiServer;
let kubeconfig: string;

beforeAll(async () => {
  ({ server, kubeconfig } = await startSeeded([]));
  // The controller has not caught up: the aggregated role stores less than its source gives.
  server.setAggregation(false);
  server.seed(objects());
});
afterAll(async () => {
  await server.stop();
});

async function explain(extra: readonly string[]): Promise<{ json: Explained; code: number; text: string }> {
  const args = ['explain', '--subject', `User:${USER}`, ...extra, '--kubeconfig', kubeconfig];
  const j = await runPlugin([...args, '-o', 'json']);
  const t = await runPlugin([...args, '-o', 'wide']);
  expect(j.stderr, extra.join(' ')).toBe('');
  expect(t.code, extra.join(' ')).toBe(j.code);
  return { json: JSON.parse(j.stdout) as Explained, code: j.code, text: t.stdout };
}

const DELETE_SECRETS = ['--for', 'secrets', '--verb', 'delete', '-n', 'default'];

function serverAllows(): Promise<boolean> {
  return subjectAccessReview(
    server.url,
    { user: USER, groups: ['system:authenticated'] },
    { verb: 'delete', apiGroup: '', resource: 'secrets', namespace: 'default' },
  );
}

describe('explain --subject answers from the rules the server stores; --converged from the controller', () => {
  it('by default reads the bound ClusterRoles only, one GET each; --converged lists them all', async () => {
    server.counters.reset();
    const { json } = await explain([]);
    // Each run reads twice (-o json, -o wide): the bound role, and the bootstrap policy's bound ones, once each run.
    expect(server.counters.get('list', 'clusterroles')).toBe(0);
    const bound = new Set(
      server.list('clusterrolebindings').map((b) => (b as { roleRef: { name: string } }).roleRef.name),
    );
    expect(server.counters.get('get', 'clusterroles')).toBe(2 * bound.size);
    // The aggregated role is said to aggregate (its stored aggregationRule) without its sources being read.
    expect(json.bindings.map((b) => b.role).find((r) => r.name === AGGREGATED)).toMatchObject({
      aggregated: true,
      drift: false,
    });
    server.counters.reset();
    await explain(['--converged']);
    expect(server.counters.get('list', 'clusterroles')).toBe(2);
    expect(server.counters.get('get', 'clusterroles')).toBe(0);
  });

  it('a request only rules not stored yet allow: denied as the server denies it (exit 1); --converged allows it, marked', async () => {
    expect(await serverAllows()).toBe(false);
    const stored = await explain(DELETE_SECRETS);
    expect(stored.code).toBe(1);
    expect(stored.json.access).toMatchObject({ allowed: false, grants: [] });
    expect(stored.json.access?.whyNot.map((w) => w.reason)).toEqual(['not-converged']);
    expect(stored.text).toMatch(/^delete secrets in namespace default: denied$/m);
    expect(stored.text).toMatch(
      /why: rules the aggregation controller has not stored yet would grant it \(in xrbac-lagging\)/,
    );

    const converged = await explain([...DELETE_SECRETS, '--converged']);
    expect(converged.code).toBe(0);
    expect(converged.json.access?.allowed).toBe(true);
    expect(converged.json.access?.grants).toMatchObject([
      { role: { name: AGGREGATED }, chain: [AGGREGATED, SOURCE], stored: false },
    ]);
    expect(converged.text).toMatch(/delete core\/secrets {2}← xrbac-lagging-secrets {2}\(not stored yet\)/);
  });

  it('once the controller has caught up, the default allows it as the server does', async () => {
    server.setAggregation(true);
    try {
      expect(await serverAllows()).toBe(true);
      const after = await explain(DELETE_SECRETS);
      expect(after.code).toBe(0);
      expect(after.json.access?.allowed).toBe(true);
      // The stored rule, named by the role that stores it (its sources are not read).
      expect(after.json.access?.grants).toMatchObject([
        { role: { name: AGGREGATED }, chain: [AGGREGATED], stored: true },
      ]);
    } finally {
      // Held back again, with the aggregated role lagging again, for the tests that follow.
      server.setAggregation(false);
      server.seed(objects().slice(0, 1));
    }
  });
});

describe('lookup counts the rules the server stores; --converged those the controller converges to', () => {
  interface Looked {
    subjects: {
      name: string;
      grants: {
        role: { name: string };
        aggregated: boolean;
        ruleCount: number;
        aggregatedFrom: string[];
        sourcesRead?: boolean;
      }[];
    }[];
  }
  async function lookup(extra: readonly string[]): Promise<Looked['subjects'][number]['grants'][number]> {
    const r = await runPlugin(['lookup', USER, ...extra, '--kubeconfig', kubeconfig, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const grant = (JSON.parse(r.stdout) as Looked).subjects.find((s) => s.name === USER)?.grants[0];
    expect(grant).toBeDefined();
    return grant as NonNullable<typeof grant>;
  }
  /** The rules the server stores in ROLE: what its authorizer grants. */
  function storedRules(role: string): number {
    const stored = server
      .list('clusterroles')
      .find((r) => (r as { metadata: { name: string } }).metadata.name === role);
    return ((stored as { rules?: unknown[] } | undefined)?.rules ?? []).length;
  }

  it('by default one GET per bound ClusterRole, the stored rules counted, the sources said unread', async () => {
    server.counters.reset();
    const grant = await lookup([]);
    expect(server.counters.get('list', 'clusterroles')).toBe(0);
    expect(grant).toMatchObject({
      role: { name: AGGREGATED },
      aggregated: true,
      ruleCount: storedRules(AGGREGATED),
      aggregatedFrom: [],
      sourcesRead: false,
    });
    expect(grant.ruleCount).toBe(1);
    const table = await runPlugin(['lookup', USER, '--kubeconfig', kubeconfig]);
    expect(table.stdout).toMatch(
      /ClusterRole\/xrbac-lagging\s+ClusterRoleBinding\/xrbac-lagging\s+\(not read: --converged reads them\)$/m,
    );
  });

  it('--converged: every ClusterRole listed, the converged rules counted, the sources named', async () => {
    server.counters.reset();
    const grant = await lookup(['--converged']);
    expect(server.counters.get('list', 'clusterroles')).toBe(1);
    expect(server.counters.get('get', 'clusterroles')).toBe(0);
    // The source's two rules: what the controller will store.
    expect(grant).toMatchObject({ ruleCount: storedRules(SOURCE), aggregatedFrom: [SOURCE] });
    expect(grant.sourcesRead).toBeUndefined();
  });
});
