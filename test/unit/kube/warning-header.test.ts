// parseWarningHeaders against apimachinery's own tables (test/fixtures/kubernetes/warning-headers.yaml, transcribed
// from kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/util/net/http_test.go @
// 04791b4906602ffda5ccf9bc4c84d3329f1d7080). A header arrives from Node as a byte string (one Latin-1 character per
// byte), so each header of the table is turned into its bytes as Go's literal holds them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { fixturePath } from '../../support/fixtures.js';
import {
  parseWarningHeader,
  parseWarningHeaders,
  type WarningHeader,
} from '../../../src/kube/warning-header.js';

interface SingleCase {
  readonly name: string;
  readonly header: string;
  readonly want?: WarningHeader;
  readonly wantRemainder?: string;
  readonly wantErr?: string;
}
interface MultiCase {
  readonly name: string;
  readonly headers: string[];
  readonly want: WarningHeader[];
  readonly wantErrs: string[];
}
const table = YAML.parse(readFileSync(fixturePath('kubernetes', 'warning-headers.yaml'), 'utf8')) as {
  single: SingleCase[];
  multi: MultiCase[];
};

/** The bytes of a Go literal as Node hands a header over: UTF-8 text, `\xNN` one raw byte. */
function wire(header: string): string {
  return header
    .split(/(\\x[0-9a-f]{2})/)
    .map((part) =>
      /^\\x[0-9a-f]{2}$/.test(part)
        ? String.fromCharCode(parseInt(part.slice(2), 16))
        : Buffer.from(part, 'utf8').toString('latin1'),
    )
    .join('');
}

describe('parseWarningHeader (TestParseWarningHeader)', () => {
  it.each(table.single.map((c, i) => [`${String(i)} ${c.name}`, c] as const))('%s', (_name, c) => {
    const got = parseWarningHeader(wire(c.header));
    if (c.wantErr !== undefined) {
      expect('error' in got ? got.error : got).toContain(c.wantErr);
    } else {
      expect(got).toStrictEqual({ warning: c.want, remainder: c.wantRemainder ?? '' });
    }
  });
});

describe('parseWarningHeaders (TestParseWarningHeaders)', () => {
  it.each(table.multi.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(parseWarningHeaders(c.headers.map(wire))).toStrictEqual({ warnings: c.want, errors: c.wantErrs });
  });

  it('reads the warnings a value holds before a malformed one, and the next value after it', () => {
    const got = parseWarningHeaders(['299 - "a", junk, 299 - "never"', '299 - "b"']);
    expect(got.warnings.map((w) => w.text)).toStrictEqual(['a', 'b']);
    expect(got.errors).toStrictEqual([
      'invalid warning header: code segment is not 3 digits between 100-299',
    ]);
  });

  it('trims Unicode white space as Go strings.TrimSpace does (U+00A0 around a warning)', () => {
    const nbsp = Buffer.from('\u00a0', 'utf8').toString('latin1');
    expect(parseWarningHeaders([`${nbsp}299 - "x"${nbsp}`]).warnings).toStrictEqual([
      { code: 299, agent: '-', text: 'x' },
    ]);
  });

  it('refuses a text with a C1 control character once decoded (Go unicode.IsControl)', () => {
    const c1 = Buffer.from('\u009b', 'utf8').toString('latin1');
    expect(parseWarningHeaders([`299 - "a${c1}31m"`]).errors).toStrictEqual([
      'invalid warning header: invalid text',
    ]);
  });
});
