/**
 * `composed`: what Crossplane's compositions compose and whether its account may manage each kind, read exactly as
 * `sync --only composed` reads and judges it, without planning or writing anything.
 */
import type { ComposedView } from '../composed/report.js';
import type { AppDeps } from './deps.js';
import { readInput, type InputSource } from './read-input.js';

export interface ComposedViewOptions {
  readonly source: InputSource;
  /** As sync's: privileged kinds count as missing (what sync would grant) instead of refused. */
  readonly allowPrivileged: boolean;
  /** As sync's: Crossplane's namespace, when detection from its Deployment is not wanted. */
  readonly crossplaneNamespace?: string;
}

export async function runComposedView(options: ComposedViewOptions, deps: AppDeps): Promise<ComposedView> {
  const { syncParts, planSync, readForPlan } = await import('./sync.js');
  const only = ['composed'] as const;
  const input = await readInput(options.source, deps, syncParts(only));
  const { composed } = await planSync(
    input,
    await readForPlan(input, only),
    {
      only,
      allowPrivileged: options.allowPrivileged,
      ...(options.crossplaneNamespace !== undefined
        ? { crossplaneNamespace: options.crossplaneNamespace }
        : {}),
    },
    { prune: false, adopt: false, report: false },
    deps,
  );
  const { composedView } = await import('../composed/report.js');
  // planSync reports the composed part whenever `only` names it; its absence would be a bug here, not input.
  if (composed === undefined) throw new Error('the composed part was not rendered');
  return composedView(composed.analysis, composed.grantAuthors);
}
