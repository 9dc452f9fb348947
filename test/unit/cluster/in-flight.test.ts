import { describe, expect, it } from 'vitest';
import { InFlight } from '../../../src/cluster/connection/in-flight.js';

/** A send that stays in flight until its release is called. */
function held(): { promise: Promise<void>; release: () => void } {
  let release = (): void => undefined;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('InFlight', () => {
  it('sends at most LIMIT at once, the others in the order they came as places free up', async () => {
    const limit = new InFlight(3);
    const sends = Array.from({ length: 8 }, held);
    const started: number[] = [];
    let active = 0;
    let most = 0;
    const all = sends.map((s, i) =>
      limit.run(async () => {
        started.push(i);
        most = Math.max(most, ++active);
        await s.promise;
        active--;
        return i;
      }),
    );
    await turn();
    expect(started, 'three places: the first three go').toEqual([0, 1, 2]);
    sends[1]?.release();
    await turn();
    expect(started, 'one place freed: the next in line goes').toEqual([0, 1, 2, 3]);
    for (const s of sends) s.release();
    expect(await Promise.all(all)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('frees the place of a send that fails', async () => {
    const limit = new InFlight(1);
    await expect(limit.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await expect(limit.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});
