/**
 * The rule for -f (docs/commands/who-can.md, explain-subject.md, lookup.md, audit.md say it in the same words): the
 * files stand for what the cluster stores, so who-can, explain --subject and lookup answer from the rules each
 * ClusterRole holds, as the API server's RBAC authorizer does (plugin/pkg/auth/authorizer/rbac/rbac.go reads a role's
 * own rules), and --converged from what the aggregation controller would store; audit alone converges by default.
 * One file: an aggregated ClusterRole that stores less than its source gives. The oracle is the test API server
 * seeded with the same objects (its authorizer and aggregation controller share no code with the plugin), asked by
 * SubjectAccessReview while its controller is held back (the stored view) and once it has caught up (converged).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { subjectAccessReview } from '../support/access-review.js';
import { runPlugin, startSeeded } from './harness.js';

const RBAC = 'rbac.authorization.k8s.io';
const LABEL = 'xrbac.example.io/aggregate-to-lagging';
const AGGREGATED = 'xrbac-lagging';
const SOURCE = 'xrbac-lagging-source';
const USER = 'lagging-user';
const ROOT = 'root-user';

const binding = (name: string, user: string): object => ({
  apiVersion: `${RBAC}/v1`,
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name },
  subjects: [{ apiGroup: RBAC, kind: 'User', name: user }],
});

const OBJECTS: readonly object[] = [
  // Stored before SOURCE was labelled: get on ConfigMaps only.
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name: AGGREGATED },
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [LABEL]: 'true' } }] },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
  },
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name: SOURCE, labels: { [LABEL]: 'true' } },
    rules: [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
      { apiGroups: [''], resources: ['users'], verbs: ['impersonate'] },
    ],
  },
  binding(AGGREGATED, USER),
  // Someone worth impersonating, for audit.
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name: 'xrbac-all' },
    rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
  },
  binding('xrbac-all', ROOT),
];

let server: TestApiServer;
let dir: string;
let file: string;
/** The server's answer to "may USER impersonate users?" with its aggregation controller held back, then caught up. */
const serverSays = { stored: true, converged: false };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xrbac-file-view-'));
  file = join(dir, 'lagging.yaml');
  writeFileSync(file, OBJECTS.map((o) => stringify(o)).join('---\n'));
  ({ server } = await startSeeded([]));
  const ask = (): Promise<boolean> =>
    subjectAccessReview(
      server.url,
      { user: USER, groups: ['system:authenticated'] },
      { verb: 'impersonate', apiGroup: '', resource: 'users' },
    );
  server.setAggregation(false);
  server.seed(OBJECTS);
  serverSays.stored = await ask();
  server.setAggregation(true);
  serverSays.converged = await ask();
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('the oracle: the server denies the request while its controller lags, allows it once caught up', () => {
  expect(serverSays).toEqual({ stored: false, converged: true });
});

describe('-f: the files stand for the stored objects; --converged for what the controller would store', () => {
  it('who-can', async () => {
    const subjects = async (extra: readonly string[]): Promise<boolean> => {
      const r = await runPlugin(['who-can', 'impersonate', 'users', '-f', file, '-o', 'json', ...extra]);
      expect(r.code, r.stderr).toBe(0);
      const { subjects: s } = JSON.parse(r.stdout) as { subjects: { name: string }[] };
      return s.some((x) => x.name === USER);
    };
    expect(await subjects([])).toBe(serverSays.stored);
    expect(await subjects(['--converged'])).toBe(serverSays.converged);
  });

  it('explain --subject (exit 0 allowed, 1 denied, as kubectl auth can-i)', async () => {
    const allowed = async (extra: readonly string[]): Promise<boolean> => {
      const args = ['explain', '--subject', `User:${USER}`, '--for', 'users', '--verb', 'impersonate'];
      const r = await runPlugin([...args, '-f', file, ...extra]);
      expect([0, 1], r.stderr).toContain(r.code);
      return r.code === 0;
    };
    expect(await allowed([])).toBe(serverSays.stored);
    expect(await allowed(['--converged'])).toBe(serverSays.converged);
  });

  it('lookup counts the rules stored, or with --converged those the controller would store', async () => {
    const count = async (extra: readonly string[]): Promise<number> => {
      const r = await runPlugin(['lookup', USER, '-f', file, '-o', 'json', ...extra]);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as { subjects: { name: string; grants: { ruleCount: number }[] }[] };
      return out.subjects.find((s) => s.name === USER)?.grants[0]?.ruleCount ?? -1;
    };
    expect(await count([])).toBe(1);
    expect(await count(['--converged'])).toBe(2);
  });

  it('audit converges by default: the impersonation the controller will allow is a finding', async () => {
    const first = async (extra: readonly string[]): Promise<string[]> => {
      const r = await runPlugin(['audit', '--subject', `User:${USER}`, '-o', 'json', ...extra]);
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout) as { findings: { steps: { mechanism: string }[] }[] };
      return report.findings.map((f) => f.steps[0]?.mechanism ?? '');
    };
    expect(await first(['-f', file])).toEqual(['impersonate']);
    expect(await first(['-f', file, '--converged'])).toEqual(['impersonate']);
  });
});
