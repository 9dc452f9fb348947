// Interim version: replaced by the full client-go compatible module (single flight, expiry, interactive mode).
import { execFile } from 'node:child_process';
import { UserError } from '../errors.js';

export type InteractiveMode = 'Never' | 'IfAvailable' | 'Always';
export interface ExecConfig {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
  readonly apiVersion: string;
  readonly installHint: string | undefined;
  readonly provideClusterInfo: boolean;
  readonly interactiveMode: InteractiveMode;
}
export interface ExecClusterInfo {
  readonly server: string;
  readonly tlsServerName?: string | undefined;
  readonly insecureSkipTlsVerify?: boolean | undefined;
  readonly certificateAuthorityData?: Buffer | undefined;
  readonly proxyUrl?: string | undefined;
  readonly disableCompression?: boolean | undefined;
  readonly config?: unknown;
}
export interface ExecCredential {
  readonly token?: string | undefined;
  readonly clientCertificateData?: string | undefined;
  readonly clientKeyData?: string | undefined;
  readonly expiresAt?: number | undefined;
}
export interface ExecIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: NodeJS.ReadableStream;
  readonly stdinIsTTY: boolean;
  readonly stderr: NodeJS.WritableStream;
  readonly now: () => number;
}

export function parseExecConfig(raw: unknown, userName: string): ExecConfig {
  const r = raw as Record<string, unknown>;
  if (typeof r.command !== 'string') throw new UserError(`user "${userName}": exec has no command`);
  return {
    command: r.command,
    args: Array.isArray(r.args) ? (r.args as string[]) : [],
    env: Array.isArray(r.env) ? (r.env as { name: string; value: string }[]) : [],
    apiVersion: typeof r.apiVersion === 'string' ? r.apiVersion : '',
    installHint: typeof r.installHint === 'string' ? r.installHint : undefined,
    provideClusterInfo: r.provideClusterInfo === true,
    interactiveMode: 'Never',
  };
}

export class ExecCredentialProvider {
  private pending: Promise<ExecCredential> | undefined;
  constructor(
    private readonly config: ExecConfig,
    private readonly opts: {
      readonly configDir: string | undefined;
      readonly cluster: ExecClusterInfo | undefined;
      readonly io: ExecIo;
      readonly userName: string;
    },
  ) {}
  get(): Promise<ExecCredential> {
    this.pending ??= new Promise((resolve, reject) => {
      execFile(this.config.command, [...this.config.args], { env: this.opts.io.env }, (err, stdout) => {
        if (err !== null) {
          reject(new UserError(`exec plugin ${this.config.command} failed: ${err.message}`));
          return;
        }
        const out = JSON.parse(stdout) as { status?: { token?: string } };
        resolve({ token: out.status?.token });
      });
    });
    return this.pending;
  }
  refreshAfterUnauthorized(_used: ExecCredential): Promise<ExecCredential> {
    return this.get();
  }
}
