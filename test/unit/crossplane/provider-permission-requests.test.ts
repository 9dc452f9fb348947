// Crossplane v1's permission requests, against release-1.20 internal/controller/rbac/provider/roles/requests.go
// (crossplane/crossplane @v1.20.0): Expand breaks rules into granular ones (URLs first, then group x resource x name x
// verb, an empty resourceNames list standing for "*"), Rule.String prints them, and ClusterRoleBackedValidator
// rejects a granular request no granular allowed rule covers segment by segment ("*" in the allowed rule matches any
// value).
import { describe, expect, it } from 'vitest';
import {
  expandRules,
  formatGranularRule,
  permissionRequestRules,
  rejectedPermissionRequests,
  rejectedRequestsWarning,
  type GranularRule,
} from '../../../src/crossplane/provider/permission-requests.js';
import type { ClusterRole, PolicyRule, ProviderRevision } from '../../../src/kube/types.js';
import { rev } from '../sync/sync-fixtures.js';

describe('expandRules (requests.go Expand)', () => {
  const cases: Record<string, { reason: string; rules: PolicyRule[]; want: GranularRule[] }> = {
    NonResourceURLs: {
      reason: 'One granular rule per URL and verb, the URLs before the resources of the same rule.',
      rules: [
        { nonResourceURLs: ['/healthz', '/metrics'], apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      ],
      want: [
        { nonResourceURL: '/healthz', verb: 'get' },
        { nonResourceURL: '/metrics', verb: 'get' },
        { apiGroup: '', resource: 'pods', resourceName: '*', verb: 'get' },
      ],
    },
    ResourceNames: {
      reason: 'Each resource name is its own granular rule; names vary before verbs.',
      rules: [
        { apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'], verbs: ['get', 'update'] },
      ],
      want: [
        { apiGroup: '', resource: 'configmaps', resourceName: 'a', verb: 'get' },
        { apiGroup: '', resource: 'configmaps', resourceName: 'a', verb: 'update' },
        { apiGroup: '', resource: 'configmaps', resourceName: 'b', verb: 'get' },
        { apiGroup: '', resource: 'configmaps', resourceName: 'b', verb: 'update' },
      ],
    },
    EmptyResourceNames: {
      reason: 'An empty resourceNames list means any name: Expand uses the wildcard (len(names) < 1).',
      rules: [{ apiGroups: ['apps'], resources: ['deployments'], resourceNames: [], verbs: ['list'] }],
      want: [{ apiGroup: 'apps', resource: 'deployments', resourceName: '*', verb: 'list' }],
    },
    NoApiGroups: {
      reason: 'Without apiGroups the loop over groups never runs: no resource rule at all.',
      rules: [{ resources: ['pods'], verbs: ['get'] }],
      want: [],
    },
    NoResources: {
      reason: 'Without resources the loop over resources never runs.',
      rules: [{ apiGroups: [''], verbs: ['get'] }],
      want: [],
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(expandRules(tc.rules), tc.reason).toEqual(tc.want);
  });
});

describe('rejectedPermissionRequests (ClusterRoleBackedValidator)', () => {
  const cases: Record<
    string,
    { reason: string; requests: PolicyRule[]; allowed: PolicyRule[] | undefined; want: GranularRule[] }
  > = {
    OtherUrlRejected: {
      reason: 'An allowed URL covers only itself: /metrics is not /healthz.',
      requests: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
      allowed: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
      want: [{ nonResourceURL: '/metrics', verb: 'get' }],
    },
    SameUrlOtherVerbRejected: {
      reason: 'The verb is a segment of the path too.',
      requests: [{ nonResourceURLs: ['/healthz'], verbs: ['post'] }],
      allowed: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
      want: [{ nonResourceURL: '/healthz', verb: 'post' }],
    },
    SameUrlAllowed: {
      reason: 'The same URL and verb is covered.',
      requests: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
      allowed: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
      want: [],
    },
    UrlIsNoResource: {
      reason:
        'A URL path ("url", URL, verb) never meets a resource path ("resource", group, resource, name, verb).',
      requests: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
      allowed: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
      want: [{ nonResourceURL: '/healthz', verb: 'get' }],
    },
    NamedAllowedCoversOnlyThatName: {
      reason: 'An allowed rule for resource name "a" does not cover any name ("*" in the request).',
      requests: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
      allowed: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'], verbs: ['get'] }],
      want: [{ apiGroup: '', resource: 'configmaps', resourceName: '*', verb: 'get' }],
    },
    NoAllowedRole: {
      reason: 'VerySecureValidator (no --provider-clusterrole) rejects every request.',
      requests: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }],
      allowed: undefined,
      want: [{ apiGroup: '', resource: 'nodes', resourceName: '*', verb: 'get' }],
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(rejectedPermissionRequests(tc.requests, tc.allowed), tc.reason).toEqual(tc.want);
  });
});

describe('formatGranularRule (requests.go Rule.String)', () => {
  it('prints a URL rule as {nonResourceURL: %q, verb: %q}', () => {
    expect(formatGranularRule({ nonResourceURL: '/healthz', verb: 'get' })).toBe(
      '{nonResourceURL: "/healthz", verb: "get"}',
    );
  });

  it('prints a resource rule as {apiGroup: %q, resource: %q, resourceName: %q, verb: %q}', () => {
    expect(formatGranularRule({ apiGroup: '', resource: 'pods', resourceName: '*', verb: 'get' })).toBe(
      '{apiGroup: "", resource: "pods", resourceName: "*", verb: "get"}',
    );
  });
});

describe('permissionRequestRules', () => {
  it('keeps every non-empty list of a request, resourceNames included, in print order', () => {
    const r: ProviderRevision = {
      ...rev('p-1', ['things.a.io']),
      status: {
        permissionRequests: [
          { verbs: ['get'], resources: ['configmaps'], resourceNames: ['leader'], apiGroups: [''] },
          { verbs: ['get'], nonResourceURLs: ['/healthz'], resourceNames: [], apiGroups: [] },
        ],
      },
    };
    expect(permissionRequestRules(r)).toStrictEqual([
      { apiGroups: [''], resourceNames: ['leader'], resources: ['configmaps'], verbs: ['get'] },
      // omitempty: the API server stores no empty list.
      { nonResourceURLs: ['/healthz'], verbs: ['get'] },
    ]);
  });

  it('gives nothing for a revision without status', () => {
    const r = rev('p-1', []);
    delete (r as { status?: unknown }).status;
    expect(permissionRequestRules(r)).toEqual([]);
  });
});

describe('rejectedRequestsWarning', () => {
  const r = rev('provider-a-1', ['things.a.io']);
  const granular = (verb: string): GranularRule => ({
    apiGroup: '',
    resource: 'pods',
    resourceName: '*',
    verb,
  });
  const role = { metadata: { name: 'crossplane:allowed-provider-permissions' } } as ClusterRole;

  it('names at most three rejected rules and counts the others', () => {
    expect(rejectedRequestsWarning(r, ['get', 'list', 'watch', 'delete'].map(granular), role)).toBe(
      'ProviderRevision "provider-a-1": no ClusterRoles rendered, as Crossplane v1 renders none when a permission ' +
        'request is rejected: ClusterRole "crossplane:allowed-provider-permissions" does not allow: ' +
        '{apiGroup: "", resource: "pods", resourceName: "*", verb: "get"}, ' +
        '{apiGroup: "", resource: "pods", resourceName: "*", verb: "list"}, ' +
        '{apiGroup: "", resource: "pods", resourceName: "*", verb: "watch"} and 1 more',
    );
  });

  it('names all three when there are three, and says why without a provider clusterrole', () => {
    expect(rejectedRequestsWarning(r, ['get', 'list', 'watch'].map(granular), undefined)).toBe(
      'ProviderRevision "provider-a-1": no ClusterRoles rendered, as Crossplane v1 renders none when a permission ' +
        'request is rejected: no --provider-clusterrole names the permissions providers may request, so ' +
        'Crossplane v1 rejects every request: ' +
        '{apiGroup: "", resource: "pods", resourceName: "*", verb: "get"}, ' +
        '{apiGroup: "", resource: "pods", resourceName: "*", verb: "list"}, ' +
        '{apiGroup: "", resource: "pods", resourceName: "*", verb: "watch"}',
    );
  });
});
