/** What connect.ts sends and makes of the answers: the Accept of metadata-only lists, objects with their kind. */
import type { KubeObject } from '../../kube/types.js';
import type { ResourceKind } from '../../port/cluster.js';

/** The Accept header of a metadata-only list, as client-go's metadata client sends it. */
export const METADATA_LIST_ACCEPT =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1,application/json';

/**
 * A metadata-only item (`PartialObjectMetadata`) gets the listed kind; everything else keeps its own. OBJ, just
 * decoded and the caller's alone, is completed in place (a list's items carry no kind: a copy of each would be as
 * much garbage as the list): its members keep their order, apiVersion and kind last when it lacked them.
 */
export function withKind(kind: ResourceKind, obj: Record<string, unknown>): KubeObject {
  if (obj.kind === 'PartialObjectMetadata') return withKind(kind, { metadata: obj.metadata });
  obj.apiVersion ??= kind.group === '' ? kind.version : `${kind.group}/${kind.version}`;
  obj.kind ??= kind.kind;
  return obj as KubeObject;
}
