import { execFile } from 'node:child_process';
import {
  copyFileSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { assertBuilt, binDir, kubectl, repoRoot, tempDir, type RunResult } from './harness.js';

// sync --output-dir writes only inside DIR, only its own files, all or nothing (issue 37): symbolic links, a
// kustomization.yaml the plugin did not write, an earlier version's render, a failure midway, names past 255
// bytes, and contexts whose names differ only in case or are . and ..
const EXAMPLES = join(repoRoot, 'examples', 'cluster');

let server: TestApiServer;
let dir: string;
let kubeconfig: string;

const run = (args: string[]): Promise<RunResult> =>
  kubectl(args, { env: { KUBECONFIG: join(dir, 'missing') } });

function filesOf(d: string): Map<string, string> {
  return new Map(
    readdirSync(d)
      .sort()
      .map((f) => [f, readFileSync(join(d, f), 'utf8')]),
  );
}

beforeAll(async () => {
  assertBuilt();
  dir = tempDir('xrbac-e2e-output-dir-safety-');
  server = await startApiServer({ aggregation: true, seed: loadSeedFiles([EXAMPLES]) });
  kubeconfig = join(dir, 'server.kubeconfig');
  server.writeKubeconfig(kubeconfig);
});

afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const sync = (out: string, ...more: string[]): Promise<RunResult> =>
  run(['crossplane-rbac', 'sync', '-f', EXAMPLES, ...more, '--output-dir', out]);
const errorLines = (r: RunResult): string[] => r.stderr.split('\n').filter((l) => l.startsWith('error: '));
const listed = (d: string): string[] =>
  (parse(readFileSync(join(d, 'kustomization.yaml'), 'utf8')) as { resources: string[] }).resources;

describe('sync --output-dir writes only inside DIR, only its own files', () => {
  it('never writes through a symbolic link: a listed file, kustomization.yaml, or a file it would write', async () => {
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'victim\n');
    const out = join(dir, 'links');
    expect((await sync(out)).code).toBe(0);
    const file = listed(out)[0] ?? '';
    unlinkSync(join(out, file));
    symlinkSync('../victim.txt', join(out, file));
    const before = filesOf(out);
    const r = await sync(out);
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r)).toStrictEqual([
      `error: refusing to write ${out}: ${join(out, file)} is a symbolic link`,
    ]);
    expect(readFileSync(victim, 'utf8')).toBe('victim\n');
    expect(lstatSync(join(out, file)).isSymbolicLink()).toBe(true);
    expect(filesOf(out)).toEqual(before);

    for (const name of ['kustomization.yaml', file]) {
      const fresh = join(dir, `link-${name}`);
      mkdirSync(fresh);
      symlinkSync('../victim.txt', join(fresh, name));
      const again = await sync(fresh);
      expect(again.code, again.stderr).toBe(2);
      expect(errorLines(again)).toStrictEqual([
        `error: refusing to write ${fresh}: ${join(fresh, name)} is a symbolic link`,
      ]);
      expect(readFileSync(victim, 'utf8')).toBe('victim\n');
      expect(readdirSync(fresh)).toStrictEqual([name]);
    }
  });

  it('refuses a kustomization.yaml it did not write, and deletes none of its files', async () => {
    const out = join(dir, 'hand-written');
    mkdirSync(out);
    writeFileSync(
      join(out, 'kustomization.yaml'),
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- namespace.yaml\n',
    );
    writeFileSync(join(out, 'namespace.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: apps\n');
    const before = filesOf(out);
    const r = await sync(out);
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r)).toStrictEqual([
      `error: refusing to write ${out}: ${join(out, 'kustomization.yaml')} was not written by kubectl-crossplane-rbac`,
    ]);
    expect(filesOf(out)).toEqual(before);
  });

  it("takes over an earlier version's render (no mark) only when it is byte for byte that version's", async () => {
    const out = join(dir, 'earlier');
    expect((await sync(out)).code).toBe(0);
    const marked = readFileSync(join(out, 'kustomization.yaml'), 'utf8');
    expect(marked.split('\n')[0]).toMatch(/^# Written by kubectl-crossplane-rbac/);
    // Versions before the mark wrote the same kustomization without its first line.
    const earlier = marked.slice(marked.indexOf('\n') + 1);
    writeFileSync(join(out, 'kustomization.yaml'), earlier);
    const r = await sync(out, '--manage', 'serviceaccounts');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/removed \d+ no longer rendered/);
    const fresh = join(dir, 'earlier-fresh');
    expect((await sync(fresh, '--manage', 'serviceaccounts')).code).toBe(0);
    expect(filesOf(out)).toEqual(filesOf(fresh));

    // The same layout with one hand-written file listed is not the plugin's: refused, nothing deleted.
    const tampered = join(dir, 'earlier-tampered');
    expect((await sync(tampered)).code).toBe(0);
    writeFileSync(join(tampered, 'kustomization.yaml'), `${earlier}- namespace.yaml\n`);
    writeFileSync(
      join(tampered, 'namespace.yaml'),
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: apps\n',
    );
    const before = filesOf(tampered);
    const t = await sync(tampered, '--manage', 'serviceaccounts');
    expect(t.code, t.stderr).toBe(2);
    expect(errorLines(t)).toStrictEqual([
      `error: refusing to write ${tampered}: ${join(tampered, 'kustomization.yaml')} was not written by kubectl-crossplane-rbac`,
    ]);
    expect(filesOf(tampered)).toEqual(before);
  });

  it('refuses a DIR holding anything it did not write, and touches none of it', async () => {
    const out = join(dir, 'foreign');
    expect((await sync(out)).code).toBe(0);
    writeFileSync(join(out, 'README.md'), 'ours\n');
    const before = filesOf(out);
    const r = await sync(out, '--manage', 'serviceaccounts');
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r)).toStrictEqual([
      `error: refusing to write ${out}: it holds files kubectl-crossplane-rbac did not write: ${join(out, 'README.md')}`,
    ]);
    expect(filesOf(out)).toEqual(before);

    // A file named as one the render writes, in a directory without the plugin's kustomization.yaml.
    const taken = join(dir, 'foreign-taken');
    mkdirSync(taken);
    const file = listed(out)[0] ?? '';
    writeFileSync(join(taken, file), 'hand-written\n');
    const t = await sync(taken);
    expect(t.code, t.stderr).toBe(2);
    expect(errorLines(t)[0]).toContain(`did not write: ${join(taken, file)}`);
    expect(filesOf(taken)).toEqual(new Map([[file, 'hand-written\n']]));
  });

  it('is all or nothing: a write failing midway leaves the previous render byte for byte', async () => {
    const parent = join(dir, 'atomic');
    const out = join(parent, 'render');
    expect((await sync(out)).code).toBe(0);
    const before = filesOf(out);
    // Files past 8 KiB cannot be written (RLIMIT_FSIZE: EFBIG, as a full disk fails a write): the render fails at
    // its first large provider role, after smaller files were written.
    const limited = await new Promise<RunResult>((resolve) => {
      execFile(
        'bash',
        [
          '-c',
          'ulimit -f 8; exec kubectl "$@"',
          'bash',
          'crossplane-rbac',
          'sync',
          '-f',
          EXAMPLES,
          '--manage',
          'serviceaccounts',
          '--output-dir',
          out,
        ],
        { env: { PATH: `${binDir}:${process.env.PATH ?? ''}`, HOME: dir, NO_COLOR: '1' } },
        (err, stdout, stderr) => {
          resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
        },
      );
    });
    expect(limited.code, limited.stderr).toBe(2);
    expect(errorLines(limited)).toStrictEqual([expect.stringMatching(/^error: cannot write .*render: .*/)]);
    expect(filesOf(out)).toEqual(before);
    expect(readdirSync(parent)).toStrictEqual(['render']);
  });

  it('caps file names at 255 bytes: a valid 253-character XRD name renders', async () => {
    const input = join(dir, 'long-input');
    mkdirSync(input);
    for (const f of readdirSync(EXAMPLES))
      if (f.endsWith('.yaml')) copyFileSync(join(EXAMPLES, f), join(input, f));
    const group = ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(52)].join('.');
    const name = `xwidgets.${group}`;
    expect(name).toHaveLength(253);
    writeFileSync(
      join(input, '99-long-xrd.yaml'),
      stringify({
        apiVersion: 'apiextensions.crossplane.io/v1',
        kind: 'CompositeResourceDefinition',
        metadata: { name, uid: '0f2a5a46-6f0b-4c43-9a43-2b1d3a5c7e11' },
        spec: {
          group,
          names: { kind: 'XWidget', listKind: 'XWidgetList', plural: 'xwidgets', singular: 'xwidget' },
          versions: [
            {
              name: 'v1alpha1',
              served: true,
              referenceable: true,
              schema: { openAPIV3Schema: { type: 'object' } },
            },
          ],
        },
      }),
    );
    const out = join(dir, 'long');
    const r = await run(['crossplane-rbac', 'sync', '-f', input, '--output-dir', out]);
    expect(r.code, r.stderr).toBe(0);
    const files = [...filesOf(out).keys()];
    expect(files.filter((f) => f.includes('aaaaaaaa')).length).toBeGreaterThan(0);
    for (const f of files) expect(Buffer.byteLength(f), f).toBeLessThanOrEqual(255);
    expect([...listed(out), 'kustomization.yaml'].sort()).toStrictEqual(files);
    // kubectl's own kustomize reads the directory (every listed file found, every object once).
    const built = await run(['kustomize', out]);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toContain(`name: crossplane:composite:${name}:aggregate-to-edit`);
    const again = join(dir, 'long-again');
    expect((await run(['crossplane-rbac', 'sync', '-f', input, '--output-dir', again])).code).toBe(0);
    expect(filesOf(again)).toEqual(filesOf(out));
  });

  it('names each held or refused object once, then refuses to write', async () => {
    const input = join(dir, 'refused-input');
    mkdirSync(input);
    for (const f of readdirSync(EXAMPLES))
      if (f.endsWith('.yaml')) copyFileSync(join(EXAMPLES, f), join(input, f));
    // A ClusterRole sync renders, stored without the plugin's label or an owner: not the plugin's to change.
    writeFileSync(
      join(input, '99-hand-made.yaml'),
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: crossplane-ns-team-a-edit\nrules: []\n',
    );
    const out = join(dir, 'refused');
    const r = await run(['crossplane-rbac', 'sync', '-f', input, '--output-dir', out]);
    expect(r.code, r.stderr).toBe(2);
    const refused = r.stderr.split('\n').filter((l) => l.startsWith('refused '));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused).toStrictEqual([...new Set(refused)]);
    expect(errorLines(r)).toHaveLength(1);
  });
});

describe('sync --contexts --output-dir', () => {
  it('gives each context its own directory inside DIR: prod and PROD apart, . and .. inside', async () => {
    const base = parse(readFileSync(kubeconfig, 'utf8')) as {
      contexts: { name: string; context: unknown }[];
    };
    const names = ['prod', 'PROD', '.', '..'];
    const only = base.contexts[0];
    const config = { ...base, contexts: names.map((name) => ({ name, context: only?.context })) };
    const contextsKubeconfig = join(dir, 'contexts.kubeconfig');
    writeFileSync(contextsKubeconfig, stringify(config));
    const parent = join(dir, 'fleet');
    const out = join(parent, 'clusters');
    const r = await kubectl(['crossplane-rbac', 'sync', '--contexts', names.join(','), '--output-dir', out], {
      env: { KUBECONFIG: contextsKubeconfig },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(parent)).toStrictEqual(['clusters']);
    const dirs = readdirSync(out);
    expect(dirs).toHaveLength(4);
    expect(dirs).toContain('prod');
    for (const d of dirs) {
      expect(d.startsWith('.'), d).toBe(false);
      expect(listed(join(out, d)).length).toBeGreaterThan(0);
    }
  });
});
