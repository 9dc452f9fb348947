import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Prompter } from '../../../src/cli/output/prompt.js';
import { runCaptured, type CliResult } from '../../support/run-cli.js';

const LONG = `x${'verylongname'.repeat(5)}.example.org`;

function xrd(
  name: string,
  spec: Record<string, unknown>,
  apiVersion = 'apiextensions.crossplane.io/v1',
): object {
  const [plural = '', ...rest] = name.split('.');
  return {
    apiVersion,
    kind: 'CompositeResourceDefinition',
    metadata: { name, uid: `uid-${name}` },
    spec: { group: rest.join('.'), names: { kind: 'X', plural }, ...spec },
  };
}

function ns(name: string, labels: Record<string, string>, annotations?: Record<string, string>): object {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, uid: `uid-${name}`, labels, ...(annotations !== undefined ? { annotations } : {}) },
  };
}

const managed = { 'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac' };

function nsRole(namespace: string, role: 'edit' | 'view'): object {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name: `crossplane-ns-${namespace}-${role}`,
      labels: {
        ...managed,
        'crossplane.io/scope': 'namespace',
        [`namespace.crossplane.io/${namespace}`]: 'true',
      },
    },
    aggregationRule: { clusterRoleSelectors: [] },
  };
}

/** A small cluster: XRDs of every shape and three namespaces, beta with one XRD enabled and its roles. */
function writeCluster(): string {
  const dir = mkdtempSync(join(tmpdir(), 'enable-xrd-unit-'));
  const objects = [
    xrd('xthings.example.org', { claimNames: { kind: 'Thing', plural: 'things' } }),
    xrd('xnoclaims.example.org', {}),
    xrd('apps.example.org', { scope: 'Namespaced' }, 'apiextensions.crossplane.io/v2'),
    xrd('tenants.example.org', { scope: 'Cluster' }, 'apiextensions.crossplane.io/v2'),
    xrd(LONG, { scope: 'Namespaced' }, 'apiextensions.crossplane.io/v2'),
    ns('alpha', { team: 'a' }, { 'owner.acme.io/contact': 'ops@acme.io' }),
    ns('beta', { team: 'b' }, { 'rbac.crossplane.io/apps.example.org': 'xrd-enabled' }),
    ns('gamma', { team: 'c', frozen: 'true' }),
    nsRole('beta', 'edit'),
    nsRole('beta', 'view'),
  ];
  writeFileSync(join(dir, 'cluster.yaml'), objects.map((o) => stringify(o)).join('---\n'));
  return dir;
}

function cli(args: string[], opts: { tty?: boolean; prompter?: Prompter } = {}): Promise<CliResult> {
  return runCaptured(['enable-xrd', ...args], opts);
}

interface ListItem {
  kind: string;
  metadata: { name: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  aggregationRule?: { clusterRoleSelectors: { matchLabels: Record<string, string> }[] };
  rules?: { apiGroups: string[]; resources: string[]; verbs: string[] }[];
}

function items(yamlText: string): ListItem[] {
  const list = parse(yamlText) as { kind: string; items: ListItem[] };
  expect(list.kind).toBe('List');
  return list.items;
}

describe('enable-xrd validation: one error line, exit 2, nothing printed to stdout', () => {
  const dir = writeCluster();
  const cases: Record<string, { args: string[]; error: RegExp; hint?: RegExp; reason: string }> = {
    UnknownXrd: {
      args: ['xthing.example.org', '-n', 'alpha'],
      error: /^error: CompositeResourceDefinition "xthing.example.org" not found$/m,
      hint: /^hint: did you mean "xthings.example.org"/m,
      reason: 'a typo in the XRD name names the close matches',
    },
    V1WithoutClaims: {
      args: ['xnoclaims.example.org', '-n', 'alpha'],
      error: /^error: .*"xnoclaims.example.org" has scope LegacyCluster and no claimNames/m,
      reason: 'a v1 XRD without claimNames offers nothing namespaced',
    },
    V2Cluster: {
      args: ['tenants.example.org', '-n', 'alpha'],
      error: /^error: .*"tenants.example.org" has scope Cluster and no claimNames/m,
      reason: 'a v2 Cluster XRD offers nothing namespaced',
    },
    MissingNamespace: {
      args: ['apps.example.org', '-n', 'alpha,delta'],
      error: /^error: namespace not found: "delta"$/m,
      reason: 'every namespace must exist',
    },
    SelectorMatchesNothing: {
      args: ['apps.example.org', '-l', 'team=z'],
      error: /^error: no namespace matches the selector "team=z"$/m,
      reason: 'an empty selection is a mistake, not a no-op',
    },
    BadSelector: {
      args: ['apps.example.org', '-l', 'team in ()'],
      error: /^error: invalid selector "team in \(\)"/m,
      reason: 'a selector that does not parse is rejected',
    },
    NoNamespace: {
      args: ['apps.example.org'],
      error: /^error: no namespace given: pass -n NAMESPACE... or -l SELECTOR$/m,
      reason: 'the command needs -n or -l',
    },
    NoXrd: {
      args: ['-n', 'alpha'],
      error: /^error: no CompositeResourceDefinition given$/m,
      reason: 'the command needs at least one XRD',
    },
    BothNamespaceAndSelector: {
      args: ['apps.example.org', '-n', 'alpha', '-l', 'team=a'],
      error: /^error: use either -n\/--namespace or -l\/--selector, not both$/m,
      reason: '-n and -l are exclusive',
    },
    InteractiveWithoutTty: {
      args: ['-i'],
      error: /^error: -i\/--interactive needs a terminal/m,
      reason: 'without a TTY -i never prompts',
    },
    BadOutput: {
      args: ['apps.example.org', '-n', 'alpha', '-o', 'wide'],
      error: /^error: unknown output format "wide" for enable-xrd$/m,
      reason: 'only the write outputs are accepted',
    },
    BadDryRun: {
      args: ['apps.example.org', '-n', 'alpha', '--dry-run=maybe'],
      error: /^error: invalid --dry-run "maybe"$/m,
      reason: '--dry-run takes none, client or server',
    },
  };
  it.each(Object.entries(cases))('%s', async (_name, tc) => {
    const r = await cli([...tc.args, '-f', dir]);
    expect(r.code, tc.reason).toBe(2);
    expect(r.stderr, tc.reason).toMatch(tc.error);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error: '))).toHaveLength(1);
    if (tc.hint !== undefined) expect(r.stderr, tc.reason).toMatch(tc.hint);
    expect(r.stdout, tc.reason).toBe('');
  });
});

describe('enable-xrd output', () => {
  const dir = writeCluster();

  it('prints the annotated Namespace and then the roles as a kind: List with -o yaml', async () => {
    const r = await cli(['xthings.example.org', '-n', 'alpha', '-o', 'yaml', '-f', dir]);
    expect(r.code).toBe(0);
    const list = items(r.stdout);
    expect(list[0]?.kind).toBe('Namespace');
    expect(list[0]?.metadata.name).toBe('alpha');
    expect(list[0]?.metadata.annotations).toStrictEqual({
      'owner.acme.io/contact': 'ops@acme.io',
      'rbac.crossplane.io/xthings.example.org': 'xrd-claim-accepted',
    });
    expect(list.slice(1).every((o) => o.kind === 'ClusterRole')).toBe(true);
    const edit = list.find((o) => o.metadata.name === 'crossplane-ns-alpha-edit');
    expect(
      edit?.aggregationRule?.clusterRoleSelectors.map((s) => s.matchLabels['rbac.crossplane.io/xrd']),
    ).toStrictEqual([undefined, 'xthings.example.org']);
    const perXrd = list.find(
      (o) => o.metadata.name === 'crossplane:composite:xthings.example.org:aggregate-to-ns-edit',
    );
    expect(perXrd?.rules?.[0]?.resources).toStrictEqual(['things', 'things/status']);
    expect(r.stderr).toContain('nothing was written');
  });

  it('renders from the new annotations: only the namespaces named, each with all its XRDs', async () => {
    const r = await cli(['xthings.example.org', '-n', 'beta', '-o', 'json', '-f', dir]);
    expect(r.code).toBe(0);
    const list = (JSON.parse(r.stdout) as { items: ListItem[] }).items;
    const names = list.map((o) => o.metadata.name);
    expect(names).not.toContain('crossplane-ns-alpha-edit');
    const edit = list.find((o) => o.metadata.name === 'crossplane-ns-beta-edit');
    expect(
      edit?.aggregationRule?.clusterRoleSelectors.map((s) => s.matchLabels['rbac.crossplane.io/xrd']),
    ).toStrictEqual([undefined, 'apps.example.org', 'xthings.example.org']);
  });

  it('accepts -n repeated and comma-separated', async () => {
    const r = await cli([
      'apps.example.org',
      '-n',
      'alpha',
      '-n',
      'beta,gamma',
      '--no-sync',
      '-o',
      'yaml',
      '-f',
      dir,
    ]);
    expect(r.code).toBe(0);
    expect(items(r.stdout).map((o) => `${o.kind}/${o.metadata.name}`)).toStrictEqual([
      'Namespace/alpha',
      'Namespace/gamma',
    ]);
    expect(r.stderr).toContain('namespace/beta: apps.example.org is already enabled');
  });

  it('selects namespaces with -l', async () => {
    const r = await cli([
      'apps.example.org',
      '-l',
      'team in (a,c),!frozen',
      '--no-sync',
      '-o',
      'name',
      '-f',
      dir,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('namespace/alpha\n');
  });

  it('uses the list annotation for an XRD name too long for an annotation key', async () => {
    const r = await cli([LONG, '-n', 'alpha', '-o', 'yaml', '-f', dir]);
    expect(r.code).toBe(0);
    const list = items(r.stdout);
    expect(list[0]?.metadata.annotations?.['rbac.crossplane.io/enabled-xrds']).toBe(LONG);
    const edit = list.find((o) => o.metadata.name === 'crossplane-ns-alpha-edit');
    const label = edit?.aggregationRule?.clusterRoleSelectors[1]?.matchLabels['rbac.crossplane.io/xrd'] ?? '';
    expect(label.length).toBeLessThanOrEqual(63);
    expect(label).toMatch(/^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/);
  });

  it('is a no-op that says so when already enabled (exit 0)', async () => {
    const r = await cli(['apps.example.org', '-n', 'beta', '--no-sync', '-f', dir]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('namespace/beta: apps.example.org is already enabled');
    expect(r.stdout).toMatch(/Namespace\s+0\s+0\s+1\s+0/);
  });

  it('--disable removes the annotation and prunes the roles of a namespace left with no XRD', async () => {
    const r = await cli(['apps.example.org', '-n', 'beta', '--disable', '-o', 'name', '-f', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual(
      expect.arrayContaining([
        'namespace/beta',
        'clusterrole.rbac.authorization.k8s.io/crossplane-ns-beta-edit',
        'clusterrole.rbac.authorization.k8s.io/crossplane-ns-beta-view',
      ]),
    );
    const y = await cli(['apps.example.org', '-n', 'beta', '--disable', '-o', 'yaml', '-f', dir]);
    expect(items(y.stdout)[0]?.metadata.annotations).toBeUndefined();
  });

  it('-o diff shows the annotation change', async () => {
    const r = await cli(['xthings.example.org', '-n', 'gamma', '--no-sync', '-o', 'diff', '-f', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('desired/namespace/gamma');
    expect(r.stdout).toContain('+    rbac.crossplane.io/xthings.example.org: xrd-claim-accepted');
  });

  it('-i on a terminal offers only eligible XRDs, then the namespaces', async () => {
    const asked: { message: string; choices: string[] }[] = [];
    const prompter: Prompter = {
      confirm: () => Promise.reject(new Error('no confirm when nothing is written')),
      checkbox: (message, choices) => {
        asked.push({ message, choices: choices.map((c) => c.value) });
        return Promise.resolve(asked.length === 1 ? ['apps.example.org'] : ['gamma']);
      },
    };
    const r = await cli(['-i', '--no-sync', '-o', 'yaml', '-f', dir], { tty: true, prompter });
    expect(r.code, r.stderr).toBe(0);
    expect(asked[0]?.choices).toStrictEqual([LONG, 'apps.example.org', 'xthings.example.org'].sort());
    expect(asked[1]?.choices).toStrictEqual(['alpha', 'beta', 'gamma']);
    expect(items(r.stdout).map((o) => o.metadata.name)).toStrictEqual(['gamma']);
  });

  it('shows real examples in its help', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain(
      "kubectl crossplane-rbac enable-xrd buckets.storage.acme.io -l 'acme.io/team in (a,b)'",
    );
    expect(r.stdout).toContain('xpostgresqlinstances.database.platform.acme.io');
  });
});
