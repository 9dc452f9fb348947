/**
 * The API server's warnings as kubectl prints them: client-go's WarningWriter (kubernetes/kubernetes
 * staging/src/k8s.io/client-go/rest/warnings.go@a9a14997b84b5314c343dd40a049164f769cc842), as kubectl sets it up
 * (staging/src/k8s.io/kubectl/pkg/cmd/cmd.go@8d31df5f473a1e76d552aeb88b1234da9370a7d7 NewKubectlCommand: Deduplicate,
 * Color from AllowsColorOutput on stderr): code 299 with a text only, each text once per run, on stderr as
 * `Warning: TEXT` (the prefix yellow and bold when colour is allowed), counted for --warnings-as-errors. The text is
 * escaped for the terminal here (escape.ts), which kubectl does not do: a policy engine's message is outside text.
 *
 * Across contexts (there is no kubectl fleet) the line names its context as the -v log lines do,
 * `Warning: [context NAME] TEXT`, and a text is printed once per context: the same deprecation in two clusters is
 * two facts to act on.
 */
import { escapeTerminal } from '../escape.js';
import type { WarningHeader } from '../kube/warning-header.js';
import type { Io, TextSink } from './io.js';
import { useColor } from './output/terminal.js';

/** client-go's colours for the prefix (rest/warnings.go yellowColor, resetColor). */
const YELLOW = '\u001b[33;1m';
const RESET = '\u001b[0m';

export class ServerWarningPrinter {
  private readonly written = new Set<string>();
  private printed = 0;
  private color = false;

  constructor(private readonly stderr: TextSink) {}

  /** Colours the prefix from now on (decided once the flags are parsed: allowsWarningColor). */
  setColor(color: boolean): void {
    this.color = color;
  }

  /** Prints the warnings of one answer; CONTEXT (escaped already) names the context in a run across contexts. */
  print(warnings: readonly WarningHeader[], context?: string): void {
    for (const w of warnings) {
      if (w.code !== 299 || w.text === '') continue;
      const key = `${context ?? ''}\u0000${w.text}`;
      if (this.written.has(key)) continue;
      this.written.add(key);
      this.printed++;
      const prefix = this.color ? `${YELLOW}Warning:${RESET}` : 'Warning:';
      const where = context === undefined ? '' : `[context ${context}] `;
      this.stderr.write(`${prefix} ${where}${escapeTerminal(w.text)}\n`);
    }
  }

  /** How many warnings were printed (kubectl's WarningCount). */
  get count(): number {
    return this.printed;
  }
}

/** Whether the warnings' prefix is coloured: kubectl's AllowsColorOutput on stderr (output/terminal.ts's useColor). */
export function allowsWarningColor(io: Pick<Io, 'env' | 'stderrIsTTY'>, noColorFlag: boolean): boolean {
  return useColor(io, io.stderrIsTTY, noColorFlag);
}

/** What --warnings-as-errors says after a command that succeeded, as kubectl words it; undefined without warnings. */
export function warningsAsErrorsMessage(count: number): string | undefined {
  if (count === 0) return undefined;
  return count === 1 ? '1 warning received' : `${String(count)} warnings received`;
}
