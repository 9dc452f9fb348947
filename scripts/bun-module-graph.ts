// Reads the module graph `bun build --compile` embeds in an executable: the JavaScript the executable runs.
//
// Layout (bun's src/StandaloneModuleGraph.zig): the graph is a byte string of module names and contents, then an
// array of module records (each starts with two {offset, length} u32 pairs: name, contents), then an Offsets
// struct (u64 byte_count = where that struct starts, {offset, length} of the module array, u32 entry point id, …)
// and the trailer "\n---- Bun! ----\n". In a Mach-O it is the __BUN,__bun section after a u64 length; in ELF and
// PE executables it is found by its trailer. The sizes of the records and of Offsets have grown across bun
// versions, so they are inferred and cross-checked here rather than assumed.
import { readMachO } from './mach-o.js';

export interface BunModule {
  readonly name: string;
  readonly contents: Buffer;
  /** The bytecode bun compiled the module to, when built with --bytecode. */
  readonly bytecode: Buffer | undefined;
}

export interface BunModuleGraph {
  readonly modules: readonly BunModule[];
  readonly entryPoint: number;
}

const TRAILER = Buffer.from('\n---- Bun! ----\n', 'latin1');
const BASE_PATHS = ['/$bunfs/', 'B:/~BUN/'];

/** {offset, length} of a NUL-terminated string inside GRAPH, or undefined when it is not one. */
function stringAt(graph: Buffer, offset: number, length: number): Buffer | undefined {
  if (offset + length >= graph.length || graph[offset + length] !== 0) return undefined;
  return graph.subarray(offset, offset + length);
}

/**
 * The bytecode bun compiled a module to (`--bytecode`): the record's fourth {offset, length} pair, after name,
 * contents and source map; undefined when the module has none or the record is too short to hold it.
 */
function bytecodeAt(graph: Buffer, record: number, size: number, end: number): Buffer | undefined {
  if (size < 32) return undefined;
  const offset = graph.readUInt32LE(record + 24);
  const length = graph.readUInt32LE(record + 28);
  if (length === 0 || offset + length > end) return undefined;
  return graph.subarray(offset, offset + length);
}

/** The modules of a graph whose Offsets struct starts at OFFSETS, or undefined when that reading is inconsistent. */
function modulesAt(graph: Buffer, offsets: number): BunModuleGraph | undefined {
  const modulesOffset = graph.readUInt32LE(offsets + 8);
  const modulesLength = graph.readUInt32LE(offsets + 12);
  const entryPoint = graph.readUInt32LE(offsets + 16);
  if (modulesLength === 0 || modulesOffset + modulesLength > offsets) return undefined;
  for (let size = 16; size <= modulesLength; size += 4) {
    if (modulesLength % size !== 0) continue;
    const modules: BunModule[] = [];
    for (let p = modulesOffset; p < modulesOffset + modulesLength; p += size) {
      const name = stringAt(graph, graph.readUInt32LE(p), graph.readUInt32LE(p + 4));
      const contents = stringAt(graph, graph.readUInt32LE(p + 8), graph.readUInt32LE(p + 12));
      const nameText = name?.toString('utf8');
      if (contents === undefined || nameText === undefined || !BASE_PATHS.some((b) => nameText.startsWith(b)))
        break;
      modules.push({ name: nameText, contents, bytecode: bytecodeAt(graph, p, size, offsets) });
    }
    if (modules.length === modulesLength / size && entryPoint < modules.length)
      return { modules, entryPoint };
  }
  return undefined;
}

/** Parses GRAPH, which ends with the trailer. */
function parseGraph(graph: Buffer): BunModuleGraph {
  if (!graph.subarray(graph.length - TRAILER.length).equals(TRAILER))
    throw new Error('the module graph does not end with bun’s trailer');
  const trailerAt = graph.length - TRAILER.length;
  for (let size = 24; size <= 128 && size <= trailerAt; size += 8) {
    const offsets = trailerAt - size;
    if (graph.readBigUInt64LE(offsets) !== BigInt(offsets)) continue;
    const found = modulesAt(graph, offsets);
    if (found !== undefined) return found;
  }
  throw new Error('cannot read the module graph: bun’s format changed (update scripts/bun-module-graph.ts)');
}

/** The graph as bun wrote it into a Mach-O executable: its __BUN,__bun section. */
function machOGraph(data: Buffer): Buffer {
  const { segments } = readMachO(data);
  const section = segments.flatMap((s) => s.sections).find((s) => s.name === '__bun');
  if (section === undefined) throw new Error('no __BUN,__bun section: not a bun executable');
  const length = Number(data.readBigUInt64LE(section.offset));
  if (length + 8 > section.size) throw new Error('the __bun section is shorter than the graph it announces');
  return data.subarray(section.offset + 8, section.offset + 8 + length);
}

/** The graph of an ELF or PE executable: everything up to the last trailer, starting where its Offsets say. */
function trailingGraph(data: Buffer): Buffer {
  const at = data.lastIndexOf(TRAILER);
  if (at < 0) throw new Error('no bun module graph in this file');
  for (let size = 24; size <= 128; size += 8) {
    const offsets = at - size;
    const start = offsets - Number(data.readBigUInt64LE(offsets));
    if (start < 0 || start >= offsets) continue;
    const graph = data.subarray(start, at + TRAILER.length);
    try {
      parseGraph(graph);
      return graph;
    } catch {
      // not this size
    }
  }
  throw new Error('cannot find the start of the module graph: bun’s format changed');
}

/**
 * The modules embedded in a bun-compiled executable (ELF, Mach-O or PE), each with its name under bun's virtual
 * root, its contents and its bytecode (when compiled with --bytecode), and which of them is the entry point.
 */
export function readBunModuleGraph(data: Buffer): BunModuleGraph {
  const isMachO = data.length >= 4 && data.readUInt32LE(0) === 0xfeedfacf;
  return parseGraph(isMachO ? machOGraph(data) : trailingGraph(data));
}
