// Krew's rules for plugin manifests and archives, written down as code because krew itself cannot be installed
// here. Structural rules follow krew's own validation (apiVersion, kind, name, semver with a leading v, platforms
// with uri, sha256 and bin, selectors on os/arch only); the rest are the krew-index review guidelines.
import { gunzipSync, inflateRawSync } from 'node:zlib';

export const KREW_API_VERSION = 'krew.googlecontainertools.github.com/v1alpha2';

const SEMVER =
  /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?(?:\+[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*)?$/;
const SHA256 = /^[a-f0-9]{64}$/;
/** Every os and arch krew users run on, plus any a manifest names: the space in which selectors must not overlap. */
const KNOWN_OS = ['linux', 'darwin', 'windows', 'freebsd'];
const KNOWN_ARCH = ['amd64', 'arm64', '386', 'arm', 'ppc64le', 's390x'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

interface Requirement {
  readonly key: string;
  readonly operator: string;
  readonly values: readonly string[];
}

/** A platform selector as a list of requirements (matchLabels are `In` with one value). */
function requirements(selector: unknown, errors: string[], where: string): Requirement[] {
  if (!isRecord(selector)) {
    errors.push(`${where}: selector is required`);
    return [];
  }
  const reqs: Requirement[] = [];
  const { matchLabels, matchExpressions } = selector;
  if (matchLabels !== undefined) {
    if (!isRecord(matchLabels) || Object.keys(matchLabels).length === 0) {
      errors.push(`${where}: matchLabels specified but empty`);
    } else {
      for (const [key, value] of Object.entries(matchLabels)) {
        reqs.push({ key, operator: 'In', values: [String(value)] });
      }
    }
  }
  if (matchExpressions !== undefined) {
    if (!Array.isArray(matchExpressions) || matchExpressions.length === 0) {
      errors.push(`${where}: matchExpressions specified but empty`);
    } else {
      for (const e of matchExpressions as unknown[]) {
        if (!isRecord(e)) continue;
        const values = Array.isArray(e.values) ? e.values.map(String) : [];
        reqs.push({ key: String(e.key), operator: String(e.operator), values });
      }
    }
  }
  if (matchLabels === undefined && matchExpressions === undefined) errors.push(`${where}: empty selector`);
  for (const r of reqs) {
    if (r.key !== 'os' && r.key !== 'arch')
      errors.push(`${where}: selector key "${r.key}" is not os or arch`);
  }
  return reqs;
}

function matches(reqs: readonly Requirement[], labels: Readonly<Record<string, string>>): boolean {
  return reqs.every((r) => {
    const v = labels[r.key];
    switch (r.operator) {
      case 'In':
        return v !== undefined && r.values.includes(v);
      case 'NotIn':
        return v === undefined || !r.values.includes(v);
      case 'Exists':
        return v !== undefined;
      case 'DoesNotExist':
        return v === undefined;
      default:
        return false;
    }
  });
}

/** Every rule a krew manifest for this plugin breaks; empty when it is valid. */
export function validateManifest(doc: unknown, expectedName = 'crossplane-rbac'): string[] {
  const errors: string[] = [];
  if (!isRecord(doc)) return ['manifest is not a mapping'];
  if (doc.apiVersion !== KREW_API_VERSION) errors.push(`apiVersion must be ${KREW_API_VERSION}`);
  if (doc.kind !== 'Plugin') errors.push('kind must be Plugin');
  const name = isRecord(doc.metadata) ? doc.metadata.name : undefined;
  if (typeof name !== 'string' || !/^[\w-]+$/.test(name)) errors.push('metadata.name must match ^[\\w-]+$');
  if (name !== expectedName) errors.push(`metadata.name must be ${expectedName}`);
  const spec = doc.spec;
  if (!isRecord(spec)) return [...errors, 'spec is required'];

  if (typeof spec.version !== 'string' || !SEMVER.test(spec.version)) {
    errors.push('spec.version must be a full semver with a leading v');
  }
  if (typeof spec.homepage !== 'string' || !spec.homepage.startsWith('https://')) {
    errors.push('spec.homepage must be an https URL');
  }
  if (typeof spec.shortDescription !== 'string' || spec.shortDescription.trim() === '') {
    errors.push('spec.shortDescription is required');
  } else if (spec.shortDescription.length > 50) {
    errors.push('spec.shortDescription must be at most 50 characters');
  }
  if (typeof spec.description !== 'string' || spec.description.trim() === '') {
    errors.push('spec.description is required');
  } else {
    const lines = spec.description.split('\n');
    if (lines.some((l) => l.length > 80)) errors.push('spec.description lines must be at most 80 characters');
    if (lines.some((l) => /^\s*(\$ |kubectl |```)/.test(l) || l.includes('kubectl crossplane-rbac '))) {
      errors.push('spec.description must not hold usage examples');
    }
  }
  if (typeof spec.caveats !== 'string' || spec.caveats.trim() === '') errors.push('spec.caveats is required');

  const platforms = spec.platforms;
  if (!Array.isArray(platforms) || platforms.length === 0)
    return [...errors, 'spec.platforms must not be empty'];
  const selectors: Requirement[][] = [];
  platforms.forEach((p: unknown, i) => {
    const where = `spec.platforms[${i}]`;
    if (!isRecord(p)) {
      errors.push(`${where} is not a mapping`);
      return;
    }
    if (typeof p.uri !== 'string' || !p.uri.startsWith('https://'))
      errors.push(`${where}.uri must be an https URL`);
    if (typeof p.sha256 !== 'string' || !SHA256.test(p.sha256)) {
      errors.push(`${where}.sha256 must be 64 lowercase hex characters`);
    }
    if (typeof p.bin !== 'string' || p.bin === '') errors.push(`${where}.bin is required`);
    const reqs = requirements(p.selector, errors, where);
    const osValues = reqs.filter((r) => r.key === 'os').flatMap((r) => r.values);
    if (osValues.includes('windows') && typeof p.bin === 'string' && !p.bin.endsWith('.exe')) {
      errors.push(`${where}.bin must end in .exe on windows`);
    }
    if (p.files !== undefined && (!Array.isArray(p.files) || p.files.length === 0)) {
      errors.push(`${where}.files must be unset or non-empty`);
    }
    selectors.push(reqs);
  });

  // No os/arch may be matched by two platforms: krew would silently pick the first.
  const mentioned = (key: string) => selectors.flat().flatMap((r) => (r.key === key ? r.values : []));
  const oses = [...new Set([...KNOWN_OS, ...mentioned('os')])];
  const arches = [...new Set([...KNOWN_ARCH, ...mentioned('arch')])];
  for (const os of oses) {
    for (const arch of arches) {
      const hits = selectors.flatMap((reqs, i) =>
        reqs.length > 0 && matches(reqs, { os, arch }) ? [i] : [],
      );
      if (hits.length > 1) errors.push(`platforms ${hits.join(' and ')} both match ${os}/${arch}`);
    }
  }
  return errors;
}

export interface ArchiveEntry {
  readonly name: string;
  /** 'file', 'dir', 'symlink', 'hardlink' or 'other'. */
  readonly type: string;
  /** Permission bits only (e.g. 0o755). */
  readonly mode: number;
  readonly data: Buffer;
}

function cString(buf: Buffer, start: number, length: number): string {
  const raw = buf.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
}

/** The entries of a gzipped tar (ustar, with GNU long names and pax headers read only for the name). */
export function readTarGz(gz: Buffer): ArchiveEntry[] {
  const tar = gunzipSync(gz);
  const entries: ArchiveEntry[] = [];
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(cString(header, 124, 12).trim() || '0', 8);
    const flag = String.fromCharCode(header[156] ?? 0);
    const prefix = cString(header, 345, 155);
    let name = longName ?? (prefix === '' ? cString(header, 0, 100) : `${prefix}/${cString(header, 0, 100)}`);
    longName = undefined;
    const data = Buffer.from(tar.subarray(offset + 512, offset + 512 + size));
    offset += 512 + Math.ceil(size / 512) * 512;
    if (flag === 'L') {
      longName = cString(data, 0, data.length);
      continue;
    }
    if (flag === 'x' || flag === 'g') {
      const path = /\d+ path=([^\n]*)\n/.exec(data.toString('utf8'));
      if (path?.[1] !== undefined) longName = path[1];
      continue;
    }
    if (name.startsWith('./') && name.length > 2) name = name.slice(2);
    const type =
      flag === '0' || flag === '\0'
        ? 'file'
        : flag === '5'
          ? 'dir'
          : flag === '2'
            ? 'symlink'
            : flag === '1'
              ? 'hardlink'
              : 'other';
    entries.push({ name, type, mode: parseInt(cString(header, 100, 8).trim() || '0', 8) & 0o7777, data });
  }
  return entries;
}

/** The entries of a zip, from its central directory (stored and deflated members). */
export function readZip(zip: Buffer): ArchiveEntry[] {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('not a zip: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let p = zip.readUInt32LE(end + 16);
  const entries: ArchiveEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory entry');
    const madeBy = zip.readUInt16LE(p + 4) >> 8;
    const method = zip.readUInt16LE(p + 10);
    const compressed = zip.readUInt32LE(p + 20);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const external = zip.readUInt32LE(p + 38);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLength).toString('utf8');
    p += 46 + nameLength + extraLength + commentLength;
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const body = zip.subarray(dataStart, dataStart + compressed);
    const data = method === 8 ? inflateRawSync(body) : Buffer.from(body);
    const unixMode = madeBy === 3 ? external >>> 16 : 0;
    const fmt = unixMode & 0o170000;
    const type =
      name.endsWith('/') || fmt === 0o040000
        ? 'dir'
        : fmt === 0o120000
          ? 'symlink'
          : fmt === 0o100000 || fmt === 0
            ? 'file'
            : 'other';
    entries.push({ name, type, mode: unixMode & 0o7777, data });
  }
  return entries;
}

/** Every rule a release archive breaks: plain files only, safe names, the executable 0755, LICENSE present. */
export function validateArchive(entries: readonly ArchiveEntry[], bin: string): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const e of entries) {
    if (e.type !== 'file') errors.push(`${e.name}: is a ${e.type}, not a plain file`);
    if (e.name.startsWith('/') || /^[A-Za-z]:/.test(e.name)) errors.push(`${e.name}: absolute path`);
    if (e.name.split(/[/\\]/).includes('..')) errors.push(`${e.name}: path holds ..`);
    if (seen.has(e.name)) errors.push(`${e.name}: duplicate entry`);
    seen.add(e.name);
  }
  const exe = entries.find((e) => e.name === bin);
  if (exe === undefined) errors.push(`${bin}: missing`);
  else if (exe.mode !== 0o755) errors.push(`${bin}: mode ${exe.mode.toString(8)}, want 755`);
  const license = entries.find((e) => e.name === 'LICENSE');
  if (license === undefined || license.data.length === 0) errors.push('LICENSE: missing');
  return errors;
}
