import { UserError } from '../errors.js';
import type { NeededKind, NeededObject } from '../bind/missing.js';
import { isBinding, type Binding } from '../bind/target.js';
import type { Plan } from '../plan/plan.js';
import type { KubeObject, Role } from '../kube/types.js';
import { isRoleObject } from '../kube/rbac-guards.js';
import type { AppDeps } from './deps.js';
import type { Input } from './read-input.js';
import type { Insist } from './write.js';

/** Which of the objects bind's bindings need exist, as read from the cluster or the -f objects. */
export interface Existence {
  /** Needed objects that do not exist. */
  readonly missing: readonly NeededObject[];
  /** The Roles read (`NAMESPACE/NAME`), for the privileged check. */
  readonly roles: ReadonlyMap<string, Role>;
  /** The names of a kind (in a namespace) that exist, for "did you mean" (live: read only when one is missing). */
  readonly known: (kind: NeededKind, namespace: string | undefined) => Promise<readonly string[]>;
}

const roleKey = (namespace: string, name: string): string => `${namespace}/${name}`;

/**
 * Whether each needed object exists. From -f, an object exists when the files hold it. Live, the ClusterRoles are
 * the ones listed, the rest is read with one GET each (a Role or ServiceAccount in a namespace found missing is
 * missing without one). An object the caller may not read is neither missing nor known: it is named in a warning
 * and bound unchecked (the API server still checks the binding).
 */
export async function readExistence(
  input: Input,
  needed: readonly NeededObject[],
  deps: Pick<AppDeps, 'warn'>,
): Promise<Existence> {
  const { snapshot, cluster } = input;
  const clusterRoles = snapshot.clusterRoles.map((r) => r.metadata.name);
  if (cluster === undefined) {
    // Every cluster has Kubernetes' bootstrap roles (the API server creates them at start): files need not hold them.
    const { bootstrapClusterRoles } = await import('../authz/bootstrap-roles.js');
    const bootstrap = bootstrapClusterRoles().map((r) => r.metadata.name);
    return fromFiles(input, needed, [...new Set([...clusterRoles, ...bootstrap])]);
  }
  const [{ Kinds }, { ApiError, translateError }, { findInvalidField }] = await Promise.all([
    import('../port/cluster.js'),
    import('../port/translate-error.js'),
    import('../crossplane/validate-input.js'),
  ]);
  const roles = new Map<string, Role>();
  const missing = new Set<NeededObject>();
  /** The object, undefined when it does not exist, null when the caller may not read it. */
  const get = async (o: NeededObject): Promise<KubeObject | undefined | null> => {
    const kind =
      o.kind === 'Namespace' ? Kinds.namespace : o.kind === 'Role' ? Kinds.role : Kinds.serviceAccount;
    const id = `${o.kind} ${o.namespace !== undefined ? `${o.namespace}/` : ''}${o.name}`;
    try {
      return await cluster.get(kind, o.name, o.namespace);
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 403) {
        throw translateError(err, `reading ${id}, which the bindings need`, cluster.describe);
      }
      deps.warn({ kind: 'unreadable', object: o });
      return null;
    }
  };
  const namespaces = needed.filter((o) => o.kind === 'Namespace');
  const missingNs = new Set<string>();
  await Promise.all(
    namespaces.map(async (o) => {
      if ((await get(o)) === undefined) {
        missing.add(o);
        missingNs.add(o.name);
      }
    }),
  );
  await Promise.all(
    needed.map(async (o) => {
      if (o.kind === 'ClusterRole') {
        if (!clusterRoles.includes(o.name)) missing.add(o);
        return;
      }
      if (o.kind === 'Namespace') return;
      if (o.namespace !== undefined && missingNs.has(o.namespace)) {
        missing.add(o);
        return;
      }
      const obj = await get(o);
      if (obj === undefined) missing.add(o);
      if (o.kind !== 'Role' || obj === undefined || obj === null) return;
      const invalid = findInvalidField(obj);
      if (invalid !== undefined)
        throw new UserError(`Role ${o.namespace ?? ''}/${o.name}: ${invalid.problem}`);
      if (isRoleObject(obj)) roles.set(roleKey(o.namespace ?? '', o.name), obj);
    }),
  );
  const known = async (kind: NeededKind, namespace: string | undefined): Promise<readonly string[]> => {
    if (kind === 'ClusterRole') return clusterRoles;
    if (kind === 'ServiceAccount') return []; // listing every account to suggest a name is not worth the read
    try {
      const list =
        kind === 'Namespace'
          ? await cluster.list(Kinds.namespace)
          : await cluster.list(Kinds.role, namespace !== undefined ? { namespace } : {});
      return list.map((o) => o.metadata.name);
    } catch {
      return []; // suggestions only: a list the caller may not read suggests nothing
    }
  };
  return { missing: needed.filter((o) => missing.has(o)), roles, known };
}

/** From -f: an object exists when the files hold it (a bootstrap ClusterRole always does). */
function fromFiles(
  input: Input,
  needed: readonly NeededObject[],
  clusterRoles: readonly string[],
): Existence {
  const { snapshot } = input;
  const v1 = (kind: string) => (o: KubeObject) => o.kind === kind && o.apiVersion === 'v1';
  const namespaces = [
    ...snapshot.namespaces.map((n) => n.metadata.name),
    ...snapshot.others.filter(v1('Namespace')).map((n) => n.metadata.name),
  ];
  const accounts = snapshot.others.filter(v1('ServiceAccount'));
  const roleObjects = snapshot.others.filter(isRoleObject);
  const roles = new Map(roleObjects.map((r) => [roleKey(r.metadata.namespace ?? '', r.metadata.name), r]));
  const namesOf = (kind: NeededKind, namespace: string | undefined): string[] => {
    const inNs = (o: KubeObject): boolean => (o.metadata.namespace ?? '') === (namespace ?? '');
    switch (kind) {
      case 'ClusterRole':
        return [...clusterRoles];
      case 'Namespace':
        return namespaces;
      case 'ServiceAccount':
        return accounts.filter(inNs).map((o) => o.metadata.name);
      case 'Role':
        return roleObjects.filter(inNs).map((o) => o.metadata.name);
    }
  };
  const missing = needed.filter((o) => !namesOf(o.kind, o.namespace).includes(o.name));
  return { missing, roles, known: (kind, ns) => Promise.resolve(namesOf(kind, ns)) };
}

/**
 * Before anything is written (also for previews, so that a dry run fails as the real run would): a missing object
 * is an error, one `missing:` line each and one error, unless --allow-missing, which binds ahead of their creation
 * with one warning each. Live, a namespace a RoleBinding goes in is an error even then: the API server refuses to
 * create anything in a namespace that does not exist (NamespaceLifecycle admission, kubernetes/kubernetes
 * staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go). A binding the run would
 * prune whose role looks like the one a missing roleRef misspells is named either way; with --allow-missing the
 * run asks before writing, even with --yes, and refuses where nobody can be asked: a typo never prunes silently.
 * Returns what the write flow must insist on, if anything.
 */
export async function checkExistence(
  existence: Existence,
  run: {
    readonly granting: readonly Binding[];
    readonly plan: Plan;
    readonly allowMissing: boolean;
    readonly fromFiles: boolean;
  },
  deps: Pick<AppDeps, 'warn'>,
): Promise<Insist | undefined> {
  if (existence.missing.length === 0) return undefined;
  const m = await import('../bind/missing.js');
  const missing = m.withSuggestions(existence.missing, await suggestionPool(existence));
  const deleted = run.plan.entries.flatMap((e) =>
    e.action === 'delete' && e.live !== undefined && isBinding(e.live) ? [e.live] : [],
  );
  const typos = m.findTypoPrunes(run.granting, deleted, new Set(missing.map(m.neededKey)));
  for (const prune of typos) deps.warn({ kind: 'typo-prune', prune });
  const roleBindingNs = new Set(
    run.granting.flatMap((b) =>
      b.kind === 'RoleBinding' && b.metadata.namespace !== undefined ? [b.metadata.namespace] : [],
    ),
  );
  const blocking = run.allowMissing
    ? missing.filter((o) => !run.fromFiles && o.kind === 'Namespace' && roleBindingNs.has(o.name))
    : missing;
  if (blocking.length > 0) {
    for (const o of blocking) deps.warn({ kind: 'missing', object: o });
    throw missingError(blocking.map(m.describeNeeded), run);
  }
  for (const o of missing) deps.warn({ kind: 'missing-allowed', object: o });
  if (typos.length === 0) return undefined;
  const n = typos.length;
  return {
    reason: `it would delete ${n === 1 ? 'a binding' : `${n} bindings`} whose role the new list probably misspells (named above), and there is no terminal to confirm that on`,
    hint: 'correct the roleRef, or bind with --no-prune now and prune in a later run once the role exists',
  };
}

/** The names to suggest from, read once per kind and namespace. */
async function suggestionPool(
  existence: Existence,
): Promise<(kind: NeededKind, namespace: string | undefined) => readonly string[]> {
  const pool = new Map<string, readonly string[]>();
  for (const o of existence.missing) {
    const key = `${o.kind}/${o.namespace ?? ''}`;
    if (!pool.has(key)) pool.set(key, await existence.known(o.kind, o.namespace));
  }
  return (kind, namespace) => pool.get(`${kind}/${namespace ?? ''}`) ?? [];
}

function missingError(
  names: readonly string[],
  run: { readonly allowMissing: boolean; readonly fromFiles: boolean },
): UserError {
  const n = names.length;
  if (run.allowMissing) {
    return new UserError(
      `the API server refuses RoleBindings in a namespace that does not exist, also with --allow-missing; nothing was written: ${names.join(', ')}`,
      {
        hint: 'create the namespace first (kubectl create namespace NAME), or drop the roleRefs that bind in it',
      },
    );
  }
  const what =
    n === 1 ? '1 object the bindings need does not exist' : `${n} objects the bindings need do not exist`;
  return new UserError(`${what}, nothing was written: ${names.join(', ')}`, {
    hint: run.fromFiles
      ? `with -f an object exists only when the files hold it: add the files that define ${n === 1 ? 'it' : 'them'}, correct the ${n === 1 ? 'name' : 'names'}, or pass --allow-missing to bind ahead of ${n === 1 ? 'its' : 'their'} creation`
      : n === 1
        ? 'create it first or correct the name; --allow-missing binds ahead of its creation'
        : 'create them first or correct the names; --allow-missing binds ahead of their creation',
  });
}
