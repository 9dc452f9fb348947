import {
  asRecord,
  asString,
  errorMessage,
  findNamed,
  names,
  nonEmpty,
  stringList,
  type Raw,
} from './kubeconfig-values.js';
import { readFileSync } from 'node:fs';
import { delimiter } from 'node:path';
import { UsageError, UserError } from '../../errors.js';
import { parseExecConfig } from './exec-credential.js';
import { KUBECONFIG_HINT, originDir, readKubeconfig } from './kubeconfig-files.js';
import { checkClientKeyPair, decodeDataField } from './tls-material.js';
import { parseRequestTimeout, type ConnectionFlags } from '../../port/connection-flags.js';
import { type Credentials, type Impersonation, type RestConfig, type TlsConfig } from './rest-config.js';

/** The context names of the kubeconfig kubectl would read (files merged, first definition wins), in file order. */
export function contextNames(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): string[] {
  return names(readKubeconfig(flags, env).merged.contexts);
}

/**
 * Resolves the kubeconfig and the connection flags into one RestConfig, the way kubectl does: `--kubeconfig` alone,
 * else every file of `KUBECONFIG` merged with the first definition of each name winning (current-context from the
 * first file that sets it), else ~/.kube/config; flags override the file; `--server` works with no kubeconfig at
 * all. Only the entries the chosen context uses are validated. Never falls back to an unauthenticated localhost.
 */
export function loadKubeconfig(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): RestConfig {
  const { files, merged } = readKubeconfig(flags, env);
  const where = files.length > 0 ? files.join(delimiter) : 'the flags (no kubeconfig file)';

  const contextName = nonEmpty(flags.context) ?? nonEmpty(merged['current-context']) ?? '';
  let ctx: Raw = {};
  if (contextName === '') {
    if (nonEmpty(flags.server) === undefined) {
      throw new UserError(`no current context is set in ${where}`, {
        hint: 'pass --context NAME, or run: kubectl config use-context NAME',
      });
    }
  } else {
    const context = findNamed(merged.contexts, contextName);
    if (context === undefined) {
      throw new UserError(`context "${contextName}" does not exist in ${where}`, {
        hint: `known contexts: ${names(merged.contexts).join(', ') || '(none)'}`,
      });
    }
    ctx = asRecord(context.context);
  }

  const clusterName = nonEmpty(flags.cluster) ?? asString(ctx.cluster) ?? '';
  const clusterEntry = clusterName === '' ? undefined : findNamed(merged.clusters, clusterName);
  if (
    clusterEntry === undefined &&
    (nonEmpty(flags.cluster) !== undefined || nonEmpty(flags.server) === undefined)
  ) {
    throw new UserError(
      `cluster "${clusterName}" of context "${contextName}" does not exist in the kubeconfig`,
      { hint: `known clusters: ${names(merged.clusters).join(', ') || '(none)'}` },
    );
  }
  const cluster = asRecord(clusterEntry?.cluster);

  const userName = nonEmpty(flags.user) ?? asString(ctx.user) ?? '';
  const userEntry = userName === '' ? undefined : findNamed(merged.users, userName);
  if (userName !== '' && userEntry === undefined) {
    throw new UserError(`user "${userName}" of context "${contextName}" does not exist in the kubeconfig`, {
      hint: `known users: ${names(merged.users).join(', ') || '(none)'}`,
    });
  }
  const user = asRecord(userEntry?.user);

  const tls = tlsConfig(cluster, user, flags, clusterName, userName);
  const server = serverUrl(nonEmpty(flags.server) ?? asString(cluster.server), clusterName, tls);
  const proxyUrl = nonEmpty(asString(cluster['proxy-url']));
  if (proxyUrl !== undefined) checkProxyUrl(proxyUrl, clusterName);
  const timeout = parseRequestTimeout(flags.requestTimeout);
  return {
    server,
    contextName,
    clusterName,
    userName,
    namespace: nonEmpty(flags.namespace) ?? nonEmpty(asString(ctx.namespace)) ?? 'default',
    namespaceSource:
      nonEmpty(flags.namespace) !== undefined
        ? 'flag'
        : nonEmpty(asString(ctx.namespace)) !== undefined
          ? 'context'
          : 'default',
    sources: files,
    tls,
    credentials: credentials(
      user,
      userName,
      flags,
      userEntry === undefined ? undefined : originDir(userEntry),
    ),
    impersonate: impersonation(user, flags),
    proxyUrl,
    disableCompression: flags.disableCompression === true || cluster['disable-compression'] === true,
    requestTimeoutMs: flags.requestTimeout === undefined ? undefined : (timeout ?? 0),
    execClusterConfig: execExtension(cluster),
  };
}

function tlsConfig(
  cluster: Raw,
  user: Raw,
  flags: ConnectionFlags,
  clusterName: string,
  userName: string,
): TlsConfig {
  const insecure = flags.insecureSkipTlsVerify ?? cluster['insecure-skip-tls-verify'] === true;
  const caFlag = nonEmpty(flags.certificateAuthority);
  // As in kubectl: --insecure-skip-tls-verify on the command line, with no CA given there, drops the file's CA.
  const dropFileCa = flags.insecureSkipTlsVerify === true && caFlag === undefined;
  const ca = dropFileCa
    ? undefined
    : caFlag !== undefined
      ? readPem(caFlag, 'certificate-authority', `cluster "${clusterName}"`)
      : dataOrFile(cluster, 'certificate-authority', `cluster "${clusterName}"`);
  if (insecure && ca !== undefined) {
    throw new UserError(
      `cluster "${clusterName}" sets both a certificate authority and insecure-skip-tls-verify`,
      { hint: 'kubectl refuses this too: remove one of them' },
    );
  }
  const certFlag = nonEmpty(flags.clientCertificate);
  const keyFlag = nonEmpty(flags.clientKey);
  const cert =
    certFlag !== undefined
      ? readPem(certFlag, 'client-certificate', `cluster "${clusterName}"`)
      : dataOrFile(user, 'client-certificate', `user "${userName}"`);
  const key =
    keyFlag !== undefined
      ? readPem(keyFlag, 'client-key', `cluster "${clusterName}"`)
      : dataOrFile(user, 'client-key', `user "${userName}"`);
  if ((cert === undefined) !== (key === undefined)) {
    throw new UserError(`a client certificate needs its key, and a key its certificate`, {
      hint: 'set both client-certificate and client-key (or --client-certificate and --client-key)',
    });
  }
  // client-go checks the pair when it builds the transport (tls.X509KeyPair), before any request; so does the plugin,
  // files included, so that a pair it cannot use is one error line rather than a failed TLS handshake.
  if (cert !== undefined && key !== undefined) {
    const fromFlags = certFlag !== undefined || keyFlag !== undefined;
    checkClientKeyPair(
      cert,
      key,
      fromFlags ? 'given by --client-certificate and --client-key' : `of user "${userName}"`,
    );
  }
  return {
    ca,
    cert,
    key,
    insecure,
    serverName: nonEmpty(flags.tlsServerName) ?? nonEmpty(asString(cluster['tls-server-name'])),
  };
}

/** FIELD-data (base64, decoded as kubectl decodes it when it loads the file), else the file FIELD names. */
function dataOrFile(body: Raw, field: string, owner: string): Buffer | undefined {
  const data = nonEmpty(asString(body[`${field}-data`]));
  if (data !== undefined) return decodeDataField(data, field, owner);
  const file = nonEmpty(asString(body[field]));
  return file === undefined ? undefined : readPem(file, field, owner);
}

function readPem(file: string, field: string, owner: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new UserError(`cannot read ${field} ${file} for ${owner}: ${errorMessage(err)}`, {
      hint: KUBECONFIG_HINT,
      cause: err,
    });
  }
}

function serverUrl(value: string | undefined, clusterName: string, tls: TlsConfig): string {
  if (value === undefined || value === '') {
    throw new UserError(`cluster "${clusterName}" has no server in the kubeconfig`, {
      hint: 'set clusters[].cluster.server (kubectl config set-cluster), or pass --server',
    });
  }
  // Like client-go: a server without a scheme is https when TLS is configured, else http.
  const tlsConfigured = tls.ca !== undefined || tls.cert !== undefined || tls.insecure;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value)
    ? value
    : `${tlsConfigured ? 'https' : 'http'}://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`invalid server address "${value}"`, {
      hint: 'use a URL such as https://host:6443',
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`invalid server address "${value}": the scheme must be https or http`, {
      hint: 'use a URL such as https://host:6443',
    });
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function checkProxyUrl(value: string, clusterName: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || !['http:', 'https:', 'socks5:'].includes(url.protocol)) {
    throw new UserError(`invalid proxy-url "${value}" of cluster "${clusterName}"`, {
      hint: 'kubectl accepts http://, https:// and socks5:// proxy URLs',
    });
  }
}

function credentials(
  user: Raw,
  userName: string,
  flags: ConnectionFlags,
  configDir: string | undefined,
): Credentials {
  const token = nonEmpty(flags.token) ?? nonEmpty(asString(user.token));
  const tokenFile = nonEmpty(flags.token) === undefined ? nonEmpty(asString(user.tokenFile)) : undefined;
  const username = nonEmpty(flags.username) ?? nonEmpty(asString(user.username));
  const password = nonEmpty(flags.password) ?? asString(user.password) ?? '';
  if ((token !== undefined || tokenFile !== undefined) && username !== undefined) {
    throw new UserError(`user "${userName}" sets both a bearer token and a username/password`, {
      hint: 'kubectl refuses this too: keep one of them',
    });
  }
  if (token !== undefined) return { kind: 'token', token };
  if (tokenFile !== undefined) return { kind: 'tokenFile', path: tokenFile };
  if (username !== undefined) return { kind: 'basic', username, password };
  const hasClientCert =
    nonEmpty(flags.clientCertificate) !== undefined ||
    nonEmpty(asString(user['client-certificate'])) !== undefined ||
    nonEmpty(asString(user['client-certificate-data'])) !== undefined;
  // client-go skips the exec plugin when the user already authenticates with a token, basic auth or a certificate.
  if (user.exec !== undefined && user.exec !== null && !hasClientCert) {
    return { kind: 'exec', exec: parseExecConfig(user.exec, userName), configDir };
  }
  const provider = asRecord(user['auth-provider']);
  const providerName = asString(provider.name);
  if (providerName !== undefined) {
    const idToken = nonEmpty(asString(asRecord(provider.config)['id-token']));
    if (providerName === 'oidc' && idToken !== undefined) return { kind: 'token', token: idToken };
    throw new UserError(
      `user "${userName}" uses the "${providerName}" auth-provider, which this plugin does not run`,
      {
        hint:
          providerName === 'gcp' || providerName === 'azure'
            ? `kubectl removed it too: use its exec plugin (gke-gcloud-auth-plugin or kubelogin) in users[].user.exec`
            : 'use an exec credential plugin (users[].user.exec), or log in so that the kubeconfig holds a token',
      },
    );
  }
  return { kind: 'none' };
}

function impersonation(user: Raw, flags: ConnectionFlags): Impersonation {
  const name = nonEmpty(flags.as) ?? nonEmpty(asString(user.as));
  const uid = nonEmpty(flags.asUid) ?? nonEmpty(asString(user['as-uid']));
  const flagGroups = (flags.asGroup ?? []).filter((g) => g !== '');
  const groups = flagGroups.length > 0 ? flagGroups : stringList(user['as-groups']);
  const extra: Record<string, string[]> = {};
  for (const [key, values] of Object.entries(asRecord(user['as-user-extra'])))
    extra[key] = stringList(values);
  if (name === undefined && (groups.length > 0 || uid !== undefined || Object.keys(extra).length > 0)) {
    throw new UsageError('impersonating groups, a uid or extra fields requires a user to impersonate', {
      hint: 'add --as USER (or users[].user.as in the kubeconfig)',
    });
  }
  return { user: name, uid, groups, extra };
}

function execExtension(cluster: Raw): unknown {
  const list = cluster.extensions;
  if (!Array.isArray(list)) return undefined;
  const entry = (list as unknown[]).find(
    (e): e is Raw =>
      typeof e === 'object' && e !== null && (e as Raw).name === 'client.authentication.k8s.io/exec',
  );
  return entry?.extension;
}
