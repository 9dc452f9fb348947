/**
 * bind against the test API server when what the bindings need does not exist: a role, a namespace or the service
 * account. The server's own objects are the evidence: nothing is written unless --allow-missing, and a typo in the
 * roleRef list never prunes the binding of the role that was meant without a person's yes.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/cli/output/prompt.js';
import type { TestApiServer } from '../apiserver/server.js';
import { runPlugin, startSeeded, userKubeconfig } from './harness.js';

interface BindingObj {
  kind: string;
  metadata: { name: string; namespace?: string; uid?: string; labels?: Record<string, string> };
  roleRef: { kind: string; name: string };
}

const SA_NAME_LABEL = 'kubectl-crossplane-rbac/service-account-name';
const SYNC_NAME_LABEL = 'configsync.gke.io/sync-name';

let server: TestApiServer;
let kubeconfig: string;
let dir: string;

beforeEach(async () => {
  ({ server, kubeconfig, dir } = await startSeeded());
});
afterEach(async () => {
  await server.stop();
});

function allBindings(): BindingObj[] {
  return [
    ...(server.list('clusterrolebindings') as BindingObj[]),
    ...(server.list('rolebindings') as BindingObj[]),
  ];
}

/** The bindings bind made: for a --service-account by its labels, for the RootSync by Config Sync's. */
function ours(label: string, value: string): string[] {
  return allBindings()
    .filter((b) => b.metadata.labels?.[label] === value)
    .map((b) => `${b.kind} ${b.metadata.namespace ?? '-'} ${b.roleRef.kind}/${b.roleRef.name}`)
    .sort();
}

function bind(argv: readonly string[], opts: { prompter?: Prompter; tty?: boolean } = {}) {
  return runPlugin(['bind', ...argv, '--kubeconfig', kubeconfig], opts);
}

const lines = (stderr: string, prefix: string): string[] =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith(prefix))
    .map((l) => l.slice(prefix.length));

/** A prompter that answers ANSWER and records the questions. */
function answering(answer: boolean): Prompter & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    confirm: (message) => {
      asked.push(message);
      return Promise.resolve(answer);
    },
    checkbox: () => Promise.reject(new Error('unexpected checkbox')),
  };
}

describe('bind: what the bindings need must exist', () => {
  const FLUX = [
    '--service-account',
    'flux-system/kustomize-controller',
    '--role-ref',
    'ClusterRole/crossplane-edt',
    '--role-ref',
    'Role/gitops-deployr@team-b',
    '--role-ref',
    'Role/deployer@team-c',
    '--role-ref',
    'ClusterRole/view',
  ];

  it('EveryMissingObjectIsNamedAtOnceAndNothingIsWritten', async () => {
    server.counters.reset();
    const r = await bind([...FLUX, '--yes']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr, 'error: ')).toStrictEqual([
      '6 objects the bindings need do not exist, nothing was written: Namespace flux-system, Namespace team-c, ' +
        'ServiceAccount flux-system/kustomize-controller, ClusterRole crossplane-edt, Role team-b/gitops-deployr, ' +
        'Role team-c/deployer',
    ]);
    expect(lines(r.stderr, 'missing: ')).toStrictEqual([
      'Namespace flux-system',
      'Namespace team-c (did you mean "team-a", "team-b"?)',
      'ServiceAccount flux-system/kustomize-controller',
      'ClusterRole crossplane-edt (did you mean "crossplane-edit"?)',
      'Role team-b/gitops-deployr (did you mean "gitops-deployer"?)',
      'Role team-c/deployer',
    ]);
    expect(lines(r.stderr, 'hint: ')).toStrictEqual([
      'create them first or correct the names; --allow-missing binds ahead of their creation',
    ]);
    expect(server.counters.writes(), JSON.stringify(server.counters.snapshot())).toBe(0);
    expect(ours(SA_NAME_LABEL, 'kustomize-controller')).toStrictEqual([]);
  });

  it('WithFilesTheSameCheckNamesTheFiles', async () => {
    const r = await runPlugin(['bind', ...FLUX, '-f', path.join('examples', 'cluster'), '-o', 'yaml']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(lines(r.stderr, 'error: ')[0]).toMatch(/^6 objects the bindings need do not exist/);
    expect(lines(r.stderr, 'hint: ')[0]).toMatch(
      /^with -f an object exists only when the files hold it: .*--allow-missing/,
    );
  });

  it('AllowMissingBindsAheadOfCreationWithAWarningEach', async () => {
    const argv = [
      '--service-account',
      'team-a/deployer',
      '--role-ref',
      'ClusterRole/platform-deployer',
      '--role-ref',
      'ClusterRole/view',
      '--role-ref',
      'Role/gitops-deployer@team-b',
    ];
    const refused = await bind([...argv, '--yes']);
    expect(refused.code).toBe(2);
    expect(ours(SA_NAME_LABEL, 'deployer')).toStrictEqual([]);

    const r = await bind([...argv, '--allow-missing', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stderr, 'warning: ')).toStrictEqual([
      'ServiceAccount team-a/deployer does not exist (--allow-missing): the bindings take effect once it is created',
      'ClusterRole platform-deployer does not exist (--allow-missing): its binding grants nothing until it does',
    ]);
    expect(ours(SA_NAME_LABEL, 'deployer')).toStrictEqual([
      'ClusterRoleBinding - ClusterRole/platform-deployer',
      'ClusterRoleBinding - ClusterRole/view',
      'RoleBinding team-b Role/gitops-deployer',
    ]);
  });

  it('AMissingNamespaceIsRefusedLiveEvenWithAllowMissing', async () => {
    // The API server refuses to create anything in a namespace that does not exist (NamespaceLifecycle admission:
    // kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go
    // @06b1b836fa6bc4d0be0d5f0151bc5eefafa1f259, "refuse to operate on non-existent namespaces"), which the test
    // server does not model: bind refuses before any write instead of failing half-way.
    server.counters.reset();
    const r = await bind([
      '--service-account',
      'team-a/deployer',
      '--role-ref',
      'ClusterRole/view',
      '--role-ref',
      'ClusterRole/edit@team-c',
      '--allow-privileged', // Kubernetes' edit may impersonate service accounts
      '--allow-missing',
      '--yes',
    ]);
    expect(r.code).toBe(2);
    expect(lines(r.stderr, 'missing: ')).toStrictEqual([
      'Namespace team-c (did you mean "team-a", "team-b"?)',
    ]);
    expect(lines(r.stderr, 'error: ')[0]).toMatch(
      /^the API server refuses RoleBindings in a namespace that does not exist, also with --allow-missing; nothing was written: Namespace team-c$/,
    );
    expect(server.counters.writes()).toBe(0);
  });

  it('ACallerWhoMayNotReadThemIsWarnedAndBindsUnchecked', async () => {
    const rbac = 'rbac.authorization.k8s.io';
    server.seed([
      {
        apiVersion: `${rbac}/v1`,
        kind: 'ClusterRole',
        metadata: { name: 'binder' },
        rules: [
          { apiGroups: [rbac], resources: ['clusterrolebindings', 'rolebindings'], verbs: ['*'] },
          { apiGroups: [rbac], resources: ['clusterroles'], verbs: ['get', 'list', 'bind'] },
        ],
      },
      {
        apiVersion: `${rbac}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'binder' },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'binder' },
        subjects: [{ apiGroup: rbac, kind: 'User', name: 'sam' }],
      },
    ]);
    const sam = userKubeconfig(server, dir, 'sam');
    const r = await runPlugin([
      'bind',
      '--service-account',
      'team-a/deployer',
      '--role-ref',
      'ClusterRole/view',
      '--kubeconfig',
      sam,
      '--yes',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stderr, 'warning: ')).toStrictEqual([
      'not allowed to read Namespace team-a: it is bound without checking that it exists',
      'not allowed to read ServiceAccount team-a/deployer: it is bound without checking that it exists',
    ]);
    expect(ours(SA_NAME_LABEL, 'deployer')).toStrictEqual(['ClusterRoleBinding - ClusterRole/view']);
  });
});

describe('bind: a typo in the new list never prunes silently', () => {
  const TYPO = [
    '--root-sync',
    'root-sync',
    '--role-ref',
    'ClusterRole/crossplane-edt',
    '--role-ref',
    'ClusterRole/view',
    '--role-ref',
    'ClusterRole/edit@team-a',
    '--role-ref',
    'Role/gitops-deployer@team-b',
    '--allow-privileged',
  ];
  const FOUR = [
    'ClusterRoleBinding - ClusterRole/crossplane-edit',
    'ClusterRoleBinding - ClusterRole/view',
    'RoleBinding team-a ClusterRole/edit',
    'RoleBinding team-b Role/gitops-deployer',
  ];
  let editBinding: BindingObj;

  beforeEach(async () => {
    const first = await bind(['--root-sync', 'root-sync', '--allow-privileged', '--yes']);
    expect(first.code, first.stderr).toBe(0);
    expect(ours(SYNC_NAME_LABEL, 'root-sync')).toStrictEqual(FOUR);
    editBinding = allBindings().find(
      (b) => b.metadata.labels?.[SYNC_NAME_LABEL] === 'root-sync' && b.roleRef.name === 'crossplane-edit',
    ) as BindingObj;
    server.counters.reset();
  });

  const warning = (): string =>
    `ClusterRoleBinding ${editBinding.metadata.name} would be deleted; the new list names ` +
    '"ClusterRole/crossplane-edt", did you mean "ClusterRole/crossplane-edit"?';

  it('WithoutAllowMissingTheRunSaysSoAndWritesNothing', async () => {
    const r = await bind([...TYPO, '--yes']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr, 'warning: ')).toContain(warning());
    expect(lines(r.stderr, 'missing: ')).toStrictEqual([
      'ClusterRole crossplane-edt (did you mean "crossplane-edit"?)',
    ]);
    expect(server.counters.writes()).toBe(0);
    expect(ours(SYNC_NAME_LABEL, 'root-sync')).toStrictEqual(FOUR);
  });

  it('WithAllowMissingAndYesButNoTerminalItRefuses', async () => {
    const r = await bind([...TYPO, '--allow-missing', '--yes']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr, 'warning: ')).toContain(warning());
    expect(lines(r.stderr, 'error: ')).toStrictEqual([
      'refusing to bind roles to ServiceAccount config-management-system/root-reconciler: it would delete a binding whose role the new list probably misspells (named above), and there is no terminal to confirm that on',
    ]);
    expect(lines(r.stderr, 'hint: ')[0]).toMatch(/--no-prune/);
    expect(server.counters.writes()).toBe(0);
    const kept = server.get('clusterrolebindings', editBinding.metadata.name) as BindingObj | undefined;
    expect(kept?.metadata.uid).toBe(editBinding.metadata.uid);
  });

  it('OnATerminalItAsksEvenWithYes', async () => {
    const no = answering(false);
    const declined = await bind([...TYPO, '--allow-missing', '--yes'], { prompter: no, tty: true });
    expect(no.asked).toHaveLength(1);
    expect(declined.code).toBe(2);
    expect(server.counters.writes()).toBe(0);
    expect(ours(SYNC_NAME_LABEL, 'root-sync')).toStrictEqual(FOUR);

    const yes = answering(true);
    const accepted = await bind([...TYPO, '--allow-missing', '--yes'], { prompter: yes, tty: true });
    expect(yes.asked).toHaveLength(1);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(ours(SYNC_NAME_LABEL, 'root-sync')).toStrictEqual([
      'ClusterRoleBinding - ClusterRole/crossplane-edt',
      'ClusterRoleBinding - ClusterRole/view',
      'RoleBinding team-a ClusterRole/edit',
      'RoleBinding team-b Role/gitops-deployer',
    ]);
  });

  it('NoPruneBindsAheadAndKeepsTheBindingThatWasMeant', async () => {
    const r = await bind([...TYPO, '--allow-missing', '--no-prune', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stderr, 'warning: ')).not.toContain(warning());
    expect(ours(SYNC_NAME_LABEL, 'root-sync')).toStrictEqual([
      'ClusterRoleBinding - ClusterRole/crossplane-edit',
      'ClusterRoleBinding - ClusterRole/crossplane-edt',
      'ClusterRoleBinding - ClusterRole/view',
      'RoleBinding team-a ClusterRole/edit',
      'RoleBinding team-b Role/gitops-deployer',
    ]);
  });
});
