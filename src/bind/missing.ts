/**
 * What `bind` needs to exist before it writes: the ServiceAccount it binds (and its namespace), each role a binding
 * refers to, and each namespace a RoleBinding goes in. A name that does not exist is most often a typo, and a typo in
 * the roleRef list also prunes the binding of the role that was meant: bind says which, by edit distance.
 */
import { closeMatches } from '../kube/did-you-mean.js';
import { compareStrings } from '../kube/order.js';
import type { Binding, ServiceAccountRef } from './target.js';

export type NeededKind = 'Namespace' | 'ServiceAccount' | 'ClusterRole' | 'Role';

/** One object the bindings need. */
export interface NeededObject {
  readonly kind: NeededKind;
  readonly name: string;
  readonly namespace?: string;
}

/** A needed object that does not exist, with the names of its kind (and namespace) that are close to its own. */
export interface MissingObject extends NeededObject {
  readonly suggestions: readonly string[];
}

/** A binding the run deletes whose role looks like the one a missing roleRef of the new list meant. */
export interface TypoPrune {
  /** `ClusterRoleBinding NAME` or `RoleBinding NAMESPACE/NAME`. */
  readonly binding: string;
  /** The missing roleRef, as --role-ref spells it. */
  readonly named: string;
  /** The deleted binding's roleRef, as --role-ref spells it. */
  readonly meant: string;
}

const KIND_ORDER: readonly NeededKind[] = ['Namespace', 'ServiceAccount', 'ClusterRole', 'Role'];

export function neededKey(o: NeededObject): string {
  return `${o.kind}/${o.namespace ?? ''}/${o.name}`;
}

/** `ClusterRole NAME`, `Namespace NAME`, `Role NAMESPACE/NAME`, `ServiceAccount NAMESPACE/NAME`. */
export function describeNeeded(o: NeededObject): string {
  return o.namespace !== undefined ? `${o.kind} ${o.namespace}/${o.name}` : `${o.kind} ${o.name}`;
}

function bindingNamespace(b: Binding): string | undefined {
  const ns = b.kind === 'RoleBinding' ? b.metadata.namespace : undefined;
  return ns === '' ? undefined : ns;
}

/** The role a binding refers to, as a needed object (a Role lives in the binding's namespace). */
function roleOf(b: Binding): NeededObject {
  const ns = bindingNamespace(b);
  return b.roleRef.kind === 'Role' && ns !== undefined
    ? { kind: 'Role', name: b.roleRef.name, namespace: ns }
    : { kind: 'ClusterRole', name: b.roleRef.name };
}

/**
 * Every object the bindings that grant ServiceAccount SA a role need, once each: the namespaces (the account's and
 * the RoleBindings'), the account, the ClusterRoles and the Roles, each kind sorted.
 */
export function neededObjects(sa: ServiceAccountRef, granting: readonly Binding[]): NeededObject[] {
  const out = new Map<string, NeededObject>();
  const add = (o: NeededObject): void => void out.set(neededKey(o), o);
  add({ kind: 'Namespace', name: sa.namespace });
  add({ kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace });
  for (const b of granting) {
    const ns = bindingNamespace(b);
    if (ns !== undefined) add({ kind: 'Namespace', name: ns });
    add(roleOf(b));
  }
  return [...out.values()].sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || compareStrings(neededKey(a), neededKey(b)),
  );
}

/** The missing objects with their close names: KNOWN gives the names of a kind (in a namespace) that exist. */
export function withSuggestions(
  missing: readonly NeededObject[],
  known: (kind: NeededKind, namespace: string | undefined) => readonly string[],
): MissingObject[] {
  return missing.map((m) => ({
    ...m,
    suggestions: closeMatches(m.name, known(m.kind, m.namespace)).filter((n) => n !== m.name),
  }));
}

/** The roleRef of a binding as --role-ref spells it: ClusterRole/NAME, ClusterRole/NAME@NS, Role/NAME@NS. */
function refText(b: Binding): string {
  const ns = bindingNamespace(b);
  return `${b.roleRef.kind}/${b.roleRef.name}${ns !== undefined ? `@${ns}` : ''}`;
}

function bindingText(b: Binding): string {
  const ns = bindingNamespace(b);
  return ns !== undefined ? `${b.kind} ${ns}/${b.metadata.name}` : `${b.kind} ${b.metadata.name}`;
}

/** True when A is a close spelling of B (a different string within closeMatches' reach). */
function close(a: string, b: string): boolean {
  return a !== b && closeMatches(a, [b]).length > 0;
}

/**
 * The deleted bindings whose roleRef differs from a missing roleRef of the new list by a typo: the same kinds and
 * namespace and a close role name, or the same role and a close namespace (when the namespace is the missing part).
 * MISSING: the keys (neededKey) of the objects that do not exist.
 */
export function findTypoPrunes(
  granting: readonly Binding[],
  deleted: readonly Binding[],
  missing: ReadonlySet<string>,
): TypoPrune[] {
  const out: TypoPrune[] = [];
  for (const d of deleted) {
    for (const b of granting) {
      if (b.kind !== d.kind || b.roleRef.kind !== d.roleRef.kind) continue;
      const bns = bindingNamespace(b);
      const dns = bindingNamespace(d);
      const roleMissing = missing.has(neededKey(roleOf(b)));
      const nsMissing = bns !== undefined && missing.has(neededKey({ kind: 'Namespace', name: bns }));
      const nameTypo = bns === dns && roleMissing && close(b.roleRef.name, d.roleRef.name);
      const nsTypo =
        b.roleRef.name === d.roleRef.name &&
        nsMissing &&
        bns !== undefined &&
        dns !== undefined &&
        close(bns, dns);
      if (nameTypo || nsTypo) {
        out.push({ binding: bindingText(d), named: refText(b), meant: refText(d) });
        break;
      }
    }
  }
  return out;
}
