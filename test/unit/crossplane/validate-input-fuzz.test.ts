// A fuzz of the validator and the renderers behind it: hundreds of wrong types, each rendered. It takes seconds and
// covers nearly all of the core, so it is a file of its own, which the mutation run (vitest.stryker.config.ts)
// leaves out: it would run for every mutant and kills none the table tests leave alive.
import { describe, expect, it } from 'vitest';
import { convergeClusterRoles } from '../../../src/authz/aggregate.js';
import { UserError } from '../../../src/errors.js';
import { findPrivilegedBindings } from '../../../src/bind/privileged-rules.js';
import { renderSync } from '../../../src/sync/render.js';
import { snapshotFromObjects } from '../../../src/crossplane/snapshot.js';
import type { KubeObject } from '../../../src/kube/types.js';
import { findInvalidObjects } from '../../../src/crossplane/validate-input.js';
import { ALL_PARTS, readExamples } from './example-objects.js';

/** Every path of an object, lists followed into their first two entries. */
function pathsOf(
  v: unknown,
  at: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  if (at.length > 0) out.push(at);
  if (Array.isArray(v)) v.slice(0, 2).forEach((x: unknown, i) => pathsOf(x, [...at, i], out));
  else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
  }
  return out;
}

function withValueAt(o: KubeObject, at: readonly (string | number)[], value: unknown): KubeObject {
  const copy = structuredClone(o) as unknown as Record<string | number, unknown>;
  let cur: Record<string | number, unknown> = copy;
  for (const k of at.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  cur[at[at.length - 1] ?? ''] = value;
  return copy as unknown as KubeObject;
}

describe('wrong types in every field the plugin reads', () => {
  // One object of each kind (and an aggregated ClusterRole) from the example cluster; every path in it gets a
  // number, a string and a list of an empty mapping in turn. Either the validator refuses the object, or the
  // renderers, the aggregation and the privileged check work on it: a TypeError ("e.map is not a function") never
  // reaches the user.
  const examples = readExamples();
  const picks = new Map<string, number>();
  examples.forEach((o, i) => {
    const key = `${o.kind}${(o as { aggregationRule?: unknown }).aggregationRule !== undefined ? '+aggregated' : ''}`;
    if (!picks.has(key)) picks.set(key, i);
  });
  const cases: [string, number, (string | number)[], unknown][] = [];
  for (const [key, index] of picks) {
    const obj = examples[index];
    if (obj === undefined) continue;
    for (const at of pathsOf(obj)) {
      // apiVersion, kind and metadata.name are checked while reading (the corpus covers them).
      if (['apiVersion', 'kind', 'metadata', 'metadata.name'].includes(at.join('.'))) continue;
      for (const value of [7, 'x', [{}]]) cases.push([key, index, at, value]);
    }
  }

  it('covers hundreds of mutations', () => {
    expect(cases.length).toBeGreaterThan(500);
  });

  it('every mutation is refused or harmless', () => {
    const crashes: string[] = [];
    for (const [key, index, at, value] of cases) {
      const objects = examples.map((o, i) => (i === index ? withValueAt(o, at, value) : o));
      if (findInvalidObjects(objects, ALL_PARTS).length > 0) continue;
      const snapshot = snapshotFromObjects(objects);
      try {
        renderSync(snapshot);
        convergeClusterRoles(snapshot.clusterRoles);
        findPrivilegedBindings([], { clusterRoles: snapshot.clusterRoles, roles: new Map() });
      } catch (err) {
        if (!(err instanceof UserError))
          crashes.push(`${key} ${at.join('.')} = ${JSON.stringify(value)}: ${String(err)}`);
      }
    }
    expect(crashes).toStrictEqual([]);
  }, 60_000);
});
