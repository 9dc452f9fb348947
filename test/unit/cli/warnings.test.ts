// The warnings use cases report as data, in the words the CLI prints on stderr. The wanted lines are the ones the
// plugin printed before warnings became data (the lines docs/guides/namespace-only-rights.md shows, and the shapes
// the e2e tests read), written out by hand; printWarning escapes them for the terminal.
import { describe, expect, it } from 'vitest';
import type { Warning } from '../../../src/app/warning.js';
import { formatWarning, printWarning } from '../../../src/cli/warnings.js';

describe('formatWarning', () => {
  const cases: Record<string, { warning: Warning; want: string[]; reason: string }> = {
    UnreadRoleAsTheGuideShows: {
      warning: {
        kind: 'unread-role',
        object: { kind: 'RoleBinding', namespace: 'sandbox', name: 'edit' },
        role: 'edit',
        subjects: [{ kind: 'Group', name: 'sandbox-devs' }],
      },
      want: [
        'warning: RoleBinding sandbox/edit binds ClusterRole edit, whose rules could not be read: what it grants (to Group sandbox-devs) is not in this answer',
      ],
      reason: 'docs/guides/namespace-only-rights.md, line 21',
    },
    UnseenAsTheGuideShows: {
      warning: {
        kind: 'unseen',
        what: 'ClusterRoles',
        verb: 'get',
        reason:
          'clusterroles.rbac.authorization.k8s.io "edit" is forbidden: User "ns-reader" cannot get resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope',
      },
      want: [
        'warning: could not get ClusterRoles: clusterroles.rbac.authorization.k8s.io "edit" is forbidden: User "ns-reader" cannot get resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope',
      ],
      reason: 'docs/guides/namespace-only-rights.md',
    },
    UnseenReadInANamespace: {
      warning: { kind: 'unseen', what: 'RoleBindings', verb: 'list', readIn: 'team-a', reason: 'forbidden' },
      want: ['warning: could not list RoleBindings outside namespace team-a (read there only): forbidden'],
      reason: 'the namespace it was read in instead',
    },
    AuditUnseenRbac: {
      warning: { kind: 'audit-unseen', what: 'ClusterRoleBindings', verb: 'list', decides: 'rbac' },
      want: [
        'Warning: audit could not list ClusterRoleBindings: what they grant is not in this audit: paths through it are missing, and each finding may be granted already',
      ],
      reason: 'docs/commands/audit.md: an RBAC part decides every step',
    },
    AuditUnseenReadInNamespaces: {
      warning: {
        kind: 'audit-unseen',
        what: 'Deployments',
        verb: 'list',
        readIn: 'team-a,team-b',
        decides: ['run-as', 'define-api'],
      },
      want: [
        'Warning: audit could not list Deployments cluster-wide (read in namespaces team-a, team-b only): run-as, define-api steps are looked for in what was read only',
      ],
      reason: 'read in each namespace the caller may list',
    },
    PartialOfSeveral: {
      warning: { kind: 'partial', parts: 2 },
      want: [
        'warning: this answer is partial: it counts only what was read (the parts above are missing from it)',
      ],
      reason: 'plural, as the guide shows',
    },
    PartialOfOne: {
      warning: { kind: 'partial', parts: 1 },
      want: [
        'warning: this answer is partial: it counts only what was read (the part above is missing from it)',
      ],
      reason: 'singular',
    },
    AfterSync: {
      warning: { kind: 'after-sync' },
      want: ['answering for the cluster after sync (nothing was written)'],
      reason: 'the first line of every --after-sync answer',
    },
    HeldRefusedAdopting: {
      warning: { kind: 'refused', key: 'ClusterRole/crossplane:x', reason: 'not the plugin’s' },
      want: ['refused ClusterRole/crossplane:x: not the plugin’s'],
      reason: 'the write flow’s lines',
    },
    Skipped: {
      warning: { kind: 'skipped', object: { kind: 'ProviderRevision', name: 'p-1' }, reason: 'inactive' },
      want: ['skipped ProviderRevision p-1: inactive'],
      reason: 'Kind name: why',
    },
    KeptClusterWide: {
      warning: { kind: 'kept', object: { kind: 'ClusterRoleBinding', name: 'b' }, why: '--no-prune' },
      want: ['kept (--no-prune): ClusterRoleBinding b'],
      reason: 'no namespace',
    },
    MissingWithSuggestion: {
      warning: {
        kind: 'missing',
        object: { kind: 'ClusterRole', name: 'crossplane-edt', suggestions: ['crossplane-edit'] },
      },
      want: ['missing: ClusterRole crossplane-edt (did you mean "crossplane-edit"?)'],
      reason: 'the close names',
    },
    MissingAllowed: {
      warning: {
        kind: 'missing-allowed',
        object: { kind: 'ServiceAccount', namespace: 'flux-system', name: 'x', suggestions: [] },
      },
      want: [
        'warning: ServiceAccount flux-system/x does not exist (--allow-missing): the bindings take effect once it is created',
      ],
      reason: 'what binding ahead of it means',
    },
    Unreadable: {
      warning: { kind: 'unreadable', object: { kind: 'Role', namespace: 'team-a', name: 'deployer' } },
      want: [
        'warning: not allowed to read Role team-a/deployer: it is bound without checking that it exists or for privileged rules',
      ],
      reason: 'a Role is also checked for privileged rules',
    },
    Forbidden: {
      warning: {
        kind: 'forbidden',
        denial: { binding: 'RoleBinding/team-a/x', role: 'ClusterRole/edit', reason: 'no bind verb' },
      },
      want: ['forbidden: RoleBinding/team-a/x (to ClusterRole/edit): no bind verb'],
      reason: 'the pre-flight’s denial',
    },
    PruneSkippedSingular: {
      warning: { kind: 'prune-skipped', count: 1, serviceAccount: { namespace: 'ns', name: 'sa' } },
      want: [
        'warning: 1 binding is refused (listed below): pruning is skipped in this run, so that ServiceAccount ns/sa keeps the bindings it has',
      ],
      reason: 'singular',
    },
    AlreadyEnabled: {
      warning: { kind: 'already', enable: true, namespace: 'team-a', xrd: 'apps.platform.acme.io' },
      want: ['namespace/team-a: apps.platform.acme.io is already enabled'],
      reason: 'enable-xrd',
    },
    UnknownVerbInKubectlWords: {
      warning: { kind: 'unknown-verb', reason: "verb 'frobnicate' is not a known verb" },
      want: ["Warning: verb 'frobnicate' is not a known verb"],
      reason: "kubectl auth can-i's prefix",
    },
    CallerMayNot: {
      warning: { kind: 'caller-allowed', allowed: false },
      want: [
        'you (the caller) may not make this request, as the server answers for you (bindings you cannot list count there)',
      ],
      reason: 'who-can with parts unseen',
    },
    RendersShared: {
      warning: { kind: 'renders-shared', contexts: 20, rendered: 2, shared: 18 },
      want: ['fleet: 20 renders for 20 contexts: 2 rendered, 18 shared (inputs equal by content)'],
      reason: 'a fleet at -v=4',
    },
    RendersSharedOne: {
      warning: { kind: 'renders-shared', contexts: 1, rendered: 1, shared: 0 },
      want: ['fleet: 1 render for 1 context: 1 rendered, 0 shared (inputs equal by content)'],
      reason: 'a fleet of one context at -v=4',
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(formatWarning(tc.warning), tc.reason).toStrictEqual(tc.want);
  });

  it('EscapesWhatTheClusterWrote', () => {
    const written: string[] = [];
    printWarning({ write: (t: string) => written.push(t) }, { kind: 'warning', reason: 'a\u001b[31mred' });
    expect(written).toStrictEqual(['warning: a\\x1b[31mred\n']);
  });
});
