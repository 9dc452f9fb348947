/**
 * What connect.ts makes of client-node's answers: its exceptions as ApiError, its objects as plain JSON with their
 * kind, and the request options it sends.
 */
import { ApiException } from '@kubernetes/client-node';
import type { KubeObject } from '../../kube/types.js';
import type { ResourceKind, WriteOptions } from '../../port/cluster.js';
import { ApiError, type StatusBody } from '../../port/translate-error.js';

/** Runs a request, converting client-node's exceptions to ApiError (the transport has already retried). */
export async function retrying<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toApiError(err) ?? err;
  }
}

function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (!(err instanceof ApiException)) return undefined;
  const e = err as ApiException<unknown>;
  let body: unknown = e.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      body = { message: body };
    }
  }
  const status = typeof body === 'object' && body !== null ? (body as StatusBody) : undefined;
  const retryAfter = (e.headers as Record<string, string> | undefined)?.['retry-after'];
  const seconds = retryAfter !== undefined && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  return new ApiError(e.code, status, seconds);
}

export function dryRunParam(opts: WriteOptions): { dryRun?: string } {
  return opts.dryRun === true ? { dryRun: 'All' } : {};
}

/** Model objects of client-node carry Dates and class instances; our core wants plain JSON. */
export function plain(obj: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(obj)) as Record<string, unknown>;
}

/**
 * The answer of a CustomObjectsApi call: its body as JSON.parse made it (client-node deserializes it as `any`,
 * returning the parsed value itself), so already plain JSON: not copied again (a cold sync writes thousands).
 */
export function parsedBody(out: unknown): Record<string, unknown> {
  if (typeof out !== 'object' || out === null || Array.isArray(out)) {
    throw new Error(
      `the API server answered a write with ${out === null ? 'null' : typeof out}, not an object`,
    );
  }
  return out as Record<string, unknown>;
}

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
