/**
 * `audit`'s flags and exit codes through the real kubectl, on the cluster audit-cluster.ts sets up: --subject,
 * --fail-on (exit 1 while a finding at or above remains), --accept, --contexts, and bad input (one error line,
 * exit 2).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { discoveryCache, kubectl } from './harness.js';
import { auditCluster, type Named, type Report } from './audit-cluster.js';
import { ok } from './seeded-cluster.js';

const c = auditCluster('xrbac-e2e-audit-exit-');

describe('audit flags', () => {
  it('--subject audits one subject; --fail-on exits 1 while a finding at or above remains', async () => {
    const one = ok(await c.audit(['--subject', 'User:binder', '-o', 'json']), 'audit --subject');
    const parsed = JSON.parse(one.stdout) as Report;
    expect(parsed.findings.map((f) => f.subject.name)).toStrictEqual(['binder']);
    expect((await c.audit(['--subject', 'User:binder', '--fail-on', 'critical'])).code).toBe(1);
    expect((await c.audit(['--subject', 'User:reader', '--fail-on', 'low'])).code).toBe(0);
  });

  it('--accept moves accepted findings apart, so --fail-on passes', async () => {
    const file = join(c.cluster.dir, 'accepted.yaml');
    writeFileSync(
      file,
      '- subject: User:binder\n  capability: cluster-admin\n  firstStep: bind\n  reason: break-glass account\n',
    );
    const r = await c.audit([
      '--subject',
      'User:binder',
      '--accept',
      file,
      '--fail-on',
      'critical',
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const parsed = JSON.parse(r.stdout) as Report;
    expect(parsed.findings).toStrictEqual([]);
    expect(parsed.accepted.map((f) => [f.subject.name, f.steps[0]?.mechanism, f.reason])).toStrictEqual([
      ['binder', 'bind', 'break-glass account'],
    ]);
  });

  it('--contexts: one run per context, merged; --fail-on counts every context', async () => {
    // Two contexts of the same server, as two clusters.
    const k = parse(readFileSync(c.cluster.kubeconfig, 'utf8')) as { clusters: Named[]; users: Named[] };
    const cluster = k.clusters[0] as Named;
    const user = k.users[0] as Named;
    const fleet = join(c.cluster.dir, 'fleet.kubeconfig');
    writeFileSync(
      fleet,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: ['one', 'two'].map((name) => ({ ...cluster, name })),
        users: [{ ...user, name: 'admin' }],
        contexts: ['one', 'two'].map((name) => ({ name, context: { cluster: name, user: 'admin' } })),
        'current-context': 'one',
      }),
    );
    const env = { env: { KUBECONFIG: fleet, KUBECACHEDIR: discoveryCache(fleet) } };
    const args = ['crossplane-rbac', 'audit', '--contexts', 'one,two', '--subject', 'User:binder'];
    const r = await kubectl([...args, '-o', 'json'], env);
    expect(r.code, r.stderr).toBe(0);
    const list = JSON.parse(r.stdout) as { items: { context: string; result: Report }[] };
    expect(
      list.items.map((i) => [i.context, i.result.findings.map((f) => f.steps[0]?.mechanism)]),
    ).toStrictEqual([
      ['one', ['bind']],
      ['two', ['bind']],
    ]);
    const table = await kubectl(args, env);
    expect(table.stdout).toMatch(/^CONTEXT +SEVERITY +SUBJECT/);
    expect((await kubectl([...args, '--fail-on', 'critical'], env)).code).toBe(1);
    expect((await kubectl([...args, '-o', 'sarif'], env)).code).toBe(2);
  });

  it('bad input: one error line, exit 2', async () => {
    const r = await c.audit(['--subject', 'alice']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: invalid --subject "alice"$/m);
    const bad = join(c.cluster.dir, 'bad-accept.yaml');
    writeFileSync(bad, '- subject: User:binder\n  capability: root\n  firstStep: bind\n  reason: x\n');
    const a = await c.audit(['--accept', bad]);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/^error: .*entry 1: unknown capability "root"/m);
    const severe = await c.audit(['--fail-on', 'severe']);
    expect(severe.code).toBe(2);
    // A severity, not an output format: the error names what the flag takes.
    expect(severe.stderr).toBe(
      'error: --fail-on "severe" is not a severity\nhint: use one of: critical, high, medium, low\n',
    );
  });
});
