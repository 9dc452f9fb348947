import { UsageError } from '../errors.js';
import type { InputSource } from '../app/read-input.js';
import { connectionFlags, type GlobalArgs } from './context.js';

/** The -f/--filename value after parsing: one or more paths (repeat -f to read several). */
export type FromPaths = readonly string[];

/** The default of --max-input-size, as the flag spells it. */
export const DEFAULT_MAX_INPUT_SIZE_TEXT = '256Mi';

/** Where the command reads: -f (checked: every path names something), else the cluster of the connection flags. */
export function inputSource(args: GlobalArgs & { readonly filename?: FromPaths | undefined }): InputSource {
  const maxInputBytes = maxInputSize(args);
  return {
    ...(args.filename !== undefined ? { from: checkFromPaths(args.filename) } : {}),
    maxInputBytes,
    connection: connectionFlags(args),
  };
}

/** The -f values as a list (yargs gives a string, or an array when -f is repeated). */
function fromPathsOf(value: unknown): FromPaths {
  const values: unknown[] = Array.isArray(value) ? value : [value];
  return values.map((v) => (typeof v === 'string' ? v : ''));
}

/** Every -f value must name something: an empty one (`-f ''`) is a usage error. */
export function checkFromPaths(paths: FromPaths): FromPaths {
  return paths.map((v) => {
    if (v === '') {
      throw new UsageError('-f needs a path: a file, a directory, or - for standard input', {
        hint: 'e.g. -f examples/cluster, or kubectl get clusterroles -o yaml | kubectl crossplane-rbac explain admin -f -',
      });
    }
    return v;
  });
}

/** The -f/--filename option every reading command takes (as kubectl's -f; --from, its first name, still works). */
export const filenameOption = {
  alias: ['f', 'from'],
  type: 'string',
  describe: 'Read objects from a file, a directory or - (stdin) instead of a cluster (repeatable)',
  coerce: fromPathsOf,
} as const;

/** The global --max-input-size flag (app.ts) as yargs hands it over: a string, or several when repeated. */
interface MaxInputSizeArg {
  readonly 'max-input-size'?: string | readonly string[] | undefined;
}

/** --max-input-size in bytes (the last one given wins, as for other flags); the default when absent. */
export function maxInputSize(args: GlobalArgs): number {
  const raw = (args as GlobalArgs & MaxInputSizeArg)['max-input-size'];
  const value = typeof raw === 'string' || raw === undefined ? raw : raw[raw.length - 1];
  return parseSize('max-input-size', value ?? DEFAULT_MAX_INPUT_SIZE_TEXT);
}

const UNITS: Readonly<Record<string, number>> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
};

/** Parses a size as Kubernetes writes quantities (`256Mi`, `1Gi`, `500M`, `1048576`) into bytes. */
export function parseSize(flag: string, value: unknown): number {
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  const m = /^(\d+(?:\.\d+)?)(k|M|G|Ki|Mi|Gi)?$/.exec(text);
  const bytes = m === null ? NaN : Math.floor(Number(m[1]) * (UNITS[m[2] ?? ''] ?? NaN));
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new UsageError(
      `invalid --${flag} ${JSON.stringify(Array.isArray(value) ? value.join(' ') : text)}: expected a size such as 256Mi, 1Gi or 500000 (bytes)`,
      { hint: 'units: Ki, Mi, Gi (powers of 1024) or k, M, G (powers of 1000); no unit means bytes' },
    );
  }
  return bytes;
}
