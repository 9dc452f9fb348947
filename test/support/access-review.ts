// The test API server's own answer to "may this identity do that?": a SubjectAccessReview posted as the
// administrator. The oracle of the who-can tests (the server's authorizer shares no code with the plugin).
import { ADMIN_TOKEN } from '../apiserver/types.js';

/** A request as who-can and explain report it: a resource request, or a non-resource one (PATH). */
export interface ReviewedRequest {
  readonly verb: string;
  readonly apiGroup?: string;
  readonly resource?: string;
  readonly subresource?: string;
  readonly name?: string;
  readonly namespace?: string;
  readonly path?: string;
}

export interface Identity {
  readonly user: string;
  readonly groups: readonly string[];
}

/** The identity that holds exactly SUBJECT: a User alone, a Group on PROBE (a user nobody binds), a bare SA. */
export function identityHolding(
  s: { readonly kind: string; readonly name: string; readonly namespace?: string },
  probe: string,
): Identity {
  if (s.kind === 'User') return { user: s.name, groups: [] };
  if (s.kind === 'Group') return { user: probe, groups: [s.name] };
  return { user: `system:serviceaccount:${s.namespace ?? ''}:${s.name}`, groups: [] };
}

/** Whether the server at URL allows IDENTITY the request R. */
export async function subjectAccessReview(
  url: string,
  identity: Identity,
  r: ReviewedRequest,
): Promise<boolean> {
  const spec =
    r.path !== undefined
      ? { ...identity, nonResourceAttributes: { verb: r.verb, path: r.path } }
      : {
          ...identity,
          resourceAttributes: {
            verb: r.verb,
            group: r.apiGroup ?? '',
            resource: r.resource ?? '',
            subresource: r.subresource ?? '',
            name: r.name ?? '',
            namespace: r.namespace ?? '',
          },
        };
  const res = await fetch(`${url}/apis/authorization.k8s.io/v1/subjectaccessreviews`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec }),
  });
  return ((await res.json()) as { status: { allowed: boolean } }).status.allowed;
}
