// The server's warnings as kubectl prints them. Expected bytes from client-go's WarningWriter (kubernetes/kubernetes
// staging/src/k8s.io/client-go/rest/warnings.go@a9a14997b84b5314c343dd40a049164f769cc842: code 299 only, a
// non-empty text, each text once with Deduplicate, `Warning: TEXT\n`, the prefix `\u001b[33;1mWarning:\u001b[0m`
// with Color), kubectl's AllowsColorOutput (staging/src/k8s.io/kubectl/pkg/util/term/term.go@
// 78fc8e44052f699bf598f84b697b41e5a328c9c5: a terminal, TERM not dumb, NO_COLOR looked up, not read) and
// --warnings-as-errors' words (staging/src/k8s.io/kubectl/pkg/cmd/cmd.go@8d31df5f473a1e76d552aeb88b1234da9370a7d7).
import { describe, expect, it } from 'vitest';
import {
  allowsWarningColor,
  ServerWarningPrinter,
  warningsAsErrorsMessage,
} from '../../../src/cli/server-warnings.js';

function printer(color = false): { p: ServerWarningPrinter; out: () => string } {
  let text = '';
  const p = new ServerWarningPrinter({ write: (s: string) => (text += s) });
  p.setColor(color);
  return { p, out: () => text };
}
const w = (text: string, code = 299): { code: number; agent: string; text: string } => ({
  code,
  agent: '-',
  text,
});

describe('ServerWarningPrinter', () => {
  it('prints code 299 with a text, each text once, and counts what it printed', () => {
    const { p, out } = printer();
    p.print([w('policy/v1beta1 PodSecurityPolicy is deprecated'), w('other', 199), w('')]);
    p.print([w('policy/v1beta1 PodSecurityPolicy is deprecated'), w('second')]);
    expect(out()).toBe('Warning: policy/v1beta1 PodSecurityPolicy is deprecated\nWarning: second\n');
    expect(p.count).toBe(2);
  });

  it("colours the prefix as client-go's WarningWriter does", () => {
    const { p, out } = printer(true);
    p.print([w('x')]);
    expect(out()).toBe('\u001b[33;1mWarning:\u001b[0m x\n');
  });

  it('escapes the text for the terminal (a warning is outside text)', () => {
    const { p, out } = printer();
    p.print([w('deny \u001b]0;owned\u0007 \u202eevil')]);
    expect(out()).toBe('Warning: deny \\x1b]0;owned\\a \\u202eevil\n');
  });

  it('names the context across contexts, and prints a text once per context', () => {
    const { p, out } = printer();
    p.print([w('deprecated')], 'prod');
    p.print([w('deprecated')], 'dev');
    p.print([w('deprecated')], 'prod');
    expect(out()).toBe('Warning: [context prod] deprecated\nWarning: [context dev] deprecated\n');
    expect(p.count).toBe(2);
  });
});

describe('allowsWarningColor (kubectl AllowsColorOutput)', () => {
  const cases: [string, Record<string, string | undefined>, boolean, boolean, boolean][] = [
    ['terminal', { TERM: 'xterm' }, true, false, true],
    ['not a terminal', { TERM: 'xterm' }, false, false, false],
    ['TERM=dumb', { TERM: 'dumb' }, true, false, false],
    ['NO_COLOR set', { NO_COLOR: '1' }, true, false, false],
    ['NO_COLOR set but empty (LookupEnv)', { NO_COLOR: '' }, true, false, false],
    ['--no-color', {}, true, true, false],
  ];
  it.each(cases)('%s', (_name, env, tty, noColorFlag, want) => {
    expect(allowsWarningColor({ env, stderrIsTTY: tty }, noColorFlag)).toBe(want);
  });
});

describe('warningsAsErrorsMessage (kubectl --warnings-as-errors)', () => {
  it('says nothing without warnings, then kubectl words', () => {
    expect(warningsAsErrorsMessage(0)).toBeUndefined();
    expect(warningsAsErrorsMessage(1)).toBe('1 warning received');
    expect(warningsAsErrorsMessage(3)).toBe('3 warnings received');
  });
});
