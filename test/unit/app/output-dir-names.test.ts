import { describe, expect, it } from 'vitest';
import { contextDirName, manifestFiles } from '../../../src/app/output-dir-names.js';
import type { KubeObject } from '../../../src/kube/types.js';

// NAME_MAX: the most bytes one name may have on Linux filesystems (ext4, XFS, tmpfs), APFS and NTFS.
const NAME_MAX = 255;
const SAFE = /^[a-z0-9._-]+$/;

const role = (name: string, namespace?: string): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: namespace === undefined ? 'ClusterRole' : 'RoleBinding',
  metadata: { name, ...(namespace !== undefined ? { namespace } : {}) },
});

const filesOf = (objects: KubeObject[]): Map<string, string> =>
  new Map(manifestFiles(objects).map((f) => [`${f.object.kind}/${f.object.metadata.name}`, f.file]));

// A valid 253-character XRD name (plural.group, each DNS label at most 63) gives role names past 290 characters.
const group = ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(52)].join('.');
const xrd = `xwidgets.${group}`;
const long = (suffix: string): string => `crossplane:composite:${xrd}:${suffix}`;

describe('manifestFiles', () => {
  it.each([
    {
      name: 'ShortNamesKeepTheirReadableName',
      reason: 'names that fit and do not collide are <kind>-<name>.yaml, as earlier versions wrote them',
      objects: [role('crossplane-edit'), role('b', 'team-a')],
      want: ['clusterrole-crossplane-edit.yaml', 'rolebinding-team-a-b.yaml'],
    },
    {
      name: 'NamesDifferingOnlyInCaseGetAHashEach',
      reason: 'a case-insensitive filesystem would make Foo and foo one file',
      objects: [role('Foo'), role('foo')],
      want: [/^clusterrole-foo-[0-9a-f]{8}\.yaml$/, /^clusterrole-foo-[0-9a-f]{8}\.yaml$/],
    },
  ])('$name', ({ objects, want, reason }) => {
    const files = manifestFiles(objects).map((f) => f.file);
    expect(files, reason).toHaveLength(want.length);
    want.forEach((w, i) => {
      if (typeof w === 'string') expect(files[i], reason).toBe(w);
      else expect(files[i], reason).toMatch(w);
    });
    expect(new Set(files).size, reason).toBe(files.length);
  });

  it('CapsLongNamesAt255BytesUniqueAndDeterministic', () => {
    expect(long('aggregate-to-edit').length).toBeGreaterThan(NAME_MAX);
    const objects = ['aggregate-to-edit', 'aggregate-to-view', 'aggregate-to-browse', 'x'].map((s) =>
      role(long(s)),
    );
    const files = filesOf(objects);
    for (const f of files.values()) {
      expect(Buffer.byteLength(f)).toBeLessThanOrEqual(NAME_MAX);
      expect(f).toMatch(SAFE);
      expect(f).toMatch(/^clusterrole-crossplane_composite_xwidgets\.aaaa.*-[0-9a-f]{8}\.yaml$/);
    }
    expect(new Set(files.values()).size).toBe(objects.length);
    // The same objects in any order give the same names.
    expect(filesOf([...objects].reverse())).toStrictEqual(files);
  });
});

describe('contextDirName', () => {
  it.each([
    { name: 'SafeNameKept', context: 'prod-eu', want: 'prod-eu', reason: 'a safe name is its own directory' },
    { name: 'UpperCaseHashed', context: 'PROD', want: /^prod-[0-9a-f]{8}$/, reason: 'PROD must not be prod' },
    { name: 'DotHashed', context: '.', want: /^context-[0-9a-f]{8}$/, reason: '. would be DIR itself' },
    { name: 'DotDotHashed', context: '..', want: /^context-[0-9a-f]{8}$/, reason: '.. would be DIR/..' },
    { name: 'SlashMadeSafe', context: 'a/b', want: /^a_b-[0-9a-f]{8}$/, reason: 'a / is a directory' },
    {
      name: 'HashLikeSuffixHashed',
      context: 'prod-0123abcd',
      want: /^prod-0123abcd-[0-9a-f]{8}$/,
      reason: 'a safe name that looks hashed must not meet the hashed name of another context',
    },
  ])('$name', ({ context, want, reason }) => {
    const got = contextDirName(context);
    if (typeof want === 'string') expect(got, reason).toBe(want);
    else expect(got, reason).toMatch(want);
    expect(got).toMatch(/^[a-z0-9][a-z0-9._-]*$/);
  });

  it('NamesThatOnlyDifferInCaseOrUnsafeCharactersGetDistinctDirectories', () => {
    const contexts = [
      'prod',
      'PROD',
      'Prod',
      'a/b',
      'a_b',
      'a:b',
      '.',
      '..',
      'x'.repeat(300),
      `${'x'.repeat(300)}y`,
    ];
    const dirs = contexts.map(contextDirName);
    expect(new Set(dirs).size).toBe(contexts.length);
    for (const d of dirs) expect(Buffer.byteLength(d)).toBeLessThanOrEqual(NAME_MAX);
    expect(contexts.map(contextDirName)).toStrictEqual(dirs);
  });
});
