import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { maxInputSize, parseSize } from '../../../src/cli/input-flags.js';
import { cannotRead, formatSize } from '../../../src/input/files.js';
import { parseManifests, readManifests } from '../../../src/input/read-manifests.js';
import { UsageError, UserError } from '../../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'xrbac-read-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('cannotRead', () => {
  // Every errno a path can fail with, including those a test running as root cannot provoke (EACCES).
  const cases: Record<string, { code: string; flag?: string; want: string }> = {
    PermissionDenied: { code: 'EACCES', want: 'cannot read /p: permission denied' },
    NotPermitted: { code: 'EPERM', want: 'cannot read /p: permission denied' },
    Missing: { code: 'ENOENT', want: 'cannot read /p: no such file or directory' },
    Loop: { code: 'ELOOP', want: 'cannot read /p: too many levels of symbolic links (a symbolic link loop)' },
    NotADirectory: { code: 'ENOTDIR', want: 'cannot read /p: a part of the path is a file, not a directory' },
    IsADirectory: { code: 'EISDIR', want: 'cannot read /p: it is a directory, not a file' },
    NameTooLong: { code: 'ENAMETOOLONG', want: 'cannot read /p…: the file name is too long' },
    Other: { code: 'EIO', want: 'cannot read /p: EIO' },
    OtherFlag: {
      code: 'EACCES',
      flag: '--role-refs-file',
      want: 'cannot read --role-refs-file /p: permission denied',
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    const err = cannotRead('/p', Object.assign(new Error('x'), { code: tc.code }), tc.flag);
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toBe(tc.want);
  });
});

describe('sizes', () => {
  it.each([
    ['256Mi', 268435456],
    ['1Gi', 1073741824],
    ['64Ki', 65536],
    ['500M', 500000000],
    ['2k', 2000],
    ['1048576', 1048576],
    ['1.5Mi', 1572864],
  ] as const)('parseSize %s', (text, bytes) => {
    expect(parseSize('max-input-size', text)).toBe(bytes);
  });

  it.each(['', 'abc', '-1', '0', '1Ti', '1 Mi', '1mi', 'Mi'])('parseSize refuses %j', (text) => {
    expect(() => parseSize('max-input-size', text)).toThrow(UsageError);
  });

  it('the default is 256Mi and the last flag wins', () => {
    const args = { 'max-input-size': undefined } as never;
    expect(maxInputSize(args)).toBe(256 * 1024 * 1024);
    expect(maxInputSize({ 'max-input-size': ['1Ki', '2Ki'] } as never)).toBe(2048);
  });

  it.each([
    [100, '100 bytes'],
    [1024, '1Ki'],
    [1536, '1.5Ki'],
    [256 * 1024 * 1024, '256Mi'],
    [3 * 1024 ** 3, '3Gi'],
  ] as const)('formatSize %d', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });
});

describe('parseManifests', () => {
  it('NullFieldsAreDroppedAsTheApiServerDoes', () => {
    const [ns] = parseManifests(
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n  creationTimestamp: null\n  labels: null\n',
      'x.yaml',
    );
    expect(ns).toStrictEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } });
  });

  it.each([
    [
      'kind: ClusterRole\nmetadata:\n  name: a\n',
      'x.yaml: apiVersion must be a non-empty string, found nothing',
    ],
    ['apiVersion: v1\nmetadata:\n  name: a\n', 'x.yaml: kind must be a non-empty string, found nothing'],
    ['apiVersion: 1\nkind: Namespace\n', 'x.yaml: apiVersion must be a non-empty string, found a number'],
  ])('AMissingFieldIsFoundNothing %#', (text, message) => {
    // kubectl's own check of the same documents says "apiVersion not set" / "kind not set": a missing field is
    // named as missing, never as a value of type "undefined".
    expect(() => parseManifests(text, 'x.yaml')).toThrow(new UserError(message));
  });

  it('TimestampsStayStrings', () => {
    const [ns] = parseManifests(
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n  creationTimestamp: 2025-01-01T00:00:00Z\n',
      'x.yaml',
    );
    expect(ns?.metadata.creationTimestamp).toBe('2025-01-01T00:00:00Z');
  });

  it('AFewAliasesAreFine', () => {
    const text = [
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: ClusterRole',
      'metadata: {name: r}',
      'rules:',
      '  - &read {apiGroups: [""], resources: [pods], verbs: [get, list, watch]}',
      '  - *read',
      '',
    ].join('\n');
    const [role] = parseManifests(text, 'x.yaml');
    expect((role as unknown as { rules: unknown[] }).rules).toHaveLength(2);
  });

  it('JsonListsAndYamlListsGiveTheSameObjects', () => {
    const items = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b' } },
    ];
    const json = parseManifests(JSON.stringify({ apiVersion: 'v1', kind: 'List', items }), 'x.json');
    const yaml = parseManifests(
      'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Namespace, metadata: {name: a}}\n- {apiVersion: v1, kind: Namespace, metadata: {name: b}}\n',
      'x.yaml',
    );
    expect(json).toStrictEqual(items);
    expect(yaml).toStrictEqual(items);
  });

  it('AByteOrderMarkIsIgnored', () => {
    expect(
      parseManifests('\ufeff{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a"}}', 'x.json'),
    ).toHaveLength(1);
  });
});

describe('readManifests', () => {
  const stdin = (text: string) => (max: number) => Promise.resolve(text.slice(0, max + 1));

  it('ReadsSeveralPathsAndStdinAndSaysWhereEachObjectCameFrom', async () => {
    const a = join(dir, 'a.yaml');
    writeFileSync(
      a,
      'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n',
    );
    const { objects, origins } = await readManifests([a, '-'], {
      readStdin: stdin(
        '{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"c"}}]}',
      ),
      maxBytes: 1024 * 1024,
    });
    expect(objects.map((o) => [o.metadata.name, origins.get(o)])).toStrictEqual([
      ['a', `${a} (document 1)`],
      ['b', `${a} (document 2)`],
      ['c', 'standard input: items[0]'],
    ]);
  });

  it('AnObjectInTwoNamespacesIsTwoObjects', async () => {
    const f = join(dir, 'cms.yaml');
    writeFileSync(
      f,
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: b}\n',
    );
    const { objects } = await readManifests([f], { readStdin: stdin(''), maxBytes: 1024 });
    expect(objects).toHaveLength(2);
  });

  it('ExactlyTheLimitIsAccepted', async () => {
    const f = join(dir, 'exact.yaml');
    const text = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n';
    writeFileSync(f, text);
    await expect(readManifests([f], { readStdin: stdin(''), maxBytes: text.length })).resolves.toBeDefined();
    await expect(readManifests([f], { readStdin: stdin(''), maxBytes: text.length - 1 })).rejects.toThrow(
      /input larger than --max-input-size/,
    );
  });
});
