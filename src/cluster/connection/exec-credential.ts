/**
 * client-go compatible exec credential plugins (users[].user.exec of a kubeconfig): how EKS, GKE, AKS and
 * OIDC helpers hand out credentials. The configuration is validated as clientcmd validates it, and the
 * plugin is run as client-go's exec authenticator runs it: at most one run at a time, its credential shared
 * by every caller until it expires or the server answers 401. Running and decoding are in
 * exec-credential-run.ts and exec-credential-decode.ts.
 */
import { resolve as resolvePath, isAbsolute, sep } from 'node:path';
import { UserError } from '../../errors.js';
import { EXEC_API_VERSIONS } from './exec-credential-decode.js';
import { runExecPlugin } from './exec-credential-run.js';
import type {
  ExecClusterInfo,
  ExecConfig,
  ExecCredential,
  ExecDeadline,
  ExecIo,
  InteractiveMode,
} from './exec-credential-types.js';

/** The message kubectl gives when stdin is taken by `-f -`, for ExecIo.stdinUnavailableMessage. */
export const STDIN_USED_BY_MANIFESTS = 'used by stdin resource manifest reader';

const INTERACTIVE_MODES: readonly string[] = ['Never', 'IfAvailable', 'Always'];
/** Versions whose kubeconfigs may leave interactiveMode out (clientcmd's defaulting). */
const DEFAULT_IF_AVAILABLE = [
  'client.authentication.k8s.io/v1beta1',
  'client.authentication.k8s.io/v1alpha1',
];

/**
 * Parses and validates users[].user.exec of a kubeconfig as client-go does (apiVersion required;
 * interactiveMode required for v1, defaults to IfAvailable for v1beta1; invalid values rejected) — throws
 * UserError naming the user and the field, in clientcmd's words.
 */
export function parseExecConfig(raw: unknown, userName: string): ExecConfig {
  if (!isRecord(raw)) throw fieldError(userName, '', 'must be a mapping');
  const command = optionalString(raw, 'command', userName) ?? '';
  const args = stringList(raw.args, userName);
  const env = envList(raw.env, userName);
  const apiVersion = optionalString(raw, 'apiVersion', userName) ?? '';
  const installHint = optionalString(raw, 'installHint', userName);
  const provideClusterInfo = raw.provideClusterInfo ?? false;
  if (typeof provideClusterInfo !== 'boolean')
    throw fieldError(userName, 'provideClusterInfo', 'must be a boolean');
  let interactiveMode = optionalString(raw, 'interactiveMode', userName) ?? '';
  if (interactiveMode === '' && DEFAULT_IF_AVAILABLE.includes(apiVersion)) interactiveMode = 'IfAvailable';

  const where = `users[].user.exec of user "${userName}"`;
  const suffix = `for ${userName} to use exec authentication plugin`;
  if (command === '')
    throw new UserError(`command must be specified ${suffix}`, { hint: `set ${where}.command` });
  if (apiVersion === '') {
    throw new UserError(`apiVersion must be specified ${suffix}`, {
      hint: `set ${where}.apiVersion to ${EXEC_API_VERSIONS.join(' or ')}`,
    });
  }
  if (env.some((e) => e.name === '')) {
    throw new UserError(`env variable name must be specified ${suffix}`, { hint: `check ${where}.env` });
  }
  const modes = INTERACTIVE_MODES.join(', ');
  if (interactiveMode === '') {
    throw new UserError(`interactiveMode must be specified ${suffix}`, {
      hint: `set ${where}.interactiveMode to one of ${modes} (${apiVersion} has no default)`,
    });
  }
  if (!isInteractiveMode(interactiveMode)) {
    throw new UserError(`invalid interactiveMode for ${userName}: "${interactiveMode}"`, {
      hint: `${where}.interactiveMode must be one of ${modes}`,
    });
  }
  if (!EXEC_API_VERSIONS.includes(apiVersion)) {
    throw new UserError(`exec plugin: invalid apiVersion "${apiVersion}" for user ${userName}`, {
      hint: `${where}.apiVersion must be ${EXEC_API_VERSIONS.join(' or ')}`,
    });
  }
  return {
    command,
    args,
    env,
    apiVersion,
    installHint: installHint === '' ? undefined : installHint,
    provideClusterInfo,
    interactiveMode,
  };
}

/**
 * clientcmd's path resolution: a relative command that contains a path separator is relative to the folder of
 * the kubeconfig file that defines the user; a bare name is looked up on PATH when the plugin runs.
 */
export function resolveExecCommand(command: string, configDir: string | undefined): string {
  if (configDir === undefined || !command.includes(sep) || isAbsolute(command)) return command;
  return resolvePath(configDir, command);
}

/** Runs the plugin at most once at a time, shares the credential among all concurrent callers, re-runs it only when expired (as client-go: no skew) or after a 401. */
export class ExecCredentialProvider {
  /** The command as it is run: relative paths resolved against the kubeconfig's folder. */
  readonly command: string;
  readonly #run: () => Promise<ExecCredential>;
  readonly #now: () => number;
  #current: ExecCredential | undefined;
  #inflight: Promise<ExecCredential> | undefined;

  constructor(
    config: ExecConfig,
    opts: {
      readonly configDir: string | undefined;
      readonly cluster: ExecClusterInfo | undefined;
      readonly io: ExecIo;
      readonly userName: string;
      /** How long one run may take (see exec-credential-run.ts). */
      readonly deadline: ExecDeadline;
    },
  ) {
    const command = resolveExecCommand(config.command, opts.configDir);
    this.command = command;
    this.#now = opts.io.now;
    const resolved: ExecConfig = { ...config, command };
    this.#run = () => runExecPlugin(resolved, opts.cluster, opts.io, opts.userName, opts.deadline);
  }

  /** The cached credential while it has not expired; otherwise runs the plugin (or joins the run under way). */
  get(): Promise<ExecCredential> {
    const inflight = this.#inflight;
    if (inflight !== undefined) {
      // As client-go's lock: when a refresh after a 401 fails, callers keep the unexpired credential.
      return inflight.catch((err: unknown) => {
        const current = this.#unexpired();
        if (current === undefined) throw err;
        return current;
      });
    }
    const current = this.#unexpired();
    return current !== undefined ? Promise.resolve(current) : this.#refresh();
  }

  /** Called when the server answered 401 to a request sent with `used`: re-runs the plugin unless a newer credential already replaced `used`; concurrent calls share one run. */
  refreshAfterUnauthorized(used: ExecCredential): Promise<ExecCredential> {
    if (this.#inflight !== undefined) return this.#inflight;
    if (this.#current !== used) return this.get();
    return this.#refresh();
  }

  #unexpired(): ExecCredential | undefined {
    const current = this.#current;
    if (current === undefined) return undefined;
    // client-go's credsExpired: expired once now is after the expiration time, no skew.
    return current.expiresAt !== undefined && this.#now() > current.expiresAt ? undefined : current;
  }

  #refresh(): Promise<ExecCredential> {
    const run = this.#run()
      .then((credential) => {
        this.#current = credential;
        return credential;
      })
      .finally(() => {
        this.#inflight = undefined;
      });
    this.#inflight = run;
    return run;
  }
}

function isInteractiveMode(s: string): s is InteractiveMode {
  return INTERACTIVE_MODES.includes(s);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fieldError(userName: string, field: string, problem: string): UserError {
  const path = field === '' ? 'exec' : `exec.${field}`;
  return new UserError(`invalid users[].user.${path} of user "${userName}": ${problem}`, {
    hint: 'see https://kubernetes.io/docs/reference/access-authn-authz/authentication/#configuration',
  });
}

function optionalString(raw: Record<string, unknown>, field: string, userName: string): string | undefined {
  const v = raw[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw fieldError(userName, field, 'must be a string');
  return v;
}

function stringList(v: unknown, userName: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((a) => typeof a === 'string')) {
    throw fieldError(userName, 'args', 'must be a list of strings');
  }
  return v;
}

function envList(v: unknown, userName: string): { name: string; value: string }[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw fieldError(userName, 'env', 'must be a list of {name, value}');
  return v.map((e: unknown) => {
    if (!isRecord(e)) throw fieldError(userName, 'env', 'must be a list of {name, value}');
    const name = e.name ?? '';
    const value = e.value ?? '';
    if (typeof name !== 'string' || typeof value !== 'string') {
      throw fieldError(userName, 'env', 'names and values must be strings');
    }
    return { name, value };
  });
}
