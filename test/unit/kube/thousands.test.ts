// The reference is ICU's own en-US number format (toLocaleString), which the helper stands in for.
import { describe, expect, it } from 'vitest';
import { thousands } from '../../../src/kube/thousands.js';

describe('thousands', () => {
  it('writes whole numbers as en-US does', () => {
    const values = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 10000, 12345, 99999, 100000, 123456, 999999];
    for (let n = 1; n < Number.MAX_SAFE_INTEGER / 7; n = n * 7 + 3) values.push(n, n + 1, n - 1);
    values.push(Number.MAX_SAFE_INTEGER);
    for (const n of [...values, ...values.map((v) => -v)])
      expect(thousands(n), String(n)).toBe(n.toLocaleString('en-US'));
    expect(thousands(1234567)).toBe('1,234,567');
  });

  it('leaves fractions and huge numbers to the locale', () => {
    for (const n of [1234.5, 0.25, 2 ** 60, -9876.54321])
      expect(thousands(n)).toBe(n.toLocaleString('en-US'));
  });
});
