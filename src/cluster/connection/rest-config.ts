import type { ExecConfig } from './exec-credential-types.js';

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

/** Where the namespace of a run came from: -n, the kubeconfig context, or neither (then "default"). */
export type NamespaceSource = 'flag' | 'context' | 'default';

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
  /** Where `namespace` came from: -n, the context, or neither ("default"). */
  readonly namespaceSource?: NamespaceSource;
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
