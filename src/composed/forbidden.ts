/**
 * Reads the API server's "forbidden" messages: the text Kubernetes' RBAC authorizer puts in a 403 (apiserver
 * pkg/endpoints/handlers/responsewriters/errors.go, forbiddenMessage, wrapped by apimachinery's NewForbidden as
 * `<resource>.<group> "<name>" is forbidden: <message>`), as Crossplane copies it into events and conditions:
 *
 *   User "U" cannot VERB resource "R[/SUB]" in API group "G" in the namespace "NS"
 *   User "U" cannot VERB resource "R[/SUB]" in API group "G" at the cluster scope
 *
 * A message may hold several (Crossplane joins errors) and end with the authorizer's reason (`: RBAC: ...`).
 */

export interface ForbiddenRequest {
  readonly user: string;
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
  /** Absent: the cluster scope. */
  readonly namespace?: string;
  /** The object's name, when the error named one (`cronjobs.batch "x" is forbidden`). */
  readonly name?: string;
}

// A Go %q string: quotes, with backslash escapes inside.
const QUOTED = String.raw`"((?:[^"\\]|\\.)*)"`;
const FORBIDDEN = new RegExp(
  String.raw`(?:(\S+?)(?: ${QUOTED})? is forbidden: )?User ${QUOTED} cannot (\S+) resource ${QUOTED} in API group ${QUOTED} (?:in the namespace ${QUOTED}|at the cluster scope)`,
  'g',
);

/** Undoes Go's %q escaping for the characters a name, group or user can hold. */
function unquote(s: string): string {
  return s.replace(/\\(["\\])/g, '$1');
}

/** Every forbidden request a message reports, in order; none when it reports none. */
export function parseForbidden(message: string): ForbiddenRequest[] {
  const out: ForbiddenRequest[] = [];
  for (const m of message.matchAll(FORBIDDEN)) {
    const [, , name, user, verb, resourceText, group, namespace] = m;
    if (user === undefined || verb === undefined || resourceText === undefined || group === undefined)
      continue;
    const full = unquote(resourceText);
    const slash = full.indexOf('/');
    out.push({
      user: unquote(user),
      verb,
      group: unquote(group),
      resource: slash < 0 ? full : full.slice(0, slash),
      ...(slash < 0 ? {} : { subresource: full.slice(slash + 1) }),
      ...(namespace !== undefined ? { namespace: unquote(namespace) } : {}),
      ...(name !== undefined ? { name: unquote(name) } : {}),
    });
  }
  return out;
}
