/**
 * Whether the caller may write a binding, decided as the API server's RBAC storage decides it
 * (pkg/registry/rbac/rolebinding/policybased and clusterrolebinding/policybased, escalation_check.go
 * BindingAuthorized): allowed with the `bind` verb on the referenced role (checked in the binding's namespace, or
 * cluster-wide for a ClusterRoleBinding); otherwise the caller must already hold every rule the role grants, and
 * a role that does not exist cannot be bound at all.
 */
import { coversRules, formatRuleForStatus } from '../authz/authorize.js';
import type { Binding } from './target.js';
import type { PolicyRule } from '../kube/types.js';
import { RBAC_API_GROUP } from '../kube/api-names.js';

/** The SelfSubjectAccessReview that grants binding the role outright. */
export interface BindAccessCheck {
  readonly verb: 'bind';
  readonly group: string;
  readonly resource: 'clusterroles' | 'roles';
  readonly name: string;
  readonly namespace?: string;
}

/** What the pre-flight learned about one binding it is about to write. */
export interface BindFacts {
  /** The answer to `bindAccessCheck(binding)`. */
  readonly mayBind: boolean;
  /** The referenced role's rules; undefined when the role does not exist. */
  readonly roleRules: readonly PolicyRule[] | undefined;
  /** The caller's rules where the binding applies (its namespace, or cluster-wide). */
  readonly callerRules: readonly PolicyRule[];
  /** The rules review said it could not list every rule (e.g. a webhook authorizer). */
  readonly callerRulesIncomplete: boolean;
}

export interface BindDenial {
  /** `ClusterRoleBinding/NAME` or `RoleBinding/NAMESPACE/NAME`. */
  readonly binding: string;
  /** `ClusterRole/NAME` or `Role/NAMESPACE/NAME`. */
  readonly role: string;
  readonly reason: string;
}

const MAX_LISTED_RULES = 4;

/** The namespace a binding applies in; undefined for a ClusterRoleBinding. */
export function bindingNamespace(binding: Binding): string | undefined {
  const ns = binding.kind === 'RoleBinding' ? binding.metadata.namespace : undefined;
  return ns === '' ? undefined : ns;
}

export function bindAccessCheck(binding: Binding): BindAccessCheck {
  const ns = bindingNamespace(binding);
  return {
    verb: 'bind',
    group: binding.roleRef.apiGroup === '' ? RBAC_API_GROUP : binding.roleRef.apiGroup,
    resource: binding.roleRef.kind === 'Role' ? 'roles' : 'clusterroles',
    name: binding.roleRef.name,
    ...(ns !== undefined ? { namespace: ns } : {}),
  };
}

function bindingId(binding: Binding): string {
  const ns = bindingNamespace(binding);
  return ns !== undefined
    ? `${binding.kind}/${ns}/${binding.metadata.name}`
    : `${binding.kind}/${binding.metadata.name}`;
}

function roleId(binding: Binding): string {
  const ns = bindingNamespace(binding);
  return binding.roleRef.kind === 'Role' && ns !== undefined
    ? `Role/${ns}/${binding.roleRef.name}`
    : `ClusterRole/${binding.roleRef.name}`;
}

function canIText(binding: Binding): string {
  const c = bindAccessCheck(binding);
  return `kubectl auth can-i bind ${c.resource}.${c.group}/${c.name}${c.namespace !== undefined ? ` -n ${c.namespace}` : ''}`;
}

/** Why the API server would refuse the binding, or undefined when it would accept it. */
export function judgeBindPermission(binding: Binding, facts: BindFacts): BindDenial | undefined {
  if (facts.mayBind) return undefined;
  const deny = (reason: string): BindDenial => ({
    binding: bindingId(binding),
    role: roleId(binding),
    reason,
  });
  const where = bindingNamespace(binding);
  const scope = where !== undefined ? ` in namespace ${where}` : ' cluster-wide';
  if (facts.roleRules === undefined) {
    return deny(
      `${roleId(binding)} does not exist, and binding a missing role needs the bind verb on it (${canIText(binding)})`,
    );
  }
  const cover = coversRules(facts.callerRules, facts.roleRules);
  if (cover.covered) return undefined;
  const listed = cover.missing.slice(0, MAX_LISTED_RULES).map(formatRuleForStatus);
  const more = cover.missing.length - listed.length;
  const incomplete = facts.callerRulesIncomplete ? ' (the server could not list all of your rules)' : '';
  return deny(
    `no bind verb on ${roleId(binding)}${scope} (${canIText(binding)}) and you do not hold every rule it grants${incomplete}; missing: ${listed.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
  );
}
