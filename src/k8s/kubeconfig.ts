import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { parse, stringify } from 'yaml';
import { UserError } from '../errors.js';

/** kubectl's connection flags (--kubeconfig, --context, --cluster, --user, ...), spelled as kubectl does. */
export interface ConnectionFlags {
  readonly kubeconfig?: string | undefined;
  readonly context?: string | undefined;
  readonly cluster?: string | undefined;
  readonly user?: string | undefined;
  readonly namespace?: string | undefined;
  readonly as?: string | undefined;
  readonly asGroup?: readonly string[] | undefined;
  readonly requestTimeout?: string | undefined;
}

export interface LoadedKubeconfig {
  readonly kubeConfig: KubeConfig;
  readonly contextName: string;
  readonly namespace: string;
  readonly server: string;
  /** Where the configuration came from, for error messages. */
  readonly sources: readonly string[];
}

type RawNamed = { name?: unknown; [key: string]: unknown };
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

/**
 * Loads the kubeconfig the way kubectl does: `--kubeconfig` alone, else every file of `KUBECONFIG` merged with the
 * first definition of each name winning (current-context from the first file that sets it), else ~/.kube/config.
 * Never falls back to an unauthenticated localhost server.
 */
export function loadKubeconfig(
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv = process.env,
): LoadedKubeconfig {
  const files = kubeconfigFiles(flags, env);
  const merged: RawKubeconfig = { clusters: [], users: [], contexts: [] };
  for (const file of files) mergeFirstWins(merged, readRaw(file));

  const contextName = flags.context ?? merged['current-context'];
  if (contextName === undefined || contextName === '') {
    throw new UserError(`no current context is set in ${files.join(delimiter)}`, {
      hint: 'pass --context NAME, or run: kubectl config use-context NAME',
    });
  }
  const context = findNamed(merged.contexts, contextName);
  if (context === undefined) {
    throw new UserError(`context "${contextName}" does not exist in ${files.join(delimiter)}`, {
      hint: `known contexts: ${names(merged.contexts).join(', ') || '(none)'}`,
    });
  }
  const ctx = (context.context ?? {}) as Record<string, unknown>;
  const clusterName = flags.cluster ?? asString(ctx.cluster);
  const userName = flags.user ?? asString(ctx.user);
  if (clusterName === undefined || findNamed(merged.clusters, clusterName) === undefined) {
    throw new UserError(
      `cluster "${clusterName ?? ''}" of context "${contextName}" does not exist in the kubeconfig`,
      {
        hint: `known clusters: ${names(merged.clusters).join(', ') || '(none)'}`,
      },
    );
  }
  if (userName !== undefined && userName !== '' && findNamed(merged.users, userName) === undefined) {
    throw new UserError(`user "${userName}" of context "${contextName}" does not exist in the kubeconfig`, {
      hint: `known users: ${names(merged.users).join(', ') || '(none)'}`,
    });
  }
  const namespace = flags.namespace ?? asString(ctx.namespace) ?? 'default';
  const effective: RawKubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: (merged.clusters ?? []).map(allowPlainHttp),
    users:
      userName === undefined || userName === ''
        ? [{ name: '', user: {} }, ...(merged.users ?? [])]
        : (merged.users ?? []),
    contexts: [{ name: contextName, context: { cluster: clusterName, user: userName ?? '', namespace } }],
    'current-context': contextName,
  };
  const kubeConfig = new KubeConfig();
  try {
    kubeConfig.loadFromString(stringify(effective));
  } catch (err) {
    throw new UserError(`invalid kubeconfig ${files.join(delimiter)}: ${errorMessage(err)}`, {
      hint: 'check it with: kubectl config view',
      cause: err,
    });
  }
  const server = kubeConfig.getCurrentCluster()?.server ?? '';
  if (server === '') {
    throw new UserError(`cluster "${clusterName}" has no server in the kubeconfig`, {
      hint: 'set clusters[].cluster.server, e.g. with kubectl config set-cluster',
    });
  }
  return { kubeConfig, contextName, namespace, server, sources: files };
}

function kubeconfigFiles(flags: ConnectionFlags, env: NodeJS.ProcessEnv): string[] {
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
    if (present.length === 0) {
      throw new UserError(
        `no kubeconfig found: none of the files in KUBECONFIG exists (${listed.join(delimiter)})`,
        {
          hint: 'point KUBECONFIG or --kubeconfig at a kubeconfig file',
        },
      );
    }
    return [...new Set(present)];
  }
  const home = env.HOME ?? homedir();
  const file = join(home, '.kube', 'config');
  if (!existsSync(file)) {
    throw new UserError(`no kubeconfig found: ${file} does not exist and KUBECONFIG is not set`, {
      hint: 'set KUBECONFIG or pass --kubeconfig; to work without a cluster, pass -f PATH',
    });
  }
  return [file];
}

function readRaw(file: string): RawKubeconfig {
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UserError(`invalid kubeconfig ${file}: ${errorMessage(err)}`, {
      hint: 'check it with: kubectl config view',
      cause: err,
    });
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw new UserError(`invalid kubeconfig ${file}: not a YAML mapping`, {
      hint: 'check it with: kubectl config view',
    });
  }
  const raw = doc as RawKubeconfig;
  const base = dirname(resolve(file));
  // Relative file references are relative to the file that names them, as in kubectl.
  for (const [list, key] of [
    [raw.clusters, 'cluster'],
    [raw.users, 'user'],
  ] as const) {
    for (const entry of Array.isArray(list) ? list : []) {
      const body = entry[key];
      if (body === null || typeof body !== 'object') continue;
      const fields = body as Record<string, unknown>;
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

/**
 * kubectl talks to an http:// server (without TLS, so nothing to verify); client-node refuses one unless
 * insecure-skip-tls-verify is set, which means nothing for plain http. Set it for http:// servers only.
 */
function allowPlainHttp(entry: RawNamed): RawNamed {
  const cluster = entry.cluster as Record<string, unknown> | undefined;
  if (cluster === undefined || typeof cluster.server !== 'string' || !cluster.server.startsWith('http://'))
    return entry;
  return { ...entry, cluster: { ...cluster, 'insecure-skip-tls-verify': true } };
}

function findNamed(list: readonly RawNamed[] | undefined, name: string): RawNamed | undefined {
  return list?.find((e) => e.name === name);
}

function names(list: readonly RawNamed[] | undefined): string[] {
  return (list ?? []).map((e) => asString(e.name)).filter((n): n is string => n !== undefined);
}

function asString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
}

/** Parses kubectl's --request-timeout: a bare number of seconds, or a duration like 500ms, 30s, 1m, 1h; 0 = none. */
export function parseRequestTimeout(value: string | undefined): number | undefined {
  if (value === undefined || value === '' || value === '0') return undefined;
  const parts = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (parts === null) {
    throw new UserError(`invalid --request-timeout "${value}"`, {
      hint: 'use a number of seconds or a duration such as 500ms, 30s, 1m',
    });
  }
  const n = Number(parts[1]);
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[parts[2] ?? 's'] ?? 1000;
  const ms = n * factor;
  return ms === 0 ? undefined : ms;
}
