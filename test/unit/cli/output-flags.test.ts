// The flags kubectl users type without looking: -f's long form --filename (--from, its first name, still works),
// --no-headers on every table, and each command's --help naming the -o formats it takes (checked against what the
// command then accepts and refuses, so help and parser cannot drift apart).
import { describe, expect, it } from 'vitest';
import { runCaptured } from '../../support/run-cli.js';

const EXAMPLES = 'examples/cluster';
const XRD = 'xmysqlinstances.database.platform.acme.io';
/** Each case runs a command over the example cluster several times: more than 5 s on a busy machine. */
const SLOW = 60_000;

/** Every command that reads -f, with arguments that read the example cluster from files. */
const READERS: readonly { readonly command: string; readonly args: readonly string[] }[] = [
  { command: 'sync', args: ['sync', '-o', 'name'] },
  { command: 'enable-xrd', args: ['enable-xrd', XRD, '-n', 'team-a', '-o', 'name'] },
  { command: 'bind', args: ['bind', '--root-sync', 'root-sync', '--allow-privileged', '-o', 'name'] },
  { command: 'explain', args: ['explain', 'crossplane-edit', '-o', 'wide'] },
  { command: 'who-can', args: ['who-can', 'update', 'buckets.s3.aws.upbound.io', '-o', 'wide'] },
  { command: 'lookup', args: ['lookup', 'crossplane', '-o', 'wide'] },
  { command: 'composed', args: ['composed', '-o', 'wide'] },
  // With the group bound to crossplane-edit: a table to print (without findings, only stderr says so).
  { command: 'audit', args: ['audit', '-f', 'examples/audit', '-o', 'wide'] },
];

describe('--filename is the long form of -f; --from still works', () => {
  it.each(READERS)(
    '$command',
    async ({ args }) => {
      const short = await runCaptured([...args, '-f', EXAMPLES]);
      expect(short.code, short.stderr).toBe(0);
      expect(short.stdout).not.toBe('');
      for (const spelling of [['--filename', EXAMPLES], [`--filename=${EXAMPLES}`], ['--from', EXAMPLES]]) {
        expect(await runCaptured([...args, ...spelling]), spelling.join(' ')).toStrictEqual(short);
      }
    },
    SLOW,
  );

  it('every command that takes -f lists it as -f, --filename in its help', async () => {
    const help = await runCaptured(['--help']);
    const commands = [...help.stdout.matchAll(/^ {2}kubectl crossplane-rbac ([a-z-]+)/gm)].map(
      (m) => m[1] ?? '',
    );
    expect(commands).toContain('sync');
    const withF: string[] = [];
    for (const command of commands) {
      const text = (await runCaptured([command, '--help'])).stdout;
      if (/^\s+-f, /m.test(text)) {
        expect(text, command).toMatch(/^\s+-f, --filename\b/m);
        withF.push(command);
      }
    }
    expect(withF.sort()).toStrictEqual(READERS.map((r) => r.command).sort());
  });
});

/**
 * The table --no-headers must print, from the table with headers: the header row dropped and each column as wide as
 * its cells alone, as kubectl's tabwriter does (`kubectl get cm` prints `NAME   CREATED AT` / `b      2026-...`,
 * and with --no-headers `b     2026-...`: the header no longer sets the width). Columns start where the header's
 * names start; the gap between them is the table's own.
 */
function withoutHeaders(table: string): string {
  const [head = '', ...rows] = table.split('\n').filter((l) => l !== '');
  const starts = [...head.matchAll(/(?:^|\s{2,})(\S)/g)].map((m) => (m.index ?? 0) + m[0].length - 1);
  const cellsOf = (line: string): string[] =>
    starts.map((s, i) => line.slice(s, starts[i + 1] ?? line.length).trim());
  const columns = [head, ...rows].map(cellsOf);
  const gap = (starts[1] ?? 0) - Math.max(...columns.map((c) => (c[0] ?? '').length));
  const cells = rows.map(cellsOf);
  const widths = starts.map((_, i) => Math.max(...cells.map((c) => (c[i] ?? '').length)));
  return cells
    .map((c) =>
      c
        .map((cell, i) => cell.padEnd((widths[i] ?? 0) + gap))
        .join('')
        .trimEnd(),
    )
    .join('\n');
}

describe('--no-headers drops the header row of every table, as kubectl --no-headers', () => {
  const TABLES: readonly { readonly name: string; readonly args: readonly string[] }[] = [
    { name: 'sync', args: ['sync', '-f', EXAMPLES] },
    { name: 'enable-xrd', args: ['enable-xrd', XRD, '-n', 'team-a', '-f', EXAMPLES] },
    { name: 'bind', args: ['bind', '--root-sync', 'root-sync', '--allow-privileged', '-f', EXAMPLES] },
    { name: 'explain -o table', args: ['explain', 'crossplane-edit', '-o', 'table', '-f', EXAMPLES] },
    { name: 'explain -o wide', args: ['explain', 'crossplane-edit', '-o', 'wide', '-f', EXAMPLES] },
    { name: 'who-can', args: ['who-can', 'update', 'buckets.s3.aws.upbound.io', '-f', EXAMPLES] },
    {
      name: 'who-can -o wide',
      args: ['who-can', 'update', 'buckets.s3.aws.upbound.io', '-o', 'wide', '-f', EXAMPLES],
    },
    { name: 'lookup', args: ['lookup', 'crossplane', '-f', EXAMPLES] },
    { name: 'lookup -o wide', args: ['lookup', 'crossplane', '-o', 'wide', '-f', EXAMPLES] },
    { name: 'composed', args: ['composed', '-f', EXAMPLES] },
    { name: 'composed -o wide', args: ['composed', '-o', 'wide', '-f', EXAMPLES] },
  ];

  it.each(TABLES)(
    '$name',
    async ({ args }) => {
      const headed = await runCaptured(args);
      expect(headed.code, headed.stderr).toBe(0);
      expect(headed.stdout).toMatch(/^(KIND|#|SUBJECT|STATUS) /);
      expect(headed.stdout.split('\n').length).toBeGreaterThan(2);
      const bare = await runCaptured([...args, '--no-headers']);
      expect(bare.code, bare.stderr).toBe(0);
      expect(bare.stderr).toBe(headed.stderr);
      expect(bare.stdout.trimEnd()).toBe(withoutHeaders(headed.stdout));
      expect(await runCaptured([...args, '--no-headers=true'])).toStrictEqual(bare);
      expect(await runCaptured([...args, '--no-headers=false'])).toStrictEqual(headed);
    },
    SLOW,
  );

  it(
    'explain --subject --matrix: the RESOURCE GET ... row goes, the rest (headings, notes) stays',
    async () => {
      const args = [
        'explain',
        '--subject',
        'ServiceAccount:crossplane-system/upbound-provider-aws-s3-e7585f0184b8',
        '--matrix',
        '--after-sync',
        '-f',
        EXAMPLES,
      ];
      const headed = await runCaptured(args);
      const bare = await runCaptured([...args, '--no-headers']);
      expect(headed.code, headed.stderr).toBe(0);
      expect(bare.code, bare.stderr).toBe(0);
      const lines = headed.stdout.split('\n');
      const header = lines.findIndex((l) => l.startsWith('RESOURCE '));
      expect(header).toBeGreaterThan(0);
      const cells = (ls: readonly string[]): string[][] => ls.map((l) => l.split(/ {2,}/));
      expect(cells(bare.stdout.split('\n'))).toStrictEqual(cells(lines.filter((_, i) => i !== header)));
      // The verb columns are as wide as their cells (`yes`), no longer as WATCH or DELETECOLLECTION.
      expect(bare.stdout).toMatch(/^ {2}configmaps +yes {2}yes {2}yes {2}yes {2}yes {2}yes {2}yes {2}yes$/m);
    },
    SLOW,
  );

  it('the reference: a header wider than its cells no longer sets the width; the gap is kept', () => {
    expect(withoutHeaders('LONG HEADER  X\nb            1\n')).toBe('b  1');
    expect(withoutHeaders('#    A\n0    x\n10   y')).toBe('0    x\n10   y');
    expect(withoutHeaders('K  A     B\nx  long  1\ny        2')).toBe('x  long  1\ny        2');
  });
});

/**
 * The formats a command's --help gives for -o: `Output format: a|b|c`, and explain's `(with --subject: ...; with
 * --matrix: ...)`.
 */
async function helpFormats(
  command: string,
): Promise<{ main: string[]; subject: string[]; matrix: string[] }> {
  const text = (await runCaptured([command, '--help'])).stdout.replace(/\s+/g, ' ');
  const line =
    /-o, --output Output format: ([a-z|]+)(?: \(with --subject: ([a-z|]+); with --matrix: ([a-z|]+)\))?/.exec(
      text,
    );
  expect(line, `${command} --help names its -o formats`).not.toBeNull();
  const list = (i: number): string[] => line?.[i]?.split('|') ?? [];
  return { main: list(1), subject: list(2), matrix: list(3) };
}

describe("each command's --help lists the -o formats it takes", () => {
  const CASES: readonly {
    readonly command: string;
    readonly args: readonly string[];
    readonly subject?: string[];
    readonly matrix?: string[];
  }[] = [
    { command: 'sync', args: ['sync', '-f', EXAMPLES] },
    { command: 'enable-xrd', args: ['enable-xrd', XRD, '-n', 'team-a', '-f', EXAMPLES] },
    { command: 'bind', args: ['bind', '--root-sync', 'root-sync', '--allow-privileged', '-f', EXAMPLES] },
    {
      command: 'explain',
      args: ['explain', 'crossplane-edit', '-f', EXAMPLES],
      subject: ['explain', '--subject', 'Group:team-a-devs', '-n', 'team-a', '-f', EXAMPLES],
      matrix: ['explain', '--subject', 'Group:team-a-devs', '--matrix', '-n', 'team-a', '-f', EXAMPLES],
    },
    { command: 'who-can', args: ['who-can', 'get', 'pods', '-f', EXAMPLES] },
    { command: 'lookup', args: ['lookup', 'crossplane', '-f', EXAMPLES] },
    { command: 'version', args: ['version'] },
  ];

  it.each(CASES)(
    '$command',
    async ({ command, args, subject, matrix }) => {
      const formats = await helpFormats(command);
      expect(formats.main.length).toBeGreaterThan(1);
      const refusal = /^error: unknown output format/m;
      for (const [argv, listed] of [
        [args, formats.main],
        ...(subject !== undefined ? [[subject, formats.subject] as const] : []),
        ...(matrix !== undefined ? [[matrix, formats.matrix] as const] : []),
      ] as const) {
        expect(listed.length, argv.join(' ')).toBeGreaterThan(1);
        for (const f of listed) {
          const r = await runCaptured([...argv, '-o', f]);
          expect(r.stderr, `${argv.join(' ')} -o ${f}`).not.toMatch(refusal);
          expect(r.code, `${argv.join(' ')} -o ${f}: ${r.stderr}`).toBe(0);
        }
        // What the help does not list is refused.
        const bogus = await runCaptured([...argv, '-o', 'bogus']);
        expect(bogus.code).toBe(2);
        expect(bogus.stderr).toMatch(refusal);
        const hint = /^hint: use one of: (.*)$/m.exec(bogus.stderr)?.[1];
        if (hint !== undefined) expect(hint.split(', ')).toStrictEqual(listed);
      }
    },
    SLOW,
  );

  it('the root help says -o depends on the command', async () => {
    expect((await runCaptured(['--help'])).stdout).toMatch(
      /-o, --output\s+Output format \(see each command\)/,
    );
  });
});
