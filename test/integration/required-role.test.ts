/**
 * --print-required-role of the read commands: the ClusterRole printed, bound to a user who has nothing else, lets
 * that user run the command with nothing unseen; and each of its rules is needed (dropped, the command warns or
 * fails). The judge is the test API server's authorizer, which shares no code with the plugin.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { TestApiServer } from '../apiserver/server.js';
import { xrd } from '../support/cluster-state.js';
import { runPlugin, startSeeded, userKubeconfig } from './harness.js';

const RBAC = 'rbac.authorization.k8s.io';

interface Role {
  metadata: { name: string };
  rules: Record<string, unknown>[];
}

/** An XRD whose CRDs do not exist yet: discovery does not serve its claim, so who-can reads every XRD and revision. */
const UNSERVED_XRD = xrd(
  'unserved.acme.io',
  { kind: 'XWidget', plural: 'xwidgets' },
  { kind: 'Widget', plural: 'widgets' },
  'v1alpha1',
);

/**
 * Each read command: how its role is printed, and a run of it that reads everything the role names (who-can: its
 * runs together do, each resolving RESOURCE its own way; SEED is stored first).
 */
const COMMANDS: readonly {
  name: string;
  print: string[];
  run: string[];
  more?: string[][];
  seed?: object[];
}[] = [
  {
    name: 'who-can',
    print: ['who-can'],
    run: ['who-can', 'create', 'deployments.apps', '-n', 'team-a'],
    // A claim discovery serves (the XRDs of its group are listed by name, then read); one it does not serve.
    more: [
      ['who-can', 'create', 'buckets.storage.platform.acme.io', '-n', 'team-a'],
      ['who-can', 'create', 'widgets.unserved.acme.io', '-n', 'team-a'],
    ],
    seed: [UNSERVED_XRD],
  },
  { name: 'explain', print: ['explain'], run: ['explain', 'crossplane-edit'] },
  {
    name: 'explain --subject',
    print: ['explain', '--subject', 'User:x'],
    run: ['explain', '--subject', 'Group:crossplane:masters', '--for', 'compositions', '--verb', 'update'],
    // By default the bound ClusterRoles are read one GET each; --converged lists them all. --for a claim discovery
    // serves reads the XRDs of its group one GET each, as who-can.
    more: [
      ['explain', '--subject', 'Group:crossplane:masters', '--converged'],
      [
        'explain',
        '--subject',
        'Group:system:masters',
        '--for',
        'buckets.storage.platform.acme.io',
        '--verb',
        'create',
        '-n',
        'team-a',
      ],
    ],
  },
  {
    name: 'explain --matrix',
    print: ['explain', '--subject', 'User:x', '--matrix'],
    run: ['explain', '--subject', 'Group:crossplane:masters', '--matrix'],
  },
  {
    name: 'lookup',
    print: ['lookup'],
    run: ['lookup', 'crossplane'],
    // By default the bound ClusterRoles are read one GET each; --converged lists them all.
    more: [['lookup', 'crossplane', '--converged']],
  },
  { name: 'composed', print: ['composed'], run: ['composed'] },
  { name: 'audit', print: ['audit'], run: ['audit'] },
];

describe('--print-required-role of the read commands', () => {
  let server: TestApiServer;
  let admin: string;
  let dir: string;

  beforeAll(async () => {
    ({ server, kubeconfig: admin, dir } = await startSeeded());
  });
  afterAll(async () => {
    await server.stop();
  });

  /** Binds ROLE (under a fresh name) to a fresh user; returns the user's kubeconfig. */
  function holder(role: Role, tag: string): string {
    const name = `${role.metadata.name}-${tag}`;
    server.seed([
      { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules: role.rules },
      {
        apiVersion: `${RBAC}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name },
        subjects: [{ kind: 'User', apiGroup: RBAC, name }],
      },
    ] as never);
    return userKubeconfig(server, dir, name);
  }

  it.each(COMMANDS)(
    '$name: its role is enough, and every rule of it is needed',
    async ({ print, run, more, seed }) => {
      if (seed !== undefined) server.seed(seed);
      const runs = [run, ...(more ?? [])];
      const printed = await runPlugin([...print, '--print-required-role', '--kubeconfig', admin]);
      expect(printed.code, printed.stderr).toBe(0);
      const role = parse(printed.stdout) as Role;
      expect(role.metadata.name).toMatch(/^crossplane-rbac-/);

      const all = holder(role, 'all');
      for (const args of runs) {
        const whole = await runPlugin([...args, '--kubeconfig', all]);
        expect(whole.code, whole.stderr).toBe(0);
        expect(whole.stderr).not.toMatch(/warning: could not (list|get)|error:/);
      }

      // Each rule dropped in turn: the server refuses a read the command needs in one of the runs (it warns that
      // the answer is partial, or fails).
      for (const [i, rule] of role.rules.entries()) {
        const without = holder({ ...role, rules: role.rules.filter((_, j) => j !== i) }, `no${String(i)}`);
        const seen: string[] = [];
        let noticed = false;
        for (const args of runs) {
          const r = await runPlugin([...args, '--kubeconfig', without]);
          seen.push(`exit ${String(r.code)}, ${r.stderr}`);
          noticed ||= r.code !== 0 || /warning: could not (list|get) /.test(r.stderr);
        }
        expect(noticed, `without ${JSON.stringify(rule)}: ${seen.join('; ')}`).toBe(true);
      }
    },
    120_000,
  );

  it("sync --only ...,composed: its role also reads what the composed part reads; plain sync's is not enough", async () => {
    const run = ['sync', '--only', 'providers,composed', '--check'];
    const printRole = async (args: string[]): Promise<Role> => {
      const printed = await runPlugin([...args, '--print-required-role', '--kubeconfig', admin]);
      expect(printed.code, printed.stderr).toBe(0);
      return parse(printed.stdout) as Role;
    };
    const asAdmin = await runPlugin([...run, '--kubeconfig', admin]);
    expect(asAdmin.stderr).not.toMatch(/is forbidden: User/);
    // The holder of the printed role runs it exactly as the administrator does.
    const role = await printRole(['sync', '--only', 'providers,composed']);
    const held = await runPlugin([...run, '--kubeconfig', holder(role, 'composed')]);
    expect(held).toStrictEqual(asAdmin);
    // The role of a plain sync lacks the composed part's reads: the server refuses one of them.
    const plain = await printRole(['sync']);
    const short = await runPlugin([...run, '--kubeconfig', holder(plain, 'plain')]);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/is forbidden: User "crossplane-rbac-sync-plain"/);
  });

  it("-o name prints what kubectl's name printer prints for the role; -o json the role; no other format", async () => {
    const commands: [string[], string][] = [
      [['who-can'], 'who-can'],
      [['audit'], 'audit'],
      [['sync'], 'sync'],
      [['explain', '--subject', 'User:x'], 'explain --subject'],
    ];
    for (const [print, typed] of commands) {
      const yaml = await runPlugin([...print, '--print-required-role', '--kubeconfig', admin]);
      const role = parse(yaml.stdout) as Role;
      // kubectl's own -o name of a ClusterRole of that name (a dry run: nothing is written; the server in this
      // process answers its discovery, so not a synchronous child).
      const { stdout: kubectl } = await promisify(execFile)(
        '/usr/bin/kubectl',
        [
          'create',
          'clusterrole',
          role.metadata.name,
          '--verb=get',
          '--resource=pods',
          '--dry-run=client',
          '-o',
          'name',
        ],
        { env: { ...process.env, KUBECONFIG: admin }, encoding: 'utf8' },
      );
      const name = await runPlugin([...print, '--print-required-role', '-o', 'name', '--kubeconfig', admin]);
      expect(name, print.join(' ')).toMatchObject({ code: 0, stdout: kubectl, stderr: '' });
      const json = await runPlugin([...print, '--print-required-role', '-o', 'json', '--kubeconfig', admin]);
      expect(JSON.parse(json.stdout), print.join(' ')).toStrictEqual(role);
      // A format that means nothing for one ClusterRole (the command's table, wide, a graph): -o's standard error.
      const wide = await runPlugin([...print, '--print-required-role', '-o', 'wide', '--kubeconfig', admin]);
      expect(wide, print.join(' ')).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `error: unknown output format "wide" for ${typed} --print-required-role\nhint: use one of: yaml, json, name\n`,
      });
    }
  });

  it('composed lists the composite resources and claims of the XRDs it reads', async () => {
    const printed = await runPlugin(['composed', '--print-required-role', '--kubeconfig', admin]);
    const role = parse(printed.stdout) as Role;
    const listed = role.rules.flatMap((r) =>
      ((r.apiGroups as string[] | undefined) ?? []).flatMap((g) =>
        ((r.resources as string[] | undefined) ?? []).map((res) => `${res}.${g}`),
      ),
    );
    for (const xrd of server.list('compositeresourcedefinitions') as {
      spec: { group: string; names: { plural: string }; claimNames?: { plural: string } };
    }[]) {
      expect(listed).toContain(`${xrd.spec.names.plural}.${xrd.spec.group}`);
      if (xrd.spec.claimNames !== undefined)
        expect(listed).toContain(`${xrd.spec.claimNames.plural}.${xrd.spec.group}`);
    }
  });
});
