/**
 * `-o diff` writes an object only on one side (created, deleted) itself: the bytes must be the diff library's
 * (jsdiff's createTwoFilesPatch, 3 lines of context, its `===` line taken off), for every shape of text and name.
 */
import { createTwoFilesPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../src/cli/output/format-plan.js';

const library = (oldName: string, newName: string, before: string, after: string): string =>
  createTwoFilesPatch(oldName, newName, before, after, undefined, undefined, { context: 3 }).replace(
    /^=+\n/m,
    '',
  );

/** A deterministic generator (no Math.random: a failure must replay). */
function lcg(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

const PIECES = [
  '',
  ' ',
  'a',
  'kind: ClusterRole',
  '- get',
  '  verbs:',
  '\t',
  'é',
  '\\',
  '"q"',
  '---',
  '+',
  '-',
  '@@',
];

function text(next: () => number, lines: number, newline: boolean): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(PIECES[Math.floor(next() * PIECES.length)] ?? '');
  return out.join('\n') + (newline ? '\n' : '');
}

describe('unifiedDiff', () => {
  const names: [string, string][] = [
    [
      'live/clusterrole.rbac.authorization.k8s.io/crossplane-edit',
      'desired/clusterrole.rbac.authorization.k8s.io/crossplane-edit',
    ],
    [
      'live/rolebinding.rbac.authorization.k8s.io/team-a/edit',
      'desired/rolebinding.rbac.authorization.k8s.io/team-a/edit',
    ],
    ['live/a b', 'desired/a b'],
    ['live/back\\slash', 'desired/back\\slash'],
    ['live/tab\there', 'desired/tab\there'],
  ];

  it("is the library's bytes for created and deleted objects of any text, and for every name", () => {
    const next = lcg(41);
    let cases = 0;
    for (const [oldName, newName] of names) {
      for (const lines of [1, 2, 3, 7, 40]) {
        for (const newline of [true, false]) {
          const t = text(next, lines, newline);
          expect(unifiedDiff(oldName, newName, '', t)).toBe(library(oldName, newName, '', t));
          expect(unifiedDiff(oldName, newName, t, '')).toBe(library(oldName, newName, t, ''));
          cases += 2;
        }
      }
    }
    expect(cases).toBe(names.length * 5 * 2 * 2);
  });

  it("is the library's bytes when both sides have text, or neither", () => {
    const next = lcg(7);
    for (const [oldName, newName] of names) {
      const a = text(next, 12, true);
      const b = `${a.slice(0, a.length >> 1)}changed: true\n${a.slice(a.length >> 1)}`;
      expect(unifiedDiff(oldName, newName, a, b)).toBe(library(oldName, newName, a, b));
      expect(unifiedDiff(oldName, newName, '', '')).toBe(library(oldName, newName, '', ''));
      expect(unifiedDiff(oldName, newName, '\n', '')).toBe(library(oldName, newName, '\n', ''));
    }
  });

  it('adds every line of a created object and removes every line of a deleted one', () => {
    const yaml = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n';
    expect(unifiedDiff('live/x', 'desired/x', '', yaml)).toBe(
      '--- live/x\n+++ desired/x\n@@ -0,0 +1,4 @@\n+apiVersion: v1\n+kind: Namespace\n+metadata:\n+  name: team-a\n',
    );
    expect(unifiedDiff('live/x', 'desired/x', yaml, '')).toBe(
      '--- live/x\n+++ desired/x\n@@ -1,4 +0,0 @@\n-apiVersion: v1\n-kind: Namespace\n-metadata:\n-  name: team-a\n',
    );
  });
});
