/**
 * The setup the access e2e tests share (who-can, lookup, audit): the test API server seeded with example files, a
 * kubeconfig for it with its discovery cache, kubectl run against it, and the objects they add (CRDs, Lists).
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { startExampleServer } from './example-server.js';
import { assertBuilt, discoveryCache, kubectl, tempDir, type RunResult } from './harness.js';

export interface SeededCluster {
  readonly server: TestApiServer;
  readonly kubeconfig: string;
  /** A temporary directory of the test's own (removed when the test file is done). */
  readonly dir: string;
  /** `kubectl ARGS` against the server (the plugin on PATH), INPUT on stdin. */
  run(args: readonly string[], input?: string): Promise<RunResult>;
}

/** Starts the test API server seeded with the files of EXAMPLES (folders of repoRoot/examples). */
export async function startSeeded(prefix: string, examples: readonly string[]): Promise<SeededCluster> {
  assertBuilt();
  const dir = tempDir(prefix);
  const kubeconfig = join(dir, 'kubeconfig');
  const server = await startExampleServer(kubeconfig, examples);
  return {
    server,
    kubeconfig,
    dir,
    run: (args, input) =>
      kubectl(args, {
        env: { KUBECONFIG: kubeconfig, KUBECACHEDIR: discoveryCache(kubeconfig) },
        ...(input !== undefined ? { input } : {}),
      }),
  };
}

/** R, after checking that it exited 0 (WHAT and its stderr otherwise). */
export function ok(r: RunResult, what: string): RunResult {
  expect(r.code, `${what}\n${r.stderr}`).toBe(0);
  return r;
}

/** `kubectl apply` of ITEMS as one List. */
export async function applyList(
  cluster: SeededCluster,
  items: readonly object[],
  what: string,
): Promise<void> {
  const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
  ok(await cluster.run(['apply', '-f', '-'], list), what);
}

/** A CRD as Crossplane or a provider would have created it: kubectl resolves a resource through it. */
export function crd(
  group: string,
  plural: string,
  kind: string,
  scope: 'Namespaced' | 'Cluster' = 'Cluster',
): object {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope,
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
}

export interface SubjectRef {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

/**
 * The kubectl impersonation flags for exactly the subject: a Group through PROBE_USER (a user no binding names);
 * the server adds system:authenticated, and a service account's groups.
 */
export function asFlags(s: SubjectRef, probeUser: string): string[] {
  if (s.kind === 'User') return ['--as', s.name];
  if (s.kind === 'Group') return ['--as', probeUser, '--as-group', s.name];
  return ['--as', `system:serviceaccount:${s.namespace ?? ''}:${s.name}`];
}

export const RBAC = 'rbac.authorization.k8s.io';

/** A ClusterRole of RULES. */
export function clusterRole(name: string, rules: object[]): object {
  return { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules };
}

/** A ClusterRoleBinding of ClusterRole ROLE to User USER. */
export function bindUser(name: string, role: string, user: string): object {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: RBAC, kind: 'User', name: user }],
  };
}

/** A RoleBinding in NAMESPACE of ClusterRole ROLE to User USER. */
export function bindUserIn(namespace: string, name: string, role: string, user: string): object {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: RBAC, kind: 'User', name: user }],
  };
}
