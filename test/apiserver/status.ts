/**
 * Status bodies worded like the real API server's (k8s.io/apimachinery/pkg/api/errors).
 */

export interface StatusCause {
  reason: string;
  message: string;
  field: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** An error the server answers with a Status body. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details !== undefined ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

/** A group and resource, printed like schema.GroupResource ("clusterroles.rbac.authorization.k8s.io"). */
export interface GroupResource {
  group: string;
  resource: string;
}

export function qualified(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

function details(gr: GroupResource, name: string): StatusDetails {
  return { name, group: gr.group, kind: gr.resource };
}

export function notFound(gr: GroupResource, name: string): ApiError {
  return new ApiError(404, 'NotFound', `${qualified(gr)} "${name}" not found`, details(gr, name));
}

export function alreadyExists(gr: GroupResource, name: string): ApiError {
  return new ApiError(409, 'AlreadyExists', `${qualified(gr)} "${name}" already exists`, details(gr, name));
}

export function conflict(gr: GroupResource, name: string, why: string): ApiError {
  return new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualified(gr)} "${name}": ${why}`,
    details(gr, name),
  );
}

export const MODIFIED =
  'the object has been modified; please apply your changes to the latest version and try again';

/** errors.NewForbidden: the name is left out of the message when empty. */
export function forbidden(gr: GroupResource, name: string, why: string): ApiError {
  const subject = name === '' ? qualified(gr) : `${qualified(gr)} "${name}"`;
  return new ApiError(403, 'Forbidden', `${subject} is forbidden: ${why}`, details(gr, name));
}

export function forbiddenPath(why: string): ApiError {
  return new ApiError(403, 'Forbidden', `forbidden: ${why}`, {});
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

export function unauthorized(): ApiError {
  return new ApiError(401, 'Unauthorized', 'Unauthorized');
}

export function methodNotSupported(gr: GroupResource, action: string): ApiError {
  return new ApiError(
    405,
    'MethodNotAllowed',
    `${action} is not supported on resources of kind "${qualified(gr)}"`,
    { group: gr.group, kind: gr.resource },
  );
}

export function pathNotFound(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** errors.NewInvalid: the kind (not the resource) qualified by group, and one cause per field error. */
export function invalid(group: string, kind: string, name: string, causes: StatusCause[]): ApiError {
  const qualifiedKind = group === '' ? kind : `${kind}.${group}`;
  const texts = causes.map((c) => `${c.field}: ${c.message}`);
  const joined = texts.length === 1 ? (texts[0] ?? '') : `[${texts.join(', ')}]`;
  return new ApiError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${joined}`, {
    name,
    group,
    kind,
    causes,
  });
}

/** errors.NewResourceExpired: 410 with reason Expired (a resourceVersion older than the history kept). */
export function resourceExpired(message: string): ApiError {
  return new ApiError(410, 'Expired', message);
}

export function internalError(message: string): ApiError {
  return new ApiError(500, 'InternalError', `Internal error occurred: ${message}`, {
    causes: [{ reason: '', message, field: '' }],
  });
}

export function serviceUnavailable(message: string): ApiError {
  return new ApiError(503, 'ServiceUnavailable', message);
}

export function tooManyRequests(retryAfterSeconds: number): ApiError {
  return new ApiError(
    429,
    'TooManyRequests',
    'Too many requests, please try again later.',
    { retryAfterSeconds },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

export function unsupportedMediaType(contentType: string): ApiError {
  return new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json; got ${contentType}`,
  );
}
