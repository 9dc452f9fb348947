// The values of sync's --manage and --only (and of the crossplane-rbac ConfigMap's keys), in a module of their
// own so the command's flags can name them without loading the renderers.

export type ManageLevel = 'all' | 'basic' | 'serviceaccounts';
export const MANAGE_LEVELS: readonly ManageLevel[] = ['all', 'basic', 'serviceaccounts'];
export type SyncFamily = 'providers' | 'composites' | 'namespaces' | 'base';
export const SYNC_FAMILIES: readonly SyncFamily[] = ['providers', 'composites', 'namespaces', 'base'];
