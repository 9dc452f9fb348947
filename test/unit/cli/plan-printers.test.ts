/**
 * The writing commands' plan through the printer registry, format by format: each output below was written by hand
 * in the form the plugin printed before the plan's formats moved into the registry (the saved output corpus,
 * test/fixtures/output-corpus/*sync*, *bind*, *enable-xrd*: kubectl's `-o name` TYPE.GROUP/NAME lines, `kubectl
 * apply`'s `created`/`configured` lines, a per-kind summary table, a `kind: List` of the objects to write, a unified
 * diff per object).
 */
import { describe, expect, it } from 'vitest';
import { toPrinter } from '../../../src/cli/output/registry.js';
import type { PlanView, PrintContext } from '../../../src/cli/output/printer.js';
import type { WriteOutcome } from '../../../src/app/write.js';
import type { PlanEntry } from '../../../src/plan/plan.js';
import type { ClusterRole, RoleBinding } from '../../../src/kube/types.js';

const role = (name: string, verbs: string[], server = false): ClusterRole => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name, ...(server ? { resourceVersion: '7', uid: 'u-1' } : {}) },
  rules: [{ apiGroups: [''], resources: ['secrets'], verbs }],
});

const binding: RoleBinding = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'RoleBinding',
  metadata: { name: 'old', namespace: 'team-a' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'team-a-edit' },
};

const entries: PlanEntry[] = [
  {
    action: 'create',
    key: 'ClusterRole/team-a-edit',
    kind: 'ClusterRole',
    name: 'team-a-edit',
    object: role('team-a-edit', ['get']),
  },
  {
    action: 'update',
    key: 'ClusterRole/team-a-view',
    kind: 'ClusterRole',
    name: 'team-a-view',
    object: role('team-a-view', ['get', 'list'], true),
    live: role('team-a-view', ['get'], true),
  },
  { action: 'unchanged', key: 'ClusterRoleBinding/b', kind: 'ClusterRoleBinding', name: 'b' },
  {
    action: 'delete',
    key: 'RoleBinding/team-a/old',
    kind: 'RoleBinding',
    name: 'old',
    namespace: 'team-a',
    live: binding,
  },
];

const outcome = (status: WriteOutcome['status'], extra: Partial<WriteOutcome> = {}): WriteOutcome => ({
  plan: { entries, counts: { create: 1, update: 1, delete: 1, unchanged: 1, refused: 0 } },
  shown: entries,
  leading: [],
  held: [],
  refused: [],
  hasChanges: true,
  source: 'the cluster',
  what: 'apply the Crossplane RBAC',
  fromFiles: false,
  status,
  ...extra,
});

const previewed: PlanView = {
  outcome: outcome('previewed'),
  failed: new Set(),
  dryRun: true,
  written: false,
  serverDryRun: false,
};
const applied: PlanView = {
  outcome: outcome('applied'),
  failed: new Set(['RoleBinding/team-a/old']),
  dryRun: false,
  written: true,
  serverDryRun: false,
};
const denied: PlanView = {
  ...previewed,
  outcome: outcome('denied', { missing: { lines: ['create clusterroles'], rules: [] } }),
};
const empty: PlanView = {
  ...previewed,
  outcome: {
    ...outcome('previewed'),
    shown: [],
    plan: { entries: [], counts: { create: 0, update: 0, delete: 0, unchanged: 0, refused: 0 } },
  },
};

const ctx: PrintContext = { color: false, headers: true, width: undefined, version: 'test' };

const PREVIEW_TABLE = [
  'KIND                TO CREATE  TO UPDATE  UNCHANGED  TO DELETE  REFUSED  FAILED',
  'ClusterRole         1          1          0          0          0        0',
  'ClusterRoleBinding  0          0          1          0          0        0',
  'RoleBinding         0          0          0          1          0        0',
  '',
].join('\n');

const APPLIED_TABLE = [
  'clusterrole.rbac.authorization.k8s.io/team-a-edit created',
  'clusterrole.rbac.authorization.k8s.io/team-a-view configured',
  'KIND                CREATED  UPDATED  UNCHANGED  DELETED  REFUSED  FAILED',
  'ClusterRole         1        1        0          0        0        0',
  'ClusterRoleBinding  0        0        1          0        0        0',
  'RoleBinding         0        0        0          0        0        1',
  '',
].join('\n');

const NO_HEADERS = [
  'ClusterRole         1  1  0  0  0  0',
  'ClusterRoleBinding  0  0  1  0  0  0',
  'RoleBinding         0  0  0  1  0  0',
  '',
].join('\n');

const NAMES = [
  'clusterrole.rbac.authorization.k8s.io/team-a-edit',
  'clusterrole.rbac.authorization.k8s.io/team-a-view',
  'rolebinding.rbac.authorization.k8s.io/old',
  '',
].join('\n');

const YAML = `apiVersion: v1
kind: List
metadata: {}
items:
- apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata:
    name: team-a-edit
  rules:
  - apiGroups:
    - ''
    resources:
    - secrets
    verbs:
    - get
- apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata:
    name: team-a-view
  rules:
  - apiGroups:
    - ''
    resources:
    - secrets
    verbs:
    - get
    - list
`;

const JSON_LIST = `{
  "apiVersion": "v1",
  "kind": "List",
  "metadata": {},
  "items": [
    {
      "apiVersion": "rbac.authorization.k8s.io/v1",
      "kind": "ClusterRole",
      "metadata": {
        "name": "team-a-edit"
      },
      "rules": [
        {
          "apiGroups": [
            ""
          ],
          "resources": [
            "secrets"
          ],
          "verbs": [
            "get"
          ]
        }
      ]
    },
    {
      "apiVersion": "rbac.authorization.k8s.io/v1",
      "kind": "ClusterRole",
      "metadata": {
        "name": "team-a-view"
      },
      "rules": [
        {
          "apiGroups": [
            ""
          ],
          "resources": [
            "secrets"
          ],
          "verbs": [
            "get",
            "list"
          ]
        }
      ]
    }
  ]
}
`;

/** The create's diff: nothing live, the object as it is written. */
const createDiff = (
  where: string,
): string => `--- live/${where}clusterrole.rbac.authorization.k8s.io/team-a-edit
+++ desired/${where}clusterrole.rbac.authorization.k8s.io/team-a-edit
@@ -0,0 +1,11 @@
+apiVersion: rbac.authorization.k8s.io/v1
+kind: ClusterRole
+metadata:
+  name: team-a-edit
+rules:
+- apiGroups:
+  - ''
+  resources:
+  - secrets
+  verbs:
+  - get
`;

/** The update's hunk: three lines of context before the verb added. */
const UPDATE_DIFF_HUNK = `@@ -9,3 +9,4 @@
   - secrets
   verbs:
   - get
+  - list
`;

async function print(
  view: PlanView,
  format: 'table' | 'yaml' | 'json' | 'name' | 'diff',
  c = ctx,
): Promise<string> {
  const printer = await toPrinter('plan', format);
  const printed = printer(view, c);
  expect(printed.notes).toEqual([]);
  return [...printed.out].join('');
}

describe('the plan printers (result kind plan x -o format)', () => {
  it.each([
    ['table', previewed, ctx, PREVIEW_TABLE],
    ['table', applied, ctx, APPLIED_TABLE],
    ['table', previewed, { ...ctx, headers: false }, NO_HEADERS],
    ['table', empty, ctx, 'nothing to do: no objects in scope\n'],
    ['table', denied, ctx, ''],
    ['name', previewed, ctx, NAMES],
    ['name', empty, ctx, ''],
    ['name', denied, ctx, ''],
    ['yaml', previewed, ctx, YAML],
    ['yaml', applied, ctx, YAML],
    ['json', previewed, ctx, JSON_LIST],
    ['diff', denied, ctx, ''],
  ] as const)('-o %s of a plan: %#', async (format, view, c, want) => {
    expect(await print(view, format, c)).toBe(want);
  });

  it('-o diff: one unified diff per object written, live against desired; across contexts, the context in each header', async () => {
    const alone = await print(previewed, 'diff');
    expect(alone.startsWith(createDiff(''))).toBe(true);
    expect(alone).toContain(
      '--- live/clusterrole.rbac.authorization.k8s.io/team-a-view\n+++ desired/clusterrole.rbac.authorization.k8s.io/team-a-view\n',
    );
    expect(alone).toContain(UPDATE_DIFF_HUNK);
    expect(alone).toContain(
      '--- live/rolebinding.rbac.authorization.k8s.io/team-a/old\n+++ desired/rolebinding.rbac.authorization.k8s.io/team-a/old\n',
    );
    const inProd = await print(previewed, 'diff', { ...ctx, context: 'prod' });
    expect(inProd.startsWith(createDiff('prod/'))).toBe(true);
    // The same diff, its headers naming the context: nothing else changes.
    expect(inProd.replace(/^(---|\+\+\+) (live|desired)\/prod\//gm, '$1 $2/')).toBe(alone);
    // A context's name is escaped where a person reads it.
    expect(await print(previewed, 'diff', { ...ctx, context: 'a\u001b[2Jb' })).toContain(
      '--- live/a\\x1b[2Jb/',
    );
  });

  it('keeps the table as rows (with the objects written before it) and the objects as data, for runs across contexts', async () => {
    const table = (await toPrinter('plan', 'table'))(applied, ctx);
    expect(table.table?.head[0]).toBe('KIND');
    expect(table.table?.rows).toEqual([
      ['ClusterRole', '1', '1', '0', '0', '0', '0'],
      ['ClusterRoleBinding', '0', '0', '1', '0', '0', '0'],
      ['RoleBinding', '0', '0', '0', '0', '0', '1'],
    ]);
    expect(table.table?.lead).toEqual([
      'clusterrole.rbac.authorization.k8s.io/team-a-edit created',
      'clusterrole.rbac.authorization.k8s.io/team-a-view configured',
    ]);
    expect((await toPrinter('plan', 'table'))(empty, ctx).table).toBeUndefined();
    const json = (await toPrinter('plan', 'json'))(previewed, ctx);
    expect(json.data).toEqual(JSON.parse(JSON_LIST));
  });

  it('-o yaml|json streams the List object by object: one piece per object', async () => {
    const pieces = [...(await toPrinter('plan', 'yaml'))(previewed, ctx).out];
    expect(pieces).toHaveLength(3);
    expect(pieces.join('')).toBe(YAML);
  });

  it('a denied plan prints, as yaml or json, the ClusterRole that would grant what is missing', async () => {
    const rules = [
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['create'] },
    ];
    const view: PlanView = { ...denied, outcome: outcome('denied', { missing: { lines: ['x'], rules } }) };
    const role = JSON.parse(await print(view, 'json')) as { kind: string; rules: unknown };
    expect(role.kind).toBe('ClusterRole');
    expect(role.rules).toEqual(rules);
  });
});
