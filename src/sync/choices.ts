// The values of sync's --manage and --only (and of the crossplane-rbac ConfigMap's keys), in a module of their
// own so the command's flags can name them without loading the renderers.

export type ManageLevel = 'all' | 'basic' | 'serviceaccounts';
export const MANAGE_LEVELS: readonly ManageLevel[] = ['all', 'basic', 'serviceaccounts'];
export type SyncFamily = 'providers' | 'composites' | 'namespaces' | 'base' | 'composed';
/** Every family --only takes. */
export const SYNC_FAMILIES: readonly SyncFamily[] = [
  'providers',
  'composites',
  'namespaces',
  'base',
  'composed',
];
/**
 * What a plain sync makes: what Crossplane's RBAC manager makes. `composed` (the roles for the kinds compositions
 * compose) is opt-in, named with --only.
 */
export const DEFAULT_SYNC_FAMILIES: readonly SyncFamily[] = ['providers', 'composites', 'namespaces', 'base'];
