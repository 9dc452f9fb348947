/** The example cluster and its variants, for the tests of RenderShare and of renderInput (the render key). */
import { readFileSync, readdirSync } from 'node:fs';
import { expect } from 'vitest';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { RenderShare, renderInput, type ShareCounts } from '../../../src/app/render-share.js';
import { snapshotFromObjects } from '../../../src/crossplane/snapshot.js';
import type { ClusterSnapshot, KubeObject } from '../../../src/kube/types.js';
import { renderSync } from '../../../src/sync/render.js';

const example = join(import.meta.dirname, '..', '..', '..', 'examples', 'cluster');
const objects: KubeObject[] = readdirSync(example)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .flatMap((f) =>
    parseAllDocuments(readFileSync(join(example, f), 'utf8')).map((d) => d.toJS() as KubeObject),
  )
  .filter((o) => o !== null);

export const REVISION_X = 'crossplane-contrib-provider-helm-9dcdf52e24b6';
export const REVISION_Y = 'crossplane-contrib-provider-kubernetes-408e44da486e';

/** The example with each object passed through EDIT (a copy), plus EXTRA. */
export function variant(
  edit: (o: KubeObject) => KubeObject,
  extra: readonly KubeObject[] = [],
): ClusterSnapshot {
  return snapshotFromObjects([...objects.map((o) => edit(structuredClone(o))), ...extra]);
}

export const uidOf = (name: string): string => {
  const uid = objects.find((o) => o.metadata.name === name)?.metadata.uid;
  if (uid === undefined) throw new Error(`no uid on ${name}`);
  return uid;
};

/** A provider Deployment owned by the revision with OWNER_UID, running as SA. */
export function deployment(ownerUid: string, sa: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'provider-pod',
      namespace: 'crossplane-system',
      ownerReferences: [
        {
          apiVersion: 'pkg.crossplane.io/v1',
          kind: 'ProviderRevision',
          name: 'r',
          uid: ownerUid,
          controller: true,
        },
      ],
    },
    spec: { template: { spec: { serviceAccountName: sa } } },
  };
}

/** Every uid string of A mapped to a new one (the same new one wherever it appears). */
export function renamedUids(o: KubeObject): KubeObject {
  const text = JSON.stringify(o).replace(/"uid":"([^"]*)"/g, (_m, u: string) => `"uid":"renamed-${u}"`);
  return JSON.parse(text) as KubeObject;
}

/** The render of S alone, as sync renders one cluster. */
export const alone = (s: ClusterSnapshot) => renderSync(renderInput(s), {});

/**
 * INPUTS rendered in turn through one RenderShare, each result checked to be its render alone (shared or not): what
 * the share counted.
 */
export function shareInTurn(inputs: readonly ClusterSnapshot[]): ShareCounts {
  const share = new RenderShare();
  for (const s of inputs) expect(share.render(s, {}, renderSync)).toEqual(alone(s));
  return share.counts();
}
