/**
 * What connect.ts makes of client-node's answers: its exceptions as ApiError, its objects as plain JSON with their
 * kind, and the request options it sends.
 */
import { ApiException } from '@kubernetes/client-node';
import type { KubeObject } from '../../kube/types.js';
import type { ResourceKind, WriteOptions } from '../../port/cluster.js';
import { ApiError, type StatusBody } from '../../port/translate-error.js';
import type { Answer } from './http-answer.js';

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
  return apiError(e.code, e.body, e.headers);
}

/** A write's non-2xx answer as the ApiError a client-node request throws for it. */
export function answerError(answer: Answer): ApiError {
  return apiError(answer.status, answer.body.toString('utf8'), answer.headers);
}

/** The Status body (JSON, or the text as its message) and Retry-After of an error answer. */
function apiError(code: number, body: unknown, headers: Record<string, string> | undefined): ApiError {
  let parsed = body;
  if (typeof parsed === 'string') {
    try {
      parsed = JSON.parse(parsed);
    } catch {
      parsed = { message: parsed };
    }
  }
  const status = typeof parsed === 'object' && parsed !== null ? (parsed as StatusBody) : undefined;
  const retryAfter = headers?.['retry-after'];
  const seconds = retryAfter !== undefined && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  return new ApiError(code, status, seconds);
}

export function dryRunParam(opts: WriteOptions): { dryRun?: string } {
  return opts.dryRun === true ? { dryRun: 'All' } : {};
}

/** Model objects of client-node carry Dates and class instances; our core wants plain JSON. */
export function plain(obj: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(obj)) as Record<string, unknown>;
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
