// --request-timeout as kubectl reads it: client-go's clientcmd.ParseTimeout (a whole number of seconds, else a Go
// duration; kubernetes/kubernetes staging/src/k8s.io/client-go/tools/clientcmd/helpers.go@ad139a23b1563f7fbd23a28b1bdf30d9657ddbbe).
// The duration tables are Go's own: parseDurationTests and parseDurationErrorTests of
// golang/go src/time/time_test.go@f7396aaea0297a2e95b502a4075b0aed6efda89f (expected values in milliseconds here).
import { describe, expect, it } from 'vitest';
import { goDurationMs, parseRequestTimeout } from '../../../src/port/connection-flags.js';

const NS = 1e-6;
const US = 1e-3;
const MS = 1;
const S = 1000;
const M = 60_000;
const H = 3_600_000;
const MAX_NS = Number(2n ** 63n - 1n);

describe('goDurationMs: Go time.ParseDuration', () => {
  it.each([
    ['0', 0],
    ['5s', 5 * S],
    ['30s', 30 * S],
    ['1478s', 1478 * S],
    ['-5s', -5 * S],
    ['+5s', 5 * S],
    ['-0', 0],
    ['+0', 0],
    ['5.0s', 5 * S],
    ['5.6s', 5 * S + 600 * MS],
    ['5.s', 5 * S],
    ['.5s', 500 * MS],
    ['1.0s', 1 * S],
    ['1.00s', 1 * S],
    ['1.004s', 1 * S + 4 * MS],
    ['1.0040s', 1 * S + 4 * MS],
    ['100.00100s', 100 * S + 1 * MS],
    ['10ns', 10 * NS],
    ['11us', 11 * US],
    ['12\u00b5s', 12 * US],
    ['12\u03bcs', 12 * US],
    ['13ms', 13 * MS],
    ['14s', 14 * S],
    ['15m', 15 * M],
    ['16h', 16 * H],
    ['3h30m', 3 * H + 30 * M],
    ['10.5s4m', 4 * M + 10 * S + 500 * MS],
    ['-2m3.4s', -(2 * M + 3 * S + 400 * MS)],
    ['1h2m3s4ms5us6ns', 1 * H + 2 * M + 3 * S + 4 * MS + 5 * US + 6 * NS],
    ['39h9m14.425s', 39 * H + 9 * M + 14 * S + 425 * MS],
    ['52763797000ns', 52763797000 * NS],
    ['0.3333333333333333333h', 20 * M],
    ['9007199254740993ns', Number(9007199254740993n) * NS],
    ['9223372036854775807ns', MAX_NS * NS],
    ['9223372036854775.807us', MAX_NS * NS],
    ['9223372036s854ms775us807ns', MAX_NS * NS],
    ['-9223372036854775808ns', -MAX_NS * NS],
    ['-9223372036854775.808us', -MAX_NS * NS],
    ['-9223372036s854ms775us808ns', -MAX_NS * NS],
    ['-2562047h47m16.854775808s', -MAX_NS * NS],
    ['0.100000000000000000000h', 6 * M],
    ['0.830103483285477580700h', 49 * M + 48 * S + 372539827 * NS],
  ])('%s', (text, ms) => {
    const got = goDurationMs(text);
    expect(got).toBeDefined();
    // To the microsecond: the plugin's timers count milliseconds.
    expect(got ?? NaN).toBeCloseTo(ms, 3);
  });

  it.each([
    '',
    '3',
    '-',
    's',
    '.',
    '-.',
    '.s',
    '+.s',
    '1d',
    '\x85\x85',
    '\xffff',
    'hello \xffff world',
    '\uFFFD',
    '\uFFFD hello \uFFFD world',
    '9223372036854775810ns',
    '9223372036854775808ns',
    '-9223372036854775809ns',
    '9223372036854776us',
    '3000000h',
    '9223372036854775.808us',
    '9223372036854ms775us808ns',
  ])('%j is refused', (text) => {
    expect(goDurationMs(text)).toBeUndefined();
  });
});

describe('parseRequestTimeout: clientcmd.ParseTimeout', () => {
  it.each([
    ['3', 3 * S, 'a bare whole number is seconds (Go ParseDuration alone would refuse it)'],
    ['+3', 3 * S, 'strconv.ParseInt takes a plus sign'],
    ['0', undefined, '0 means no limit'],
    ['-0', undefined, '-0 is 0'],
    ['-1s', undefined, 'a negative duration parses; client-go sets no deadline for it'],
    ['1m30s', 90 * S, 'a Go duration'],
    [
      '100000000',
      2 ** 31 - 1,
      'longer than a Node timer can wait: the longest it can (a longer one would fire at once)',
    ],
  ])('%s', (text, ms, reason) => {
    expect(parseRequestTimeout(text), reason).toBe(ms);
  });

  it.each([
    ['-3', 'a negative whole number is not seconds, and as a duration it has no unit'],
    ['1.5', 'a number of seconds must be whole'],
    ['9223372036854775808', 'more seconds than strconv.ParseInt takes, and no unit'],
    ['banana', 'neither'],
  ])('%s is a usage error', (text, reason) => {
    expect(() => parseRequestTimeout(text), reason).toThrow(`invalid --request-timeout "${text}"`);
  });
});
