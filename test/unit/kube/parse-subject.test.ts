import { describe, expect, it } from 'vitest';
import { parseSubject } from '../../../src/kube/parse-subject.js';
import { UsageError } from '../../../src/errors.js';

// The one KIND:NAME parser (explain --subject/--diff-with, audit --subject and --accept). Where explain's and audit's
// parsers differed, the case follows kubectl:
// - kinds in any case, as kubectl's TYPE/NAME matches a kind (`kubectl get SERVICEACCOUNT/crossplane` and
//   `kubectl get ServiceAccount/crossplane` name one object; checked with kubectl v1.32 against the test API server);
// - a ServiceAccount is exactly NAMESPACE and NAME, both non-empty, as `kubectl create rolebinding --serviceaccount`
//   refuses `a:b:c`, `:b` and `a:` ("serviceaccount must be <namespace>:<name>", kubectl v1.32), and both valid as
//   serviceaccount.SplitUsername checks them (kubernetes/kubernetes
//   staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go@00261adb04b0406050de3533b6802fc6f7cd7dd5:
//   ValidateNamespaceName, a DNS-1123 label; ValidateServiceAccountName, a DNS-1123 subdomain);
// - one wording for every bad subject: `invalid FLAG "TEXT"`, and for an impossible ServiceAccount which part and why.

const HINT = 'use User:NAME, Group:NAME or ServiceAccount:NAMESPACE/NAME';
const LABEL_RULE = 'only lower-case letters, digits and "-", starting and ending with a letter or digit';

describe('parseSubject', () => {
  const good: Record<string, { reason: string; text: string; want: ReturnType<typeof parseSubject> }> = {
    User: { reason: 'KIND:NAME', text: 'User:alice', want: { kind: 'User', name: 'alice' } },
    GroupWithColon: {
      reason: 'a group name may hold colons (crossplane:masters): only the first one splits',
      text: 'group:crossplane:masters',
      want: { kind: 'Group', name: 'crossplane:masters' },
    },
    KindInAnyCase: {
      reason: 'kubectl matches a kind in TYPE/NAME in any case; explain refused `user:` and audit took it',
      text: 'user:alice',
      want: { kind: 'User', name: 'alice' },
    },
    ServiceAccountInAnyCase: {
      reason: 'as kubectl get SERVICEACCOUNT/x',
      text: 'SERVICEACCOUNT:crossplane-system/crossplane',
      want: { kind: 'ServiceAccount', namespace: 'crossplane-system', name: 'crossplane' },
    },
    ServiceAccount: {
      reason: 'a ServiceAccount needs NAMESPACE/NAME',
      text: 'ServiceAccount:crossplane-system/crossplane',
      want: { kind: 'ServiceAccount', namespace: 'crossplane-system', name: 'crossplane' },
    },
    ServiceAccountDottedName: {
      reason: 'a ServiceAccount name is a DNS-1123 subdomain: dots are allowed',
      text: 'ServiceAccount:team-a/ci.deployer',
      want: { kind: 'ServiceAccount', namespace: 'team-a', name: 'ci.deployer' },
    },
    UserThatIsAServiceAccountName: {
      reason: "a user name is the authenticator's: no rule applies to it",
      text: 'User:system:serviceaccount:team-a/x',
      want: { kind: 'User', name: 'system:serviceaccount:team-a/x' },
    },
  };
  it.each(Object.entries(good))('%s', (_n, tc) => {
    expect(parseSubject(tc.text), tc.reason).toStrictEqual(tc.want);
  });

  const bad: Record<string, { reason: string; text: string; error: string }> = {
    ServiceAccountWithoutNamespace: {
      reason: 'no namespace',
      text: 'ServiceAccount:crossplane',
      error: 'invalid --subject "ServiceAccount:crossplane"',
    },
    ServiceAccountEmptyNamespace: {
      reason: 'as kubectl refuses --serviceaccount :b',
      text: 'ServiceAccount:/b',
      error: 'invalid --subject "ServiceAccount:/b"',
    },
    ServiceAccountEmptyName: {
      reason: 'as kubectl refuses --serviceaccount a:',
      text: 'ServiceAccount:a/',
      error: 'invalid --subject "ServiceAccount:a/"',
    },
    ServiceAccountThreeParts: {
      reason:
        'as kubectl refuses --serviceaccount a:b:c: exactly two parts (audit took the rest as the name)',
      text: 'ServiceAccount:a/b/c',
      error: 'invalid --subject "ServiceAccount:a/b/c"',
    },
    ServiceAccountBadNamespace: {
      reason: 'a namespace is a DNS-1123 label (SplitUsername refuses it): which part, and why',
      text: 'ServiceAccount:Bad_NS/x',
      error: `invalid --subject "ServiceAccount:Bad_NS/x": the ServiceAccount's namespace "Bad_NS": ${LABEL_RULE}`,
    },
    ServiceAccountNameTooLong: {
      reason: 'a ServiceAccount name is at most 253 characters (audit said only "not KIND:NAME")',
      text: `ServiceAccount:team-a/${'x'.repeat(254)}`,
      error: `invalid --subject "ServiceAccount:team-a/${'x'.repeat(254)}": the ServiceAccount's name "${'x'.repeat(254)}": it is longer than 253 characters`,
    },
    NoKind: { reason: 'no KIND:', text: 'alice', error: 'invalid --subject "alice"' },
    EmptyKind: { reason: 'a colon first is no kind', text: ':alice', error: 'invalid --subject ":alice"' },
    UnknownKind: {
      reason: 'only User, Group, ServiceAccount',
      text: 'Role:x',
      error: 'invalid --subject "Role:x"',
    },
    EmptyName: { reason: 'a subject has a name', text: 'User:', error: 'invalid --subject "User:"' },
  };
  it.each(Object.entries(bad))('refuses %s', (_n, tc) => {
    expect(() => parseSubject(tc.text), tc.reason).toThrow(UsageError);
    expect(() => parseSubject(tc.text), tc.reason).toThrow(new UsageError(tc.error, { hint: HINT }));
  });

  it('names the flag and the place in a file it came from, with the forms as the hint', () => {
    let caught: unknown;
    try {
      parseSubject('bob', 'subject', 'a.yaml: entry 2');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).message).toBe('a.yaml: entry 2: invalid subject "bob"');
    expect((caught as UsageError).hint).toBe(HINT);
  });
});
