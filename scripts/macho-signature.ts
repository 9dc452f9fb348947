// Reads, verifies and writes the embedded code signature of a thin 64-bit Mach-O executable, on any OS.
//
// macOS kills an executable whose embedded signature does not match its bytes (on Apple silicon every
// executable must be signed, ad hoc at least). Releases are built on Linux, where neither `codesign` nor a Mac is
// at hand, so the release checks each macOS executable here, the way the kernel will: a SuperBlob inside
// __LINKEDIT at the very end of the file, a CodeDirectory whose code limit reaches the signature, and a SHA-256
// (or SHA-1) hash for every page below it. Formats: Apple's xnu osfmk/kern/cs_blobs.h and <mach-o/loader.h>.
// Multi-byte fields of Mach-O headers are little-endian; every field of a code signature is big-endian.
import { createHash } from 'node:crypto';
import {
  CPU_NAMES,
  CPU_TYPES,
  readMachO,
  type Arch,
  type MachO,
  type MachOCommand,
  type MachOSegment,
} from './mach-o.js';

export { CPU_TYPES, readMachO };
export type { Arch, MachO, MachOCommand, MachOSection, MachOSegment } from './mach-o.js';

interface CodeDirectoryInfo {
  readonly identifier: string;
  readonly flags: number;
  readonly version: number;
  readonly hashType: string;
  readonly pageSize: number;
  readonly codeLimit: number;
  readonly pages: number;
  readonly mismatched: readonly number[];
}

export interface SignatureInfo extends CodeDirectoryInfo {
  readonly cpu: string;
  readonly signatureOffset: number;
  readonly signatureSize: number;
}

interface Blob {
  readonly type: number;
  readonly magic: number;
  readonly data: Buffer;
}

const MH_EXECUTE = 2;
const LC_SYMTAB = 0x2;
const LC_DYSYMTAB = 0xb;
const LC_DYLD_INFO = 0x22;
const LC_DYLD_INFO_ONLY = 0x80000022;
/** linkedit_data_command payloads other than the signature (function starts, data in code, fixups, exports…). */
const LINKEDIT_DATA_COMMANDS = [0x26, 0x29, 0x2b, 0x2e, 0x80000033, 0x80000034];

const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSMAGIC_REQUIREMENTS = 0xfade0c01;
const CSSLOT_CODEDIRECTORY = 0;
const CSSLOT_REQUIREMENTS = 2;
const CSSLOT_ALTERNATE_CODEDIRECTORIES = 0x1000;
const CS_ADHOC = 0x2;
const CS_EXECSEG_MAIN_BINARY = 0x1;
const HASH_TYPES: Readonly<Record<number, { readonly name: string; readonly size: number }>> = {
  1: { name: 'sha1', size: 20 },
  2: { name: 'sha256', size: 32 },
};
const CS_HASHTYPE_SHA256 = 2;
const PAGE_SHIFT = 12; // the code directory's page: 4096 bytes on both architectures
/** Largest number of page-hash mismatches listed one by one; the rest are counted. */
const LISTED_MISMATCHES = 5;

const align = (n: number, to: number): number => Math.ceil(n / to) * to;

/** Where the data of every __LINKEDIT table other than the signature ends: the signature must not overlap it. */
function linkeditTablesEnd(data: Buffer, commands: readonly MachOCommand[]): number {
  let end = 0;
  const upTo = (off: number, size: number): number => (size > 0 ? Math.max(end, off + size) : end);
  for (const { cmd, offset: p } of commands) {
    if (cmd === LC_SYMTAB) {
      end = upTo(data.readUInt32LE(p + 8), data.readUInt32LE(p + 12) * 16);
      end = upTo(data.readUInt32LE(p + 16), data.readUInt32LE(p + 20));
    } else if (cmd === LC_DYSYMTAB) {
      end = upTo(data.readUInt32LE(p + 56), data.readUInt32LE(p + 60) * 4); // indirect symbols
    } else if (cmd === LC_DYLD_INFO || cmd === LC_DYLD_INFO_ONLY) {
      for (let f = 8; f < 48; f += 8) end = upTo(data.readUInt32LE(p + f), data.readUInt32LE(p + f + 4));
    } else if (LINKEDIT_DATA_COMMANDS.includes(cmd)) {
      end = upTo(data.readUInt32LE(p + 8), data.readUInt32LE(p + 12));
    }
  }
  return end;
}

/** The blobs of a SuperBlob, by slot type; throws when the SuperBlob is malformed. */
function readSuperBlob(sig: Buffer): Blob[] {
  if (sig.length < 12 || sig.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE)
    throw new Error('the signature does not start with an embedded-signature SuperBlob');
  const length = sig.readUInt32BE(4);
  const count = sig.readUInt32BE(8);
  if (length > sig.length) throw new Error(`the SuperBlob's length ${length} runs past LC_CODE_SIGNATURE`);
  if (12 + count * 8 > length) throw new Error('the SuperBlob index runs past its length');
  const blobs: Blob[] = [];
  for (let i = 0; i < count; i++) {
    const type = sig.readUInt32BE(12 + i * 8);
    const offset = sig.readUInt32BE(16 + i * 8);
    if (offset + 8 > length) throw new Error(`blob ${i} (slot ${type}) starts past the SuperBlob`);
    const blobLength = sig.readUInt32BE(offset + 4);
    if (blobLength < 8 || offset + blobLength > length)
      throw new Error(`blob ${i} (slot ${type}) runs past the SuperBlob`);
    blobs.push({ type, magic: sig.readUInt32BE(offset), data: sig.subarray(offset, offset + blobLength) });
  }
  return blobs;
}

/** Checks one CodeDirectory against the file; returns its errors and what it says. */
function checkCodeDirectory(
  cd: Buffer,
  blobs: readonly Blob[],
  data: Buffer,
  dataoff: number,
  text: MachOSegment | undefined,
  where: string,
): { errors: string[]; info?: CodeDirectoryInfo } {
  const errors: string[] = [];
  if (cd.length < 44 || cd.readUInt32BE(0) !== CSMAGIC_CODEDIRECTORY)
    return { errors: [`${where}: not a CodeDirectory`] };
  const version = cd.readUInt32BE(8);
  const flags = cd.readUInt32BE(12);
  const hashOffset = cd.readUInt32BE(16);
  const identOffset = cd.readUInt32BE(20);
  const nSpecialSlots = cd.readUInt32BE(24);
  const nCodeSlots = cd.readUInt32BE(28);
  let codeLimit = cd.readUInt32BE(32);
  const hashSize = cd.readUInt8(36);
  const hashType = cd.readUInt8(37);
  const pageShift = cd.readUInt8(39);
  if (version >= 0x20100 && cd.length >= 48 && cd.readUInt32BE(44) !== 0)
    errors.push(`${where}: has a scatter vector, which this check does not support`);
  if (version >= 0x20300 && cd.length >= 64 && cd.readBigUInt64BE(56) !== 0n)
    codeLimit = Number(cd.readBigUInt64BE(56));
  const hash = HASH_TYPES[hashType];
  if (hash === undefined || hash.size !== hashSize)
    return { errors: [...errors, `${where}: unknown hash type ${hashType} of size ${hashSize}`] };
  if (pageShift === 0 || pageShift > 16) return { errors: [...errors, `${where}: page size 2^${pageShift}`] };
  const pageSize = 2 ** pageShift;
  const identEnd = cd.indexOf(0, identOffset);
  const identifier = identEnd < 0 ? '' : cd.toString('utf8', identOffset, identEnd);
  if (identEnd < 0) errors.push(`${where}: identifier is not NUL-terminated inside the CodeDirectory`);
  if ((flags & CS_ADHOC) === 0)
    errors.push(
      `${where}: not an ad-hoc signature (flags 0x${flags.toString(16)}): its CMS signature is not checked here`,
    );
  if (codeLimit !== dataoff)
    errors.push(
      `${where}: codeLimit ${codeLimit} does not reach the signature at ${dataoff}` +
        (codeLimit < dataoff ? ` (${dataoff - codeLimit} bytes not covered by a page hash)` : ''),
    );
  const wantSlots = Math.ceil(codeLimit / pageSize);
  if (nCodeSlots !== wantSlots)
    errors.push(`${where}: ${nCodeSlots} code slots for a codeLimit of ${codeLimit}, want ${wantSlots}`);
  if (hashOffset < nSpecialSlots * hashSize || hashOffset + nCodeSlots * hashSize > cd.length)
    return { errors: [...errors, `${where}: hash slots run outside the CodeDirectory`] };

  const digest = (bytes: Buffer): Buffer => createHash(hash.name).update(bytes).digest();
  const mismatched: number[] = [];
  const pages = Math.min(nCodeSlots, wantSlots);
  for (let i = 0; i < pages; i++) {
    const start = i * pageSize;
    const page = data.subarray(start, Math.min(start + pageSize, codeLimit, data.length));
    const stored = cd.subarray(hashOffset + i * hashSize, hashOffset + (i + 1) * hashSize);
    if (!digest(page).equals(stored)) mismatched.push(i);
  }
  if (mismatched.length > 0) {
    const listed = mismatched.slice(0, LISTED_MISMATCHES).join(', ');
    const more = mismatched.length > LISTED_MISMATCHES ? ', …' : '';
    errors.push(
      `${where}: ${mismatched.length} of ${pages} page hashes do not match (pages ${listed}${more})`,
    );
  }
  // Special slot -n holds the hash of the blob in slot n, or zeros when there is none.
  for (let n = 1; n <= nSpecialSlots; n++) {
    const stored = cd.subarray(hashOffset - n * hashSize, hashOffset - (n - 1) * hashSize);
    const blob = blobs.find((b) => b.type === n);
    const want = blob === undefined ? Buffer.alloc(hashSize) : digest(blob.data);
    if (!stored.equals(want))
      errors.push(
        `${where}: special slot -${n} does not match ${blob === undefined ? 'an absent blob' : `blob ${n}`}`,
      );
  }
  if (version >= 0x20400 && cd.length >= 88 && text !== undefined) {
    const base = Number(cd.readBigUInt64BE(64));
    const limit = Number(cd.readBigUInt64BE(72));
    if (base !== text.fileoff || limit !== text.filesize)
      errors.push(
        `${where}: executable segment ${base}+${limit} is not __TEXT (${text.fileoff}+${text.filesize})`,
      );
  }
  return {
    errors,
    info: {
      identifier,
      flags,
      version,
      hashType: hash.name,
      pageSize,
      codeLimit,
      pages: nCodeSlots,
      mismatched,
    },
  };
}

/**
 * Every reason macOS would refuse to run DATA as a signed ARCH executable; empty when its embedded signature is
 * valid. `info` describes the signature that was found.
 */
export function verifyMachOSignature(data: Buffer, arch: Arch): { errors: string[]; info?: SignatureInfo } {
  let macho: MachO;
  try {
    macho = readMachO(data);
  } catch (err) {
    return { errors: [message(err)] };
  }
  const errors: string[] = [];
  const { header, segments, signature } = macho;
  const want = CPU_TYPES[arch];
  if (header.cputype !== want)
    errors.push(
      `CPU type ${CPU_NAMES[header.cputype] ?? `0x${header.cputype.toString(16)}`}, want ${CPU_NAMES[want] ?? arch}`,
    );
  if (header.filetype !== MH_EXECUTE) errors.push(`file type ${header.filetype}, want an executable (2)`);
  if (signature === undefined)
    return { errors: [...errors, 'no LC_CODE_SIGNATURE: the executable is unsigned'] };
  const { dataoff, datasize } = signature;
  const linkedit = segments.find((s) => s.name === '__LINKEDIT');
  if (linkedit === undefined) return { errors: [...errors, 'no __LINKEDIT segment'] };
  const linkeditEnd = linkedit.fileoff + linkedit.filesize;
  if (segments.some((s) => s !== linkedit && s.fileoff + s.filesize > linkedit.fileoff))
    errors.push('__LINKEDIT is not the last segment in the file');
  if (dataoff < linkedit.fileoff || dataoff + datasize > linkeditEnd)
    errors.push(
      `the signature (${dataoff}+${datasize}) is not inside __LINKEDIT (${linkedit.fileoff}+${linkedit.filesize})`,
    );
  if (dataoff % 16 !== 0) errors.push(`the signature offset ${dataoff} is not 16-byte aligned`);
  if (dataoff + datasize < data.length)
    errors.push(`${data.length - dataoff - datasize} bytes lie past the end of the signature`);
  if (dataoff + datasize > data.length)
    return { errors: [...errors, 'the signature runs past the end of the file'] };
  if (linkeditEnd !== data.length)
    errors.push(`__LINKEDIT ends at ${linkeditEnd}, the file at ${data.length}`);

  let blobs: Blob[];
  try {
    blobs = readSuperBlob(data.subarray(dataoff, dataoff + datasize));
  } catch (err) {
    return { errors: [...errors, message(err)] };
  }
  const text = segments.find((s) => s.name === '__TEXT');
  const directories = blobs.filter(
    (b) =>
      b.type === CSSLOT_CODEDIRECTORY ||
      (b.type >= CSSLOT_ALTERNATE_CODEDIRECTORIES && b.type < CSSLOT_ALTERNATE_CODEDIRECTORIES + 5),
  );
  if (!directories.some((b) => b.type === CSSLOT_CODEDIRECTORY))
    return { errors: [...errors, 'the SuperBlob holds no CodeDirectory'] };
  let info: CodeDirectoryInfo | undefined;
  for (const d of directories) {
    const where = d.type === CSSLOT_CODEDIRECTORY ? 'CodeDirectory' : `alternate CodeDirectory ${d.type}`;
    const result = checkCodeDirectory(d.data, blobs, data, dataoff, text, where);
    errors.push(...result.errors);
    if (d.type === CSSLOT_CODEDIRECTORY) info = result.info;
  }
  if (info === undefined) return { errors };
  return {
    errors,
    info: {
      ...info,
      cpu: CPU_NAMES[header.cputype] ?? `0x${header.cputype.toString(16)}`,
      signatureOffset: dataoff,
      signatureSize: datasize,
    },
  };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * DATA signed ad hoc: its old signature (if any) dropped, then a SuperBlob of a CodeDirectory (version 0x20400,
 * SHA-256 hashes of 4 KiB pages up to the signature, the executable segment set to __TEXT) and an empty
 * requirements set, the way `codesign --sign -` signs a bare executable. LC_CODE_SIGNATURE and __LINKEDIT are
 * resized to hold it; nothing else in the file moves.
 */
export function signMachOAdHoc(data: Buffer, identifier: string): Buffer {
  const { header, segments, commands, signature } = readMachO(data);
  if (signature === undefined)
    throw new Error('no LC_CODE_SIGNATURE to reuse (adding a load command is not supported)');
  const linkedit = segments.find((s) => s.name === '__LINKEDIT');
  const text = segments.find((s) => s.name === '__TEXT');
  if (linkedit === undefined || text === undefined) throw new Error('no __LINKEDIT or __TEXT segment');
  if (segments.some((s) => s !== linkedit && s.fileoff + s.filesize > linkedit.fileoff))
    throw new Error('__LINKEDIT is not the last segment in the file');
  const tablesEnd = linkeditTablesEnd(data, commands);
  if (tablesEnd > signature.dataoff)
    throw new Error(`__LINKEDIT data runs to ${tablesEnd}, past the old signature at ${signature.dataoff}`);

  // The new signature starts where the old one did (16-byte aligned, as codesign places it).
  const codeLimit = align(signature.dataoff, 16);
  const pageSize = 2 ** PAGE_SHIFT;
  const nCodeSlots = Math.ceil(codeLimit / pageSize);
  const hashSize = 32;
  const ident = Buffer.from(`${identifier}\0`, 'utf8');
  const nSpecialSlots = CSSLOT_REQUIREMENTS;
  const cdHeader = 88;
  const hashOffset = cdHeader + ident.length + nSpecialSlots * hashSize;
  const cdLength = hashOffset + nCodeSlots * hashSize;
  const requirements = Buffer.alloc(12);
  requirements.writeUInt32BE(CSMAGIC_REQUIREMENTS, 0);
  requirements.writeUInt32BE(12, 4); // length; count 0
  const indexLength = 12 + 2 * 8;
  const superLength = indexLength + cdLength + requirements.length;
  const datasize = align(superLength, 16);

  const out = Buffer.alloc(codeLimit + datasize);
  data.copy(out, 0, 0, Math.min(data.length, signature.dataoff));
  // The header's new sizes come first: they lie in the first page, which is hashed below.
  out.writeUInt32LE(codeLimit, signature.commandOffset + 8);
  out.writeUInt32LE(datasize, signature.commandOffset + 12);
  const linkeditSize = codeLimit + datasize - linkedit.fileoff;
  const vmPage = header.cputype === CPU_TYPES.arm64 ? 0x4000 : 0x1000;
  out.writeBigUInt64LE(BigInt(align(linkeditSize, vmPage)), linkedit.commandOffset + 32);
  out.writeBigUInt64LE(BigInt(linkeditSize), linkedit.commandOffset + 48);

  const sig = out.subarray(codeLimit);
  sig.writeUInt32BE(CSMAGIC_EMBEDDED_SIGNATURE, 0);
  sig.writeUInt32BE(superLength, 4);
  sig.writeUInt32BE(2, 8);
  sig.writeUInt32BE(CSSLOT_CODEDIRECTORY, 12);
  sig.writeUInt32BE(indexLength, 16);
  sig.writeUInt32BE(CSSLOT_REQUIREMENTS, 20);
  sig.writeUInt32BE(indexLength + cdLength, 24);
  const cd = sig.subarray(indexLength, indexLength + cdLength);
  cd.writeUInt32BE(CSMAGIC_CODEDIRECTORY, 0);
  cd.writeUInt32BE(cdLength, 4);
  cd.writeUInt32BE(0x20400, 8);
  cd.writeUInt32BE(CS_ADHOC, 12);
  cd.writeUInt32BE(hashOffset, 16);
  cd.writeUInt32BE(cdHeader, 20);
  cd.writeUInt32BE(nSpecialSlots, 24);
  cd.writeUInt32BE(nCodeSlots, 28);
  cd.writeUInt32BE(codeLimit, 32);
  cd.writeUInt8(hashSize, 36);
  cd.writeUInt8(CS_HASHTYPE_SHA256, 37);
  cd.writeUInt8(PAGE_SHIFT, 39);
  cd.writeBigUInt64BE(BigInt(text.fileoff), 64);
  cd.writeBigUInt64BE(BigInt(text.filesize), 72);
  cd.writeBigUInt64BE(BigInt(CS_EXECSEG_MAIN_BINARY), 80);
  ident.copy(cd, cdHeader);
  const sha256 = (bytes: Buffer): Buffer => createHash('sha256').update(bytes).digest();
  sha256(requirements).copy(cd, hashOffset - CSSLOT_REQUIREMENTS * hashSize); // slot -1 (Info.plist) stays zero
  for (let i = 0; i < nCodeSlots; i++) {
    const page = out.subarray(i * pageSize, Math.min((i + 1) * pageSize, codeLimit));
    sha256(page).copy(cd, hashOffset + i * hashSize);
  }
  requirements.copy(sig, indexLength + cdLength);
  return out;
}
