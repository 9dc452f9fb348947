/** What connect.ts sends and makes of the answers: the Accept of metadata-only lists, objects with their kind. */
import type { KubeObject } from '../../kube/types.js';
import type { ResourceKind } from '../../port/cluster.js';

/** The Accept header of a metadata-only list, as client-go's metadata client sends it. */
export const METADATA_LIST_ACCEPT =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1,application/json';

/** A metadata-only item (`PartialObjectMetadata`) gets the listed kind; everything else keeps its own. */
export function withKind(kind: ResourceKind, obj: Record<string, unknown>): KubeObject {
  if (obj.kind === 'PartialObjectMetadata') return withKind(kind, { metadata: obj.metadata });
  const apiVersion = kind.group === '' ? kind.version : `${kind.group}/${kind.version}`;
  return {
    ...obj,
    apiVersion: (obj.apiVersion as string | undefined) ?? apiVersion,
    kind: (obj.kind as string | undefined) ?? kind.kind,
  } as KubeObject;
}
