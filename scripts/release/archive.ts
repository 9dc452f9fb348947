// The release archives, written here byte for byte, so that they hold exactly the files we say, with fixed owners
// and times.
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';

/** 1980-01-01T00:00:00Z: the earliest time a zip can hold; keeps archives reproducible. */
const ARCHIVE_MTIME = 315532800;

/** A regular file of an archive. */
export interface ArchiveFile {
  readonly name: string;
  readonly mode: number;
  readonly data: Buffer;
}

/** A ustar tar.gz of regular files. */
export function tarGz(files: readonly ArchiveFile[]): Buffer {
  const blocks: Buffer[] = [];
  for (const f of files) {
    const header = Buffer.alloc(512);
    const field = (offset: number, length: number, text: string): number =>
      header.write(text, offset, length, 'ascii');
    const octal = (offset: number, length: number, n: number): number =>
      field(offset, length, `${n.toString(8).padStart(length - 1, '0')}\0`);
    field(0, 100, f.name);
    octal(100, 8, f.mode);
    octal(108, 8, 0);
    octal(116, 8, 0);
    octal(124, 12, f.data.length);
    octal(136, 12, ARCHIVE_MTIME);
    header.fill(' ', 148, 156);
    field(156, 1, '0');
    field(257, 6, 'ustar\0');
    field(263, 2, '00');
    let sum = 0;
    for (const b of header) sum += b;
    field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
    blocks.push(header, f.data, Buffer.alloc((512 - (f.data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks), { level: 9 });
}

/** A zip of regular files, deflated, with unix modes in the external attributes. */
export function zip(files: readonly ArchiveFile[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const dosTime = 0; // 00:00:00
  const dosDate = (0 << 9) | (1 << 5) | 1; // 1980-01-01
  for (const f of files) {
    const name = Buffer.from(f.name, 'utf8');
    const body = deflateRawSync(f.data, { level: 9 });
    const crc = crc32(f.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(f.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(f.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((0o100000 | f.mode) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
