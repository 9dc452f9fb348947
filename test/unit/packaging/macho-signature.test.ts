import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CPU_TYPES,
  readMachO,
  signMachOAdHoc,
  verifyMachOSignature,
} from '../../../scripts/macho-signature.js';

const TEXT_SIZE = 0x4000;
const TABLES = 300; // bytes of symbol-table data in __LINKEDIT before the signature
const OLD_SIGNATURE = 200; // a stale signature, as bun leaves it

/**
 * A small thin Mach-O executable laid out as bun's are: __TEXT from offset 0, then __LINKEDIT holding a symbol
 * table and, last, the signature LC_CODE_SIGNATURE points at (here garbage, to be replaced by signing).
 */
function machO(arch: 'amd64' | 'arm64' = 'arm64'): Buffer {
  const commands = [
    segment('__TEXT', 0, TEXT_SIZE),
    segment('__LINKEDIT', TEXT_SIZE, TABLES + OLD_SIGNATURE),
  ];
  const symtab = Buffer.alloc(24);
  symtab.writeUInt32LE(0x2, 0);
  symtab.writeUInt32LE(24, 4);
  symtab.writeUInt32LE(TEXT_SIZE, 8); // symoff
  symtab.writeUInt32LE(10, 12); // nsyms: 160 bytes
  symtab.writeUInt32LE(TEXT_SIZE + 160, 16); // stroff
  symtab.writeUInt32LE(TABLES - 160, 20); // strsize
  const codeSignature = Buffer.alloc(16);
  codeSignature.writeUInt32LE(0x1d, 0);
  codeSignature.writeUInt32LE(16, 4);
  codeSignature.writeUInt32LE(TEXT_SIZE + TABLES, 8);
  codeSignature.writeUInt32LE(OLD_SIGNATURE, 12);
  commands.push(symtab, codeSignature);
  const header = Buffer.alloc(32);
  header.writeUInt32LE(0xfeedfacf, 0);
  header.writeUInt32LE(CPU_TYPES[arch], 4);
  header.writeUInt32LE(2, 12); // MH_EXECUTE
  header.writeUInt32LE(commands.length, 16);
  header.writeUInt32LE(
    commands.reduce((n, c) => n + c.length, 0),
    20,
  );
  const file = Buffer.alloc(TEXT_SIZE + TABLES + OLD_SIGNATURE);
  for (let i = 0; i < file.length; i++) file[i] = (i * 7 + 3) & 0xff;
  Buffer.concat([header, ...commands]).copy(file, 0);
  return file;
}

function segment(name: string, fileoff: number, filesize: number): Buffer {
  const s = Buffer.alloc(72);
  s.writeUInt32LE(0x19, 0);
  s.writeUInt32LE(72, 4);
  s.write(name, 8, 'latin1');
  s.writeBigUInt64LE(BigInt(0x100000000 + fileoff), 24);
  s.writeBigUInt64LE(BigInt(Math.ceil(filesize / 0x4000) * 0x4000), 32);
  s.writeBigUInt64LE(BigInt(fileoff), 40);
  s.writeBigUInt64LE(BigInt(filesize), 48);
  return s;
}

const signed = (arch: 'amd64' | 'arm64' = 'arm64') => signMachOAdHoc(machO(arch), 'kubectl-crossplane_rbac');

/** Offsets inside a signed file, read back from its load commands and SuperBlob. */
function layout(data: Buffer) {
  const { signature, segments } = readMachO(data);
  const sig = signature!.dataoff;
  const cd = sig + data.readUInt32BE(sig + 16);
  const requirements = sig + data.readUInt32BE(sig + 24);
  return { sig, cd, requirements, linkedit: segments.find((s) => s.name === '__LINKEDIT')! };
}

const cases: { name: string; reason: string; corrupt: (d: Buffer) => Buffer; error: string }[] = [
  {
    name: 'FlippedCodeByte',
    reason: 'a byte changed after signing (the embedded JavaScript, say) breaks that page',
    corrupt: (d) => {
      d[5000] = d[5000]! ^ 1;
      return d;
    },
    error: '1 of 5 page hashes do not match (pages 1)',
  },
  {
    name: 'FlippedLastPartialPage',
    reason: 'the last page is hashed only up to codeLimit, and is checked too',
    corrupt: (d) => {
      d[TEXT_SIZE + 10] = d[TEXT_SIZE + 10]! ^ 1;
      return d;
    },
    error: '1 of 5 page hashes do not match (pages 4)',
  },
  {
    name: 'BytesAfterTheSignature',
    reason: 'bun darwin-x64: data past the signed range',
    corrupt: (d) => Buffer.concat([d, Buffer.alloc(4096, 1)]),
    error: '4096 bytes lie past the end of the signature',
  },
  {
    name: 'CodeLimitShort',
    reason: 'bun darwin-x64: the stale signature covers less than the file',
    corrupt: (d) => {
      const { cd } = layout(d);
      d.writeUInt32BE(d.readUInt32BE(cd + 32) - 4096, cd + 32);
      return d;
    },
    error: 'does not reach the signature',
  },
  {
    name: 'TamperedRequirements',
    reason: 'special slot -2 holds the hash of the requirements blob',
    corrupt: (d) => {
      const { requirements } = layout(d);
      d.writeUInt32BE(1, requirements + 8); // count
      return d;
    },
    error: 'special slot -2 does not match blob 2',
  },
  {
    name: 'SignatureOutsideLinkedit',
    reason: 'the signature must lie inside __LINKEDIT',
    corrupt: (d) => {
      const { linkedit } = layout(d);
      d.writeBigUInt64LE(BigInt(linkedit.filesize - 16), linkedit.commandOffset + 48);
      return d;
    },
    error: 'is not inside __LINKEDIT',
  },
  {
    name: 'NotAdHoc',
    reason: 'a certificate signature needs its CMS blob checked, which this verifier does not do',
    corrupt: (d) => {
      const { cd } = layout(d);
      d.writeUInt32BE(0, cd + 12);
      return d;
    },
    error: 'not an ad-hoc signature',
  },
  {
    name: 'ExecutableSegmentNotText',
    reason: 'the CodeDirectory names __TEXT as the executable segment',
    corrupt: (d) => {
      const { cd } = layout(d);
      d.writeBigUInt64BE(1n, cd + 72);
      return d;
    },
    error: 'is not __TEXT',
  },
  {
    name: 'NoSuperBlob',
    reason: 'LC_CODE_SIGNATURE must point at an embedded-signature SuperBlob',
    corrupt: (d) => {
      d.writeUInt32BE(0, layout(d).sig);
      return d;
    },
    error: 'does not start with an embedded-signature SuperBlob',
  },
  {
    name: 'Universal',
    reason: 'krew installs one file per platform: a thin Mach-O',
    corrupt: (d) => {
      d.writeUInt32BE(0xcafebabe, 0);
      return d;
    },
    error: 'universal (fat) Mach-O',
  },
];

describe('verifyMachOSignature', () => {
  it('SignedIsValid: an executable signed ad hoc verifies, for both CPUs', () => {
    for (const arch of ['amd64', 'arm64'] as const) {
      const { errors, info } = verifyMachOSignature(signed(arch), arch);
      expect(errors, arch).toEqual([]);
      expect(info).toMatchObject({
        identifier: 'kubectl-crossplane_rbac',
        hashType: 'sha256',
        pageSize: 4096,
        codeLimit: TEXT_SIZE + TABLES + 4, // aligned to 16 bytes
        pages: 5,
        mismatched: [],
      });
    }
  });

  it.each(cases)('$name', ({ corrupt, error, reason }) => {
    const { errors } = verifyMachOSignature(corrupt(signed()), 'arm64');
    expect(errors.join('\n'), reason).toContain(error);
  });

  it('WrongCpu: an x86_64 executable is not an arm64 one', () => {
    expect(verifyMachOSignature(signed('amd64'), 'arm64').errors).toContain('CPU type x86_64, want arm64');
  });

  it('Unsigned: a stale signature blob that is not a SuperBlob fails, so does no signature at all', () => {
    expect(verifyMachOSignature(machO(), 'arm64').errors.join('\n')).toContain('SuperBlob');
    const d = signed();
    d.writeUInt32BE(0x1234, readMachO(d).signature!.commandOffset); // no longer LC_CODE_SIGNATURE
    expect(verifyMachOSignature(d, 'arm64').errors).toContain(
      'no LC_CODE_SIGNATURE: the executable is unsigned',
    );
  });

  it('NotMachO: an ELF file is refused', () => {
    const elf = Buffer.alloc(64);
    elf.write('\x7fELF', 0, 'latin1');
    expect(verifyMachOSignature(elf, 'amd64').errors).toEqual(['not a 64-bit little-endian Mach-O file']);
  });
});

describe('signMachOAdHoc', () => {
  it('KeepsTheCode: everything before the signature is unchanged but the fields that place and size it', () => {
    const before = machO();
    const after = signed();
    const { signature, segments } = readMachO(after);
    const linkedit = segments.find((s) => s.name === '__LINKEDIT')!;
    const changed: number[] = [];
    for (let i = 0; i < TEXT_SIZE + TABLES; i++) if (before[i] !== after[i]) changed.push(i);
    const fields = [
      ...range(signature!.commandOffset + 8, 8), // dataoff (aligned to 16 bytes), datasize
      ...range(linkedit.commandOffset + 32, 8), // vmsize
      ...range(linkedit.commandOffset + 48, 8), // filesize
    ];
    expect(changed.every((i) => fields.includes(i))).toBe(true);
    expect(after.length).toBe(signature!.dataoff + signature!.datasize);
    expect(linkedit.fileoff + linkedit.filesize).toBe(after.length);
  });

  it('Deterministic: signing twice gives the same bytes, and re-signing a signed file changes nothing', () => {
    const once = signed();
    expect(sha(signed())).toBe(sha(once));
    expect(sha(signMachOAdHoc(once, 'kubectl-crossplane_rbac'))).toBe(sha(once));
  });

  it('RefusesToOverwriteTables: a symbol table running into the old signature is an error', () => {
    const d = machO();
    d.writeUInt32LE(TABLES, 32 + 72 * 2 + 20); // strsize now runs 160 bytes into the signature
    expect(() => signMachOAdHoc(d, 'x')).toThrow(/past the old signature/);
  });
});

const range = (start: number, n: number) => Array.from({ length: n }, (_, i) => start + i);
const sha = (d: Buffer) => createHash('sha256').update(d).digest('hex');
