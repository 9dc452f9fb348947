import { escapeTerminal } from '../../escape.js';
import type { Progress } from '../../app/deps.js';
import type { Io } from '../io.js';

/**
 * A spinner on stderr, only when stderr is a TTY and CI is unset; ora alone would still write to a piped stderr.
 * ora (and its colour and terminal libraries) is loaded only when a spinner is really shown. Its text is escaped
 * for the terminal.
 */
export async function startProgress(io: Io, text: string, enabled = true): Promise<Progress> {
  const ci = io.env.CI;
  // A terminal that reports no width (docker run -t, script, some CI wrappers) would make ora wrap forever.
  const noWidth = io.stderrColumns !== undefined && !(io.stderrColumns > 0);
  if (!enabled || !io.stderrIsTTY || noWidth || (ci !== undefined && ci !== '' && ci !== 'false')) {
    return { update: () => undefined, stop: () => undefined };
  }
  const { default: ora } = await import('ora');
  const spinner = ora({
    text: escapeTerminal(text),
    stream: io.stderr as NodeJS.WritableStream,
    isEnabled: true,
  }).start();
  return {
    update: (t: string) => {
      spinner.text = escapeTerminal(t);
      // Drawn now, not at the next frame: counts that change between frames (and the last ones) are seen.
      spinner.render();
    },
    stop: (finalText?: string) => {
      if (finalText === undefined) spinner.stop();
      else spinner.succeed(escapeTerminal(finalText));
    },
  };
}
