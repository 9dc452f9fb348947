import { UsageError, UserError } from '../../errors.js';
import { escapeTerminal } from '../../escape.js';
import type { Choice } from '../../app/deps.js';
import type { Io } from '../io.js';

export interface Prompter {
  confirm(message: string): Promise<boolean>;
  checkbox(message: string, choices: readonly Choice[]): Promise<string[]>;
}

/**
 * The real prompts (inquirer), loaded only when a prompt is really shown. Each prompt is its own package:
 * `@inquirer/prompts` would also bundle its editor prompt and, through it, iconv-lite's encoding tables.
 * The message and the choices' names (cluster names, the server's address) are escaped for the terminal; the
 * values returned are the exact ones.
 */
export const inquirerPrompter: Prompter = {
  async confirm(message) {
    const { default: confirm } = await import('@inquirer/confirm');
    return confirm({ message: escapeTerminal(message), default: false });
  },
  async checkbox(message, choices) {
    const { default: checkbox } = await import('@inquirer/checkbox');
    return checkbox({
      message: escapeTerminal(message),
      choices: choices.map((c) => ({ ...c, name: escapeTerminal(c.name) })),
      required: true,
      pageSize: 15,
    });
  },
};

/**
 * Asks before writing. Never prompts without a TTY on both stdin and stderr: then `--yes` is required, and a request
 * that insists on a person's answer (`insist`, asked even with --yes) is refused with its reason.
 * Returns false when the user declines.
 */
export async function confirmWrite(
  io: Io,
  prompter: Prompter,
  opts: {
    yes: boolean;
    message: string;
    what: string;
    insist?: { readonly reason: string; readonly hint: string } | undefined;
  },
): Promise<boolean> {
  if (opts.yes) return true;
  if (!io.stdinIsTTY || !io.stderrIsTTY) {
    if (opts.insist !== undefined) {
      throw new UserError(`refusing to ${opts.what}: ${opts.insist.reason}`, { hint: opts.insist.hint });
    }
    throw new UsageError(`refusing to ${opts.what} without confirmation: not running on a terminal`, {
      hint: 'pass --yes to write without asking, or --dry-run=client to only see the plan',
    });
  }
  return prompter.confirm(opts.message);
}
