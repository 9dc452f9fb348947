import type { Argv, Options } from 'yargs';
import type { GlobalArgs } from './context.js';
import { DEFAULT_MAX_INPUT_SIZE_TEXT } from './input-flags.js';

/** A flag every command takes. */
interface GlobalFlag {
  readonly name: string;
  readonly alias?: string;
  readonly type: 'string' | 'boolean';
  readonly describe: string;
  readonly array?: true;
  readonly default?: boolean;
  readonly requiresArg?: true;
}

/**
 * The flags every command takes beyond its own: how to reach the cluster (kubectl's, spelt as kubectl spells them)
 * and the plugin-wide ones. A command's --help leaves them out and names `options`, which lists them, as kubectl does
 * with its own (`kubectl options`).
 */
export const GLOBAL_FLAGS: readonly GlobalFlag[] = [
  { name: 'kubeconfig', type: 'string', describe: 'Path to the kubeconfig file' },
  { name: 'context', type: 'string', describe: 'The kubeconfig context to use' },
  { name: 'cluster', type: 'string', describe: 'The kubeconfig cluster to use' },
  { name: 'user', type: 'string', describe: 'The kubeconfig user to use' },
  { name: 'namespace', alias: 'n', type: 'string', describe: 'The namespace scope' },
  { name: 'server', alias: 's', type: 'string', describe: 'The address and port of the API server' },
  { name: 'token', type: 'string', describe: 'Bearer token for authentication to the API server' },
  { name: 'username', type: 'string', describe: 'Username for basic authentication' },
  { name: 'password', type: 'string', describe: 'Password for basic authentication' },
  {
    name: 'certificate-authority',
    type: 'string',
    describe: 'Path to a cert file for the certificate authority',
  },
  { name: 'client-certificate', type: 'string', describe: 'Path to a client certificate file for TLS' },
  { name: 'client-key', type: 'string', describe: 'Path to a client key file for TLS' },
  {
    name: 'insecure-skip-tls-verify',
    type: 'boolean',
    describe: "Do not check the server's certificate (insecure)",
  },
  {
    name: 'tls-server-name',
    type: 'string',
    describe: 'Server name for certificate validation (default: the server host)',
  },
  {
    name: 'disable-compression',
    type: 'boolean',
    describe: 'Do not ask the server for compressed responses',
  },
  { name: 'as', type: 'string', describe: 'Username to impersonate for the operation' },
  { name: 'as-group', type: 'string', array: true, describe: 'Group to impersonate (repeatable)' },
  { name: 'as-uid', type: 'string', describe: 'UID to impersonate for the operation' },
  {
    name: 'request-timeout',
    type: 'string',
    describe: 'Time to wait for one server request (e.g. 1s, 2m; 0 = no limit; default: 60s without data)',
  },
  {
    name: 'v',
    type: 'string',
    requiresArg: true,
    describe: 'Log level: 6 logs each request, 7 its headers, 8 bodies (as kubectl -v)',
  },
  { name: 'color', type: 'boolean', default: true, describe: 'Colour output (--no-color disables)' },
  {
    name: 'max-input-size',
    type: 'string',
    describe: `The most bytes -f and --role-refs-file may read in all (e.g. 64Mi, 1Gi; default ${DEFAULT_MAX_INPUT_SIZE_TEXT})`,
  },
  {
    name: 'warnings-as-errors',
    type: 'boolean',
    default: false,
    describe: 'Treat warnings received from the server as errors and exit with a non-zero exit code',
  },
  {
    name: 'stack-traces',
    type: 'boolean',
    default: false,
    describe: 'Print stack traces with errors (for bug reports)',
  },
];

/** kubectl's global flags and ours, on every command: listed by `options`, not by each command's --help. */
export function withGlobalFlags(y: Argv): Argv<GlobalArgs> {
  let out = y;
  for (const flag of GLOBAL_FLAGS) {
    const { name, ...rest } = flag;
    const option: Options = { ...rest, global: true, hidden: true };
    out = out.option(name, option);
  }
  // GlobalArgs (context.ts) lists these flags with their types; yargs cannot infer them through a loop.
  return out.option('output', {
    alias: 'o',
    type: 'string',
    describe: 'Output format (see each command)',
    global: true,
  }) as unknown as Argv<GlobalArgs>;
}

/**
 * What `options` prints: every flag of GLOBAL_FLAGS as kubectl's `options` prints its own (a heading, then each flag
 * with its default and its description on an indented line below).
 */
export function formatOptions(): string {
  const lines = ['The following options can be passed to any command:', ''];
  for (const flag of GLOBAL_FLAGS) {
    const long = `--${flag.name}`;
    const names =
      flag.alias !== undefined
        ? `-${flag.alias}, ${long}`
        : flag.name.length === 1
          ? `-${flag.name}, ${long}`
          : long;
    const value = flag.type === 'boolean' ? String(flag.default ?? false) : flag.array === true ? '[]' : "''";
    lines.push(`    ${names}=${value}:`, `\t${flag.describe}`, '');
  }
  return lines.join('\n');
}
