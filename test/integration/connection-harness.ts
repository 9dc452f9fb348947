// The same connection settings through real kubectl and through the plugin (in-process, real transport): kubectl
// reads one ClusterRole, the plugin explains it. Both must reach the server the same way.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import YAML from 'yaml';
import type { Proxy, RecordedRequest, Recorder } from '../support/net-servers.js';
import { runKubectl, type KubectlResult } from '../support/kubectl.js';
import { runPlugin, type CliResult } from './harness.js';

export const ROLE = 'crossplane-edit';

/** A fresh folder, also used as an empty HOME: no ~/.kube/config is ever found there. */
export function freshDir(): string {
  return mkdtempSync(join(tmpdir(), 'xrbac-conn-'));
}

/** Writes a one-context kubeconfig; extra clusters, users and contexts can be added. */
export function writeConfig(
  dir: string,
  cluster: Record<string, unknown>,
  user: Record<string, unknown>,
  more: { clusters?: unknown[]; users?: unknown[]; contexts?: unknown[]; namespace?: string } = {},
): string {
  const file = join(dir, `kubeconfig-${String(Math.random()).slice(2, 8)}`);
  const context = {
    cluster: 'c',
    user: 'u',
    ...(more.namespace !== undefined ? { namespace: more.namespace } : {}),
  };
  writeFileSync(
    file,
    YAML.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster }, ...(more.clusters ?? [])],
      users: [{ name: 'u', user }, ...(more.users ?? [])],
      contexts: [{ name: 'x', context }, ...(more.contexts ?? [])],
      'current-context': 'x',
    }),
  );
  return file;
}

export interface Compared {
  readonly kubectl: KubectlResult;
  readonly plugin: CliResult;
  /** What the recorder saw from each, when there is one. */
  readonly kubectlRequests: RecordedRequest[];
  readonly pluginRequests: RecordedRequest[];
  /** The tunnels each opened through the proxy, when there is one. */
  readonly kubectlTunnels: string[];
  readonly pluginTunnels: string[];
}

/**
 * Runs `kubectl get clusterrole ROLE -o name ARGS`, then `crossplane-rbac explain ROLE ARGS` in-process, each with
 * an empty HOME, no KUBECONFIG and the given environment (e.g. proxies).
 */
export async function compareWithKubectl(
  args: readonly string[],
  opts: { env?: Record<string, string>; recorder?: Recorder; proxy?: Proxy } = {},
): Promise<Compared> {
  const env = { HOME: freshDir(), ...opts.env };
  const seen = opts.recorder?.requests;
  seen?.splice(0);
  const tunnels = opts.proxy?.tunnels;
  tunnels?.splice(0);
  const kubectl = await runKubectl(['get', 'clusterrole', ROLE, '-o', 'name', ...args], env);
  // /usr/bin/kubectl may be the Google Cloud SDK dispatcher, which first asks /version (without credentials) to
  // choose a kubectl release: that request is not kubectl's.
  const kubectlRequests = (seen?.splice(0) ?? []).filter(
    (r) => !(r.headers['user-agent']?.[0] ?? '').startsWith('kubectl-dispatcher/'),
  );
  const kubectlTunnels = tunnels?.splice(0) ?? [];
  const plugin = await runPlugin(['explain', ROLE, ...args], { env });
  const pluginRequests = seen?.splice(0) ?? [];
  const pluginTunnels = tunnels?.splice(0) ?? [];
  return { kubectl, plugin, kubectlRequests, pluginRequests, kubectlTunnels, pluginTunnels };
}

export function expectBothSucceed(c: Compared): void {
  expect(c.kubectl.stderr, 'kubectl').toBe('');
  expect(c.kubectl.stdout).toBe(`clusterrole.rbac.authorization.k8s.io/${ROLE}\n`);
  expect(c.plugin.stderr, 'plugin').toBe('');
  expect(c.plugin.code).toBe(0);
  expect(c.plugin.stdout).toContain(`${ROLE} (aggregated, `);
}

export function expectBothFail(c: Compared, kubectlSays: RegExp, pluginSays: RegExp): void {
  expect(c.kubectl.code, c.kubectl.stdout).not.toBe(0);
  expect(c.kubectl.stderr).toMatch(kubectlSays);
  expect(c.plugin.code, c.plugin.stdout).toBe(2);
  expect(c.plugin.stdout).toBe('');
  expect(errorLines(c.plugin.stderr)).toHaveLength(1);
  expect(c.plugin.stderr).toMatch(pluginSays);
}

/** The `error:` lines of an output: a failure is reported once. */
export function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.startsWith('error:'));
}

/** The headers of REQUESTS whose names start with PREFIX, one map per request (names lower case). */
export function headersStarting(
  requests: readonly RecordedRequest[],
  prefix: string,
): Record<string, string[]>[] {
  return requests.map((r) =>
    Object.fromEntries(
      Object.entries(r.headers)
        .filter(([name]) => name.startsWith(prefix))
        .map(([name, values]) => [name, values ?? []]),
    ),
  );
}
