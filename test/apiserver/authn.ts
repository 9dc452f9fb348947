/**
 * Authentication: bearer tokens mapped to users, then the impersonation filter, where every identity asked for in
 * an Impersonate-* header needs the `impersonate` verb on it.
 */
import type http from 'node:http';
import type { PolicySource, UserInfo } from './authz.js';
import { AUTHENTICATED, authorize, forbiddenMessage } from './authz.js';
import { resourceAttributes } from './rbac-rules.js';
import type { RequestAttributes } from './rbac-rules.js';
import { forbidden, internalError, unauthorized } from './status.js';

/** The user a bearer token stands for; 401 for a missing or unknown token. */
export function authenticate(tokens: ReadonlyMap<string, UserInfo>, req: http.IncomingMessage): UserInfo {
  const header = req.headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const user = m === null ? undefined : tokens.get(m[1] ?? '');
  if (user === undefined) throw unauthorized();
  return user;
}

/** The identity a request acts as: the authenticated user, or the one it may impersonate. */
export function impersonate(policy: PolicySource, req: http.IncomingMessage, user: UserInfo): UserInfo {
  const users = req.headersDistinct['impersonate-user'] ?? [];
  const groups = req.headersDistinct['impersonate-group'] ?? [];
  const extras = Object.keys(req.headers).filter((h) => h.startsWith('impersonate-extra-'));
  if (users.length === 0) {
    if (groups.length > 0 || extras.length > 0) {
      throw internalError(
        `requested [${groups.map((g) => `{Group  ${g}  }`).join(' ')}] without impersonating a user`,
      );
    }
    return user;
  }
  const name = users[0] ?? '';
  const check = (attrs: RequestAttributes): void => {
    const decision = authorize(policy, user, attrs);
    if (!decision.allowed) {
      throw forbidden(
        { group: attrs.apiGroup, resource: attrs.resource },
        attrs.name,
        forbiddenMessage(user, attrs, decision.reason),
      );
    }
  };
  const impersonateAttrs = (a: Omit<Parameters<typeof resourceAttributes>[0], 'verb'>): RequestAttributes =>
    resourceAttributes({ verb: 'impersonate', ...a });
  const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(name);
  if (sa !== null) {
    check(impersonateAttrs({ resource: 'serviceaccounts', namespace: sa[1] ?? '', name: sa[2] ?? '' }));
  } else {
    check(impersonateAttrs({ resource: 'users', name }));
  }
  for (const g of groups) check(impersonateAttrs({ resource: 'groups', name: g }));
  for (const h of extras) {
    const key = h.slice('impersonate-extra-'.length);
    for (const v of req.headersDistinct[h] ?? []) {
      check(
        impersonateAttrs({
          apiGroup: 'authentication.k8s.io',
          resource: 'userextras',
          subresource: key,
          name: v,
        }),
      );
    }
  }
  const out = [...groups];
  if (sa !== null && groups.length === 0)
    out.push('system:serviceaccounts', `system:serviceaccounts:${sa[1] ?? ''}`);
  if (name !== 'system:anonymous' && !out.includes(AUTHENTICATED)) out.push(AUTHENTICATED);
  return { name, groups: out };
}
