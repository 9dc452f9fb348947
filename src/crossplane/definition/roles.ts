import type { ClusterRole, PolicyRule, Xrd } from '../../kube/types.js';
import {
  LABEL_AGGREGATE_TO_ADMIN,
  LABEL_AGGREGATE_TO_BROWSE,
  LABEL_AGGREGATE_TO_CROSSPLANE,
  LABEL_AGGREGATE_TO_EDIT,
  LABEL_AGGREGATE_TO_NS_ADMIN,
  LABEL_AGGREGATE_TO_NS_EDIT,
  LABEL_AGGREGATE_TO_NS_VIEW,
  LABEL_AGGREGATE_TO_VIEW,
  LABEL_VALUE_TRUE,
  LABEL_XRD,
  XRD_API_VERSION,
  XRD_KIND,
  XRD_ROLE_PREFIX,
  XRD_ROLE_SUFFIX_BROWSE,
  XRD_ROLE_SUFFIX_EDIT,
  XRD_ROLE_SUFFIX_SYSTEM,
  XRD_ROLE_SUFFIX_VIEW,
} from '../names.js';
import { buildClusterRole, controllerRef, sharedList } from '../object-builders.js';

export type CrossplaneVersion = 'v1' | 'v2';

// Shared (frozen): the roles built from them hold these lists instead of copies, and checks may key on them.
export const VERBS_ALL = sharedList(['*']);
export const VERBS_VIEW = sharedList(['get', 'list', 'watch']);
const VERBS_UPDATE = sharedList(['update']);

const MAX_LABEL_VALUE = 63;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/**
 * 64-bit FNV-1a over the UTF-8 bytes of `s`, as 16 lower-case hex digits. Pure and stable across platforms; used
 * only to shorten names, not for security.
 */
export function fnv1a64Hex(s: string): string {
  const bytes = new TextEncoder().encode(s);
  let h = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  const mask = 0xffffffffffffffffn;
  for (const b of bytes) {
    h ^= BigInt(b);
    h = (h * prime) & mask;
  }
  return h.toString(16).padStart(16, '0');
}

/** What a shortened value ends in: "-" and 16 hex digits, or the 16 digits alone. */
const SHORTENED = /(^|-)[0-9a-f]{16}$/;

/**
 * The `rbac.crossplane.io/xrd` label value for an XRD: its name when that is a valid label value, else a shortened
 * prefix of it plus "-" and the FNV-1a 64 hash of the full name (always ≤ 63 characters and valid). A name that ends
 * as a shortened value does ("-" and 16 hex digits) is shortened too: such a name is a valid XRD name of its own
 * (plural.group), so kept as it is it could equal another XRD's shortened value, and a namespace role enabling one
 * would select the other's roles. The XRD's roles (v1) and the namespace roles' selectors use this one value, so the
 * selectors find the roles.
 */
export function xrdLabelValue(xrdName: string): string {
  if (xrdName.length <= MAX_LABEL_VALUE && LABEL_VALUE.test(xrdName) && !SHORTENED.test(xrdName))
    return xrdName;
  const hash = fnv1a64Hex(xrdName);
  const prefix = xrdName
    .slice(0, MAX_LABEL_VALUE - hash.length - 1)
    .replace(/[^-A-Za-z0-9_.]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/[^A-Za-z0-9]+$/, '');
  return prefix === '' ? hash : `${prefix}-${hash}`;
}

/** The XRD fields the renderers need (the schema, validate-input.ts, made sure they are there when it was read). */
export function xrdNames(xrd: Xrd): { group: string; plural: string; claimPlural: string | undefined } {
  // `?? ''` is never taken for a checked XRD: a missing plural makes it invalid (held, never rendered).
  return {
    group: xrd.spec.group,
    plural: xrd.spec.names.plural ?? '',
    claimPlural: xrd.spec.claimNames?.plural,
  };
}

function xrdRule(group: string, resources: readonly string[], verbs: readonly string[]): PolicyRule {
  return { apiGroups: [group], resources, verbs };
}

/**
 * Renders the four ClusterRoles Crossplane's RBAC manager makes for an XRD, in its order: aggregate-to-crossplane,
 * aggregate-to-edit, aggregate-to-view, aggregate-to-browse. `v1` adds the `rbac.crossplane.io/xrd` label that
 * Crossplane v1.x put on the edit, view and browse roles, valued xrdLabelValue(name): Crossplane v1 writes the full
 * name, which the API server refuses above 63 characters (and which, ending in "-" and 16 hex digits, is shortened).
 */
export function renderXrdRoles(
  xrd: Xrd,
  opts: { readonly crossplaneVersion: CrossplaneVersion },
): ClusterRole[] {
  const { group, plural, claimPlural } = xrdNames(xrd);
  const name = xrd.metadata.name;
  const owner = [controllerRef(XRD_API_VERSION, XRD_KIND, name, xrd.metadata.uid)];
  const xrdLabel: Record<string, string> =
    opts.crossplaneVersion === 'v1' ? { [LABEL_XRD]: xrdLabelValue(name) } : {};
  const xr = [plural, `${plural}/status`];
  const claim = claimPlural !== undefined ? [claimPlural, `${claimPlural}/status`] : undefined;

  const systemRules: PolicyRule[] = [
    xrdRule(group, xr, VERBS_ALL),
    xrdRule(group, [`${plural}/finalizers`], VERBS_UPDATE),
  ];
  const editRules: PolicyRule[] = [xrdRule(group, xr, VERBS_ALL)];
  const viewRules: PolicyRule[] = [xrdRule(group, xr, VERBS_VIEW)];
  const browseRules: PolicyRule[] = [xrdRule(group, xr, VERBS_VIEW)];
  // Stryker disable next-line LogicalOperator: claim is set exactly when claimPlural is
  if (claim !== undefined && claimPlural !== undefined) {
    systemRules.push(
      xrdRule(group, claim, VERBS_ALL),
      xrdRule(group, [`${claimPlural}/finalizers`], VERBS_UPDATE),
    );
    editRules.push(xrdRule(group, claim, VERBS_ALL));
    viewRules.push(xrdRule(group, claim, VERBS_VIEW));
    // The browse role never includes claims.
  }

  return [
    buildClusterRole({
      name: XRD_ROLE_PREFIX + name + XRD_ROLE_SUFFIX_SYSTEM,
      labels: { [LABEL_AGGREGATE_TO_CROSSPLANE]: LABEL_VALUE_TRUE },
      ownerReferences: owner,
      rules: systemRules,
    }),
    buildClusterRole({
      name: XRD_ROLE_PREFIX + name + XRD_ROLE_SUFFIX_EDIT,
      labels: {
        [LABEL_AGGREGATE_TO_ADMIN]: LABEL_VALUE_TRUE,
        [LABEL_AGGREGATE_TO_NS_ADMIN]: LABEL_VALUE_TRUE,
        [LABEL_AGGREGATE_TO_EDIT]: LABEL_VALUE_TRUE,
        [LABEL_AGGREGATE_TO_NS_EDIT]: LABEL_VALUE_TRUE,
        ...xrdLabel,
      },
      ownerReferences: owner,
      rules: editRules,
    }),
    buildClusterRole({
      name: XRD_ROLE_PREFIX + name + XRD_ROLE_SUFFIX_VIEW,
      labels: {
        [LABEL_AGGREGATE_TO_VIEW]: LABEL_VALUE_TRUE,
        [LABEL_AGGREGATE_TO_NS_VIEW]: LABEL_VALUE_TRUE,
        ...xrdLabel,
      },
      ownerReferences: owner,
      rules: viewRules,
    }),
    buildClusterRole({
      name: XRD_ROLE_PREFIX + name + XRD_ROLE_SUFFIX_BROWSE,
      labels: { [LABEL_AGGREGATE_TO_BROWSE]: LABEL_VALUE_TRUE, ...xrdLabel },
      ownerReferences: owner,
      rules: browseRules,
    }),
  ];
}
