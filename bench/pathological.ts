/**
 * The pathological RBAC case of `npm run bench` (issue 37 item 4): what someone who may create bindings can make an
 * administrator's read commands chew on, offline (-f), each figure printed beside its target. The inputs are those
 * the tests bound the work of (test/support/pathological-rbac.ts), at the sizes of the issue.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bombList } from '../test/support/pathological-rbac.js';
import { fixed } from './figures.js';
import { BIN, binDir, mem, runAsync, work, type Measured } from './process.js';

async function timed(args: readonly string[], okCodes: readonly number[] = [0]): Promise<Measured> {
  return runAsync(join(binDir, BIN), args, {}, { okCodes, peak: true });
}

export async function benchPathological(): Promise<void> {
  const input = (name: string, sources: number, bindings: number): string => {
    const file = join(work, `${name}.json`);
    writeFileSync(file, bombList({ sources, bindings }));
    return file;
  };
  const subject = input('bomb-1000x2000', 2_000, 1_000);
  // Denied (exit 1): the reasons for the denial are part of the work.
  const e = await timed(
    ['explain', '--subject', 'User:victim', '--for', 'secrets', '--verb', 'get', '-f', subject],
    [1],
  );
  console.log(
    `explain --subject --for secrets --verb get, the subject bound 1,000 times to one role aggregating 2,000: ${fixed(e.ms)} ms (target < 2000 ms), ${mem(e)}`,
  );
  const w = await timed(['who-can', 'get', 'secrets', '-A', '-f', subject, '-o', 'json']);
  console.log(`who-can on the same input: ${fixed(w.ms)} ms, ${mem(w)} (informational)`);

  const matrix = input('bomb-matrix-10000', 2_000, 10_000);
  const m = await timed(['explain', '--subject', 'User:victim', '--matrix', '-f', matrix]);
  console.log(
    `explain --subject --matrix over 10,000 ClusterRoleBindings: ${fixed(m.ms)} ms, ${mem(m)} (target < 400 MB)`,
  );

  const rows = input('bomb-lookup-100x2000', 2_000, 100);
  const l = await timed(['lookup', '-o', 'wide', '-f', rows]);
  const lines = l.out.split('\n').length - 2;
  console.log(
    `lookup -o wide of ${lines.toLocaleString('en-US')} rows: ${fixed(l.ms)} ms, ${mem(l)} (target: printed, no row limit)`,
  );
}
