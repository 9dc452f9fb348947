/**
 * Pathological RBAC graphs (issue 37 item 4), as plain objects: what someone who may only create bindings (and an
 * administrator's own aggregated roles) can make an administrator's read commands chew on. Shared by the tests
 * that bound the work and by `npm run bench` (bench/pathological.ts), which times the same inputs.
 *
 * The graph: SOURCES ClusterRoles, each with its own rule and the label `bomb.example.org/part: "true"`; one
 * ClusterRole `bomb` aggregating them all (its stored rules the converged ones, as after the controller caught up);
 * BINDINGS bindings of the subject `User:victim` to `bomb`.
 */

type Obj = Record<string, unknown>;

export const BOMB_ROLE = 'bomb';
export const BOMB_LABEL = 'bomb.example.org/part';
export const VICTIM = 'victim';

export interface BombOptions {
  readonly sources: number;
  readonly bindings: number;
  /** ClusterRoleBindings (the default), or RoleBindings in this namespace (to the ClusterRole). */
  readonly namespace?: string;
  /** Leave bomb's stored rules empty: every rule is then "not stored yet". */
  readonly unconverged?: boolean;
  /** Give source 0 a rule that allows `get secrets` too. */
  readonly grantSecrets?: boolean;
}

const pad = (i: number): string => String(i).padStart(6, '0');

/** Source I's own rule: a group and a resource of its own, so that no two sources share a rule. */
export function sourceRule(i: number): Obj {
  return { apiGroups: [`g${pad(i)}.example.org`], resources: [`things${pad(i)}`], verbs: ['get', 'list'] };
}

/** The objects of the graph, in the order a dump would hold them (roles first). */
export function bombObjects(o: BombOptions): Obj[] {
  const out: Obj[] = [];
  const rules: Obj[] = [];
  for (let i = 0; i < o.sources; i++) {
    const own = [sourceRule(i)];
    if (i === 0 && o.grantSecrets === true)
      own.push({ apiGroups: [''], resources: ['secrets'], verbs: ['get'] });
    rules.push(...own);
    out.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: `part-${pad(i)}`, labels: { [BOMB_LABEL]: 'true' } },
      rules: own,
    });
  }
  out.push({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: BOMB_ROLE },
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [BOMB_LABEL]: 'true' } }] },
    rules: o.unconverged === true ? [] : rules,
  });
  for (let i = 0; i < o.bindings; i++) {
    const subjects = [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: VICTIM }];
    const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: BOMB_ROLE };
    out.push(
      o.namespace === undefined
        ? {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'ClusterRoleBinding',
            metadata: { name: `victim-${pad(i)}` },
            subjects,
            roleRef,
          }
        : {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'RoleBinding',
            metadata: { name: `victim-${pad(i)}`, namespace: o.namespace },
            subjects,
            roleRef,
          },
    );
  }
  return out;
}

/** The graph as one kubectl List in JSON (valid YAML too), as `kubectl get ... -o json` saves it, for -f. */
export function bombList(o: BombOptions): string {
  const items = bombObjects(o);
  if (o.namespace !== undefined) {
    items.unshift({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: o.namespace } });
  }
  return `{"apiVersion":"v1","kind":"List","items":[\n${items.map((i) => JSON.stringify(i)).join(',\n')}\n]}\n`;
}
