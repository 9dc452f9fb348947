// How a request authenticates, for transport.ts: the kubeconfig user's token, token file, basic credentials or
// exec credential plugin (run once and shared, run again after a 401), as kubectl sends them.
import { ExecCredentialProvider } from './exec-credential.js';
import type { ExecCredential, ExecDeadline, ExecIo } from './exec-credential-types.js';
import { readTokenFile } from './http-answer.js';
import type { RestConfig } from './rest-config.js';

/** The credentials of one run: the Authorization header of each request, refreshed once after a 401. */
export class RequestAuth {
  private readonly exec: ExecCredentialProvider | undefined;
  private tokenFromFile: string | undefined;

  /**
   * SECURE: the server is https (kubectl sends no credentials over plain http); DEADLINE: how long the exec plugin
   * may run.
   */
  constructor(
    private readonly config: RestConfig,
    execIo: ExecIo,
    private readonly secure: boolean,
    deadline: ExecDeadline,
  ) {
    const creds = config.credentials;
    this.exec =
      creds.kind === 'exec' && this.secure
        ? new ExecCredentialProvider(creds.exec, {
            configDir: creds.configDir,
            userName: config.userName,
            io: execIo,
            deadline,
            cluster: creds.exec.provideClusterInfo
              ? {
                  server: config.server,
                  tlsServerName: config.tls.serverName,
                  insecureSkipTlsVerify: config.tls.insecure,
                  certificateAuthorityData: config.tls.ca,
                  proxyUrl: config.proxyUrl,
                  disableCompression: config.disableCompression,
                  config: config.execClusterConfig,
                }
              : undefined,
          })
        : undefined;
  }

  /** The Authorization header to send, and the exec credential it came from. Never over plain http, as kubectl. */
  async authorization(): Promise<{
    header: string | undefined;
    credential: ExecCredential | undefined;
  }> {
    if (!this.secure) return { header: undefined, credential: undefined };
    const creds = this.config.credentials;
    switch (creds.kind) {
      case 'token':
        return { header: `Bearer ${creds.token}`, credential: undefined };
      case 'tokenFile':
        this.tokenFromFile ??= readTokenFile(creds.path);
        return { header: `Bearer ${this.tokenFromFile}`, credential: undefined };
      case 'basic':
        return {
          header: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
          credential: undefined,
        };
      case 'exec': {
        const credential = await this.requireExec().get();
        return {
          header: credential.token !== undefined ? `Bearer ${credential.token}` : undefined,
          credential,
        };
      }
      case 'none':
        return { header: undefined, credential: undefined };
    }
  }

  private requireExec(): ExecCredentialProvider {
    if (this.exec === undefined) throw new Error('exec credentials without a provider');
    return this.exec;
  }

  /** After a 401: re-reads a token file or re-runs the exec plugin once; true when there is something new to try. */
  async refreshAfterUnauthorized(used: ExecCredential | undefined): Promise<boolean> {
    const creds = this.config.credentials;
    if (creds.kind === 'tokenFile' && this.secure) {
      const before = this.tokenFromFile;
      this.tokenFromFile = readTokenFile(creds.path);
      return this.tokenFromFile !== before;
    }
    if (creds.kind === 'exec' && used !== undefined && this.exec !== undefined) {
      const fresh = await this.exec.refreshAfterUnauthorized(used);
      return fresh !== used;
    }
    return false;
  }
}
