import type { WhoCanResult } from '../who-can/who-can.js';
import type { AppDeps } from './deps.js';
import type { InputSource } from './read-input.js';
import { ACCESS_PARTS, resolveInput, rolesOf } from './resource-catalogue.js';
import { readQuestionInput, type AfterSyncOptions } from './after-sync.js';

export interface WhoCanOptions {
  readonly source: InputSource;
  readonly verb: string;
  /** RESOURCE as kubectl takes it (plural, kind, short name, group, /subresource). */
  readonly resource: string;
  readonly name?: string | undefined;
  /** -n; undefined: the context's namespace (live), else "default". */
  readonly namespace?: string | undefined;
  /** -A: RoleBindings of every namespace count. */
  readonly allNamespaces: boolean;
  /** --after-sync: answer for the cluster as a plain sync (of these families) would leave it. */
  readonly afterSync?: AfterSyncOptions | undefined;
}

/** `who-can`: every subject the RBAC allows the request, each with its path (binding, role, chain, rule). */
export async function runWhoCan(options: WhoCanOptions, deps: AppDeps): Promise<WhoCanResult> {
  const input = await readQuestionInput(options.source, deps, ACCESS_PARTS, options.afterSync);
  const { whoCan } = await import('../who-can/who-can.js');
  const resource = await resolveInput(
    options.resource,
    input,
    options.namespace !== undefined || options.allNamespaces,
    options.verb,
  );
  const namespace = options.allNamespaces
    ? undefined
    : (options.namespace ?? input.cluster?.defaultNamespace ?? 'default');
  return whoCan(
    {
      verb: options.verb,
      resource,
      ...(options.name !== undefined ? { name: options.name } : {}),
      namespace,
    },
    { ...input.snapshot, roles: rolesOf(input) },
  );
}
