// explain --subject --matrix through the in-process CLI on a small cluster given with -f: the whole table as a person
// reads it (every cell written out by hand), the JSON shape scripts read, and the terminal rendering.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatMatrix } from '../../../src/cli/output/format-matrix.js';
import type { AccessMatrix } from '../../../src/explain/matrix.js';
import { runCaptured } from '../../support/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'xrbac-matrix-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const CLUSTER = join(dir, 'cluster.yaml');
writeFileSync(
  CLUSTER,
  `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: team-reader}
rules:
  - apiGroups: [""]
    resources: [configmaps]
    verbs: [get, list, watch]
  - apiGroups: [apps]
    resources: [deployments/scale]
    verbs: [update]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: team-reader}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: team-reader}
subjects:
  - {apiGroup: rbac.authorization.k8s.io, kind: Group, name: team-a-devs}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: widget-editor}
rules:
  - apiGroups: [example.com]
    resources: [widgets]
    verbs: ["*"]
  - apiGroups: [""]
    resources: [secrets]
    resourceNames: [team-a-token]
    verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: widget-editor, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: widget-editor}
subjects:
  - {apiGroup: rbac.authorization.k8s.io, kind: Group, name: team-a-devs}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions: [{name: v1, served: true, storage: true}]
`,
);

const run = (...args: string[]) =>
  runCaptured(['explain', '--subject', 'Group:team-a-devs', '--matrix', '-f', CLUSTER, ...args]);

describe('explain --subject --matrix', () => {
  it('cluster-wide: only the ClusterRoleBinding counts, denied rows are counted, not shown', async () => {
    const r = await run();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'Group team-a-devs (groups: team-a-devs, system:authenticated)',
        "cluster-wide: ClusterRoleBindings only, namespaced resources in every namespace at once (give -n NS for a namespace's RoleBindings)",
        '',
        'RESOURCE      GET  LIST  WATCH  CREATE  UPDATE  PATCH  DELETE  DELETECOLLECTION',
        'Kubernetes core',
        '  configmaps  yes  yes   yes    no      no      no     no      no',
        '',
        // 40 built-in resources and the CRD's widgets, less configmaps; deployments/scale grants nothing on deployments.
        '40 resources hidden: everything denied (--all shows them)',
        '',
      ].join('\n'),
    );
  });

  it('-n: the RoleBinding there adds widgets; a resourceNames rule never allows the whole resource', async () => {
    const r = await run('-n', 'team-a');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(1)).toStrictEqual([
      'namespaced resources in namespace team-a (ClusterRoleBindings and its RoleBindings); cluster-scoped ones cluster-wide',
      '',
      'RESOURCE               GET  LIST  WATCH  CREATE  UPDATE  PATCH  DELETE  DELETECOLLECTION',
      'Kubernetes core',
      '  configmaps           yes  yes   yes    no      no      no     no      no',
      'API group example.com',
      '  widgets.example.com  yes  yes   yes    yes     yes     yes    yes     yes',
      '',
      '39 resources hidden: everything denied (--all shows them)',
      '',
    ]);
  });

  it('--diff-with: both subjects per cell; rows where they are alike hidden', async () => {
    const r = await run('-n', 'team-a', '--diff-with', 'User:jane');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(0, 2)).toStrictEqual([
      'Group team-a-devs (groups: team-a-devs, system:authenticated)',
      'compared with User jane (groups: system:authenticated): each cell is SUBJECT/OTHER',
    ]);
    expect(r.stdout).toContain(
      '\n  configmaps           yes/no  yes/no  yes/no  no/no   no/no   no/no   no/no   no/no\n',
    );
    expect(r.stdout).toContain('\n39 resources hidden: both subjects alike (--all shows them)\n');
  });

  it('-o json: subject, namespace, verbs, groups of resources with a boolean per verb', async () => {
    const r = await run('-n', 'team-a', '-o', 'json');
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(m).toStrictEqual({
      subject: { kind: 'Group', name: 'team-a-devs' },
      user: { name: '', groups: ['team-a-devs', 'system:authenticated'] },
      namespace: 'team-a',
      verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'],
      groups: [
        {
          kind: 'kubernetes',
          name: 'core',
          resources: [
            {
              resource: 'configmaps',
              group: '',
              namespaced: true,
              allowed: {
                get: true,
                list: true,
                watch: true,
                create: false,
                update: false,
                patch: false,
                delete: false,
                deletecollection: false,
              },
            },
          ],
        },
        {
          kind: 'other',
          name: 'example.com',
          resources: [
            {
              resource: 'widgets',
              group: 'example.com',
              namespaced: true,
              allowed: {
                get: true,
                list: true,
                watch: true,
                create: true,
                update: true,
                patch: true,
                delete: true,
                deletecollection: true,
              },
            },
          ],
        },
      ],
      hidden: 39,
    });
  });

  it('--all shows the denied rows too', async () => {
    const r = await run('--all', '-o', 'yaml');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^hidden: 0$/m);
    expect(r.stdout).toContain(
      [
        '  - resource: secrets',
        "    group: ''",
        '    namespaced: true',
        '    allowed:',
        '      get: false',
        '      list: false',
      ].join('\n'),
    );
  });
});

describe('formatMatrix on a terminal', () => {
  const matrix: AccessMatrix = {
    subject: { kind: 'User', name: 'jane' },
    user: { name: 'jane', groups: ['system:authenticated'] },
    diffWith: {
      subject: { kind: 'User', name: 'bob' },
      user: { name: 'bob', groups: ['system:authenticated'] },
    },
    verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'],
    groups: [
      {
        kind: 'xrd',
        name: 'xbuckets.example.org\u001b]0;owned\u0007',
        resources: [
          {
            resource: 'xbuckets',
            group: 'example.org',
            namespaced: false,
            allowed: {
              get: true,
              list: true,
              watch: false,
              create: false,
              update: false,
              patch: false,
              delete: false,
              deletecollection: false,
            },
            otherAllowed: {
              get: false,
              list: true,
              watch: false,
              create: false,
              update: false,
              patch: false,
              delete: false,
              deletecollection: false,
            },
            notStoredYet: ['get'],
          },
        ],
      },
    ],
    hidden: 1,
  };

  it('prints ✓ in green and ✗ in red, marks unstored rules, and escapes names', () => {
    const green = (s: string): string => `\u001b[32m${s}\u001b[39m`;
    const red = (s: string): string => `\u001b[31m${s}\u001b[39m`;
    const lines = formatMatrix(matrix, true).split('\n');
    expect(lines[5]).toBe('\u001b[1mXRD xbuckets.example.org\\x1b]0;owned\\a\u001b[22m');
    const c = (cell: string): string => cell.replaceAll('✓', green('✓')).replaceAll('✗', red('✗'));
    // Cells are padded to their column's width before they are coloured.
    expect(lines[6]).toBe(
      `  xbuckets.example.org  ${c('✓~/✗')}  ${c('✓/✓ ')}  ${c('✗/✗  ')}  ${c('✗/✗   ')}  ${c('✗/✗   ')}  ${c('✗/✗  ')}  ${c('✗/✗   ')}  ${c('✗/✗')}`,
    );
    expect(lines.slice(-2)).toStrictEqual([
      '1 resource hidden: both subjects alike (--all shows them)',
      '~: allowed only by rules the aggregation controller has not stored yet (1 cell): the API server denies them until it catches up',
    ]);
  });

  it('prints yes and no without colour', () => {
    const lines = formatMatrix(matrix, false).split('\n');
    expect(lines[4]).toBe(
      'RESOURCE                GET      LIST     WATCH  CREATE  UPDATE  PATCH  DELETE  DELETECOLLECTION',
    );
    expect(lines[6]).toBe(
      '  xbuckets.example.org  yes~/no  yes/yes  no/no  no/no   no/no   no/no  no/no   no/no',
    );
  });
});
