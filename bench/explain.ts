/**
 * The explain case of `npm run bench`, run by it in a process of its own: explain over 5,000 generated ClusterRoles
 * in-process, its times and the process's RSS (after loading the modules, and at the end) and peak RSS.
 */
import { explainRole } from '../src/explain/explain-role.js';
import type { ClusterRole } from '../src/kube/types.js';
import { fixed, MB, median } from './figures.js';

/**
 * A generated graph shaped like a large Crossplane cluster: many leaf roles (one per XRD or provider), 200 aggregated
 * roles each selecting a slice of them, 10 top roles aggregating those, and one role selecting every leaf.
 */
function generateRoles(n: number): ClusterRole[] {
  const roles: ClusterRole[] = [];
  const middle = 200;
  const top = 10;
  const leaves = n - middle - top - 1;
  const role = (name: string, labels: Record<string, string>, rest: Partial<ClusterRole>): ClusterRole => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, labels },
    ...rest,
  });
  for (let i = 0; i < leaves; i++) {
    roles.push(
      role(
        `leaf-${String(i).padStart(5, '0')}`,
        { [`slice-${i % middle}`]: 'true', all: 'true' },
        {
          rules: [
            { apiGroups: [`g${i % 97}.example.org`], resources: [`r${i}`, `r${i}/status`], verbs: ['*'] },
            { apiGroups: [''], resources: ['events'], verbs: ['get', 'list', 'watch'] },
          ],
        },
      ),
    );
  }
  for (let j = 0; j < middle; j++) {
    roles.push(
      role(
        `agg-${String(j).padStart(4, '0')}`,
        { [`group-${j % top}`]: 'true' },
        {
          aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`slice-${j}`]: 'true' } }] },
        },
      ),
    );
  }
  for (let k = 0; k < top; k++) {
    roles.push(
      role(
        `top-${k}`,
        {},
        { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`group-${k}`]: 'true' } }] } },
      ),
    );
  }
  roles.push(
    role('everything', {}, { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { all: 'true' } }] } }),
  );
  return roles;
}

function timeMs(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

function benchExplain(): void {
  const roles = generateRoles(5000);
  const snapshot = { clusterRoles: roles, clusterRoleBindings: [], roleBindings: [] };
  const rssBefore = process.memoryUsage().rss;
  const first = timeMs(() => explainRole('top-3', snapshot));
  const runs = Array.from({ length: 5 }, () => timeMs(() => explainRole('top-3', snapshot)));
  const widest = Array.from({ length: 3 }, () => timeMs(() => explainRole('everything', snapshot)));
  const rss = process.memoryUsage().rss;
  // maxRSS is in kilobytes (getrusage's ru_maxrss on Linux).
  const peak = (process.resourceUsage().maxRSS * 1024) / MB;
  console.log(
    `explain over ${roles.length} ClusterRoles in-process: first ${fixed(first)} ms, then median ${fixed(median(runs))} ms (target < 300 ms); the role selecting all ${roles.length - 211} leaves: median ${fixed(median(widest))} ms; RSS ${fixed(rss / MB)} MB at the end, peak ${fixed(peak)} MB (target < 300 MB; ${fixed(rssBefore / MB)} MB after loading the modules and generating the roles)`,
  );
}

benchExplain();
