import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readTarGz, readZip, validateArchive, validateManifest } from './krew-rules.js';
import { bundlePath, haveBundle, readReleaseJson, runRelease, type ReleaseEntry } from './release-run.js';

const BIN = 'kubectl-crossplane_rbac';

if (!haveBundle)
  console.log(`packaging archive tests skipped: no bundle at ${bundlePath} (run "npm run build")`);

/** Makes an archive of a directory laid out by LAYOUT with the system tar or zip, not with our own writer. */
function archiveOf(kind: 'tar' | 'zip', layout: (dir: string) => string[], tarFlags: string[] = []): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'xrbac-archive-'));
  const work = join(dir, 'in');
  mkdirSync(work);
  const names = layout(work);
  const out = join(dir, kind === 'tar' ? 'a.tar.gz' : 'a.zip');
  if (kind === 'tar') execFileSync('tar', ['-czf', out, ...tarFlags, ...names], { cwd: work });
  else execFileSync('zip', ['-q', '-y', out, ...names], { cwd: work });
  return readFileSync(out);
}

function good(dir: string): string[] {
  writeFileSync(join(dir, BIN), '#!/bin/sh\necho hi\n');
  chmodSync(join(dir, BIN), 0o755);
  writeFileSync(join(dir, 'LICENSE'), 'license text\n');
  chmodSync(join(dir, 'LICENSE'), 0o644);
  return [BIN, 'LICENSE'];
}

const cases: {
  name: string;
  reason: string;
  kind: 'tar' | 'zip';
  layout: (dir: string) => string[];
  tarFlags?: string[];
  errors: string[];
}[] = [
  {
    name: 'GoodTar',
    reason: 'the executable 0755 and LICENSE, nothing else',
    kind: 'tar',
    layout: good,
    errors: [],
  },
  { name: 'GoodZip', reason: 'the same as a zip, for windows', kind: 'zip', layout: good, errors: [] },
  {
    name: 'ExecutableNotExecutable',
    reason: 'krew links the bin as is: it must be 0755',
    kind: 'tar',
    layout: (d) => {
      const names = good(d);
      chmodSync(join(d, BIN), 0o644);
      return names;
    },
    errors: [`${BIN}: mode 644, want 755`],
  },
  {
    name: 'NoLicense',
    reason: 'the license ships with the binary',
    kind: 'tar',
    layout: (d) => good(d).filter((n) => n !== 'LICENSE'),
    errors: ['LICENSE: missing'],
  },
  {
    name: 'SymlinkInTar',
    reason: 'archives hold plain files only',
    kind: 'tar',
    layout: (d) => {
      symlinkSync('LICENSE', join(d, 'COPYING'));
      return [...good(d), 'COPYING'];
    },
    errors: ['COPYING: is a symlink, not a plain file'],
  },
  {
    name: 'SymlinkInZip',
    reason: 'zip -y stores the link itself, which is not a plain file',
    kind: 'zip',
    layout: (d) => {
      symlinkSync('LICENSE', join(d, 'COPYING'));
      return [...good(d), 'COPYING'];
    },
    errors: ['COPYING: is a symlink, not a plain file'],
  },
  {
    name: 'Directory',
    reason: 'a directory entry is not a plain file',
    kind: 'tar',
    layout: (d) => {
      mkdirSync(join(d, 'docs'));
      return [...good(d), 'docs'];
    },
    errors: ['docs/: is a dir, not a plain file'],
  },
  {
    name: 'DotDotPath',
    reason: 'a name with .. would write outside the install directory',
    kind: 'tar',
    tarFlags: ['--absolute-names'],
    layout: (d) => {
      mkdirSync(join(d, 'sub'));
      writeFileSync(join(d, 'evil'), 'x');
      return [...good(d), 'sub/../evil'];
    },
    errors: ['sub/../evil: path holds ..'],
  },
];

describe('validateArchive', () => {
  it.each(cases)('$name', ({ kind, layout, tarFlags, errors, reason }) => {
    const data = archiveOf(kind, layout, tarFlags);
    const entries = kind === 'tar' ? readTarGz(data) : readZip(data);
    expect(validateArchive(entries, BIN), reason).toEqual(errors);
  });

  it('ReadsContents: the reader returns the bytes the archive holds', () => {
    for (const kind of ['tar', 'zip'] as const) {
      const entries = (kind === 'tar' ? readTarGz : readZip)(archiveOf(kind, good));
      expect(entries.find((e) => e.name === 'LICENSE')?.data.toString(), kind).toBe('license text\n');
    }
  });
});

describe.skipIf(!haveBundle)('a platform released as the bundle', () => {
  // --standalone with no platform: darwin-arm64 gets the JavaScript bundle, which needs no bun to build.
  let out = '';
  let entries: readonly ReleaseEntry[] = [];

  beforeAll(() => {
    out = runRelease(['darwin-arm64'], []);
    entries = readReleaseJson(out).platforms;
  }, 120_000);

  it('BundlePlatformShipsTheBundle: the archive holds the npm bundle itself, and follows the rules', () => {
    const e = entries.find((x) => x.name === 'darwin-arm64');
    const files = readTarGz(readFileSync(join(out, e?.archive ?? '')));
    expect(e?.standalone).toBe(false);
    expect(validateArchive(files, BIN)).toEqual([]);
    expect(files.find((f) => f.name === BIN)?.data.equals(readFileSync(bundlePath))).toBe(true);
  });

  it('CaveatsSayNode: the manifest says the bundle needs Node.js', () => {
    const doc = parse(readFileSync(join(out, 'plugin.yaml'), 'utf8')) as { spec: { caveats: string } };
    expect(validateManifest(doc)).toEqual([]);
    expect(doc.spec.caveats).toContain('Node.js 20.19 or newer');
  });
});
