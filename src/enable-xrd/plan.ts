import { UserError } from '../errors.js';
import { matchesSelector } from '../kube/selector.js';
import { enabledXrdsOf, isXrdNamespaceable, planAnnotationPatch } from '../crossplane/namespace/roles.js';
import type { ClusterSnapshot, LabelSelector, Namespace, Xrd } from '../kube/types.js';
import { closeMatches } from '../kube/did-you-mean.js';
import { isDeleting } from '../kube/meta.js';
import { compareStrings } from '../kube/order.js';

/** Bad input to enable-xrd (unknown or unsuitable XRD, missing namespace, empty selection); nothing is written. */
export class EnableXrdInputError extends UserError {
  override readonly name = 'EnableXrdInputError';
}

export interface EnableXrdRequest {
  readonly xrds: readonly string[];
  /** Namespace names given with -n; exactly one of namespaces and selector is set. */
  readonly namespaces?: readonly string[];
  readonly selector?: LabelSelector;
  /** How the selector was written, for messages. */
  readonly selectorText?: string;
  readonly enable: boolean;
}

export interface NamespaceChange {
  readonly namespace: Namespace;
  /** The namespace as it will be after the patch (the same object when nothing changes). */
  readonly after: Namespace;
  /** The JSON merge patch; null when every XRD is already in the requested state. */
  readonly patch: { metadata: { annotations: Record<string, string | null> } } | null;
  readonly alreadyInState: readonly string[];
}

export interface EnableXrdPlan {
  /** One per target namespace, in name order. */
  readonly changes: readonly NamespaceChange[];
  /** The snapshot with the patched namespaces: render namespace roles from this. */
  readonly snapshot: ClusterSnapshot;
  /** The target namespaces' names, in order. */
  readonly namespaces: readonly string[];
}

/** XRDs that offer something namespaced (claims or namespaced XRs), in name order: the ones -i offers. */
export function eligibleXrds(xrds: readonly Xrd[]): string[] {
  return xrds
    .filter((x) => {
      try {
        return isXrdNamespaceable(x).ok;
      } catch {
        return false;
      }
    })
    .map((x) => x.metadata.name)
    .sort(compareStrings);
}

/** The namespaces a selector picks, by name; terminating namespaces are left out. */
export function selectNamespaces(namespaces: readonly Namespace[], selector: LabelSelector): string[] {
  return namespaces
    .filter((n) => !isDeleting(n) && matchesSelector(selector, n.metadata.labels))
    .map((n) => n.metadata.name)
    .sort(compareStrings);
}

function unknownXrdError(name: string, known: readonly string[]): EnableXrdInputError {
  const close = closeMatches(name, known);
  return new EnableXrdInputError(`CompositeResourceDefinition "${name}" not found`, {
    hint:
      close.length > 0
        ? `did you mean ${close.map((c) => `"${c}"`).join(', ')}?`
        : 'list them with: kubectl get compositeresourcedefinitions',
  });
}

/** Applies a JSON merge patch of annotations (null deletes) to a namespace. */
export function patchedNamespace(
  ns: Namespace,
  patch: { metadata: { annotations: Record<string, string | null> } } | null,
): Namespace {
  if (patch === null) return ns;
  const annotations: Record<string, string> = { ...(ns.metadata.annotations ?? {}) };
  for (const [k, v] of Object.entries(patch.metadata.annotations)) {
    if (v === null) Reflect.deleteProperty(annotations, k);
    else annotations[k] = v;
  }
  const { annotations: _old, ...rest } = ns.metadata;
  return {
    ...ns,
    metadata: { ...rest, ...(Object.keys(annotations).length > 0 ? { annotations } : {}) },
  };
}

/**
 * Validates an enable-xrd request against the snapshot and plans the annotation patches. Throws
 * EnableXrdInputError, before anything is written, for: no XRD, an unknown XRD (with close names), an XRD that
 * offers nothing namespaced (enable only), a missing or terminating namespace, a selector that matches nothing.
 * Disabling an XRD that no longer exists is allowed when a target namespace still enables it.
 */
export function planEnableXrd(snapshot: ClusterSnapshot, req: EnableXrdRequest): EnableXrdPlan {
  const xrdNames = [...new Set(req.xrds)].sort(compareStrings);
  if (xrdNames.length === 0) throw new EnableXrdInputError('no CompositeResourceDefinition given');

  const byName = new Map(snapshot.namespaces.map((n) => [n.metadata.name, n]));
  let targets: string[];
  if (req.selector !== undefined) {
    targets = selectNamespaces(snapshot.namespaces, req.selector);
    if (targets.length === 0) {
      throw new EnableXrdInputError(`no namespace matches the selector "${req.selectorText ?? ''}"`, {
        hint: 'list namespaces with their labels: kubectl get namespaces --show-labels',
      });
    }
  } else {
    targets = [...new Set(req.namespaces ?? [])].sort(compareStrings);
    if (targets.length === 0) throw new EnableXrdInputError('no namespace given');
    const missing = targets.filter((n) => byName.get(n) === undefined);
    if (missing.length > 0) {
      const close = missing.flatMap((m) => closeMatches(m, [...byName.keys()]));
      throw new EnableXrdInputError(
        `namespace${missing.length > 1 ? 's' : ''} not found: ${missing.map((m) => `"${m}"`).join(', ')}`,
        close.length > 0 ? { hint: `did you mean ${close.map((c) => `"${c}"`).join(', ')}?` } : undefined,
      );
    }
    const deleting = targets.filter((n) => {
      const ns = byName.get(n);
      return ns !== undefined && isDeleting(ns);
    });
    if (deleting.length > 0) {
      throw new EnableXrdInputError(
        `namespace${deleting.length > 1 ? 's are' : ' is'} being deleted: ${deleting.map((m) => `"${m}"`).join(', ')}`,
      );
    }
  }
  const targetNamespaces = targets.map((n) => byName.get(n)).filter((n) => n !== undefined);

  const xrdByName = new Map(snapshot.xrds.map((x) => [x.metadata.name, x]));
  const known = [...xrdByName.keys()].sort(compareStrings);
  for (const name of xrdNames) {
    const xrd = xrdByName.get(name);
    if (xrd === undefined) {
      const stillEnabled = targetNamespaces.some((n) => enabledXrdsOf(n).includes(name));
      if (!req.enable && stillEnabled) continue;
      throw unknownXrdError(name, known);
    }
    if (!req.enable) continue;
    const n = isXrdNamespaceable(xrd);
    if (!n.ok) {
      throw new EnableXrdInputError(n.reason, {
        hint: 'only XRDs with claimNames (v1) or scope Namespaced (v2) can be enabled in a namespace',
      });
    }
  }

  const changes: NamespaceChange[] = targetNamespaces.map((ns) => {
    const { patch, alreadyInState } = planAnnotationPatch(ns, xrdNames, req.enable);
    return { namespace: ns, after: patchedNamespace(ns, patch), patch, alreadyInState };
  });
  const afterByName = new Map(changes.map((c) => [c.namespace.metadata.name, c.after]));
  return {
    changes,
    snapshot: {
      ...snapshot,
      namespaces: snapshot.namespaces.map((n) => afterByName.get(n.metadata.name) ?? n),
    },
    namespaces: targets,
  };
}
