import { UsageError } from '../errors.js';
import type { AppDeps } from '../app/deps.js';
import type { InputSource } from '../app/read-input.js';
import type { Interrupt } from '../app/interrupt.js';
import type { Io } from './io.js';
import { confirmWrite, type Prompter } from './output/prompt.js';
import { startProgress } from './output/spinner.js';
import { useColor } from './output/terminal.js';
import { printWarning } from './warnings.js';
import type { Shown } from './output/shown.js';

/** The real dependencies a command runs with; composition-root.ts builds them, tests pass fakes. */
export interface Deps {
  readonly io: Io;
  readonly connect: AppDeps['connect'];
  /** The kubeconfig's context names (for --contexts and --all-contexts); absent in tests that use none. */
  readonly contextNames?: (flags: ConnectionFlags) => Promise<string[]>;
  readonly prompter: Prompter;
  readonly version: string;
  /** Ctrl-C handling for writes; absent in tests that never interrupt. */
  readonly interrupt?: Interrupt;
  /** In a run across contexts: the renders the contexts share (app/render-share.ts). */
  readonly renderShare?: AppDeps['renderShare'];
  /**
   * In a run across contexts: where the run hands what it shows (its result, warnings and stderr lines, in order) as
   * data, for the fleet's printer to merge, instead of printing it (output/print-result.ts).
   */
  readonly collect?: Shown[];
}

type ConnectionFlags = InputSource['connection'];

/**
 * What the use cases run with, from the CLI's dependencies: its prompts, its spinner, its streams (warnings are
 * printed there as cli/warnings.ts words them). COLOR: --color
 * (the preview before a question is coloured as the plan would be).
 */
export function appDeps(deps: Deps, color: boolean): AppDeps {
  return {
    readStdin: (maxBytes) => deps.io.readStdin(maxBytes),
    connect: deps.connect,
    interrupt: deps.interrupt,
    renderShare: deps.renderShare,
    confirm: async (request) => {
      // The plan is shown only when a person will really be asked: not with --yes, not off a terminal.
      const willAsk = !request.yes && deps.io.stdinIsTTY && deps.io.stderrIsTTY;
      if (willAsk && request.preview !== undefined) {
        const { formatPlanSummary } = await import('./output/format-plan.js');
        const colored = useColor(deps.io, deps.io.stdoutIsTTY, !color);
        deps.io.stderr.write(formatPlanSummary(request.preview, new Set(), { color: colored, dryRun: true }));
      }
      return confirmWrite(deps.io, deps.prompter, request);
    },
    choose: (message, choices) => deps.prompter.checkbox(message, choices),
    startProgress: (text) => startProgress(deps.io, text),
    warn: (w) => {
      if (deps.collect !== undefined) deps.collect.push({ warning: w });
      else printWarning(deps.io.stderr, w);
    },
  };
}

/** kubectl's global flags, parsed. */
export interface GlobalArgs {
  readonly kubeconfig: string | undefined;
  readonly context: string | undefined;
  readonly cluster: string | undefined;
  readonly user: string | undefined;
  readonly namespace: string | undefined;
  readonly server: string | undefined;
  readonly token: string | undefined;
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly 'certificate-authority': string | undefined;
  readonly 'client-certificate': string | undefined;
  readonly 'client-key': string | undefined;
  readonly 'insecure-skip-tls-verify': boolean | undefined;
  readonly 'tls-server-name': string | undefined;
  readonly 'disable-compression': boolean | undefined;
  readonly as: string | undefined;
  readonly 'as-group': string[] | undefined;
  readonly 'as-uid': string | undefined;
  readonly 'request-timeout': string | undefined;
  readonly v: string | undefined;
  readonly output: string | undefined;
  readonly color: boolean;
  readonly 'stack-traces': boolean;
  readonly 'warnings-as-errors': boolean;
}

export function connectionFlags(args: GlobalArgs): ConnectionFlags {
  return {
    kubeconfig: args.kubeconfig,
    context: args.context,
    cluster: args.cluster,
    user: args.user,
    namespace: args.namespace,
    server: args.server,
    token: args.token,
    username: args.username,
    password: args.password,
    certificateAuthority: args['certificate-authority'],
    clientCertificate: args['client-certificate'],
    clientKey: args['client-key'],
    insecureSkipTlsVerify: args['insecure-skip-tls-verify'],
    tlsServerName: args['tls-server-name'],
    disableCompression: args['disable-compression'],
    as: args.as,
    asGroup: args['as-group'],
    asUid: args['as-uid'],
    requestTimeout: requestTimeoutOf(args),
    verbosity: parseVerbosity(args.v),
  };
}

/**
 * kubectl's -v / --v: klog's Level, any whole number that fits in 32 bits (strconv.ParseInt(value, 10, 32) in
 * kubernetes/klog's Level.Set). Levels below 6 log no requests; above 10 log as 10. Given twice, the last one wins.
 */
export function parseVerbosity(value: string | readonly string[] | undefined): number {
  const text = typeof value === 'string' || value === undefined ? value : value[value.length - 1];
  if (text === undefined) return 0;
  const level = /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(level) || level < -(2 ** 31) || level > 2 ** 31 - 1) {
    throw new UsageError(`invalid -v "${text}": expected a whole number (the log level)`, {
      hint: 'e.g. -v=6 logs every request; --stack-traces prints stack traces with errors',
    });
  }
  return level;
}

/** The --request-timeout text as given; given twice, the last one wins, as in kubectl. */
export function requestTimeoutOf(args: GlobalArgs): string | undefined {
  const raw = args['request-timeout'] as string | readonly string[] | undefined;
  return typeof raw === 'string' || raw === undefined ? raw : raw[raw.length - 1];
}
