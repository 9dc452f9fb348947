import { describe, expect, it } from 'vitest';
import { fullCollection, idleCollector } from '../../../src/cli/heap-collector.js';

describe('idleCollector', () => {
  it('collects on the first idle moment, then only once the heap grew more than 10% past what the last left', () => {
    const heap = [100, 105, 111, 90, 99, 100, 95];
    let i = 0;
    const collected: number[] = [];
    // heapUsed is read before (to decide) and after (what the collection left) each collection.
    const onIdle = idleCollector(
      () => collected.push(i),
      () => heap[i++] ?? Number.NaN,
      0.1,
    );
    for (let k = 0; k < 5; k++) onIdle();
    // Heap reads by idle moment: 1st collects (100 left); 2nd 105 <= 110: no; 3rd 111 > 110: collects (90 left);
    // 4th 99 <= 99: no; 5th 100 > 99: collects. Each entry is how many reads came before that collection.
    expect(collected).toStrictEqual([0, 3, 6]);
  });
});

describe('fullCollection', () => {
  it("is this runtime's full collection: the garbage of a large allocation is gone after it", () => {
    const collect = fullCollection();
    expect(collect).toBeTypeOf('function');
    let garbage: string[] | undefined = Array.from(
      { length: 200_000 },
      (_, n) => `${'x'.repeat(40)}${String(n)}`,
    );
    const held = process.memoryUsage().heapUsed;
    expect(garbage.length).toBe(200_000);
    garbage = undefined;
    collect?.();
    // 200,000 strings of 46 characters and the array: well over 8 MB that no other collection would take this soon.
    expect(held - process.memoryUsage().heapUsed).toBeGreaterThan(8_000_000);
  });
});
