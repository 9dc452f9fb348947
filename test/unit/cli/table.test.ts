/**
 * Tables of any length (issue 37 item 4): cli-table3 overflows the stack past about 120,000 rows and lays a table
 * out in time growing with the square of its rows, so formatTable prints in pieces. The reference is cli-table3
 * itself, asked for the whole table in one call with the options formatTable documents (no borders, compact, no
 * left padding, GAP spaces of right padding, the head cyan when coloured), each line's trailing spaces dropped.
 */
import Table from 'cli-table3';
import { describe, expect, it } from 'vitest';
import { formatTable, tableChunks } from '../../../src/cli/output/table.js';
import { prng } from '../explain/helpers.js';

const EMPTY_CHARS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '',
};

/** cli-table3's own rendering of the whole table, in one call. */
function reference(head: string[], rows: string[][], color: boolean, gap: number): string {
  const t = new Table({
    head,
    style: {
      head: color ? ['cyan'] : [],
      border: color ? ['grey'] : [],
      compact: true,
      'padding-left': 0,
      'padding-right': gap,
    },
    chars: EMPTY_CHARS,
  });
  for (const r of rows) t.push(r);
  return t
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n');
}

/** Cells drawn from ALPHABET, of 0 to MAX characters (some empty, some with spaces inside or at the end). */
function randomRows(seed: number, n: number, columns: number, alphabet: string, max: number): string[][] {
  const next = prng(seed);
  // Code points on purpose: an emoji's two halves and a combining mark each land in cells of their own.
  const chars = Array.from(alphabet);
  return Array.from({ length: n }, () =>
    Array.from({ length: columns }, () => {
      const len = Math.floor(next() * (max + 1));
      let s = '';
      for (let i = 0; i < len; i++) s += chars[Math.floor(next() * chars.length)] ?? '';
      return s;
    }),
  );
}

describe('formatTable prints what cli-table3 prints for the whole table', () => {
  const ascii = 'abcdefghijklmnopqrstuvwxyz0123456789-./: ';
  const shapes: [string, string[], boolean, number][] = [
    ['headers, gap 2', ['NAME', 'SCOPE', 'A LONGER HEADER', 'X'], false, 2],
    ['coloured headers', ['NAME', 'SCOPE', 'A LONGER HEADER', 'X'], true, 2],
    ['no headers, gap 3', [], false, 3],
    ['no headers, coloured, gap 1', [], true, 1],
  ];
  it.each(shapes)('%s (printable ASCII, 2,500 rows)', (_name, head, color, gap) => {
    const rows = randomRows(7, 2_500, 4, ascii, 14);
    expect(formatTable(head, rows, color, gap)).toBe(reference(head, rows, color, gap));
  });

  it('the arrows, marks and box-drawing characters of the plugin’s own cells', () => {
    const rows = randomRows(11, 1_500, 3, 'ab →←…✓✗─│├└↻−⇄', 10);
    const head = ['A', 'CHAIN', 'C'];
    for (const color of [false, true]) {
      expect(formatTable(head, rows, color)).toBe(reference(head, rows, color, 2));
    }
  });

  it('wide characters, combining marks and emoji: cli-table3 lays each piece out, at the whole table’s widths', () => {
    // The widest cell of each column is in the last piece, so the first pieces are laid out again.
    const rows = randomRows(13, 1_200, 3, 'ab日本é\u0301😀 ', 6);
    rows.push(['日本日本日本日本', 'x', '😀😀😀😀😀😀😀']);
    const head = ['NAME', 'B', 'C'];
    for (const color of [false, true]) {
      const pieces = [...tableChunks(head, rows, color, 2, 250)];
      expect(pieces).toHaveLength(5);
      expect(pieces.join('\n')).toBe(reference(head, rows, color, 2));
    }
  });

  it('rows of different lengths', () => {
    const rows = randomRows(17, 900, 4, 'abc ', 5).map((r, i) => r.slice(0, 1 + (i % 4)));
    const pieces = [...tableChunks(['A', 'B', 'C', 'D'], rows, false, 2, 200)];
    expect(pieces.join('\n')).toBe(reference(['A', 'B', 'C', 'D'], rows, false, 2));
    expect(formatTable([], rows, false)).toBe(reference([], rows, false, 2));
  });

  it('no rows, and no rows nor headers', () => {
    expect(formatTable(['A', 'B'], [], true)).toBe(reference(['A', 'B'], [], true, 2));
    expect(formatTable([], [], false)).toBe('');
  });
});

describe('a table ten times past where cli-table3 overflows the stack', () => {
  it('1,200,000 rows print, in pieces of whole lines, without building the table in one call', () => {
    const rows: string[][] = [];
    for (let i = 0; i < 1_200_000; i++) {
      rows.push([
        'User/victim',
        'cluster-wide',
        `ClusterRoleBinding/victim-${String(i)}`,
        `bomb → part-${String(i % 2000)}`,
      ]);
    }
    let lines = 0;
    let pieces = 0;
    const firstLines: string[] = [];
    let last = '';
    for (const piece of tableChunks(['SUBJECT', 'SCOPE', 'BINDING', 'AGGREGATION CHAIN'], rows, false)) {
      pieces++;
      const split = piece.split('\n');
      lines += split.length;
      if (firstLines.length < 2) firstLines.push(...split.slice(0, 2 - firstLines.length));
      last = split.at(-1) ?? '';
    }
    expect(pieces).toBeGreaterThan(1);
    expect(lines).toBe(1_200_001);
    const binding = 'ClusterRoleBinding/victim-1199999'.length + 2;
    expect(firstLines.join('\n')).toBe(
      [
        `SUBJECT      SCOPE         ${'BINDING'.padEnd(binding)}AGGREGATION CHAIN`,
        `User/victim  cluster-wide  ${'ClusterRoleBinding/victim-0'.padEnd(binding)}bomb → part-0`,
      ].join('\n'),
    );
    expect(last).toBe(`User/victim  cluster-wide  ClusterRoleBinding/victim-1199999  bomb → part-1999`);
  });
});
