// The types of exec credential plugins (exec-credential.ts), shared by running (exec-credential-run.ts) and decoding
// (exec-credential-decode.ts): a leaf, so those two do not import exec-credential.ts, which imports them.

export type InteractiveMode = 'Never' | 'IfAvailable' | 'Always';

export interface ExecConfig {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
  /** client.authentication.k8s.io/v1 or client.authentication.k8s.io/v1beta1 */
  readonly apiVersion: string;
  readonly installHint: string | undefined;
  readonly provideClusterInfo: boolean;
  readonly interactiveMode: InteractiveMode;
}

/** The cluster as client-go's ExecCredential spec.cluster carries it (only sent when provideClusterInfo). */
export interface ExecClusterInfo {
  readonly server: string;
  readonly tlsServerName?: string | undefined;
  readonly insecureSkipTlsVerify?: boolean | undefined;
  readonly certificateAuthorityData?: Buffer | undefined;
  /** Only the kubeconfig's clusters[].cluster.proxy-url: client-go does not send proxies from the environment. */
  readonly proxyUrl?: string | undefined;
  readonly disableCompression?: boolean | undefined;
  /** clusters[].cluster.extensions entry named client.authentication.k8s.io/exec, passed as spec.cluster.config */
  readonly config?: unknown;
}

export interface ExecCredential {
  readonly token?: string | undefined;
  /** PEM */
  readonly clientCertificateData?: string | undefined;
  /** PEM */
  readonly clientKeyData?: string | undefined;
  /** ms since epoch; undefined = never expires (until the server answers 401) */
  readonly expiresAt?: number | undefined;
}

export interface ExecIo {
  /** The process environment the plugin inherits; its PATH is where a bare command is looked up. */
  readonly env: NodeJS.ProcessEnv;
  /** The terminal's stdin, given to interactive plugins (its file descriptor when it has one). */
  readonly stdin: NodeJS.ReadableStream;
  readonly stdinIsTTY: boolean;
  /** The plugin's stderr is passed through here (its file descriptor when it has one). */
  readonly stderr: NodeJS.WritableStream;
  readonly now: () => number;
  /**
   * Set when stdin is taken for something else (e.g. `-f -`), as kubectl does: an IfAvailable plugin then
   * runs non-interactively and an Always plugin fails with "standard input is unavailable: <message>".
   */
  readonly stdinUnavailable?: boolean | undefined;
  readonly stdinUnavailableMessage?: string | undefined;
}

/**
 * How long one run of a plugin may take before it is stopped (its process group killed); undefined: no limit
 * (--request-timeout=0). NAME says where the limit comes from, for the error: `--request-timeout 3s`, `60s`.
 */
export type ExecDeadline = { readonly ms: number; readonly name: string } | undefined;
