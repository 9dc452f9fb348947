import { createTwoFilesPatch } from 'diff';
import type { PlanEntry } from '../../plan/plan.js';
import type { KubeObject } from '../../kube/types.js';
import { formatYaml } from './format-data.js';
import { diffView } from '../../plan/diff-view.js';
import { formatTable } from './table.js';
import { isWrite } from '../../app/write.js';
import { escapeTerminal } from '../../escape.js';

const RESOURCE: Readonly<Record<string, string>> = {
  ClusterRole: 'clusterrole.rbac.authorization.k8s.io',
  Role: 'role.rbac.authorization.k8s.io',
  ClusterRoleBinding: 'clusterrolebinding.rbac.authorization.k8s.io',
  RoleBinding: 'rolebinding.rbac.authorization.k8s.io',
  Namespace: 'namespace',
};

/** The objects the plan would write (creates and updates), without server-set fields, as a `kind: List`. */
export function objectsToWrite(entries: readonly PlanEntry<KubeObject>[]): unknown[] {
  return entries
    .flatMap((e) =>
      (e.action === 'create' || e.action === 'update') && e.object !== undefined ? [e.object] : [],
    )
    .map((obj) => {
      const { resourceVersion: _rv, uid: _uid, ...metadata } = obj.metadata;
      return { ...obj, metadata };
    });
}

/** `-o name`: one `resource/name` per object written, kubectl style, with the action. */
export function formatPlanNames(entries: readonly PlanEntry<KubeObject>[]): string {
  // Exactly kubectl's -o name: TYPE.GROUP/NAME per line, nothing else, so that it pipes into xargs.
  return entries
    .filter(isWrite)
    .map((e) => `${RESOURCE[e.kind] ?? e.kind}/${e.name}\n`)
    .join('');
}

/**
 * After writing, one line per object written, as kubectl apply and delete print them (`namespace/team-a configured`,
 * `clusterrole.rbac.authorization.k8s.io/NAME created`, `... deleted`, with ` (server dry run)` under
 * --dry-run=server); the writes in FAILED (failed or never started) are left to their error lines. Unchanged objects
 * are counted in the summary only: a sync leaves hundreds of them.
 */
export function formatPlanWritten(
  entries: readonly PlanEntry<KubeObject>[],
  failed: ReadonlySet<string>,
  serverDryRun: boolean,
): string {
  return planWrittenLines(entries, failed, serverDryRun)
    .map((l) => `${l}\n`)
    .join('');
}

/** formatPlanWritten's lines, each without its line break. */
export function planWrittenLines(
  entries: readonly PlanEntry<KubeObject>[],
  failed: ReadonlySet<string>,
  serverDryRun: boolean,
): string[] {
  const verb = { create: 'created', update: 'configured', delete: 'deleted' } as const;
  return entries
    .filter(isWrite)
    .filter((e) => !failed.has(e.key))
    .map((e) => {
      const done =
        e.action === 'create' || e.action === 'update' || e.action === 'delete' ? verb[e.action] : e.action;
      return `${RESOURCE[e.kind] ?? e.kind}/${escapeTerminal(e.name)} ${done}${serverDryRun ? ' (server dry run)' : ''}`;
    });
}

/**
 * `-o diff`: a unified diff of each changed object, live against desired, as plan/diff-view.ts normalises them. In a
 * run across contexts, CONTEXT (escaped) names the context in each header: `--- live/CONTEXT/KIND/NAME`.
 */
export function formatPlanDiff(entries: readonly PlanEntry<KubeObject>[], context?: string): string {
  const where = context !== undefined ? `${escapeTerminal(context)}/` : '';
  return entries
    .filter(isWrite)
    .map((e) => {
      const path = `${RESOURCE[e.kind] ?? e.kind}/${e.namespace !== undefined ? `${e.namespace}/` : ''}${e.name}`;
      const view = diffView(
        e.action !== 'create' ? e.live : undefined,
        e.action === 'delete' ? undefined : e.object,
      );
      const before = view.live !== undefined ? formatYaml(view.live) : '';
      const after = view.desired !== undefined ? formatYaml(view.desired) : '';
      const patch = unifiedDiff(`live/${path}`, `desired/${path}`, before, after);
      // The context goes into the headers as it is printed (escaped): the diff library would quote a name with a
      // backslash, as git does, and escape the escapes again.
      const head = `--- live/${path}\n+++ desired/${path}\n`;
      if (where === '' || !patch.startsWith(head)) return patch;
      return `--- live/${where}${path}\n+++ desired/${where}${path}\n${patch.slice(head.length)}`;
    })
    .join('');
}

/**
 * The unified diff of BEFORE and AFTER (3 lines of context), as the diff library writes it, without its `===` line.
 * An object only on one side (created, deleted: most of a first sync) is every line added or removed: written here,
 * the same bytes the library writes (test/unit/cli/format-plan-diff.test.ts holds them to it), as the library's
 * line diff of an empty side cost more than half of `-o diff` on a large cluster.
 */
export function unifiedDiff(oldName: string, newName: string, before: string, after: string): string {
  const oneSided = (before === '') !== (after === '') && (before + after).endsWith('\n');
  const patch = createTwoFilesPatch(
    oldName,
    newName,
    oneSided ? '' : before,
    oneSided ? '' : after,
    undefined,
    undefined,
    { context: 3 },
  ).replace(/^=+\n/m, '');
  if (!oneSided) return patch;
  const lines = (before + after).slice(0, -1).split('\n');
  const n = String(lines.length);
  const [hunk, sign] = before === '' ? [`@@ -0,0 +1,${n} @@\n`, '+'] : [`@@ -1,${n} +0,0 @@\n`, '-'];
  return `${patch}${hunk}${sign}${lines.join(`\n${sign}`)}\n`;
}

/** The summary table: per kind, how many objects were created, updated, unchanged, deleted, refused, failed. */
export function formatPlanSummary(
  entries: readonly PlanEntry<KubeObject>[],
  failedKeys: ReadonlySet<string>,
  opts: { color: boolean; dryRun: boolean; headers?: boolean },
): string {
  const { head, rows } = planSummaryRows(entries, failedKeys, opts.dryRun);
  if (rows.length === 0) return `${NOTHING_TO_DO}\n`;
  return `${formatTable(opts.headers === false ? [] : head, rows, opts.color)}\n`;
}

/** What the summary says when the plan has no objects at all. */
export const NOTHING_TO_DO = 'nothing to do: no objects in scope';

/** The summary table's header and rows (one per kind, in kubectl's order of kinds): none for an empty plan. */
export function planSummaryRows(
  entries: readonly PlanEntry<KubeObject>[],
  failedKeys: ReadonlySet<string>,
  dryRun: boolean,
): { head: string[]; rows: string[][] } {
  const cols = ['create', 'update', 'unchanged', 'delete', 'refused'] as const;
  const byKind = new Map<string, Record<(typeof cols)[number] | 'failed', number>>();
  for (const e of entries) {
    const row = byKind.get(e.kind) ?? {
      create: 0,
      update: 0,
      unchanged: 0,
      delete: 0,
      refused: 0,
      failed: 0,
    };
    if (failedKeys.has(e.key)) row.failed++;
    else row[e.action]++;
    byKind.set(e.kind, row);
  }
  const order = ['Namespace', 'ClusterRole', 'Role', 'ClusterRoleBinding', 'RoleBinding'];
  const kinds = [...byKind.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const head = dryRun
    ? ['KIND', 'TO CREATE', 'TO UPDATE', 'UNCHANGED', 'TO DELETE', 'REFUSED', 'FAILED']
    : ['KIND', 'CREATED', 'UPDATED', 'UNCHANGED', 'DELETED', 'REFUSED', 'FAILED'];
  const rows = kinds.map((k) => {
    const r = byKind.get(k) ?? { create: 0, update: 0, unchanged: 0, delete: 0, refused: 0, failed: 0 };
    return [k, ...cols.map((c) => String(r[c])), String(r.failed)];
  });
  return { head, rows };
}
