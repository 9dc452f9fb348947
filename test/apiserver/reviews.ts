/**
 * The access reviews: SelfSubjectRulesReview, SelfSubjectAccessReview, SubjectAccessReview and
 * LocalSubjectAccessReview, answered by the same authorizer as the requests themselves. Nothing is stored.
 */
import type { PolicySource, UserInfo } from './authz.js';
import { authorize, reviewAttributes, rulesReviewStatus } from './authz.js';
import { groupVersion } from './objects.js';
import type { RequestAttributes } from './rbac-rules.js';
import type { ResourceInfo } from './registry.js';
import { badRequest, pathNotFound } from './status.js';
import type { Obj } from './types.js';

/** The review as created: the spec sent, with the status filled in. */
export function review(
  policy: PolicySource,
  info: ResourceInfo,
  body: Obj,
  user: UserInfo,
  namespace: string,
): Obj {
  const spec = (body.spec ?? {}) as Obj;
  const out: Obj = {
    kind: info.kind,
    apiVersion: groupVersion(info),
    metadata: { creationTimestamp: null },
    spec,
  };
  switch (info.resource) {
    case 'selfsubjectrulesreviews':
      out.status = rulesReviewStatus(policy, user, String(spec.namespace ?? ''));
      return out;
    case 'selfsubjectaccessreviews':
      out.status = decide(policy, user, reviewAttributes(spec));
      return out;
    case 'subjectaccessreviews':
    case 'localsubjectaccessreviews': {
      const subject: UserInfo = {
        name: String(spec.user ?? ''),
        groups: Array.isArray(spec.groups) ? (spec.groups as string[]) : [],
      };
      let attrs = reviewAttributes(spec);
      if (info.resource === 'localsubjectaccessreviews') {
        if (attrs.namespace !== '' && attrs.namespace !== namespace) {
          throw badRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
        }
        attrs = { ...attrs, namespace };
      }
      out.status = decide(policy, subject, attrs);
      return out;
    }
    default:
      throw pathNotFound();
  }
}

/** A review's status: allowed or not, with the authorizer's reason when it gave one. */
function decide(policy: PolicySource, user: UserInfo, attrs: RequestAttributes): Obj {
  const decision = authorize(policy, user, attrs);
  return decision.reason === ''
    ? { allowed: decision.allowed }
    : { allowed: decision.allowed, reason: decision.reason };
}
