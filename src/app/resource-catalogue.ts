import type { KubeObject, Role } from '../kube/types.js';
import { isRoleObject } from '../kube/rbac-guards.js';
import type { ResolvedResource } from '../crossplane/resolve-resource.js';
import type { KnownResource } from '../crossplane/resource-names.js';
import type { Input } from './read-input.js';
import type { Warn } from './warning.js';
import { translateError } from '../port/translate-error.js';

/**
 * What the commands that answer access questions (who-can, explain --subject) read: the RBAC objects, and the XRDs
 * and ProviderRevisions RESOURCE may name.
 */
export const ACCESS_PARTS = [
  'clusterRoles',
  'clusterRoleBindings',
  'roleBindings',
  'roles',
  'xrds',
  'providerRevisions',
] as const;

/**
 * What audit reads: the RBAC and XRDs and ProviderRevisions as who-can, the Deployments (who runs as which account),
 * and the Compositions and CompositionRevisions (what creating an XR makes Crossplane compose).
 */
export const AUDIT_PARTS = [...ACCESS_PARTS, 'deployments', 'compositions', 'compositionRevisions'] as const;

export function isKind(kind: string, group: string): (o: KubeObject) => boolean {
  return (o) => o.kind === kind && (o.apiVersion === group || o.apiVersion.startsWith(`${group}/`));
}

/** The Roles among the objects read (they are not a part of the snapshot of their own). */
export function rolesOf(input: Input): Role[] {
  return input.snapshot.others.filter(isRoleObject);
}

/**
 * The resources a name may resolve to: live, discovery (one GET per API group) plus the XRDs and ProviderRevisions
 * read; from files, Kubernetes' common resources plus the CRDs, XRDs and ProviderRevisions read.
 */
export function knownResources(input: Input): Promise<KnownResource[]> {
  return catalogueOf(input, false);
}

/**
 * The resources the cluster serves, for the access matrix: live, only what discovery lists (each with the XRD or
 * ProviderRevision that defines it, from those read); from files, knownResources.
 */
export function servedResources(input: Input): Promise<KnownResource[]> {
  return catalogueOf(input, true);
}

async function catalogueOf(input: Input, servedOnly: boolean): Promise<KnownResource[]> {
  const r = await import('../crossplane/resolve-resource.js');
  const { snapshot, cluster } = input;
  const xrds = snapshot.xrds.flatMap(r.resourcesOfXrd);
  const providers = snapshot.providerRevisions.flatMap(r.resourcesOfProviderRevision);
  if (cluster === undefined) {
    // No discovery: the groups in the order kube-apiserver would serve them, which decides what a name shared by
    // several groups resolves to.
    return r.inServerOrder(
      r.catalogue(
        r.builtinResources(),
        snapshot.others
          .filter(isKind('CustomResourceDefinition', 'apiextensions.k8s.io'))
          .flatMap((c) => r.resourceOfCrd(c) ?? []),
        xrds,
        providers,
      ),
    );
  }
  let served: Awaited<ReturnType<typeof cluster.discoverResources>>;
  try {
    served = await (input.discovery ?? cluster.discoverResources());
  } catch (err) {
    throw translateError(err, "discovering the server's resources", cluster.describe);
  }
  const discovered = r.resourcesFromDiscovery(served);
  const known = r.catalogue(discovered, xrds, providers);
  if (!servedOnly) return known;
  const key = (k: KnownResource): string => `${k.plural}.${k.group}`;
  const listed = new Set(discovered.map(key));
  return known.filter((k) => listed.has(key(k)));
}

/**
 * Resolves RESOURCE as kubectl would, among knownResources (for VERB `impersonate`, users, groups, serviceaccounts,
 * uids and userextras are the impersonation filter's resources); WARN gets kubectl's line for a verb it does not know.
 * `explicitNamespace`: a resource known by name only is asked about in a namespace only when one was given.
 */
export async function resolveInput(
  text: string,
  input: Input,
  explicitNamespace: boolean,
  verb: string,
  warn?: Warn,
): Promise<ResolvedResource> {
  const [{ resolveResourceNoting }, { unknownVerbWarning }, known] = await Promise.all([
    import('../crossplane/resolve-resource.js'),
    import('../authz/known-verbs.js'),
    knownResources(input),
  ]);
  const { resource: resolved, warnings } = resolveResourceNoting(text, known, verb);
  for (const reason of warnings) warn?.({ kind: 'resource-choice', reason });
  const warning = unknownVerbWarning(
    verb,
    resolved.path !== undefined,
    known.flatMap((k) => k.verbs ?? []),
  );
  // kubectl auth can-i warns and still answers the request.
  if (warning !== undefined) warn?.({ kind: 'unknown-verb', reason: warning });
  return resolved.scopeUnknown === true ? { ...resolved, namespaced: explicitNamespace } : resolved;
}
