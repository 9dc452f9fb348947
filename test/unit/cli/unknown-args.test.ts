// Unknown commands and flags, answered as kubectl answers them (cobra's `unknown command "X" for "kubectl"`, pflag's
// `unknown flag: --X` and `unknown shorthand flag: 'X' in -XYZ`; test/e2e/shell.test.ts checks the wording against
// the real kubectl) in one `error:` line with the closest flags or commands as the hint, exit 2; and the spellings
// kubectl takes (`-ojson`, a global flag before the command, `--v=N`) taken. A bare command prints the help.
import { describe, expect, it } from 'vitest';
import { runCaptured } from '../../support/run-cli.js';

const EXAMPLES = 'examples/cluster';

describe('unknown flags and commands: one error line, the closest as a hint, exit 2', () => {
  it.each([
    {
      name: 'TypoOfACommandFlag',
      argv: ['sync', '--dryrun', '-f', EXAMPLES],
      error: 'unknown flag: --dryrun',
      hint: 'did you mean --dry-run?',
      reason: "the issue's own example: a dash left out of one of the command's flags",
    },
    {
      name: 'FlagBeforeTheCommand',
      argv: ['--dryrun', 'sync', '-f', EXAMPLES],
      error: 'unknown flag: --dryrun',
      hint: 'did you mean --dry-run?',
      reason:
        "a flag before the command is still checked against that command's flags, not read as its value",
    },
    {
      name: 'TypoOfAGlobalFlag',
      argv: ['explain', 'admin', '--kubeconfg', 'x'],
      error: 'unknown flag: --kubeconfg',
      hint: 'did you mean --kubeconfig?',
      reason: "kubectl's global flags are among the candidates on every command",
    },
    {
      name: 'NegatedGlobalFlag',
      argv: ['who-can', 'get', 'pods', '--no-colour'],
      error: 'unknown flag: --no-colour',
      hint: 'did you mean --no-color?',
      reason: '--no-color is a spelling of its own, and so a candidate',
    },
    {
      name: 'CamelCase',
      argv: ['sync', '--dryRun', '-f', EXAMPLES],
      error: 'unknown flag: --dryRun',
      hint: 'did you mean --dry-run?',
      reason:
        'kubectl takes a flag only as it is spelled; yargs alone would take the camel-case form silently',
    },
    {
      name: 'AnotherCommandsFlag',
      argv: ['who-can', 'get', 'pods', '--prune'],
      error: 'unknown flag: --prune',
      hint: 'see: kubectl crossplane-rbac who-can --help',
      reason:
        "sync's --prune is no flag of who-can, and nothing of who-can is close: the hint names its help",
    },
    {
      name: 'PositionalAsFlag',
      argv: ['who-can', '--verb', 'get', 'pods'],
      error: 'unknown flag: --verb',
      hint: 'see: kubectl crossplane-rbac who-can --help',
      reason: 'an argument is not a flag, and --verb merely containing --v does not make it close to it',
    },
    {
      name: 'FlagOfNoCommand',
      argv: ['version', '--bogus'],
      error: 'unknown flag: --bogus',
      hint: 'see: kubectl crossplane-rbac version --help',
      reason: 'nothing is close: the hint names the help of the command',
    },
    {
      name: 'ShortFlag',
      argv: ['sync', '-Z', '-f', EXAMPLES],
      error: "unknown shorthand flag: 'Z' in -Z",
      hint: 'see: kubectl crossplane-rbac sync --help',
      reason: "pflag's words for a short flag",
    },
    {
      name: 'ShortFlagInAGroup',
      argv: ['sync', '-yZ', '-f', EXAMPLES],
      error: "unknown shorthand flag: 'Z' in -yZ",
      hint: 'see: kubectl crossplane-rbac sync --help',
      reason: 'a group of short flags is read letter by letter, and the unknown letter named',
    },
    {
      name: 'LongFlagWithOneDash',
      argv: ['sync', '-dry-run', '-f', EXAMPLES],
      error: "unknown shorthand flag: 'd' in -dry-run",
      hint: 'did you mean --dry-run?',
      reason: 'as pflag, one dash means short flags; the hint shows the long flag meant',
    },
    {
      name: 'CommandTypo',
      argv: ['synk', '-f', EXAMPLES],
      error: 'unknown command "synk" for "kubectl crossplane-rbac"',
      hint: 'did you mean sync?',
      reason: "cobra's words for an unknown command, with the closest command",
    },
    {
      name: 'CommandAfterAGlobalFlag',
      argv: ['-n', 'team-a', 'who-cna', 'get', 'pods'],
      error: 'unknown command "who-cna" for "kubectl crossplane-rbac"',
      hint: 'did you mean who-can?',
      reason: "the value of a global flag is not the command; the next word is, as cobra's Find reads it",
    },
    {
      name: 'NoCloseCommand',
      argv: ['frobnicate'],
      error: 'unknown command "frobnicate" for "kubectl crossplane-rbac"',
      hint: 'see: kubectl crossplane-rbac --help',
      reason: 'nothing is close: the hint names the help',
    },
    {
      name: 'ExtraArguments',
      argv: ['version', 'extra', 'more'],
      error: 'unexpected arguments: [extra more]',
      hint: 'see: kubectl crossplane-rbac version --help',
      reason: "kubectl's words for arguments a command does not take (kubectl api-resources extra)",
    },
    {
      name: 'BooleanFlagWithAValueParseBoolRefuses',
      argv: ['sync', '-f', EXAMPLES, '--warnings-as-errors=maybe'],
      error:
        'invalid argument "maybe" for "--warnings-as-errors" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
      hint: 'see: kubectl crossplane-rbac sync --help',
      reason:
        'kubectl get ns --warnings-as-errors=maybe refuses it in these words (pflag reads a bool with strconv.ParseBool); yargs alone took any value as true',
    },
    {
      name: 'CommandBooleanFlagWithAValueParseBoolRefuses',
      argv: ['sync', '-f', EXAMPLES, '--yes=yes'],
      error: 'invalid argument "yes" for "--yes" flag: strconv.ParseBool: parsing "yes": invalid syntax',
      hint: 'see: kubectl crossplane-rbac sync --help',
      reason: "a command's own boolean flag is read as kubectl's are: `yes` is no ParseBool value",
    },
    {
      name: 'UnknownFlagWithHelp',
      argv: ['sync', '--dryrun', '--help'],
      error: 'unknown flag: --dryrun',
      hint: 'did you mean --dry-run?',
      reason: 'kubectl get --dryrun --help refuses the flag too, rather than printing help',
    },
  ])('$name', async ({ argv, error, hint, reason }) => {
    const r = await runCaptured(argv);
    expect(r.code, reason).toBe(2);
    expect(r.stdout, reason).toBe('');
    expect(r.stderr, reason).toBe(`error: ${error}\nhint: ${hint}\n`);
  });
});

describe('the spellings kubectl takes are taken', () => {
  it.each([
    { name: 'ShortFlagWithItsValue', argv: ['version', '-ojson'], reason: 'kubectl get -ojson' },
    { name: 'ShortFlagWithEquals', argv: ['version', '-o=json'], reason: 'pflag takes -o=json' },
    { name: 'GlobalFlagFirst', argv: ['-o', 'json', 'version'], reason: 'a global flag before the command' },
    { name: 'LongV', argv: ['version', '--v=0', '-o', 'json'], reason: 'kubectl registers -v as --v too' },
    {
      name: 'BooleanAsParseBoolReadsIt',
      argv: ['version', '-o', 'json', '--warnings-as-errors=F', '--insecure-skip-tls-verify=0'],
      reason: "strconv.ParseBool's false values, as pflag reads a bool flag's value",
    },
  ])('$name', async ({ argv, reason }) => {
    const want = await runCaptured(['version', '-o', 'json']);
    const r = await runCaptured(argv);
    expect(r.stderr, reason).toBe('');
    expect(r.code, reason).toBe(0);
    expect(r.stdout, reason).toBe(want.stdout);
  });

  it('a boolean flag given a value ParseBool reads is that value: --all-namespaces=t is -A, =0 is off', async () => {
    const ask = ['who-can', 'get', 'pods', '-f', EXAMPLES, '-o', 'json'];
    const on = await runCaptured([...ask, '-A']);
    const off = await runCaptured(ask);
    expect(on.code).toBe(0);
    expect(on.stdout).not.toBe(off.stdout);
    expect(await runCaptured([...ask, '--all-namespaces=t'])).toStrictEqual(on);
    expect(await runCaptured([...ask, '--all-namespaces=0'])).toStrictEqual(off);
  });

  it('short flags in a group, the last taking the next word: -yf PATH', async () => {
    const want = await runCaptured(['sync', '-y', '-f', EXAMPLES, '-o', 'name']);
    const r = await runCaptured(['sync', '-yf', EXAMPLES, '-o', 'name']);
    expect(want.code).toBe(0);
    expect(r).toStrictEqual(want);
  });
});

describe('-h is --help, as cobra registers it for every kubectl command', () => {
  it.each([[[]], [['version']], [['sync']], [['who-can']], [['explain']]])(
    '%j: -h prints what --help prints, exit 0',
    async (command) => {
      const long = await runCaptured([...command, '--help']);
      expect(long.code).toBe(0);
      expect(long.stdout).toContain('--help');
      expect(await runCaptured([...command, '-h'])).toStrictEqual(long);
    },
  );
});

describe('no command', () => {
  it('a bare kubectl crossplane-rbac prints the help on stdout and exits 0, as a bare kubectl does', async () => {
    const help = await runCaptured(['--help']);
    const bare = await runCaptured([]);
    expect(bare).toStrictEqual({ code: 0, stdout: help.stdout, stderr: '' });
    expect(bare.stdout).toMatch(/^kubectl crossplane-rbac: /);
    expect(bare.stdout).toContain('kubectl crossplane-rbac sync');
  });

  it('global flags without a command print the help too (kubectl -n foo does)', async () => {
    const help = await runCaptured(['--help']);
    expect(await runCaptured(['-n', 'team-a'])).toStrictEqual({ code: 0, stdout: help.stdout, stderr: '' });
  });

  it('an unknown flag without a command is refused, not answered with the help', async () => {
    const r = await runCaptured(['--bogus']);
    expect(r).toStrictEqual({
      code: 2,
      stdout: '',
      stderr: 'error: unknown flag: --bogus\nhint: see: kubectl crossplane-rbac --help\n',
    });
  });
});
