// Shell completion prints the names it offers one a line, and the shell shows them (zsh's and fish's menus) or puts
// them on the command line. A ClusterRole's name may hold any character but `/` and `%` (apimachinery
// path.ValidatePathSegmentName), so a name with an escape sequence reached the terminal raw, and one with a line
// break offered a second, made-up word, or a fake `:N` directive line. Such a name cannot be typed as a word anyway:
// it is not offered; every other name is, exactly.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCaptured } from '../../support/run-cli.js';

function role(name: string): object {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules: [] };
}

describe('shell completion of names read from the cluster', () => {
  it('NamesThatAreNotPrintableAreNotOffered', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'complete-escape-'));
    const file = path.join(dir, 'roles.json');
    const names = [
      'ev-plain',
      'ev-é日本',
      'ev-with space',
      'ev\u001b]0;owned\u0007',
      'ev-x\n:4',
      'ev-\u202egnp',
    ];
    writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: names.map(role) }));
    const r = await runCaptured(['__complete', 'explain', '-f', file, 'ev']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('ev-plain\nev-with space\nev-é日本\n:4\n');
  });
});
