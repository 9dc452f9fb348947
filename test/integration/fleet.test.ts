/**
 * Read-only runs across contexts: four contexts in one kubeconfig (a drifted cluster, a synced one, one whose user
 * may read nothing, one nobody listens on). Each context's answer must be exactly what a run with --context alone
 * prints; failures stay with their context; the exit code and summary count each.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { TestApiServer } from '../apiserver/server.js';
import { runPlugin, startSeeded, userKubeconfig } from './harness.js';

interface Named {
  name: string;
  [k: string]: unknown;
}
interface Kubeconfig {
  clusters: Named[];
  users: Named[];
  contexts: Named[];
}

let drifted: TestApiServer;
let synced: TestApiServer;
let dir: string;
let kubeconfig: string;
let syncedKubeconfig: string;
const dirs: string[] = [];

/** The one cluster, user and context of FILE, renamed NAME. */
function entry(file: string, name: string): Kubeconfig {
  const k = parse(readFileSync(file, 'utf8')) as Kubeconfig;
  const rename = (list: Named[]): Named[] => list.slice(0, 1).map((e) => ({ ...e, name }));
  const [context] = k.contexts;
  return {
    clusters: rename(k.clusters),
    users: rename(k.users),
    contexts: [{ ...(context as Named), name, context: { cluster: name, user: name } }],
  };
}

beforeAll(async () => {
  const a = await startSeeded();
  const b = await startSeeded();
  drifted = a.server;
  synced = b.server;
  dirs.push(a.dir, b.dir);
  expect((await runPlugin(['sync', '--kubeconfig', b.kubeconfig, '--yes'])).code).toBe(0);
  syncedKubeconfig = b.kubeconfig;
  const nobody = userKubeconfig(synced, b.dir, 'nobody');
  dir = mkdtempSync(join(tmpdir(), 'xrbac-fleet-'));
  const parts = [
    entry(a.kubeconfig, 'eu-drifted'),
    entry(b.kubeconfig, 'eu-synced'),
    entry(nobody, 'us-forbidden'),
  ];
  const dead: Kubeconfig = {
    clusters: [
      { name: 'us-dead', cluster: { server: 'https://127.0.0.1:1', 'insecure-skip-tls-verify': true } },
    ],
    users: [{ name: 'us-dead', user: { token: 'x' } }],
    contexts: [{ name: 'us-dead', context: { cluster: 'us-dead', user: 'us-dead' } }],
  };
  const all = [...parts, dead];
  kubeconfig = join(dir, 'fleet.kubeconfig');
  writeFileSync(
    kubeconfig,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: all.flatMap((p) => p.clusters),
      users: all.flatMap((p) => p.users),
      contexts: all.flatMap((p) => p.contexts),
      'current-context': 'eu-drifted',
    }),
  );
});

afterAll(async () => {
  await Promise.all([drifted.stop(), synced.stop()]);
  for (const d of [...dirs, dir]) rmSync(d, { recursive: true, force: true });
});

const K = (): string[] => ['--kubeconfig', kubeconfig];

describe('--contexts and --all-contexts', () => {
  it('gives each context exactly the answer --context gives, in the order asked', async () => {
    const question = ['who-can', 'delete', 'buckets.s3.aws.upbound.io', '-A', '-o', 'json', ...K()];
    const fleet = await runPlugin([...question, '--contexts', 'eu-synced,eu-drifted']);
    expect(fleet.code, fleet.stderr).toBe(0);
    const list = JSON.parse(fleet.stdout) as { kind: string; items: { context: string; result: unknown }[] };
    expect(list.kind).toBe('List');
    expect(list.items.map((i) => i.context)).toEqual(['eu-synced', 'eu-drifted']);
    for (const item of list.items) {
      const alone = await runPlugin([...question, '--context', item.context]);
      expect(alone.code, alone.stderr).toBe(0);
      expect(item.result).toEqual(JSON.parse(alone.stdout));
    }
    // The synced cluster has the provider roles: more subjects may delete buckets there.
    expect(list.items[0]?.result).not.toEqual(list.items[1]?.result);
  });

  it('explains a role per context as --context does, and sections plain text by context', async () => {
    const question = ['explain', 'crossplane-edit', '-o', 'json', ...K()];
    const fleet = await runPlugin([...question, '--contexts', 'eu-drifted,eu-synced']);
    expect(fleet.code, fleet.stderr).toBe(0);
    const list = JSON.parse(fleet.stdout) as { items: { context: string; result: unknown }[] };
    for (const item of list.items) {
      const alone = await runPlugin([...question, '--context', item.context]);
      expect(item.result).toEqual(JSON.parse(alone.stdout));
    }
    const text = await runPlugin(['explain', 'crossplane-edit', '--contexts', 'eu-*', ...K()]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split('\n').filter((l) => l.startsWith('# context '))).toEqual([
      '# context eu-drifted',
      '# context eu-synced',
    ]);
  });

  it('keeps failures local: exit 2, one error line per failed context, the others answered', async () => {
    const r = await runPlugin(['sync', '--check', '--all-contexts', '-o', 'json', ...K()]);
    expect(r.code).toBe(2);
    const list = JSON.parse(r.stdout) as {
      items: { context: string; result?: { items: unknown[] }; error?: string }[];
    };
    expect(list.items.map((i) => i.context)).toEqual(['eu-drifted', 'eu-synced', 'us-forbidden', 'us-dead']);
    const [driftedItem, syncedItem, forbidden, dead] = list.items;
    expect(driftedItem?.error).toBeUndefined();
    expect(driftedItem?.result?.items.length).toBeGreaterThan(100);
    const alone = await runPlugin(['sync', '--check', '-o', 'json', '--context', 'eu-drifted', ...K()]);
    expect(alone.code).toBe(1);
    expect(driftedItem?.result).toEqual(JSON.parse(alone.stdout));
    expect(syncedItem?.error).toBeUndefined();
    expect(forbidden?.error).toMatch(/forbidden/);
    expect(forbidden?.result).toBeUndefined();
    expect(dead?.error).toMatch(/cannot reach the API server/);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('error: '));
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^error: context us-forbidden: /);
    expect(errors[1]).toMatch(/^error: context us-dead: /);
    expect(r.stderr).toMatch(/^4 contexts: 1 ok, 1 drifted or denied, 2 failed$/m);
  });

  it('adds a CONTEXT column to tables and exits 1 when a context drifted', async () => {
    const r = await runPlugin(['sync', '--check', '--contexts', 'eu-*', ...K()]);
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^CONTEXT\s+KIND\s+TO CREATE\s+TO UPDATE\s+UNCHANGED\s+TO DELETE\s+REFUSED\s+FAILED$/,
    );
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual([
      'eu-drifted',
      'eu-drifted',
      'eu-synced',
      'eu-synced',
    ]);
    expect(lines[3]).toMatch(/^eu-synced\s+ClusterRole\s+0\s+0\s+\d+\s+0\s+0\s+0$/);
    expect(r.stderr).toMatch(/^2 contexts: 1 ok, 1 drifted or denied, 0 failed$/m);
  });

  it.each([
    [['sync', '--check']],
    [['who-can', 'delete', 'buckets.s3.aws.upbound.io', '-A']],
    [['who-can', 'delete', 'buckets.s3.aws.upbound.io', '-A', '-o', 'wide']],
    [['lookup', 'crossplane', '-o', 'wide']],
    [['composed']],
  ])('merges %j: each context alone, byte for byte, with a CONTEXT column first', async (question) => {
    const contexts = ['eu-synced', 'eu-drifted'];
    const fleet = await runPlugin([...question, ...K(), '--contexts', contexts.join(',')]);
    const alone = await Promise.all(contexts.map((c) => runPlugin([...question, ...K(), '--context', c])));
    // The oracle is the single runs' bytes: their header row says where each column starts.
    const rows = alone.flatMap((r, i) => {
      const [header = '', ...body] = r.stdout.trimEnd().split('\n');
      const starts = [...header.matchAll(/(?:^|(?<= {2}))\S/g)].map((m) => m.index);
      const cells = (line: string): string[] =>
        starts.map((s, j) => line.slice(s, starts[j + 1] ?? line.length).trim());
      return [
        ...(i === 0 ? [['CONTEXT', ...cells(header)]] : []),
        ...body.map((l) => [contexts[i] ?? '', ...cells(l)]),
      ];
    });
    const widths = rows[0]?.map((_, j) => Math.max(...rows.map((r) => Array.from(r[j] ?? '').length))) ?? [];
    const expected = rows
      .map((r) =>
        r
          .map((c, j) =>
            j === r.length - 1 ? c : c.padEnd((widths[j] ?? 0) + 2 - (c.length - Array.from(c).length)),
          )
          .join('')
          .trimEnd(),
      )
      .join('\n');
    expect(fleet.stdout).toBe(`${expected}\n`);
    // Each context's stderr lines, in its words, named by its context; then the summary.
    const stderr = alone.flatMap((r, i) =>
      r.stderr
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => `context ${contexts[i] ?? ''}: ${l}`),
    );
    expect(fleet.stderr.split('\n').slice(0, -2)).toEqual(stderr);
    expect(fleet.code).toBe(Math.max(...alone.map((r) => r.code)));
  });

  it('--no-headers drops the merged header row only: the same cells, context by context', async () => {
    const headed = await runPlugin(['sync', '--check', '--contexts', 'eu-*', ...K()]);
    const bare = await runPlugin(['sync', '--check', '--contexts', 'eu-*', '--no-headers', ...K()]);
    expect(bare.code, bare.stderr).toBe(headed.code);
    const cells = (text: string): string[][] =>
      text
        .trimEnd()
        .split('\n')
        .map((l) => l.split(/ {2,}/));
    const [head, ...rows] = cells(headed.stdout);
    expect(head?.[0]).toBe('CONTEXT');
    expect(cells(bare.stdout)).toStrictEqual(rows);
    expect(bare.stdout.split('\n')[0]).toMatch(/^eu-drifted {2}ClusterRole /);
  });

  it('-f (or --filename) reads files, not contexts', async () => {
    for (const f of ['-f', '--filename']) {
      const r = await runPlugin([
        'who-can',
        'get',
        'pods',
        f,
        'examples/cluster',
        '--contexts',
        'eu-*',
        ...K(),
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: -f reads files, not contexts/);
    }
  });

  it('refuses what it cannot do with one clear error', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['sync', '--contexts', 'eu-synced'],
        /^error: refusing to apply the Crossplane RBAC without confirmation/m,
      ],
      [
        ['sync', '--contexts', 'eu-synced', '-f', 'examples/cluster'],
        /^error: -f reads files, not contexts/m,
      ],
      [['sync', '--check', '--contexts', 'ap-*'], /^error: --contexts "ap-\*" matches no context$/m],
      [['sync', '--check', '--contexts', 'nope'], /^error: context "nope" does not exist$/m],
      [['sync', '--check', '--contexts', 'eu-synced', '--context', 'eu-synced'], /cannot be used together/],
      [['sync', '--check', '--all-contexts', '--parallel', '0'], /invalid --parallel 0/],
      [
        ['lookup', '--contexts', '[z-a]'],
        /^error: invalid --contexts pattern "\[z-a\]": range z-a is out of order\nhint: [^\n]+\n$/,
      ],
      [['lookup', '--contexts', 'eu-[ab'], /^error: invalid --contexts pattern "eu-\[ab": unclosed \[\n/],
    ];
    for (const [argv, message] of cases) {
      const r = await runPlugin([...argv, ...K()]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
  });
});

describe('sync across contexts with writes', () => {
  it('refuses off a terminal without --yes, and asks once on one, naming every context after showing each plan', async () => {
    const refused = await runPlugin(['sync', '--contexts', 'eu-drifted,eu-synced', ...K()]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: refusing to apply the Crossplane RBAC without confirmation/m);
    const asked: string[] = [];
    const declined = await runPlugin(['sync', '--contexts', 'eu-drifted,eu-synced', ...K()], {
      tty: true,
      prompter: {
        confirm: (message: string) => {
          asked.push(message);
          return Promise.resolve(false);
        },
        checkbox: () => Promise.reject(new Error('unexpected')),
      },
    });
    expect(declined.code).toBe(2);
    expect(asked).toEqual([
      'apply the Crossplane RBAC in 2 contexts (eu-drifted, eu-synced), one at a time?',
    ]);
    expect(declined.stderr).toMatch(/^CONTEXT\s+KIND\s+TO CREATE/m);
    expect(declined.stderr).toMatch(/^eu-drifted\s+ClusterRole\s+[1-9]\d*\s/m);
    expect(declined.stderr).toMatch(/^error: aborted: nothing was written$/m);
    const still = await runPlugin(['sync', '--check', '--context', 'eu-drifted', ...K()]);
    expect(still.code).toBe(1);
  });

  it('writes one context at a time; --fail-fast stops at the first that fails', async () => {
    const r = await runPlugin([
      'sync',
      '--contexts',
      'eu-drifted,us-dead,eu-synced',
      '--yes',
      '--fail-fast',
      ...K(),
    ]);
    expect(r.code).toBe(2);
    // Each object written, with its context, before the merged table.
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    const written = lines.filter((l) => l.startsWith('context '));
    expect(written.length).toBeGreaterThan(0);
    for (const l of written)
      expect(l, JSON.stringify(l)).toMatch(
        /^context eu-drifted: [a-z0-9.]+\/\S+ (created|configured|deleted)$/,
      );
    expect(lines.slice(0, written.length)).toStrictEqual(written);
    expect(lines.slice(written.length).map((l) => l.split(/\s+/)[0])).toEqual([
      'CONTEXT',
      'eu-drifted',
      'eu-drifted',
    ]);
    expect(r.stderr).toMatch(/^error: context us-dead: /m);
    expect(r.stderr).toMatch(/^3 contexts: 1 written, 1 failed, 1 not started \(--fail-fast\)$/m);
    // What sync --check --context says of each, alone.
    expect((await runPlugin(['sync', '--check', '--context', 'eu-drifted', ...K()])).code).toBe(0);
    const all = await runPlugin(['sync', '--contexts', 'us-dead,eu-synced', '--yes', ...K()]);
    expect(all.code).toBe(2);
    expect(all.stderr).toMatch(/^2 contexts: 1 written, 1 failed$/m);
    expect(all.stdout).toMatch(/^eu-synced\s+ClusterRole\s+0\s+0\s+\d+\s+0\s+0\s+0$/m);
  });
});

describe("the server's warnings across contexts", () => {
  it('names its context in each line, printed once per context (kubectl has no fleet: docs/reference/command-line.md)', async () => {
    const xrdCrd = 'compositeresourcedefinitions.apiextensions.crossplane.io';
    type Crd = { spec: { versions: { name: string; deprecated?: boolean }[] } };
    const originals = [drifted, synced].map(
      (s) => structuredClone(s.get('customresourcedefinitions', xrdCrd)) as Crd,
    );
    const text =
      'apiextensions.crossplane.io/v1 CompositeResourceDefinition is deprecated; use apiextensions.crossplane.io/v2 CompositeResourceDefinition';
    try {
      for (const [i, server] of [drifted, synced].entries()) {
        const crd = structuredClone(originals[i]) as Crd;
        for (const v of crd.spec.versions) if (v.name === 'v1') v.deprecated = true;
        server.seed([crd]);
      }
      const r = await runPlugin([
        'sync',
        '--check',
        '-o',
        'name',
        ...K(),
        '--contexts',
        'eu-drifted,eu-synced',
      ]);
      expect(r.stdout).not.toContain('Warning');
      expect(
        r.stderr
          .split('\n')
          .filter((l) => l.startsWith('Warning: '))
          .sort(),
      ).toStrictEqual([`Warning: [context eu-drifted] ${text}`, `Warning: [context eu-synced] ${text}`]);
    } finally {
      drifted.seed([originals[0]]);
      synced.seed([originals[1]]);
    }
  });
});

describe('context names from the kubeconfig', () => {
  // A context's name may hold anything: an OSC sequence that retitles the terminal (ESC ] 0 ; ... BEL), a CSI one
  // that clears it (ESC [ 2 J). Shown to a person, each is written as Go's strconv.Quote writes it (\x1b, \a).
  const TITLE = '\u001b]0;owned\u0007eu';
  const CLEAR = '\u001b[2Jdead';
  let evil: string;

  beforeAll(() => {
    const synced = entry(syncedKubeconfig, 'eu-synced');
    const titled = entry(syncedKubeconfig, TITLE);
    const dead: Kubeconfig = {
      clusters: [
        { name: CLEAR, cluster: { server: 'https://127.0.0.1:1', 'insecure-skip-tls-verify': true } },
      ],
      users: [{ name: CLEAR, user: { token: 'x' } }],
      contexts: [{ name: CLEAR, context: { cluster: CLEAR, user: CLEAR } }],
    };
    const all = [synced, titled, dead];
    evil = join(dir, 'evil.kubeconfig');
    writeFileSync(
      evil,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: all.flatMap((p) => p.clusters),
        users: all.flatMap((p) => p.users),
        contexts: all.flatMap((p) => p.contexts),
        'current-context': 'eu-synced',
      }),
    );
  });

  const noControls = (text: string): void => {
    expect(Array.from(text).filter((c) => (c < ' ' && c !== '\n') || c === '\u007f')).toStrictEqual([]);
  };

  it('escapes them in every cell of a merged table, in the error lines, and in plain-text sections', async () => {
    const table = await runPlugin(['lookup', 'crossplane', '--all-contexts', '--kubeconfig', evil]);
    expect(table.code).toBe(2);
    noControls(table.stdout);
    noControls(table.stderr);
    const firstCells = table.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split(/ {2,}/)[0]);
    expect(firstCells[0]).toBe('CONTEXT');
    expect(new Set(firstCells.slice(1))).toStrictEqual(new Set(['eu-synced', '\\x1b]0;owned\\aeu']));
    expect(table.stderr).toMatch(/^error: context \\x1b\[2Jdead: /m);

    const text = await runPlugin(['explain', 'crossplane-edit', '--contexts', '*eu', '--kubeconfig', evil]);
    expect(text.code, text.stderr).toBe(0);
    noControls(text.stdout);
    expect(text.stdout.split('\n').filter((l) => l.startsWith('# context '))).toStrictEqual([
      '# context \\x1b]0;owned\\aeu',
    ]);
  });

  it('keeps them exact in -o json, which is data', async () => {
    const json = await runPlugin([
      'lookup',
      'crossplane',
      '--all-contexts',
      '-o',
      'json',
      '--kubeconfig',
      evil,
    ]);
    const list = JSON.parse(json.stdout) as { items: { context: string }[] };
    expect(list.items.map((i) => i.context)).toStrictEqual(['eu-synced', TITLE, CLEAR]);
  });
});
