/**
 * Whether the CRDs an XRD or ProviderRevision names are its own, on a live cluster. An XRD's roles grant its XR's
 * and claim's resources, a revision's roles its objectRefs' CRDs; both are only safe when those CRDs exist and
 * Crossplane made them for that owner: the XRD controls the CRDs of its XR and claim (the definition and offered
 * controllers), and a package revision controls the CRDs it establishes, or owns them while another revision of the
 * same provider or family controls them (crossplane/crossplane internal/controller/pkg/revision/establisher.go
 * prepareApply). Anything else (a CRD not made yet, or one another owner made) holds the owner.
 *
 * MRD refs (Crossplane v2's ManagedResourceDefinitions) are not checked here: the MRD controller, not the package,
 * creates their CRDs; the group rule of validate-input still applies to them.
 */
import type { KubeObject, OwnerReference, ProviderRevision, Xrd } from '../kube/types.js';
import { controllerOf, groupOf } from '../kube/meta.js';
import { CRD_GROUP, CRD_KIND } from '../kube/api-names.js';
import { PROVIDER_REVISION_KIND, XRD_KIND } from './names.js';

/** An owner whose CRDs are not its own, and why (one line). */
export interface ForeignDefinition {
  readonly object: KubeObject;
  readonly reason: string;
}

function describeController(r: OwnerReference | undefined): string {
  return r === undefined ? 'has no controller' : `is controlled by ${r.kind} "${r.name}"`;
}

/** Why XRD's CRDs are not its own, or undefined. */
function xrdProblem(xrd: Xrd, crds: ReadonlyMap<string, KubeObject>): string | undefined {
  const names = [
    xrd.spec.names.plural,
    ...(xrd.spec.claimNames?.plural !== undefined ? [xrd.spec.claimNames.plural] : []),
  ];
  for (const plural of names) {
    const name = `${plural}.${xrd.spec.group}`;
    const crd = crds.get(name);
    if (crd === undefined) {
      return `its CustomResourceDefinition "${name}" does not exist (yet): Crossplane creates it for the XRD, and its roles are synced once it does`;
    }
    const ctrl = controllerOf(crd);
    const ours =
      ctrl !== undefined &&
      ctrl.kind === XRD_KIND &&
      ctrl.name === xrd.metadata.name &&
      (xrd.metadata.uid === undefined || ctrl.uid === xrd.metadata.uid);
    if (!ours) {
      return `its CustomResourceDefinition "${name}" ${describeController(ctrl)}, not by this XRD: its roles would grant another owner's resources`;
    }
  }
  return undefined;
}

/**
 * Why REV's CRDs are not its own, or undefined. KIN: the uids of the revisions whose control of a CRD the revision
 * accepts (its own, its provider's other revisions, its family's members).
 */
function revisionProblem(
  rev: ProviderRevision,
  kin: ReadonlySet<string>,
  crds: ReadonlyMap<string, KubeObject>,
): string | undefined {
  // Stryker disable next-line ArrayDeclaration: a string ref has no name, and a name without a dot is skipped
  for (const ref of rev.status?.objectRefs ?? []) {
    // Stryker disable next-line StringLiteral: the text has no dot either, so the ref is skipped as with ""
    const name = ref.name ?? '';
    if (groupOf(ref.apiVersion ?? '') !== CRD_GROUP || ref.kind !== CRD_KIND || !name.includes('.')) continue;
    const crd = crds.get(name);
    if (crd === undefined) {
      return `its CustomResourceDefinition "${name}" does not exist (yet): its roles are synced once the package has created it`;
    }
    // Stryker disable next-line ArrayDeclaration: a string owner has no uid, and an owner is looked for only with a uid
    const owners = crd.metadata.ownerReferences ?? [];
    const ctrl = controllerOf(crd);
    const ownsIt = rev.metadata.uid !== undefined && owners.some((o) => o.uid === rev.metadata.uid);
    const kinControls = ctrl !== undefined && ctrl.kind === PROVIDER_REVISION_KIND && kin.has(ctrl.uid ?? '');
    if (!ownsIt && !kinControls) {
      return `its CustomResourceDefinition "${name}" ${describeController(ctrl)}, not by this revision, its provider or its family: its roles would grant another owner's resources`;
    }
  }
  return undefined;
}

/**
 * The XRDs and revisions whose CRDs are not their own, given the live CRDs (metadata is enough) and, per revision,
 * the revisions whose control it accepts (`kinOf`: its provider's and its family's revisions, itself included).
 */
export function findForeignDefinitions(
  xrds: readonly Xrd[],
  revisions: readonly ProviderRevision[],
  crds: readonly KubeObject[],
  kinOf: (rev: ProviderRevision) => readonly ProviderRevision[],
): ForeignDefinition[] {
  const byName = new Map(crds.filter((c) => c.kind === CRD_KIND).map((c) => [c.metadata.name, c]));
  const out: ForeignDefinition[] = [];
  for (const x of xrds) {
    const reason = xrdProblem(x, byName);
    if (reason !== undefined) out.push({ object: x, reason });
  }
  for (const r of revisions) {
    const kin = new Set(
      // Stryker disable next-line MethodExpression: kin is looked up with a string (ctrl.uid ?? ''), never undefined
      [r, ...kinOf(r)].map((k) => k.metadata.uid).filter((u): u is string => u !== undefined),
    );
    const reason = revisionProblem(r, kin, byName);
    if (reason !== undefined) out.push({ object: r, reason });
  }
  return out;
}
