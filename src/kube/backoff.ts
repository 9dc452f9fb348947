/**
 * The reflector's backoff between failed list-and-watch attempts, as client-go sets it up: 800ms, doubling, capped
 * at 30s, each wait jittered up by as much again (jitter 1.0: [d, 2d)), and back to 800ms once no backoff was needed
 * for 2 minutes. kubernetes/client-go tools/cache/reflector.go@cad7aa5a474a1ff81643e854548f95523748cee8
 * (NewReflectorWithOptions: NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0)); the arithmetic is
 * apimachinery's wait.Backoff in kubernetes/kubernetes
 * staging/src/k8s.io/apimachinery/pkg/util/wait/backoff.go@898b9f800267a757615ecfb71fc377d04d996c6b (delay, Jitter,
 * exponentialBackoffManagerImpl.getNextBackoff). Pure: the clock and the random source are given.
 */
const REFLECTOR_BACKOFF = {
  initialMs: 800,
  capMs: 30_000,
  resetAfterMs: 120_000,
  factor: 2,
  jitter: 1,
} as const;

/** One backoff sequence: next() is the wait before the next attempt. */
export class ReflectorBackoff {
  private durationMs: number = REFLECTOR_BACKOFF.initialMs;
  private last: number | undefined;

  constructor(
    private readonly now: () => number,
    private readonly random: () => number,
  ) {}

  next(): number {
    const now = this.now();
    if (this.last !== undefined && now - this.last > REFLECTOR_BACKOFF.resetAfterMs) {
      this.durationMs = REFLECTOR_BACKOFF.initialMs;
    }
    this.last = now;
    const wait = this.durationMs + this.random() * REFLECTOR_BACKOFF.jitter * this.durationMs;
    this.durationMs = Math.min(this.durationMs * REFLECTOR_BACKOFF.factor, REFLECTOR_BACKOFF.capMs);
    return wait;
  }
}

/**
 * How long a controller waits before it reconciles again after a reconcile that failed for the FAILURES-th time in a
 * row (1 for the first): client-go's per-item exponential rate limiter, 5ms doubling up to 1000s, as its default
 * controller rate limiter sets it up (kubernetes/client-go util/workqueue/default_rate_limiters.go:
 * DefaultControllerRateLimiter, NewItemExponentialFailureRateLimiter(5*time.Millisecond, 1000*time.Second); When:
 * baseDelay * 2^failures, with the failures counted before this one). Its other half, an overall bucket of 10 per
 * second with a burst of 100, never binds for one item that doubles its wait each time, and is left out.
 */
export function requeueDelayMs(failures: number): number {
  // 2 ** a large number is Infinity, which the cap takes as client-go's overflow guard does.
  return Math.min(5 * 2 ** Math.max(0, failures - 1), 1_000_000);
}
