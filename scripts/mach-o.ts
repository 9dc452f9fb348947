// Reads the load commands of a thin 64-bit Mach-O executable: its header, segments and sections, and where its
// code signature is (Apple's <mach-o/loader.h>). Multi-byte fields of Mach-O headers are little-endian.
// scripts/macho-signature.ts verifies and writes the signature; scripts/bun-module-graph.ts finds bun's section.

export type Arch = 'amd64' | 'arm64';

export interface MachOSection {
  readonly name: string;
  readonly size: number;
  readonly offset: number;
}

export interface MachOSegment {
  readonly name: string;
  readonly commandOffset: number;
  readonly vmsize: number;
  readonly fileoff: number;
  readonly filesize: number;
  readonly sections: readonly MachOSection[];
}

export interface MachOCommand {
  readonly cmd: number;
  readonly offset: number;
  readonly size: number;
}

export interface MachO {
  readonly header: {
    readonly cputype: number;
    readonly filetype: number;
    readonly ncmds: number;
    readonly sizeofcmds: number;
  };
  readonly segments: readonly MachOSegment[];
  readonly commands: readonly MachOCommand[];
  readonly signature:
    { readonly commandOffset: number; readonly dataoff: number; readonly datasize: number } | undefined;
}

export const CPU_TYPES: { readonly [A in Arch]: number } = { amd64: 0x01000007, arm64: 0x0100000c };
export const CPU_NAMES: Readonly<Record<number, string>> = {
  [CPU_TYPES.amd64]: 'x86_64',
  [CPU_TYPES.arm64]: 'arm64',
};

const MH_MAGIC_64 = 0xfeedfacf;
const FAT_MAGICS = [0xcafebabe, 0xcafebabf];
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;

/** The header, segments and code-signature command of a thin 64-bit Mach-O; throws when it is not one. */
export function readMachO(data: Buffer): MachO {
  if (data.length < 32) throw new Error('not a Mach-O file: too short');
  if (FAT_MAGICS.includes(data.readUInt32BE(0)))
    throw new Error('a universal (fat) Mach-O: want a thin, single-architecture one');
  if (data.readUInt32LE(0) !== MH_MAGIC_64) throw new Error('not a 64-bit little-endian Mach-O file');
  const header = {
    cputype: data.readUInt32LE(4),
    filetype: data.readUInt32LE(12),
    ncmds: data.readUInt32LE(16),
    sizeofcmds: data.readUInt32LE(20),
  };
  const end = 32 + header.sizeofcmds;
  if (end > data.length) throw new Error('load commands run past the end of the file');
  const segments: MachOSegment[] = [];
  const commands: MachOCommand[] = [];
  let p = 32;
  for (let i = 0; i < header.ncmds; i++) {
    if (p + 8 > end) throw new Error(`load command ${i} starts past sizeofcmds`);
    const cmd = data.readUInt32LE(p);
    const cmdsize = data.readUInt32LE(p + 4);
    if (cmdsize < 8 || cmdsize % 8 !== 0 || p + cmdsize > end)
      throw new Error(`load command ${i} has a bad size ${cmdsize}`);
    commands.push({ cmd, offset: p, size: cmdsize });
    if (cmd === LC_SEGMENT_64) {
      const nsects = data.readUInt32LE(p + 64);
      const sections: MachOSection[] = [];
      for (let s = 0; s < nsects; s++) {
        const q = p + 72 + s * 80;
        sections.push({
          name: cstring(data, q, 16),
          size: Number(data.readBigUInt64LE(q + 40)),
          offset: data.readUInt32LE(q + 48),
        });
      }
      segments.push({
        name: cstring(data, p + 8, 16),
        commandOffset: p,
        vmsize: Number(data.readBigUInt64LE(p + 32)),
        fileoff: Number(data.readBigUInt64LE(p + 40)),
        filesize: Number(data.readBigUInt64LE(p + 48)),
        sections,
      });
    }
    p += cmdsize;
  }
  const signatures = commands.filter((c) => c.cmd === LC_CODE_SIGNATURE);
  if (signatures.length > 1) throw new Error('more than one LC_CODE_SIGNATURE');
  const signature =
    signatures[0] === undefined
      ? undefined
      : {
          commandOffset: signatures[0].offset,
          dataoff: data.readUInt32LE(signatures[0].offset + 8),
          datasize: data.readUInt32LE(signatures[0].offset + 12),
        };
  return { header, segments, commands, signature };
}

function cstring(data: Buffer, offset: number, max: number): string {
  const end = data.indexOf(0, offset);
  return data.toString('latin1', offset, end < 0 || end > offset + max ? offset + max : end);
}
