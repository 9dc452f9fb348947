import { UsageError } from '../../errors.js';
import type { ExecConfig } from './exec-credential.js';

/** kubectl's global connection flags, as parsed from the command line (undefined = not given). */
export interface ConnectionFlags {
  readonly kubeconfig?: string | undefined;
  readonly context?: string | undefined;
  readonly cluster?: string | undefined;
  readonly user?: string | undefined;
  readonly namespace?: string | undefined;
  readonly server?: string | undefined;
  readonly token?: string | undefined;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  readonly certificateAuthority?: string | undefined;
  readonly clientCertificate?: string | undefined;
  readonly clientKey?: string | undefined;
  readonly insecureSkipTlsVerify?: boolean | undefined;
  readonly tlsServerName?: string | undefined;
  readonly disableCompression?: boolean | undefined;
  readonly as?: string | undefined;
  readonly asUid?: string | undefined;
  readonly asGroup?: readonly string[] | undefined;
  readonly requestTimeout?: string | undefined;
  /** kubectl's -v level: 6 logs one line per request, 7 adds headers, 8 bodies (truncated), 9 and 10 more. */
  readonly verbosity?: number | undefined;
}

/** How requests are authenticated. Only ever used over TLS: kubectl sends no credentials to an http:// server. */
export type Credentials =
  | { readonly kind: 'none' }
  | { readonly kind: 'token'; readonly token: string }
  /** Read when the first request needs it, and again after a 401 (the file may have been rotated). */
  | { readonly kind: 'tokenFile'; readonly path: string }
  | { readonly kind: 'basic'; readonly username: string; readonly password: string }
  | { readonly kind: 'exec'; readonly exec: ExecConfig; readonly configDir: string | undefined };

export interface TlsConfig {
  readonly ca: Buffer | undefined;
  readonly cert: Buffer | undefined;
  readonly key: Buffer | undefined;
  readonly insecure: boolean;
  readonly serverName: string | undefined;
}

export interface Impersonation {
  readonly user: string | undefined;
  readonly uid: string | undefined;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

/** Everything needed to talk to one API server: the kubeconfig and the flags, resolved as kubectl resolves them. */
export interface RestConfig {
  /** The API server's URL, without a trailing slash. */
  readonly server: string;
  /** The context used, or '' when the flags alone named the server. */
  readonly contextName: string;
  readonly clusterName: string;
  readonly userName: string;
  /** -n, else the context's namespace, else "default". */
  readonly namespace: string;
  /** The kubeconfig files read, for messages. */
  readonly sources: readonly string[];
  readonly tls: TlsConfig;
  readonly credentials: Credentials;
  readonly impersonate: Impersonation;
  /** The cluster's proxy-url; when unset, HTTPS_PROXY / HTTP_PROXY / NO_PROXY decide. */
  readonly proxyUrl: string | undefined;
  readonly disableCompression: boolean;
  /** --request-timeout in milliseconds; undefined = not given (a default idle limit applies), 0 = none. */
  readonly requestTimeoutMs: number | undefined;
  /** clusters[].cluster.extensions["client.authentication.k8s.io/exec"], handed to exec plugins. */
  readonly execClusterConfig: unknown;
}

/**
 * Parses kubectl's --request-timeout: a bare number of seconds, or a Go duration such as 500ms, 30s, 1m30s, 1h;
 * 0 = none (undefined).
 */
export function parseRequestTimeout(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const text = value.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
  else if (/^((\d+(\.\d+)?|\.\d+)(ns|us|µs|ms|s|m|h))+$/.test(text)) {
    const factor: Readonly<Record<string, number>> = {
      ns: 1e-6,
      us: 1e-3,
      µs: 1e-3,
      ms: 1,
      s: 1000,
      m: 60_000,
      h: 3_600_000,
    };
    ms = 0;
    for (const part of text.matchAll(/(\d+(?:\.\d+)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) {
      ms += Number(part[1]) * (factor[part[2] ?? 's'] ?? 1000);
    }
  } else {
    throw new UsageError(`invalid --request-timeout "${value}"`, {
      hint: 'use a number of seconds or a duration such as 500ms, 30s, 1m30s (0 = no limit)',
    });
  }
  return ms === 0 ? undefined : ms;
}
