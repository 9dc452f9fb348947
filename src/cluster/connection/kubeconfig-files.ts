// The kubeconfig files kubectl reads (--kubeconfig, else KUBECONFIG's list, else ~/.kube/config) and how it merges
// them, for kubeconfig.ts: relative paths resolved against the file that names them, the first definition of each
// name winning.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { UserError } from '../../errors.js';
import { asString, errorMessage, findNamed, nonEmpty, type Raw, type RawNamed } from './kubeconfig-values.js';
import type { ConnectionFlags } from '../../port/connection-flags.js';

interface RawKubeconfig {
  clusters?: RawNamed[];
  users?: RawNamed[];
  contexts?: RawNamed[];
  'current-context'?: string;
  [key: string]: unknown;
}

const PATH_FIELDS: Readonly<Record<'cluster' | 'user', readonly string[]>> = {
  cluster: ['certificate-authority'],
  user: ['client-certificate', 'client-key', 'tokenFile'],
};

/** The folder of the file each entry came from: exec plugins' relative commands are resolved against it. */
const originDirs = new WeakMap<object, string>();

export const KUBECONFIG_HINT = 'check it with: kubectl config view';

/** The files kubectl would read, and their entries merged (first definition wins). */
export function readKubeconfig(
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv,
): { files: string[]; merged: RawKubeconfig } {
  const files = kubeconfigFiles(flags, env);
  const merged: RawKubeconfig = { clusters: [], users: [], contexts: [] };
  for (const file of files) mergeFirstWins(merged, readRaw(file));
  return { files, merged };
}

/** The folder of the file a cluster or user ENTRY of the merged kubeconfig came from. */
export function originDir(entry: object): string | undefined {
  return originDirs.get(entry);
}

function kubeconfigFiles(flags: ConnectionFlags, env: NodeJS.ProcessEnv): string[] {
  const serverGiven = nonEmpty(flags.server) !== undefined;
  if (flags.kubeconfig !== undefined && flags.kubeconfig !== '') {
    if (!existsSync(flags.kubeconfig)) {
      throw new UserError(`kubeconfig file ${flags.kubeconfig} (from --kubeconfig) does not exist`, {
        hint: 'pass the path of an existing kubeconfig file',
      });
    }
    return [flags.kubeconfig];
  }
  const fromEnv = env.KUBECONFIG;
  if (fromEnv !== undefined && fromEnv !== '') {
    const listed = fromEnv.split(delimiter).filter((p) => p !== '');
    const present = listed.filter((p) => existsSync(p));
    if (present.length === 0 && !serverGiven) {
      throw new UserError(
        `no kubeconfig found: none of the files in KUBECONFIG exists (${listed.join(delimiter)})`,
        { hint: 'point KUBECONFIG or --kubeconfig at a kubeconfig file, or pass --server' },
      );
    }
    return [...new Set(present)];
  }
  const home = env.HOME ?? homedir();
  const file = join(home, '.kube', 'config');
  if (existsSync(file)) return [file];
  if (serverGiven) return [];
  throw new UserError(`no kubeconfig found: ${file} does not exist and KUBECONFIG is not set`, {
    hint: 'set KUBECONFIG, pass --kubeconfig or --server; to work without a cluster, pass -f PATH',
  });
}

/**
 * The kubeconfig files parsed in this process, by path, with the text each was parsed from: a run across contexts
 * connects once per context, and parsing (not reading) is the cost. A file whose text changed is parsed again.
 */
const parsedFiles = new Map<string, { readonly text: string; readonly raw: RawKubeconfig }>();

function readRaw(file: string): RawKubeconfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UserError(`invalid kubeconfig ${file}: ${errorMessage(err)}`, {
      hint: KUBECONFIG_HINT,
      cause: err,
    });
  }
  const key = resolve(file);
  const known = parsedFiles.get(key);
  if (known?.text === text) return known.raw;
  const raw = parseRaw(file, text);
  parsedFiles.set(key, { text, raw });
  return raw;
}

/** FILE's TEXT as a kubeconfig, its relative file references made relative to FILE. Nothing changes it after. */
function parseRaw(file: string, text: string): RawKubeconfig {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new UserError(`invalid kubeconfig ${file}: ${errorMessage(err)}`, {
      hint: KUBECONFIG_HINT,
      cause: err,
    });
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw new UserError(`invalid kubeconfig ${file}: not a YAML mapping`, { hint: KUBECONFIG_HINT });
  }
  const raw = doc as RawKubeconfig;
  const base = dirname(resolve(file));
  // Relative file references are relative to the file that names them, as in kubectl.
  for (const [list, key] of [
    [raw.clusters, 'cluster'],
    [raw.users, 'user'],
  ] as const) {
    for (const entry of Array.isArray(list) ? list : []) {
      if (entry === null || typeof entry !== 'object') continue;
      originDirs.set(entry, base);
      const body = entry[key];
      if (body === null || typeof body !== 'object') continue;
      const fields = body as Raw;
      for (const field of PATH_FIELDS[key]) {
        const value = fields[field];
        if (typeof value === 'string' && value !== '' && !isAbsolute(value))
          fields[field] = join(base, value);
      }
    }
  }
  return raw;
}

function mergeFirstWins(into: RawKubeconfig, from: RawKubeconfig): void {
  for (const key of ['clusters', 'users', 'contexts'] as const) {
    const target = into[key] ?? [];
    const list = from[key];
    for (const entry of Array.isArray(list) ? list : []) {
      if (entry === null || typeof entry !== 'object') continue;
      const name = asString(entry.name);
      if (name !== undefined && findNamed(target, name) === undefined) target.push(entry);
    }
    into[key] = target;
  }
  const current = from['current-context'];
  if (
    (into['current-context'] === undefined || into['current-context'] === '') &&
    typeof current === 'string'
  ) {
    into['current-context'] = current;
  }
}
