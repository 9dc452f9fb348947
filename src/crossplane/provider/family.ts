// Provider families: which revisions share a family label and an image registry and organisation, as crossplane's
// rbac provider roles reconciler merges their resources (its family check and OrgDiffer).
import type { ClusterRole, ProviderRevision } from '../../kube/types.js';
import { compareStrings } from '../../kube/order.js';
import { LABEL_PROVIDER_FAMILY } from '../names.js';
import { registryAndOrg } from './image.js';

/**
 * The other revisions of REV's provider family in ALL, in name order: same family label, same registry and
 * organisation (REGISTRY for images without one), active or not; none without a family label or a parsable image.
 */
export function membersOfFamily(
  rev: ProviderRevision,
  all: readonly ProviderRevision[],
  registry: string,
): ProviderRevision[] {
  const family = rev.metadata.labels?.[LABEL_PROVIDER_FAMILY];
  if (family === undefined || family === '') return [];
  const org = registryAndOrg(rev.spec?.image, registry);
  if (org === undefined) return [];
  const group = familyGroups(all, registry).get(`${family}\n${org}`) ?? [];
  return group.filter((m) => !isSameRevision(m, rev));
}

/**
 * ALL's revisions by family label and image registry+organisation (an image that is no reference is in no group),
 * each group in name order. Made once per list of revisions and default registry: a family's members are asked for
 * every member, and comparing each with each cost a quarter of a second of a large sync.
 */
function familyGroups(
  all: readonly ProviderRevision[],
  registry: string,
): ReadonlyMap<string, readonly ProviderRevision[]> {
  let byRegistry = familyGroupsCache.get(all);
  // Stryker disable next-line ConditionalExpression: a cache; a new one only groups the same revisions again
  if (byRegistry === undefined) {
    byRegistry = new Map();
    familyGroupsCache.set(all, byRegistry);
  }
  let groups = byRegistry.get(registry);
  // Stryker disable next-line ConditionalExpression: a cache; grouping again gives the same groups
  if (groups !== undefined) return groups;
  const made = new Map<string, ProviderRevision[]>();
  for (const m of [...all].sort((x, y) => compareStrings(x.metadata.name, y.metadata.name))) {
    const family = m.metadata.labels?.[LABEL_PROVIDER_FAMILY];
    const org = registryAndOrg(m.spec?.image, registry);
    if (family === undefined || org === undefined) continue;
    const key = `${family}\n${org}`;
    const group = made.get(key);
    if (group === undefined) made.set(key, [m]);
    else group.push(m);
  }
  groups = made;
  byRegistry.set(registry, groups);
  return groups;
}

const familyGroupsCache = new WeakMap<
  readonly ProviderRevision[],
  Map<string, ReadonlyMap<string, readonly ProviderRevision[]>>
>();

function isSameRevision(a: ProviderRevision, b: ProviderRevision): boolean {
  if (a.metadata.uid !== undefined && b.metadata.uid !== undefined) return a.metadata.uid === b.metadata.uid;
  return a.metadata.name === b.metadata.name;
}

/** Each ClusterRole a ProviderRevision of a provider family owns (Crossplane's provider roles), with the family. */
export function familiesOf(snapshot: {
  readonly providerRevisions: readonly ProviderRevision[];
  readonly clusterRoles: readonly ClusterRole[];
}): Map<string, string> {
  const familyOf = new Map<string, string>();
  for (const rev of snapshot.providerRevisions) {
    const family = rev.metadata.labels?.[LABEL_PROVIDER_FAMILY];
    if (family !== undefined && family !== '') familyOf.set(rev.metadata.name, family);
  }
  const out = new Map<string, string>();
  for (const role of snapshot.clusterRoles) {
    const owner = (role.metadata.ownerReferences ?? []).find((r) => r.kind === 'ProviderRevision');
    const family = owner !== undefined ? familyOf.get(owner.name) : undefined;
    if (family !== undefined) out.set(role.metadata.name, family);
  }
  return out;
}
