import { asList, formatJson, formatYaml } from './format-data.js';
import type { TextSink } from '../io.js';

/** Text is handed to the sink in pieces of about this many characters. */
const WRITE_SIZE = 1 << 16;

/**
 * The text of `formatYaml|formatJson(asList(items))`, byte for byte, in one piece per item: a large list is printed
 * without ever holding all of its text. METADATA false: the same list without its `metadata: {}` (the fleet's list
 * of contexts' results).
 */
export function* formatListChunks(
  items: readonly unknown[],
  format: 'yaml' | 'json',
  metadata = true,
): Generator<string> {
  if (items.length === 0) {
    const empty = metadata ? asList([]) : { apiVersion: 'v1', kind: 'List', items: [] };
    yield format === 'yaml' ? formatYaml(empty) : formatJson(empty);
    return;
  }
  if (format === 'yaml') {
    // `items:` holds a block sequence at the list's own indentation, so each item prints as a one-item document.
    yield `apiVersion: v1\nkind: List\n${metadata ? 'metadata: {}\n' : ''}items:\n`;
    for (const item of items) yield formatYaml([item]);
    return;
  }
  const head = '{\n  "items": [\n';
  const tail = '\n  ]\n}';
  yield `{\n  "apiVersion": "v1",\n  "kind": "List",\n${metadata ? '  "metadata": {},\n' : ''}  "items": [\n`;
  let first = true;
  for (const item of items) {
    // The item as it prints inside a list's "items", at the same depth (no re-indenting of its lines).
    const text = JSON.stringify({ items: [item] }, null, 2);
    yield `${first ? '' : ',\n'}${text.slice(head.length, text.length - tail.length)}`;
    first = false;
  }
  yield '\n  ]\n}\n';
}

/** A sink that may ask the writer to wait (a Node.js stream whose buffer is full). */
interface DrainingSink extends TextSink {
  once?(event: string, listener: () => void): unknown;
  off?(event: string, listener: () => void): unknown;
}

/**
 * Writes CHUNKS to SINK in pieces, waiting whenever a stream's buffer is full, so memory stays at one piece
 * whatever the total (a pipe to a slow reader would otherwise buffer all of it).
 */
export async function printChunks(sink: TextSink, chunks: Iterable<string>): Promise<void> {
  let pending = '';
  for (const chunk of chunks) {
    if (pending === '' && chunk.length >= WRITE_SIZE) {
      // A large piece (one big object) goes as it is, not copied into a bigger string first.
      await writeAndWait(sink, chunk);
      continue;
    }
    pending += chunk;
    if (pending.length >= WRITE_SIZE) {
      await writeAndWait(sink, pending);
      pending = '';
    }
  }
  if (pending !== '') await writeAndWait(sink, pending);
}

async function writeAndWait(sink: DrainingSink, text: string): Promise<void> {
  if (sink.write(text) !== false || typeof sink.once !== 'function') return;
  const once = sink.once.bind(sink);
  await new Promise<void>((resolve) => {
    // A stream that closes or fails instead never drains: go on, its error is handled where it is reported.
    const done = (): void => {
      for (const event of ['drain', 'close', 'error']) sink.off?.(event, done);
      resolve();
    };
    for (const event of ['drain', 'close', 'error']) once(event, done);
  });
}
