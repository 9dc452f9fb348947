// `lookup` through the in-process CLI with -f: the table's columns as rbac-lookup prints them (SUBJECT, SCOPE, ROLE,
// and BINDING for its wide SOURCE) plus the roles an aggregated ClusterRole draws from, written out by hand; its
// flags' bad input (one `error:` line, exit 2, nothing read); names escaped for the terminal.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../../support/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'xrbac-lookup-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const RBAC = 'rbac.authorization.k8s.io';
const file = join(dir, 'rbac.yaml');
writeFileSync(
  file,
  `apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata:
  name: admin
aggregationRule:
  clusterRoleSelectors:
    - matchLabels:
        agg/admin: "true"
---
apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata:
  name: edit
  labels:
    agg/admin: "true"
aggregationRule:
  clusterRoleSelectors:
    - matchLabels:
        agg/edit: "true"
---
apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata:
  name: to-admin
  labels:
    agg/admin: "true"
rules:
  - apiGroups: [""]
    resources: ["secrets"]
    verbs: ["delete"]
---
apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata:
  name: to-edit
  labels:
    agg/edit: "true"
rules:
  - apiGroups: [""]
    resources: ["pods"]
    verbs: ["get", "delete"]
  - apiGroups: [""]
    resources: ["configmaps"]
    verbs: ["get"]
---
apiVersion: ${RBAC}/v1
kind: ClusterRoleBinding
metadata:
  name: ops-admin
roleRef: { apiGroup: ${RBAC}, kind: ClusterRole, name: admin }
subjects:
  - { apiGroup: ${RBAC}, kind: Group, name: ops }
  - { kind: ServiceAccount, name: robot, namespace: infra }
---
apiVersion: ${RBAC}/v1
kind: RoleBinding
metadata:
  name: dev-edit
  namespace: web
roleRef: { apiGroup: ${RBAC}, kind: ClusterRole, name: edit }
subjects:
  - { apiGroup: ${RBAC}, kind: User, name: "dev\\u001b[2J" }
  - { kind: ServiceAccount, name: robot, namespace: infra }
`,
);

const lookup = (...args: string[]) => runCaptured(['lookup', ...args, '-f', file]);

describe('lookup -f', () => {
  it('prints rbac-lookup columns, the binding, and what an aggregated role draws from', async () => {
    const r = await lookup();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toStrictEqual([
      'SUBJECT                     SCOPE         ROLE               BINDING                       AGGREGATES',
      'Group/ops                   cluster-wide  ClusterRole/admin  ClusterRoleBinding/ops-admin  edit (+2 more)',
      'ServiceAccount/infra/robot  cluster-wide  ClusterRole/admin  ClusterRoleBinding/ops-admin  edit (+2 more)',
      'ServiceAccount/infra/robot  web           ClusterRole/edit   RoleBinding/dev-edit          to-edit',
      'User/dev\\x1b[2J             web           ClusterRole/edit   RoleBinding/dev-edit          to-edit',
      '',
    ]);
  });

  it('-o wide --converged: one line per aggregation chain, with the rules the aggregation controller converges to', async () => {
    const r = await lookup('robot', '-o', 'wide', '--converged');
    expect(r.stdout.split('\n')).toStrictEqual([
      'SUBJECT                     SCOPE         ROLE               BINDING                       RULES  AGGREGATION CHAIN',
      'ServiceAccount/infra/robot  cluster-wide  ClusterRole/admin  ClusterRoleBinding/ops-admin  3      admin → edit → to-edit',
      'ServiceAccount/infra/robot  cluster-wide  ClusterRole/admin  ClusterRoleBinding/ops-admin  3      admin → to-admin',
      'ServiceAccount/infra/robot  web           ClusterRole/edit   RoleBinding/dev-edit          2      edit → to-edit',
      '',
    ]);
  });

  it('-o json --converged: names exactly as given, the sources and chains in full', async () => {
    const r = await lookup('^dev', '-o', 'json', '--converged');
    expect(JSON.parse(r.stdout)).toStrictEqual({
      pattern: '^dev',
      subjects: [
        {
          kind: 'User',
          name: 'dev\u001b[2J',
          grants: [
            {
              binding: { kind: 'RoleBinding', name: 'dev-edit', namespace: 'web' },
              scope: 'web',
              role: { kind: 'ClusterRole', name: 'edit' },
              roleFound: true,
              aggregated: true,
              ruleCount: 2,
              aggregatedFrom: ['to-edit'],
              chains: [['edit', 'to-edit']],
            },
          ],
        },
      ],
    });
  });

  it('-n NS: the RoleBindings of NS only, and the ClusterRoleBindings; --kind in any case', async () => {
    const other = await lookup('robot', '-n', 'other');
    expect(other.stdout).toMatch(/^ServiceAccount\/infra\/robot +cluster-wide +ClusterRole\/admin/m);
    expect(other.stdout).not.toContain('RoleBinding/dev-edit');
    const users = await lookup('--kind', 'user');
    expect(users.stdout.split('\n').slice(1, -1)).toHaveLength(1);
    expect(users.stdout).toContain('User/dev');
  });

  it('no subject matches: nothing on stdout, a line on stderr, exit 0 (as kubectl get)', async () => {
    const r = await lookup('nobody', '--kind', 'Group', '-n', 'web');
    expect(r).toStrictEqual({
      code: 0,
      stdout: '',
      stderr: 'no binding names a Group matching "nobody" (cluster-wide or in namespace web)\n',
    });
    const json = await lookup('nobody', '-o', 'json');
    expect(JSON.parse(json.stdout)).toStrictEqual({ pattern: 'nobody', subjects: [] });
  });
});

describe('lookup: bad flags, one error line, exit 2, nothing read', () => {
  const cases: Record<string, { reason: string; argv: string[]; error: string; hint?: string }> = {
    InvalidPattern: {
      reason: 'PATTERN is a regular expression; an unbalanced group is not one',
      argv: ['lookup', 'team-(a', '-f', '/nonexistent'],
      error: 'error: invalid PATTERN "team-(a": unterminated group (',
      hint: 'hint: PATTERN is a regular expression matched anywhere in the name: escape ( [ { * + ? with \\, or use ^name$ for an exact name',
    },
    UnknownKind: {
      reason: "--kind takes rbac-lookup's three kinds",
      argv: ['lookup', '--kind', 'robot', '-f', '/nonexistent'],
      error: 'error: invalid --kind "robot"',
      hint: 'hint: use one of: Group, ServiceAccount, User',
    },
    NamespaceAndAll: {
      reason: '-n and -A ask opposite things',
      argv: ['lookup', '-n', 'web', '-A', '-f', '/nonexistent'],
      error: 'error: -n and -A cannot be used together',
    },
    UnknownOutput: {
      reason: 'lookup prints table, wide, json or yaml',
      argv: ['lookup', '-o', 'name', '-f', '/nonexistent'],
      error: 'error: unknown output format "name" for lookup',
    },
  };
  it.each(Object.entries(cases))('%s', async (_name, tc) => {
    const r = await runCaptured(tc.argv);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    expect(lines[0], tc.reason).toBe(tc.error);
    if (tc.hint !== undefined) expect(lines[1], tc.reason).toBe(tc.hint);
    expect(lines.length).toBeLessThanOrEqual(2);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});
