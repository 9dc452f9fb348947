/**
 * Which verbs a request may name without a warning, as `kubectl auth can-i` judges them
 * (kubernetes/kubernetes staging/src/k8s.io/kubectl/pkg/cmd/auth/cani.go @41762c588fc92e5d310649d2fa6133523a045f19:
 * resourceVerbs, nonResourceURLVerbs, and the warning its Validate prints for any other verb), plus the verbs
 * Kubernetes' own authorizers ask about that kubectl's list leaves out (escalate on roles, approve and sign on
 * certificate signing requests' signers, attest on ClusterTrustBundles' signers) and whatever verbs discovery lists
 * for the resources the cluster serves. A verb outside them is still answered (an RBAC rule may name any verb):
 * the warning only says that no request the API server serves is likely to ask for it.
 */

/** kubectl's resourceVerbs. */
const KUBECTL_RESOURCE_VERBS = [
  'get',
  'list',
  'watch',
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
  'use',
  'bind',
  'impersonate',
  '*',
];

/** Verbs Kubernetes authorizes that kubectl's list lacks. */
const CUSTOM_VERBS = ['escalate', 'approve', 'sign', 'attest'];

/** kubectl's nonResourceURLVerbs. */
const NON_RESOURCE_VERBS = ['get', 'put', 'post', 'head', 'options', 'delete', 'patch', '*'];

/**
 * kubectl's warning for VERB (without its `Warning: ` prefix), or undefined when VERB is known: for a non-resource
 * URL (`url`), among kubectl's URL verbs; else among the resource verbs, the custom ones and DISCOVERED.
 */
export function unknownVerbWarning(
  verb: string,
  url: boolean,
  discovered: Iterable<string> = [],
): string | undefined {
  const known = url ? NON_RESOURCE_VERBS : [...KUBECTL_RESOURCE_VERBS, ...CUSTOM_VERBS, ...discovered];
  return known.includes(verb) ? undefined : `verb '${verb}' is not a known verb`;
}
