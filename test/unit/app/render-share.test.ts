/**
 * RenderShare: a render shared only between inputs equal by content, uids taken by place; each result must be the
 * render of its own input (renderSync on it alone), whether it was shared or not.
 */
import { describe, expect, it } from 'vitest';
import { RenderShare, renderInput } from '../../../src/app/render-share.js';
import type { KubeObject } from '../../../src/kube/types.js';
import { renderSync } from '../../../src/sync/render.js';
import {
  REVISION_X,
  REVISION_Y,
  variant,
  uidOf,
  deployment,
  renamedUids,
  alone,
} from './render-share-example.js';

describe('RenderShare', () => {
  it('shares between inputs that differ only in server-stamped metadata or in uids, each with its own uids', () => {
    const base = variant((o) => o, [deployment(uidOf(REVISION_X), 'sa-x')]);
    const stamped = variant(
      (o) => ({
        ...o,
        metadata: {
          ...o.metadata,
          resourceVersion: '987',
          creationTimestamp: '2030-01-01T00:00:00Z',
          generation: 7,
        },
      }),
      [deployment(uidOf(REVISION_X), 'sa-x')],
    );
    const renamed = variant(renamedUids, [renamedUids(deployment(uidOf(REVISION_X), 'sa-x'))]);
    const share = new RenderShare();
    for (const s of [base, stamped, renamed]) expect(share.render(s, {}, renderSync)).toEqual(alone(s));
    expect(share.counts()).toEqual({ rendered: 1, shared: 2 });
    // The renamed uids reach the owner references (the example's XRDs and revisions own their roles).
    const owners = share
      .render(renamed, {}, renderSync)
      .objects.flatMap((o) => (o.metadata.ownerReferences ?? []).map((r) => r.uid ?? ''));
    expect(owners.length).toBeGreaterThan(10);
    expect(owners.every((u) => u.startsWith('renamed-'))).toBe(true);
  });

  it('shares whatever the place of the server-stamped metadata among the rest, and not past one more member', () => {
    const STAMPS = { resourceVersion: '5', creationTimestamp: '2030-01-01T00:00:00Z', generation: 2 };
    const base = variant((o) => o);
    // The server's fields before every other member, after every other, or only some of them.
    const first = variant((o) => ({ ...o, metadata: { ...STAMPS, ...o.metadata } }));
    const last = variant((o) => ({ ...o, metadata: { ...o.metadata, ...STAMPS, selfLink: '/x' } }));
    const some = variant((o) => ({ ...o, metadata: { managedFields: [], ...o.metadata, generation: 9 } }));
    // One member more, also beside server fields: a difference (finalizers are no server stamp).
    const more = variant((o) =>
      o.kind === 'CompositeResourceDefinition'
        ? { ...o, metadata: { ...STAMPS, ...o.metadata, finalizers: ['x'] } }
        : o,
    );
    const share = new RenderShare();
    for (const s of [base, first, last, some, more])
      expect(share.render(s, {}, renderSync)).toEqual(alone(s));
    expect(share.counts()).toEqual({ rendered: 2, shared: 3 });
    // The member more on the side rendered first.
    const other = new RenderShare();
    for (const s of [more, base]) expect(other.render(s, {}, renderSync)).toEqual(alone(s));
    expect(other.counts()).toEqual({ rendered: 2, shared: 0 });
  });

  it('renders again when the uids are placed differently: a Deployment owned by another revision', () => {
    const x = variant((o) => o, [deployment(uidOf(REVISION_X), 'sa')]);
    const y = variant((o) => o, [deployment(uidOf(REVISION_Y), 'sa')]);
    const share = new RenderShare();
    expect(share.render(x, {}, renderSync)).toEqual(alone(x));
    expect(share.render(y, {}, renderSync)).toEqual(alone(y));
    expect(share.counts()).toEqual({ rendered: 2, shared: 0 });
    // The two renders differ (which revision's binding names the service account), so sharing would have shown.
    expect(alone(x)).not.toEqual(alone(y));
  });

  it('renders again when a revision and its Deployment have an empty uid (no uid, to the renderer) where others have one', () => {
    const given = variant((o) => o, [deployment(uidOf(REVISION_X), 'sa')]);
    // Every reference to revision X's uid made empty: the same places, but an empty uid owns nothing.
    const x = uidOf(REVISION_X);
    const emptied = (o: KubeObject): KubeObject =>
      JSON.parse(JSON.stringify(o).replaceAll(`"uid":"${x}"`, '"uid":""')) as KubeObject;
    const empty = variant(emptied, [deployment('', 'sa')]);
    const share = new RenderShare();
    expect(share.render(given, {}, renderSync)).toEqual(alone(given));
    expect(share.render(empty, {}, renderSync)).toEqual(alone(empty));
    expect(share.counts()).toEqual({ rendered: 2, shared: 0 });
    expect(alone(given)).not.toEqual(alone(empty));
  });

  it('renders again when content or options differ, and keeps at most KEEP renders', () => {
    const base = variant((o) => o);
    const labelled = variant((o) =>
      o.kind === 'CompositeResourceDefinition'
        ? { ...o, metadata: { ...o.metadata, labels: { ...o.metadata.labels, tier: 'gold' } } }
        : o,
    );
    const share = new RenderShare(1);
    expect(share.render(base, {}, renderSync)).toEqual(alone(base));
    expect(share.render(labelled, {}, renderSync)).toEqual(alone(labelled));
    expect(share.render(base, { manage: 'basic' }, renderSync)).toEqual(
      renderSync(renderInput(base), { manage: 'basic' }),
    );
    expect(share.render(base, {}, renderSync)).toEqual(alone(base));
    expect(share.counts()).toEqual({ rendered: 4, shared: 0 });
  });
});

describe('RenderShare: inputs compared in place, field by field', () => {
  /** The example with one ProviderRevision's last objectRef renamed: a field the renderer reads, deep in status. */
  const renamedRef = (o: KubeObject): KubeObject => {
    if (o.kind !== 'ProviderRevision' || o.metadata.name !== REVISION_X) return o;
    const text = JSON.stringify(o);
    const at = text.lastIndexOf('"name":"');
    if (at < 0) throw new Error(`no objectRef name in ${REVISION_X}`);
    return JSON.parse(`${text.slice(0, at)}"name":"zz${text.slice(at + 8)}`) as KubeObject;
  };

  it('renders again when a field the renderer reads differs deep in an object (a revision objectRef)', () => {
    const base = variant((o) => o);
    const other = variant(renamedRef);
    // The oracle: the two inputs render differently, so a shared render would show.
    expect(alone(other)).not.toEqual(alone(base));
    const share = new RenderShare();
    expect(share.render(base, {}, renderSync)).toEqual(alone(base));
    expect(share.render(other, {}, renderSync)).toEqual(alone(other));
    expect(share.counts()).toEqual({ rendered: 2, shared: 0 });
  });

  it('renders again when two uids of one input are one uid in the other (the map must be one to one)', () => {
    // Revision Y's uid replaced by revision X's everywhere: each place of the first input maps to one of the second,
    // but not back.
    const x = uidOf(REVISION_X);
    const y = uidOf(REVISION_Y);
    const merged = (o: KubeObject): KubeObject =>
      JSON.parse(JSON.stringify(o).replaceAll(`"uid":"${y}"`, `"uid":"${x}"`)) as KubeObject;
    for (const [first, second] of [
      [variant((o) => o), variant(merged)],
      [variant(merged), variant((o) => o)],
    ] as const) {
      const share = new RenderShare();
      expect(share.render(first, {}, renderSync)).toEqual(alone(first));
      expect(share.render(second, {}, renderSync)).toEqual(alone(second));
      expect(share.counts()).toEqual({ rendered: 2, shared: 0 });
    }
  });

  // A hostile cluster's data must not take another context's render: metadata the renderer reads is compared, an
  // annotation that pauses a revision, and a deletionTimestamp (stamped by the server, but read: never one of the
  // fields left out). The oracle: each result is the render of its own input alone.
  it.each([
    [
      'a paused revision',
      (o: KubeObject): KubeObject =>
        o.metadata.name === REVISION_X
          ? { ...o, metadata: { ...o.metadata, annotations: { 'crossplane.io/paused': 'true' } } }
          : o,
    ],
    [
      'an XRD being deleted',
      (o: KubeObject): KubeObject =>
        o.kind === 'CompositeResourceDefinition'
          ? { ...o, metadata: { ...o.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }
          : o,
    ],
  ])('renders again for %s', (_what, edit) => {
    const base = variant((o) => o);
    const other = variant(edit);
    const share = new RenderShare();
    expect(share.render(base, {}, renderSync)).toEqual(alone(base));
    expect(share.render(other, {}, renderSync)).toEqual(alone(other));
    expect(share.counts()).toEqual({ rendered: 2, shared: 0 });
  });

  it('renders again when the same members come in another order (what the renderer copies keeps its order)', () => {
    // A revision's spec is keyed as it is (an XRD's is rebuilt from its members by name: renderInput).
    const reordered = (o: KubeObject): KubeObject =>
      o.kind === 'ProviderRevision'
        ? { ...o, spec: Object.fromEntries(Object.entries(o.spec ?? {}).reverse()) }
        : o;
    const share = new RenderShare();
    for (const s of [variant((o) => o), variant(reordered)]) {
      expect(share.render(s, {}, renderSync)).toEqual(alone(s));
    }
    expect(share.counts()).toEqual({ rendered: 2, shared: 0 });
  });
});
