/** Fault injection: latency, errors, throttling, conflicts and dropped connections, by rate or for the next N. */
import type { RequestInfo } from './request-info.js';
import {
  ApiError,
  MODIFIED,
  conflict,
  internalError,
  serviceUnavailable,
  tooManyRequests,
} from './status.js';
import type { FaultConfig } from './types.js';

export const NO_FAULTS: FaultConfig = {
  latencyMs: 0,
  errorRate: 0,
  errorCode: 500,
  throttleRate: 0,
  retryAfterSeconds: 1,
  conflictRate: 0,
  dropRate: 0,
  answerDropRate: 0,
};

/**
 * The fault to inject into a resource request, if any: an error to answer with, 'drop' the connection before
 * serving the request, or 'drop-answer': serve it, then drop the connection instead of answering.
 */
export function pickFault(f: FaultConfig, ri: RequestInfo): ApiError | 'drop' | 'drop-answer' | undefined {
  const resource = ri.subresource !== '' ? `${ri.resource}/${ri.subresource}` : ri.resource;
  if (
    f.failNext !== undefined &&
    f.failNext.count > 0 &&
    (f.failNext.verbs === undefined || f.failNext.verbs.includes(ri.verb)) &&
    (f.failNext.resources === undefined || f.failNext.resources.includes(resource))
  ) {
    f.failNext.count -= 1;
    const code = f.failNext.code;
    if (f.failNext.count <= 0) f.failNext = undefined;
    return faultError(f, code, ri);
  }
  if (f.onlyVerbs !== undefined && !f.onlyVerbs.includes(ri.verb)) return undefined;
  if (f.onlyResources !== undefined && !f.onlyResources.includes(resource)) return undefined;
  if (f.dropRate > 0 && Math.random() < f.dropRate) return 'drop';
  if (f.throttleRate > 0 && Math.random() < f.throttleRate) return tooManyRequests(f.retryAfterSeconds);
  if (f.errorRate > 0 && Math.random() < f.errorRate) return faultError(f, f.errorCode, ri);
  if (ri.verb === 'update' && f.conflictRate > 0 && Math.random() < f.conflictRate) {
    return conflict({ group: ri.group, resource: ri.resource }, ri.name, MODIFIED);
  }
  if (f.answerDropRate > 0 && Math.random() < f.answerDropRate) return 'drop-answer';
  return undefined;
}

function faultError(f: FaultConfig, code: number, ri: RequestInfo): ApiError {
  switch (code) {
    case 429:
      return tooManyRequests(f.retryAfterSeconds);
    case 503:
      return serviceUnavailable('the server is currently unable to handle the request (injected fault)');
    case 409:
      return conflict({ group: ri.group, resource: ri.resource }, ri.name, MODIFIED);
    case 500:
      return internalError('injected fault');
    default:
      return new ApiError(code, 'Unknown', `injected fault (${code})`);
  }
}
