/**
 * Owners sync holds: an XRD or ProviderRevision it may not render from (invalid, its CRD not its own, or its roles
 * would grant a privileged rule). Crossplane reconciles each owner alone, so one bad owner holds only its own roles
 * (and, for a provider, its family's, whose rules are shared): they are not rendered, not updated, not pruned and
 * not counted as drift, and everything independent of them is synced.
 */
import type { KubeObject, ProviderRevision } from '../kube/types.js';
import { compareStrings } from '../kube/order.js';
import { LABEL_PROVIDER_FAMILY, PROVIDER_REVISION_KIND, XRD_KIND } from '../crossplane/names.js';
import { familyMembers, type ProviderRolePolicy } from '../crossplane/provider/roles.js';

/** An owner sync was told to hold, and why. */
export interface HoldRequest {
  readonly object: KubeObject;
  /** One line, e.g. `spec.group "rbac.authorization.k8s.io" is not a valid API group: …`. */
  readonly reason: string;
  /** Where it came from (a file, or the cluster), for messages. */
  readonly origin?: string;
}

/** An owner whose roles this run leaves untouched. */
export interface HeldOwner {
  readonly kind: string;
  readonly name: string;
  readonly reason: string;
  readonly origin?: string;
}

/** `origin: Kind "name": why`, as sync lists a held owner. */
export function describeHeld(h: HeldOwner): string {
  return `${h.origin !== undefined ? `${h.origin}: ` : ''}${h.kind} "${h.name}": ${h.reason}`;
}

/** The held owners of one run, by kind and name. */
export class HeldOwners {
  private readonly xrds = new Map<string, { reason: string; origin?: string }>();
  private readonly revisions = new Map<string, { reason: string; origin?: string }>();

  holdXrd(name: string, reason: string, origin?: string): void {
    if (!this.xrds.has(name)) this.xrds.set(name, { reason, ...(origin !== undefined ? { origin } : {}) });
  }

  holdRevision(name: string, reason: string, origin?: string): void {
    if (!this.revisions.has(name))
      this.revisions.set(name, { reason, ...(origin !== undefined ? { origin } : {}) });
  }

  hasXrd(name: string): boolean {
    return this.xrds.has(name);
  }

  hasRevision(name: string): boolean {
    return this.revisions.has(name);
  }

  xrdNames(): string[] {
    return [...this.xrds.keys()].sort(compareStrings);
  }

  revisionNames(): string[] {
    return [...this.revisions.keys()].sort(compareStrings);
  }

  /** Every held owner, XRDs first, each kind in name order. */
  list(): HeldOwner[] {
    // XRDs first, as sync renders them; each kind in name order.
    const of = (kind: string, held: Map<string, { reason: string; origin?: string }>): HeldOwner[] =>
      [...held.entries()].sort(([a], [b]) => compareStrings(a, b)).map(([name, h]) => ({ kind, name, ...h }));
    return [...of(XRD_KIND, this.xrds), ...of(PROVIDER_REVISION_KIND, this.revisions)];
  }
}

function stringAt(o: unknown, ...path: string[]): string | undefined {
  let v: unknown = o;
  for (const key of path) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return typeof v === 'string' ? v : undefined;
}

/**
 * The family label and image of a revision that may have failed its schema: read field by field, each only if it
 * is a string, so that its family can still be held. Undefined when it names no family.
 */
function familyProbe(o: KubeObject): ProviderRevision | undefined {
  const family = stringAt(o, 'metadata', 'labels', LABEL_PROVIDER_FAMILY);
  if (family === undefined || family === '') return undefined;
  const image = stringAt(o, 'spec', 'image');
  const uid = stringAt(o, 'metadata', 'uid');
  return {
    apiVersion: o.apiVersion,
    kind: PROVIDER_REVISION_KIND,
    metadata: {
      name: stringAt(o, 'metadata', 'name') ?? '',
      ...(uid !== undefined ? { uid } : {}),
      labels: { [LABEL_PROVIDER_FAMILY]: family },
    },
    spec: image !== undefined ? { image } : {},
  };
}

/**
 * Holds REVISION (by its name) and every member of its provider family among REVISIONS: the family's roles share
 * its members' rules, so rendering the others without one would change their roles.
 */
export function holdRevisionFamily(
  held: HeldOwners,
  request: HoldRequest,
  revisions: readonly ProviderRevision[],
  policy: ProviderRolePolicy,
): void {
  const revision = request.object;
  const name = stringAt(revision, 'metadata', 'name') ?? '';
  held.holdRevision(name, request.reason, request.origin);
  const probe = familyProbe(revision);
  if (probe === undefined) return;
  for (const m of familyMembers(probe, revisions, policy)) {
    held.holdRevision(m.metadata.name, `held with its provider family: ProviderRevision "${name}" is held`);
  }
}
