// The reflector's backoff against apimachinery's arithmetic, worked by hand from kubernetes/kubernetes
// staging/src/k8s.io/apimachinery/pkg/util/wait/backoff.go@898b9f800267a757615ecfb71fc377d04d996c6b (delay: the wait
// is duration + rand*jitter*duration, then duration*factor capped; exponentialBackoffManagerImpl.getNextBackoff: reset
// once more than resetDuration passed since the last backoff) with client-go's parameters
// (tools/cache/reflector.go@cad7aa5a474a1ff81643e854548f95523748cee8: 800ms, 30s, 2min, 2.0, 1.0).
import { describe, expect, it } from 'vitest';
import { ReflectorBackoff, requeueDelayMs } from '../../../src/kube/backoff.js';

function waits(random: number, times: readonly number[]): number[] {
  let i = 0;
  const b = new ReflectorBackoff(
    () => times[Math.min(i, times.length - 1)] ?? 0,
    () => random,
  );
  return times.map(() => {
    const w = b.next();
    i++;
    return w;
  });
}

describe('ReflectorBackoff', () => {
  const second = Array.from({ length: 9 }, (_, i) => i * 1000);
  it('doubles from 800ms and stops at 30s without jitter (rand = 0)', () => {
    expect(waits(0, second)).toStrictEqual([800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000]);
  });
  it('adds up to as much again as jitter (rand -> 1): [30s, 60s) at the cap, as reflector.go says', () => {
    expect(waits(0.5, second)).toStrictEqual([1200, 2400, 4800, 9600, 19200, 38400, 45000, 45000, 45000]);
  });
  it('starts again from 800ms after more than 2 minutes without a backoff', () => {
    expect(waits(0, [0, 1000, 2000, 2000 + 120_000, 2000 + 120_001 + 120_000])).toStrictEqual([
      800, 1600, 3200, 6400, 800,
    ]);
  });
});

// client-go util/workqueue/default_rate_limiters.go (DefaultControllerRateLimiter): the per-item limiter's When is
// baseDelay * 2^(failures before this one), capped at maxDelay; base 5ms, max 1000s. The values below are that
// arithmetic done by hand: 5ms, 10ms, ..., 5ms * 2^17 = 655.36s, then the cap.
describe('requeueDelayMs', () => {
  it("is client-go's default per-item requeue: 5ms doubling per failure, capped at 1000s", () => {
    const failures = [1, 2, 3, 4, 5, 11, 18, 19, 20, 64, 2000];
    expect(failures.map(requeueDelayMs)).toStrictEqual([
      5, 10, 20, 40, 80, 5120, 655_360, 1_000_000, 1_000_000, 1_000_000, 1_000_000,
    ]);
  });
});
