/** Text written in pieces, waiting on a full stream: apart from stream-list.ts, so printing JSON never loads `yaml`. */
import type { TextSink } from '../io.js';

/** Text is handed to the sink in pieces of about this many characters. */
const WRITE_SIZE = 1 << 16;

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
