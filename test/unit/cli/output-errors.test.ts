// A bad -o is refused alike by every command and mode, as kubectl refuses it (one `error:` line naming the command,
// exit 2, nothing read): `unknown output format "F" for COMMAND`, then `hint: use one of: ...` with the formats the
// command's --help lists. The expected lines are written out here, not taken from the registry.
import { describe, expect, it } from 'vitest';
import { runCaptured } from '../../support/run-cli.js';

const F = ['-f', 'examples/cluster'];
const PLAN = 'table, yaml, json, name, diff';
const ROLE = 'yaml, json, name';

const CASES: readonly { argv: readonly string[]; command: string; formats: string }[] = [
  { argv: ['sync', ...F], command: 'sync', formats: PLAN },
  // --print-required-role prints one ClusterRole: kubectl's formats of one object (`create clusterrole -o F`).
  { argv: ['sync', '--print-required-role'], command: 'sync --print-required-role', formats: ROLE },
  {
    argv: ['enable-xrd', 'xmysqlinstances.database.platform.acme.io', '-n', 'team-a', ...F],
    command: 'enable-xrd',
    formats: PLAN,
  },
  { argv: ['bind', '--root-sync', 'root-sync', ...F], command: 'bind', formats: PLAN },
  {
    argv: ['explain', 'crossplane-edit', ...F],
    command: 'explain',
    formats: 'tree, table, wide, yaml, json, dot, mermaid',
  },
  {
    argv: ['explain', 'crossplane-edit', '--print-required-role'],
    command: 'explain --print-required-role',
    formats: ROLE,
  },
  {
    argv: ['explain', '--subject', 'User:jane', ...F],
    command: 'explain --subject',
    formats: 'text, wide, yaml, json, dot, mermaid, html',
  },
  {
    argv: ['explain', '--subject', 'User:jane', '--matrix', ...F],
    command: 'explain --matrix',
    formats: 'table, json, yaml',
  },
  {
    argv: ['who-can', 'get', 'pods', ...F],
    command: 'who-can',
    formats: 'table, wide, json, yaml, dot, mermaid, html',
  },
  {
    argv: ['who-can', 'get', 'pods', '--print-required-role'],
    command: 'who-can --print-required-role',
    formats: ROLE,
  },
  { argv: ['lookup', 'crossplane', ...F], command: 'lookup', formats: 'table, wide, json, yaml' },
  { argv: ['composed', ...F], command: 'composed', formats: 'table, wide, json, yaml' },
  {
    argv: ['audit', ...F],
    command: 'audit',
    formats: 'table, wide, json, yaml, sarif, dot, mermaid, html',
  },
  { argv: ['version'], command: 'version', formats: 'text, short, json, yaml' },
];

describe('a bad -o: one wording for every command', () => {
  it.each(CASES)('$argv.0 ($command)', async ({ argv, command, formats }) => {
    const r = await runCaptured([...argv, '-o', 'bogus']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: unknown output format "bogus" for ${command}\nhint: use one of: ${formats}\n`,
    );
  });

  // `options` lists the global flags (-o: "see each command"); completion takes no -o.
  it('covers every command whose --help lists -o formats', async () => {
    const help = await runCaptured(['--help']);
    const commands = [...help.stdout.matchAll(/^ {2}kubectl crossplane-rbac ([a-z-]+)/gm)].map(
      (m) => m[1] ?? '',
    );
    const withOutput: string[] = [];
    for (const command of commands) {
      if (/^\s+-o, --output\s+Output format: /m.test((await runCaptured([command, '--help'])).stdout))
        withOutput.push(command);
    }
    expect(withOutput.length).toBeGreaterThan(5);
    expect(new Set(CASES.map((c) => c.argv[0]))).toStrictEqual(new Set(withOutput));
  });
});
