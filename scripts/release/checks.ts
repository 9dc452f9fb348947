// The checks every executable passes before it is packaged: it embeds exactly the JavaScript of the first one built
// (linux-amd64, which the end-to-end suite runs), it is run where this machine can run it, and a macOS one must be
// a thin Mach-O of its CPU with a valid ad-hoc code signature. bun signs darwin-arm64 executables itself but leaves
// darwin-x64 ones with the runtime's stale signature, so an executable whose signature does not verify is signed
// again here (scripts/macho-signature.ts) and must verify after that.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { readBunModuleGraph, type BunModuleGraph } from '../bun-module-graph.js';
import {
  CPU_TYPES,
  readMachO,
  signMachOAdHoc,
  verifyMachOSignature,
  type MachO,
  type SignatureInfo,
} from '../macho-signature.js';
import { BIN, errorMessage, fail, platform, sha256 } from './platforms.js';

/** The first of CANDIDATES that is an executable file, or undefined. */
function findExecutable(candidates: readonly string[]): string | undefined {
  for (const c of candidates) {
    try {
      if (statSync(c).isFile()) return c;
    } catch {
      // not there
    }
  }
  return undefined;
}

/**
 * Runs a freshly built executable's `version` where this machine can run it: linux-amd64 natively on an x64
 * Linux, linux-arm64 under qemu-user with Debian's arm64 libc. Returns true when it ran and answered its version,
 * false when this machine cannot run it; a build that runs and answers wrongly stops the release.
 */
export function smokeRun(name: string, exe: string, version: string): boolean {
  let cmd: string;
  let args: string[];
  if (name === 'linux-amd64' && process.platform === 'linux' && process.arch === 'x64') {
    cmd = exe;
    args = ['version'];
  } else if (name === 'linux-arm64') {
    const qemu = findExecutable(['/usr/bin/qemu-aarch64-static', '/usr/bin/qemu-aarch64']);
    if (qemu === undefined || !existsSync('/usr/aarch64-linux-gnu')) return false;
    cmd = qemu;
    args = ['-L', '/usr/aarch64-linux-gnu', exe, 'version'];
  } else {
    return false;
  }
  const want = `kubectl-crossplane-rbac ${version}\n`;
  let got: string;
  try {
    got = execFileSync(cmd, args, { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' }, timeout: 120_000 });
  } catch (err) {
    fail(`the ${name} executable does not run: ${errorMessage(err)}`);
  }
  if (got !== want)
    fail(`the ${name} executable answered ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
  return true;
}

/** What checkMacExecutable found and did, for the log and release.json. */
export interface MacCheck {
  readonly signature: 'bun' | 're-signed ad hoc';
  readonly bunSignatureErrors?: readonly string[];
  readonly cpu: string;
  readonly identifier: string;
  readonly pages: number;
  readonly codeLimit: number;
}

/**
 * Checks a macOS executable the way macOS will before running it, and signs it again (ad hoc) when bun left a
 * signature that does not verify. Returns what was done, for the log and release.json; stops the release when the
 * executable is not a thin Mach-O of its CPU or its signature still does not verify.
 */
export function checkMacExecutable(name: string, exe: string): MacCheck {
  const arch = platform(name).arch;
  const data = readFileSync(exe);
  let macho: MachO;
  try {
    macho = readMachO(data);
  } catch (err) {
    fail(`the ${name} executable is not a thin Mach-O: ${errorMessage(err)}`);
  }
  // Signing cannot make an executable of the wrong CPU right.
  if (macho.header.cputype !== CPU_TYPES[arch])
    fail(`the ${name} executable is for CPU type 0x${macho.header.cputype.toString(16)}, not ${arch}`);
  const found = verifyMachOSignature(data, arch);
  if (found.errors.length === 0) return { signature: 'bun', ...signatureSummary(found.info) };
  console.log(
    `${name}: bun's code signature does not verify (${found.errors.join('; ')}); signing it ad hoc`,
  );
  let signed: Buffer;
  try {
    signed = signMachOAdHoc(data, BIN);
  } catch (err) {
    fail(`cannot sign the ${name} executable: ${errorMessage(err)}`);
  }
  const check = verifyMachOSignature(signed, arch);
  if (check.errors.length > 0)
    fail(`the ${name} executable does not verify after signing: ${check.errors.join('; ')}`);
  writeFileSync(exe, signed);
  return { signature: 're-signed ad hoc', bunSignatureErrors: found.errors, ...signatureSummary(check.info) };
}

function signatureSummary(
  info: SignatureInfo | undefined,
): Pick<MacCheck, 'cpu' | 'identifier' | 'pages' | 'codeLimit'> {
  if (info === undefined) fail('a signature that verifies has no CodeDirectory');
  return { cpu: info.cpu, identifier: info.identifier, pages: info.pages, codeLimit: info.codeLimit };
}

/** The sha256s of the JavaScript an executable embeds and of its bytecode. */
export interface EmbeddedDigests {
  readonly javascriptSha256: string;
  readonly bytecodeSha256: string;
}

/**
 * The sha256s of the JavaScript an executable runs (its two modules, with their names) and of the bytecode bun
 * compiled them to; stops the release when either is not the same as REFERENCE's, the executable first built, or a
 * module's bytecode is missing (the executable would parse the whole bundle at every start).
 */
export function checkEmbeddedJavaScript(
  name: string,
  exe: string,
  reference: (EmbeddedDigests & { readonly name: string }) | undefined,
): EmbeddedDigests {
  let graph: BunModuleGraph;
  try {
    graph = readBunModuleGraph(readFileSync(exe));
  } catch (err) {
    fail(`cannot read the JavaScript embedded in the ${name} executable: ${errorMessage(err)}`);
  }
  if (graph.modules.length !== 2 || graph.entryPoint !== 0)
    fail(
      `the ${name} executable embeds ${graph.modules.length} modules, want 2 (the entry, the composition root)`,
    );
  const missing = graph.modules.find((m) => m.bytecode === undefined);
  if (missing !== undefined) fail(`the ${name} executable embeds no bytecode for ${missing.name}`);
  const digest = (part: 'contents' | 'bytecode'): string =>
    sha256(
      Buffer.concat(graph.modules.flatMap((m) => [Buffer.from(`${m.name}\0`), m[part] ?? Buffer.alloc(0)])),
    );
  const digests: EmbeddedDigests = {
    javascriptSha256: digest('contents'),
    bytecodeSha256: digest('bytecode'),
  };
  const keys: readonly (readonly [string, keyof EmbeddedDigests])[] = [
    ['JavaScript', 'javascriptSha256'],
    ['bytecode', 'bytecodeSha256'],
  ];
  for (const [what, key] of keys) {
    if (reference !== undefined && digests[key] !== reference[key])
      fail(
        `the ${name} executable embeds other ${what} than the ${reference.name} one (${digests[key]} ≠ ${reference[key]})`,
      );
  }
  return digests;
}
