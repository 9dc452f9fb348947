// The release as `npm run release` makes it, every platform: one run (npm test's own, made before the tests, whose
// linux-amd64 executable the e2e-standalone project runs; else one made here), then its archives and manifest
// checked here independently of the checks the release script makes itself.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readBunModuleGraph } from '../../../scripts/bun-module-graph.js';
import { CPU_TYPES, readMachO, verifyMachOSignature } from '../../../scripts/macho-signature.js';
import { readTarGz, validateArchive, validateManifest, type ArchiveEntry } from './krew-rules.js';
import {
  bundlePath,
  haveBun,
  haveBundle,
  readReleaseJson,
  defaultRelease,
  repoRoot,
  type ReleaseJson,
} from './release-run.js';

const BIN = 'kubectl-crossplane_rbac';
const PLATFORMS = ['linux-amd64', 'linux-arm64', 'darwin-amd64', 'darwin-arm64'];
const MAC = [
  { name: 'darwin-amd64', arch: 'amd64' },
  { name: 'darwin-arm64', arch: 'arm64' },
] as const;
/** What fixes a stale plugin.yaml; the failure message names it. */
const RENDER = 'npm run release';

if (!haveBundle) console.log(`release tests skipped: no bundle at ${bundlePath} (run "npm run build")`);
if (!haveBun) console.log('release tests skipped: bun is not installed (npm install -D bun, or set BUN)');

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

describe.skipIf(!haveBundle || !haveBun)('the release', () => {
  let out = '';
  let release: ReleaseJson = { version: '', zlib: '', platforms: [] };
  const unpacked = new Map<string, ArchiveEntry[]>();
  /**
   * The files of ARCHIVE (a name in the release directory), unpacked once per run: gunzipping a ~100 MB executable
   * in JavaScript takes seconds, and each archive is read by several tests (measured 2026-11-28 at load ~16, with
   * RELEASE_DIR: 70.1 s and 10.6 CPU-s before, 37.8 s and 6.1 CPU-s after).
   */
  const files = (archive: string): ArchiveEntry[] => {
    let entries = unpacked.get(archive);
    if (entries === undefined) {
      entries = readTarGz(readFileSync(join(out, archive)));
      unpacked.set(archive, entries);
    }
    return entries;
  };
  /** The executable inside a platform's archive, as krew will unpack it. */
  const executable = (name: string): Buffer => {
    const e = release.platforms.find((p) => p.name === name);
    const exe = files(e?.archive ?? '').find((f) => f.name === BIN)?.data;
    if (exe === undefined) throw new Error(`no ${BIN} in the ${name} archive`);
    return exe;
  };

  beforeAll(() => {
    out = defaultRelease();
    release = readReleaseJson(out);
  }, 600_000);

  it('CommittedPluginYamlIsTheRelease: the committed plugin.yaml is what the release renders', () => {
    const committed = readFileSync(join(repoRoot, 'plugin.yaml'), 'utf8');
    const rendered = readFileSync(join(out, 'plugin.yaml'), 'utf8');
    expect(
      committed,
      `plugin.yaml is not the release of this commit (the source, package-lock.json, scripts/ or the version ` +
        `changed since it was rendered; archives here were deflated by zlib ${release.zlib}): ` +
        `run "${RENDER}" and commit plugin.yaml`,
    ).toBe(rendered);
  });

  it('EveryPlatformIsStandalone: linux and macOS, amd64 and arm64, each a standalone executable', () => {
    expect(release.platforms.map((p) => p.name)).toEqual(PLATFORMS);
    for (const p of release.platforms) expect(p.standalone, p.name).toBe(true);
    const doc = parse(readFileSync(join(out, 'plugin.yaml'), 'utf8')) as { spec: { caveats: string } };
    expect(doc.spec.caveats).not.toContain('Node.js');
  });

  it('EveryArchiveFollowsTheRules: plain files, the executable 0755, LICENSE', () => {
    for (const e of release.platforms) {
      const entries = files(e.archive);
      expect(validateArchive(entries, e.bin), e.archive).toEqual([]);
      expect(entries.map((f) => f.name).sort(), e.archive).toEqual(['LICENSE', BIN]);
      expect(e.archive).toMatch(
        new RegExp(
          `^kubectl-crossplane-rbac_v\\d+\\.\\d+\\.\\d+[^_]*_${e.name.replace('-', '_')}\\.tar\\.gz$`,
        ),
      );
    }
    // Unpacks every platform's archive (a ~100 MB executable each) in JavaScript: seconds of work on a 2-core
    // machine, not a bound on anything.
  }, 60_000);

  it('ShaSumsMatch: the manifest, SHA256SUMS and the archives agree', () => {
    const doc = parse(readFileSync(join(out, 'plugin.yaml'), 'utf8')) as {
      spec: { platforms: { uri: string; sha256: string }[] };
    };
    expect(validateManifest(doc)).toEqual([]);
    expect(doc.spec.platforms).toHaveLength(PLATFORMS.length);
    const sums = readFileSync(join(out, 'SHA256SUMS'), 'utf8');
    for (const e of release.platforms) {
      const digest = sha256(readFileSync(join(out, e.archive)));
      expect(doc.spec.platforms.find((x) => x.uri.endsWith(`/${e.archive}`))?.sha256, e.archive).toBe(digest);
      expect(sums).toContain(`${digest}  ${e.archive}\n`);
    }
    expect(readFileSync(join(out, 'krew-index', 'plugins', 'crossplane-rbac.yaml'), 'utf8')).toBe(
      readFileSync(join(out, 'plugin.yaml'), 'utf8'),
    );
  });

  it('LinuxIsElf: the linux archives hold ELF executables of their CPU', () => {
    for (const [name, machine] of [
      ['linux-amd64', 62], // EM_X86_64
      ['linux-arm64', 183], // EM_AARCH64
    ] as const) {
      const exe = executable(name);
      expect(exe.subarray(0, 4).toString('latin1'), name).toBe('\x7fELF');
      expect(exe.readUInt16LE(18), name).toBe(machine);
    }
  });

  it.each(MAC)(
    'MacSignatureVerifies: $name is a thin Mach-O of its CPU, validly signed',
    ({ name, arch }) => {
      const exe = executable(name);
      expect(readMachO(exe).header.cputype).toBe(CPU_TYPES[arch]);
      const { errors, info } = verifyMachOSignature(exe, arch);
      expect(errors).toEqual([]);
      // Every byte before the signature is hashed, and the signature ends the file.
      expect(info?.codeLimit).toBe(info?.signatureOffset);
      expect((info?.signatureOffset ?? 0) + (info?.signatureSize ?? 0)).toBe(exe.length);
      expect(info?.pages).toBe(Math.ceil((info?.codeLimit ?? 0) / 4096));
    },
  );

  it('SameJavaScriptEverywhere: every executable embeds the JavaScript (and its bytecode) linux-amd64 runs in the e2e suite', () => {
    const linux = readBunModuleGraph(executable('linux-amd64'));
    // Two modules: the entry (main.ts, which answers version and --help alone) and the composition root it requires.
    const names = [`/$bunfs/root/${BIN}`, `/$bunfs/root/${BIN}-root.js`];
    expect(linux.modules.map((m) => m.name)).toEqual(names);
    expect(linux.entryPoint).toBe(0);
    const [entry, rest] = linux.modules;
    expect(entry!.contents.toString('latin1')).toContain(release.version);
    expect(
      entry!.contents.length,
      'the entry is small: the rest loads only when a command needs it',
    ).toBeLessThan(20_000);
    expect(entry!.contents.toString('latin1')).toContain(`"./${BIN}-root.cjs"`);
    expect(rest!.contents.toString('latin1')).toContain('runCli');
    for (const name of PLATFORMS) {
      const graph = readBunModuleGraph(executable(name));
      expect(
        graph.modules.map((m) => m.name),
        name,
      ).toEqual(names);
      linux.modules.forEach((m, i) => {
        const other = graph.modules[i]!;
        expect(sha256(other.contents), `${name} ${m.name}`).toBe(sha256(m.contents));
        // The executables run bun's bytecode of that JavaScript (fast start): the same bytecode everywhere too.
        expect(m.bytecode, `linux-amd64 ${m.name} embeds bytecode`).toBeDefined();
        expect(sha256(other.bytecode ?? Buffer.alloc(0)), `${name} ${m.name}`).toBe(sha256(m.bytecode!));
      });
    }
  });

  it('BunSignsArm64: bun’s own darwin-arm64 signature verifies as it is (a bun upgrade that breaks it shows here)', () => {
    const arm64 = release.platforms.find((p) => p.name === 'darwin-arm64');
    expect(
      arm64?.checks.macho?.signature,
      `bun's darwin-arm64 signature no longer verifies (${arm64?.checks.macho?.bunSignatureErrors?.join('; ') ?? ''}); ` +
        'the release signed it again: try that executable on a Mac before releasing, then update this test',
    ).toBe('bun');
    const amd64 = release.platforms.find((p) => p.name === 'darwin-amd64');
    if (amd64?.checks.macho?.signature !== 'bun')
      expect(amd64?.checks.macho?.bunSignatureErrors).not.toEqual([]);
  });

  it('CorruptedCopyFails: the verifier catches one changed byte of embedded JavaScript, and bytes added', () => {
    const exe = Buffer.from(executable('darwin-arm64'));
    const section = readMachO(exe)
      .segments.flatMap((s) => s.sections)
      .find((s) => s.name === '__bun')!;
    const at = section.offset + 4096 * 10 + 17;
    exe[at] = exe[at]! ^ 0x20;
    expect(verifyMachOSignature(exe, 'arm64').errors.join('\n')).toContain(
      `1 of ${Math.ceil(readMachO(exe).signature!.dataoff / 4096)} page hashes do not match (pages ${Math.floor(at / 4096)})`,
    );
    const longer = Buffer.concat([executable('darwin-amd64'), Buffer.alloc(100)]);
    expect(verifyMachOSignature(longer, 'amd64').errors).toContain(
      '100 bytes lie past the end of the signature',
    );
  });
});
