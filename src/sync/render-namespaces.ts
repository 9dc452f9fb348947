/** The namespace roles sync renders (§4): the shared base roles, each enabled XRD's, each namespace's edit/view. */
import { isDeleting } from '../kube/meta.js';
import type { ClusterRole, Namespace, RbacObject, Xrd } from '../kube/types.js';
import { compareStrings } from '../kube/order.js';
import { isPluginOwned } from '../crossplane/base-roles.js';
import {
  enabledXrdsOf,
  isXrdNamespaceable,
  renderNamespaceBaseRoles,
  renderNamespaceRoles,
  renderXrdNamespaceRoles,
} from '../crossplane/namespace/roles.js';
import type { HeldOwners } from './held.js';

export interface NamespaceFamilyInput {
  readonly namespaces: readonly Namespace[];
  readonly xrds: readonly Xrd[];
  readonly liveRoles: readonly ClusterRole[];
  readonly xrdFilter: readonly string[] | undefined;
  readonly nsFilter: readonly string[] | undefined;
  readonly held: HeldOwners;
  readonly privileged: (roles: readonly ClusterRole[]) => string | undefined;
}

/**
 * The namespace roles: the shared base roles, each enabled XRD's namespace roles, each namespace's edit/view roles.
 * A namespace that enables a held XRD is held too (its roles aggregate the XRD's): its name goes to HELD_NAMESPACES.
 */
export function renderNamespaceFamily(
  input: NamespaceFamilyInput,
  heldNamespaces: string[],
  touched: Set<string>,
  warnings: string[],
): RbacObject[] {
  const { namespaces, xrds, liveRoles, xrdFilter, nsFilter, held, privileged } = input;
  const byName = new Map(xrds.map((x) => [x.metadata.name, x]));
  // Each enabled XRD's namespace roles, rendered once; an XRD whose roles are privileged is held.
  const xrdRoles = new Map<string, ClusterRole[]>();
  const rolesOf = (xrd: Xrd): ClusterRole[] | undefined => {
    const name = xrd.metadata.name;
    if (!xrdRoles.has(name) && !held.hasXrd(name)) {
      const roles = renderXrdNamespaceRoles(xrd);
      const why = privileged(roles);
      if (why !== undefined) held.holdXrd(name, why);
      else xrdRoles.set(name, roles);
    }
    return xrdRoles.get(name);
  };
  const enabledAnywhere = new Set<string>();
  const perNamespace: { ns: Namespace; xrds: string[] }[] = [];
  for (const ns of namespaces) {
    if (isDeleting(ns)) continue;
    const enabled = enabledXrdsOf(ns);
    const heldXrd = enabled.find((name) => {
      const xrd = byName.get(name);
      return held.hasXrd(name) || (xrd !== undefined && rolesOf(xrd) === undefined);
    });
    // The XRDs it enables that are not held still get their namespace roles (other namespaces may use them).
    const usable: string[] = [];
    for (const name of enabled) {
      if (held.hasXrd(name)) continue;
      const xrd = byName.get(name);
      if (xrd === undefined) {
        warnings.push(
          `namespace "${ns.metadata.name}" enables unknown CompositeResourceDefinition "${name}"`,
        );
        continue;
      }
      const n = isXrdNamespaceable(xrd);
      if (!n.ok) {
        warnings.push(`namespace "${ns.metadata.name}" enables ${n.reason}`);
        continue;
      }
      usable.push(name);
      enabledAnywhere.add(name);
    }
    if (heldXrd !== undefined) {
      heldNamespaces.push(ns.metadata.name);
      // A namespace outside this run's -n/--namespace scope is left alone without a word.
      if (nsFilter !== undefined && !nsFilter.includes(ns.metadata.name)) continue;
      touched.add(heldXrd);
      warnings.push(
        `namespace "${ns.metadata.name}": its roles are left unchanged while CompositeResourceDefinition "${heldXrd}" is held`,
      );
      continue;
    }
    if (usable.length > 0) perNamespace.push({ ns, xrds: usable });
  }

  const out: RbacObject[] = [];
  if (enabledAnywhere.size > 0 && xrdFilter === undefined) {
    for (const role of renderNamespaceBaseRoles()) {
      const live = liveRoles.find((r) => r.metadata.name === role.metadata.name);
      if (live === undefined || isPluginOwned(live)) out.push(role);
    }
  }
  for (const name of [...enabledAnywhere].sort(compareStrings)) {
    if (xrdFilter !== undefined && !xrdFilter.includes(name)) continue;
    out.push(...(xrdRoles.get(name) ?? []));
  }
  if (xrdFilter === undefined) {
    for (const { ns, xrds: enabled } of perNamespace) {
      if (nsFilter !== undefined && !nsFilter.includes(ns.metadata.name)) continue;
      out.push(...renderNamespaceRoles(ns, enabled));
    }
  }
  return out;
}
