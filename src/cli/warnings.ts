/**
 * The warnings of a run in words: what the use cases report as data (app/warning.ts) becomes the lines the CLI prints
 * on stderr, one or more per warning, each escaped for the terminal when written (printWarning).
 */
import { escapeTerminal } from '../escape.js';
import type { Warning } from '../app/warning.js';
import type { BindDenial } from '../bind/permission.js';
import { describeNeeded, type MissingObject, type NeededKind, type TypoPrune } from '../bind/missing.js';
import { formatComposedReport } from './composed-report.js';
import { plural } from './output/plural.js';

/** The first line on stderr of every answer given with --after-sync. */
export const AFTER_SYNC_NOTE = 'answering for the cluster after sync (nothing was written)';

/** One line per missing object: `ClusterRole crossplane-admn (did you mean "crossplane-admin"?)`. */
export function formatMissing(m: MissingObject): string {
  const close = m.suggestions.map((s) => `"${s}"`).join(', ');
  return close === '' ? describeNeeded(m) : `${describeNeeded(m)} (did you mean ${close}?)`;
}

/** `ClusterRoleBinding X would be deleted; the new list names "ClusterRole/crossplane-admn", did you mean ...?` */
export function formatTypoPrune(t: TypoPrune): string {
  return `${t.binding} would be deleted; the new list names "${t.named}", did you mean "${t.meant}"?`;
}

/** bind's pre-flight verdict on one binding: `RoleBinding/ns/name (to ClusterRole/x): why`. */
export function formatBindDenial(d: BindDenial): string {
  return `${d.binding} (to ${d.role}): ${d.reason}`;
}

/** What binding ahead of a missing object of KIND means. */
function consequence(kind: NeededKind): string {
  switch (kind) {
    case 'ClusterRole':
    case 'Role':
      return 'its binding grants nothing until it does';
    case 'ServiceAccount':
      return 'the bindings take effect once it is created';
    case 'Namespace':
      return 'what lives in it can exist only once it does';
  }
}

function nsName(o: { readonly name: string; readonly namespace?: string | undefined }): string {
  return `${o.namespace !== undefined ? `${o.namespace}/` : ''}${o.name}`;
}

/** The lines W prints (unescaped). */
export function formatWarning(w: Warning): string[] {
  switch (w.kind) {
    case 'warning':
      return [`warning: ${w.reason}`];
    case 'after-sync':
      return [AFTER_SYNC_NOTE];
    case 'invalid-owner':
      return [`warning: ignoring ${w.origin}: ${w.object.kind} "${w.object.name}": ${w.reason}`];
    case 'unseen': {
      const where = w.readIn !== undefined ? ` outside namespace ${w.readIn} (read there only)` : '';
      return [`warning: could not ${w.verb} ${w.what}${where}: ${w.reason}`];
    }
    case 'audit-unseen': {
      // kubectl's warning prefix: the audit goes on without the read, as `kubectl get` prints what it could list.
      const where =
        w.readIn !== undefined
          ? ` cluster-wide (read in namespace${w.readIn.includes(',') ? 's' : ''} ${w.readIn.replaceAll(',', ', ')} only)`
          : '';
      const missing =
        w.decides === 'rbac'
          ? `what they grant${w.readIn !== undefined ? ' elsewhere' : ''} is not in this audit: paths through it are missing, and each finding may be granted already`
          : `${w.decides.join(', ')} steps are looked for in what was read only`;
      return [`Warning: audit could not ${w.verb} ${w.what}${where}: ${missing}`];
    }
    case 'unread-role': {
      const who = w.subjects.map((x) => `${x.kind} ${x.name}`).join(', ');
      return [
        `warning: ${w.object.kind} ${nsName(w.object)} binds ClusterRole ${w.role}, whose rules could not be read: what it grants${who !== '' ? ` (to ${who})` : ''} is not in this answer`,
      ];
    }
    case 'partial':
      return [
        `warning: this answer is partial: it counts only what was read (${w.parts === 1 ? 'the part above is' : 'the parts above are'} missing from it)`,
      ];
    case 'held':
      return [`held ${w.owner}`];
    case 'refused':
      return [`refused ${w.key}: ${w.reason}`];
    case 'adopting':
      return [`adopting ${w.key}`];
    case 'skipped':
      return [`skipped ${w.object.kind} ${w.object.name}: ${w.reason}`];
    case 'composed-report':
      return formatComposedReport(w.analysis, w.authors);
    case 'prune-skipped': {
      const { count: n, serviceAccount: sa } = w;
      return [
        `warning: ${String(n)} binding${n === 1 ? ' is' : 's are'} refused (listed below): pruning is skipped in this run, so that ServiceAccount ${sa.namespace}/${sa.name} keeps the bindings it has`,
      ];
    }
    case 'kept':
      return [`kept (${w.why}): ${w.object.kind} ${nsName(w.object)}`];
    case 'privileged-bound':
      return [`warning: binding a privileged role (--allow-privileged): ${w.role}`];
    case 'forbidden':
      return [`forbidden: ${formatBindDenial(w.denial)}`];
    case 'missing':
      return [`missing: ${formatMissing(w.object)}`];
    case 'missing-allowed': {
      const close = w.object.suggestions.map((s) => `"${s}"`).join(', ');
      return [
        `warning: ${describeNeeded(w.object)} does not exist (--allow-missing): ${consequence(w.object.kind)}${close !== '' ? `; did you mean ${close}?` : ''}`,
      ];
    }
    case 'typo-prune':
      return [`warning: ${formatTypoPrune(w.prune)}`];
    case 'unreadable': {
      const unchecked =
        w.object.kind === 'Role' ? 'that it exists or for privileged rules' : 'that it exists';
      return [
        `warning: not allowed to read ${describeNeeded(w.object)}: it is bound without checking ${unchecked}`,
      ];
    }
    case 'context-namespace':
      return [
        `${w.enable ? 'enabling' : 'disabling'} in namespace "${w.namespace}", the context's (no -n or -l given): ${w.cluster}`,
      ];
    case 'already':
      return [`namespace/${w.namespace}: ${w.xrd} is already ${w.enable ? 'enabled' : 'disabled'}`];
    case 'not-synced':
      return [`warning: management level is "${w.manage}": namespace roles are not synced`];
    case 'unknown-verb':
    case 'resource-choice':
      // kubectl auth can-i's words (its warning printer's `Warning: ` prefix): the request is still answered.
      return [`Warning: ${w.reason}`];
    case 'caller-allowed':
      return [
        `you (the caller) ${w.allowed ? 'may' : 'may not'} make this request, as the server answers for you (bindings you cannot list count there)`,
      ];
    case 'renders-shared':
      return [
        `fleet: ${plural(w.rendered + w.shared, 'render')} for ${plural(w.contexts, 'context')}: ${String(w.rendered)} rendered, ${String(w.shared)} shared (inputs equal by content)`,
      ];
  }
}

/** Writes W's lines to SINK, each escaped for the terminal: the names and reasons in it come from the cluster, files or flags. */
export function printWarning(sink: { write(text: string): unknown }, w: Warning): void {
  for (const line of formatWarning(w)) sink.write(`${escapeTerminal(line)}\n`);
}
