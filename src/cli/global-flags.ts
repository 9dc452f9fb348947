import type { Argv } from 'yargs';
import type { GlobalArgs } from './context.js';
import { DEFAULT_MAX_INPUT_SIZE_TEXT } from './input-flags.js';

const CONNECTION_FLAGS = [
  'kubeconfig',
  'context',
  'cluster',
  'user',
  'namespace',
  'server',
  'token',
  'username',
  'password',
  'certificate-authority',
  'client-certificate',
  'client-key',
  'insecure-skip-tls-verify',
  'tls-server-name',
  'disable-compression',
  'as',
  'as-group',
  'as-uid',
  'request-timeout',
  'v',
];

/** kubectl's global flags and ours, on every command. */
export function withGlobalFlags(y: Argv): Argv<GlobalArgs> {
  return y
    .group(CONNECTION_FLAGS, 'Connection flags (as kubectl):')
    .option('kubeconfig', { type: 'string', describe: 'Path to the kubeconfig file', global: true })
    .option('context', { type: 'string', describe: 'The kubeconfig context to use', global: true })
    .option('cluster', { type: 'string', describe: 'The kubeconfig cluster to use', global: true })
    .option('user', { type: 'string', describe: 'The kubeconfig user to use', global: true })
    .option('namespace', { alias: 'n', type: 'string', describe: 'The namespace scope', global: true })
    .option('server', {
      alias: 's',
      type: 'string',
      describe: 'The address and port of the API server',
      global: true,
    })
    .option('token', {
      type: 'string',
      describe: 'Bearer token for authentication to the API server',
      global: true,
    })
    .option('username', { type: 'string', describe: 'Username for basic authentication', global: true })
    .option('password', { type: 'string', describe: 'Password for basic authentication', global: true })
    .option('certificate-authority', {
      type: 'string',
      describe: 'Path to a cert file for the certificate authority',
      global: true,
    })
    .option('client-certificate', {
      type: 'string',
      describe: 'Path to a client certificate file for TLS',
      global: true,
    })
    .option('client-key', { type: 'string', describe: 'Path to a client key file for TLS', global: true })
    .option('insecure-skip-tls-verify', {
      type: 'boolean',
      describe: "Do not check the server's certificate (insecure)",
      global: true,
    })
    .option('tls-server-name', {
      type: 'string',
      describe: 'Server name for certificate validation (default: the server host)',
      global: true,
    })
    .option('disable-compression', {
      type: 'boolean',
      describe: 'Do not ask the server for compressed responses',
      global: true,
    })
    .option('as', { type: 'string', describe: 'Username to impersonate for the operation', global: true })
    .option('as-group', {
      type: 'string',
      array: true,
      describe: 'Group to impersonate (repeatable)',
      global: true,
    })
    .option('as-uid', { type: 'string', describe: 'UID to impersonate for the operation', global: true })
    .option('request-timeout', {
      type: 'string',
      describe: 'Time to wait for one server request (e.g. 1s, 2m; 0 = no limit; default: 60s without data)',
      global: true,
    })
    .option('v', {
      type: 'string',
      describe: 'Log level: 6 logs each request, 7 its headers, 8 bodies (as kubectl -v)',
      global: true,
      requiresArg: true,
    })
    .option('output', {
      alias: 'o',
      type: 'string',
      describe: 'Output format (see each command)',
      global: true,
    })
    .option('color', {
      type: 'boolean',
      default: true,
      describe: 'Colour output (--no-color disables)',
      global: true,
    })
    .option('max-input-size', {
      type: 'string',
      describe: `The most bytes -f and --role-refs-file may read in all (e.g. 64Mi, 1Gi; default ${DEFAULT_MAX_INPUT_SIZE_TEXT})`,
      global: true,
    })
    .option('stack-traces', {
      type: 'boolean',
      default: false,
      describe: 'Print stack traces with errors (for bug reports)',
      global: true,
    });
}
