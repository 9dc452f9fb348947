// Crossplane v1 mode over examples/large, which has an XRD whose name is longer than 63 characters. Crossplane v1.x
// labels an XRD's edit, view and browse roles `rbac.crossplane.io/xrd: <name>`; the namespace roles aggregate them
// with selectors on that label. Every label value must be a valid one, or the API server refuses the write:
// kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/api/validate/content/kube.go
// @c2c7d507620b919d8c6cd5d43e689e7656186df5 IsLabelValue (at most 63 characters, pattern below), applied to
// metadata.labels and to a selector's matchLabels by staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/
// validation.go @046d201c45cebd19eb1fc4612426761c64802825 ValidateLabels and ValidateLabelSelector.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { renderSync } from '../../../src/sync/render.js';
import { snapshotFromObjects } from '../../../src/crossplane/snapshot.js';
import type { ClusterRole, KubeObject, LabelSelector, RbacObject } from '../../../src/kube/types.js';

const LARGE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'examples',
  'large',
  'cluster.yaml',
);
const LABEL_VALUE_MAX = 63;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const XRD_LABEL = 'rbac.crossplane.io/xrd';

function isValidLabelValue(v: string): boolean {
  return v.length <= LABEL_VALUE_MAX && LABEL_VALUE.test(v);
}

/** matchLabels only: every key equal (the namespace roles use no expressions; checked below). */
function selects(sel: LabelSelector, labels: Record<string, string> | undefined): boolean {
  return Object.entries(sel.matchLabels ?? {}).every(([k, v]) => labels?.[k] === v);
}

const objects = parseAllDocuments(readFileSync(LARGE, 'utf8'))
  .map((d) => d.toJS() as KubeObject | null)
  .filter((o): o is KubeObject => o !== null);
const xrdNames = objects.filter((o) => o.kind === 'CompositeResourceDefinition').map((o) => o.metadata.name);
const longXrd = xrdNames.find((n) => n.length > LABEL_VALUE_MAX);
const rendered: readonly RbacObject[] = renderSync(snapshotFromObjects(objects), {
  crossplaneVersion: 'v1',
}).objects;
const clusterRoles = rendered.filter((o): o is ClusterRole => o.kind === 'ClusterRole');

describe('examples/large in Crossplane v1 mode', () => {
  it('has an XRD named longer than a label value may be, and renders namespace roles', () => {
    expect(longXrd).toBeDefined();
    expect(clusterRoles.some((r) => r.metadata.name.startsWith('crossplane-ns-'))).toBe(true);
  });

  it('renders only valid label values, in labels and in selectors', () => {
    const bad: string[] = [];
    for (const o of rendered) {
      for (const [k, v] of Object.entries(o.metadata.labels ?? {})) {
        if (!isValidLabelValue(v)) bad.push(`${o.kind}/${o.metadata.name} label ${k}=${v}`);
      }
      for (const sel of (o as ClusterRole).aggregationRule?.clusterRoleSelectors ?? []) {
        expect(sel.matchExpressions ?? []).toEqual([]);
        for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
          if (!isValidLabelValue(v)) bad.push(`${o.kind}/${o.metadata.name} selector ${k}=${v}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it("has every namespace role's XRD selector select that XRD's v1 role and its namespace role", () => {
    const byXrdLabel = new Map<string, ClusterRole[]>();
    for (const r of clusterRoles) {
      const v = r.metadata.labels?.[XRD_LABEL];
      if (v !== undefined) byXrdLabel.set(v, [...(byXrdLabel.get(v) ?? []), r]);
    }
    const selectedXrds = new Set<string>();
    let checked = 0;
    for (const nsRole of clusterRoles.filter((r) => r.metadata.name.startsWith('crossplane-ns-'))) {
      const kind = nsRole.metadata.name.endsWith('-edit') ? 'edit' : 'view';
      for (const sel of nsRole.aggregationRule?.clusterRoleSelectors ?? []) {
        const value = sel.matchLabels?.[XRD_LABEL];
        if (value === undefined) continue;
        const matched = (byXrdLabel.get(value) ?? []).filter((r) => selects(sel, r.metadata.labels));
        // The XRD's own role (v1 puts the label on it) and the plugin's namespace role of the same XRD.
        const own = matched.filter((r) => r.metadata.name.endsWith(`:aggregate-to-${kind}`));
        const ns = matched.filter((r) => r.metadata.name.endsWith(`:aggregate-to-ns-${kind}`));
        expect(own, `${nsRole.metadata.name} selector ${value}`).toHaveLength(1);
        expect(ns, `${nsRole.metadata.name} selector ${value}`).toHaveLength(1);
        const xrd = own[0]!.metadata.name.slice(
          'crossplane:composite:'.length,
          -`:aggregate-to-${kind}`.length,
        );
        expect(ns[0]!.metadata.name).toBe(`crossplane:composite:${xrd}:aggregate-to-ns-${kind}`);
        selectedXrds.add(xrd);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect([...selectedXrds]).toContain(longXrd);
  });
});
