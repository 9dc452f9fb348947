/**
 * How sync --watch tells a server that is gone for now (connect again, after the reflector's backoff) from what no
 * retry mends (thrown as it is): the errors a watch session ends with.
 */
import {
  ApiError,
  ServerGoneError,
  connectionFailed,
  errorCode,
  translateError,
} from '../port/translate-error.js';

/**
 * What ends a session, as the error to throw: the server gone (connect again), or what no retry mends. Once the watch
 * has run, a connection that fails (the API server restarting, a network blink longer than the transport retries)
 * means the server is gone for now: connect again. Before, it means a wrong address: fail at once, as kubectl does.
 */
export function sessionError(err: unknown, what: string, describe: string, hasRun: boolean): unknown {
  if (err instanceof ServerGoneError) return err;
  const translated = translateError(err, what, describe);
  if (!hasRun || errorCode(err) === undefined || err instanceof ApiError) return translated;
  return new ServerGoneError(translated.message, { cause: err });
}

/**
 * What a reconcile threw, as the error that ends its session: a connection that failed after the lists were read (a
 * TLS handshake that timed out, a connection dropped while the permissions were checked) means the server blinked,
 * as for a dropped watch: connect again. A refusal (403) or bad input is thrown as it is.
 */
export function reconnectable(err: unknown, describe: string): unknown {
  if (err instanceof ServerGoneError || !connectionFailed(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new ServerGoneError(message.startsWith('cannot reach') ? message : `${describe}: ${message}`, {
    cause: err,
  });
}
