import { UserError } from '../errors.js';
import type { SyncOutcome } from '../app/sync.js';
import type { Deps } from './context.js';
import { showLine } from './output/print-result.js';
import { formatYaml } from './output/format-data.js';

/**
 * --output-dir: writes what sync would apply, unless something is held or refused: a GitOps engine applying a
 * directory without those objects would delete the held owners' roles, or take over objects that are not the
 * plugin's.
 */
export async function writeOutputDir(deps: Deps, outcome: SyncOutcome, dir: string): Promise<void> {
  // The held and refused lines were printed once by the write flow (writePlan), before this.
  if (outcome.held.length > 0 || outcome.refused.length > 0) {
    throw new UserError(
      `not writing ${dir}: ${String(outcome.held.length)} held and ${String(outcome.refused.length)} refused (listed above)`,
      {
        hint: 'an engine applying the directory would prune or take them over: fix them first (see sync without --output-dir)',
      },
    );
  }
  const { writeManifestDir } = await import('../app/output-dir.js');
  const { written, removed } = writeManifestDir(dir, outcome.desired, formatYaml);
  const gone = removed > 0 ? `, removed ${String(removed)} no longer rendered` : '';
  showLine(deps, `wrote ${String(written)} objects to ${dir} (listed in kustomization.yaml${gone})`);
}
