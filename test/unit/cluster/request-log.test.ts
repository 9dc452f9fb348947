// kubectl's -v request log goes to the terminal's stderr, and what it shows at -v=8 and above (the answer's status
// text, headers and body, a failure's message) comes from the server or whatever answers for it. An escape sequence
// in it would reach the administrator's terminal as it does through any other output (kubectl's CVE-2021-25743):
// every log line is escaped as all human output is (src/escape.ts: Go's strconv.Quote escapes). kubectl guards its
// body log too, if less: a body with a byte below 0x0a is logged as a hex dump (kubernetes/kubernetes
// staging/src/k8s.io/client-go/rest/request.go@769a9d505bc97e3ce1846bdffb73192dfae72aea glogBody).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { canonicalHeaderKey, RequestLog } from '../../../src/cluster/connection/request-log.js';
import { fixturePath } from '../../support/fixtures.js';

const HOSTILE = '\u001b]0;owned\u0007\u001b[2K\rfake line\u009b31m\u202e';

function logged(level: number, act: (log: RequestLog) => void): string[] {
  const out: string[] = [];
  act(new RequestLog(level, (line) => out.push(line), 42));
  return out;
}

describe('the -v request log', () => {
  it('EveryLineFromTheServerReachesTheTerminalEscaped', () => {
    const url = new URL('https://example.test/apis/rbac.authorization.k8s.io/v1/clusterroles');
    const lines = logged(10, (log) => {
      log.request('GET', url, { Accept: 'application/json' }, undefined);
      log.response(
        'GET',
        url,
        {
          status: 200,
          statusText: `OK${HOSTILE}`,
          headers: { 'x-served-by': `proxy${HOSTILE}` },
          body: Buffer.from(
            `{"kind":"ClusterRoleList","items":[{"metadata":{"name":"r${HOSTILE}"}}]}\n{"more":1}\n`,
          ),
        },
        3,
      );
      log.failure('GET', url, new Error(`socket hang up${HOSTILE}`), 4);
    });
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) {
      expect(line.endsWith('\n'), 'one line each').toBe(true);
      // Go's strconv.IsPrint: no C0 or C1 control, no bidi control, in what is shown.
      const shown = Array.from(line.slice(0, -1), (c) => c.codePointAt(0) ?? 0);
      const unprintable = shown.filter(
        (c) => c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e),
      );
      expect(unprintable, JSON.stringify(line)).toStrictEqual([]);
    }
    const text = lines.join('');
    expect(text).toContain('\\x1b]0;owned\\a');
    expect(text, 'the body, its two lines as one log line').toContain('\\n{"more":1}\n');
    expect(text).toContain('socket hang up\\x1b');
  });
});

describe('header names as Go writes them (kubectl prints http.Header keys)', () => {
  const table = YAML.parse(readFileSync(fixturePath('go', 'canonical-header-keys.yaml'), 'utf8')) as {
    cases: { in: string; out: string; group?: string }[];
  };

  it.each(table.cases.map((c) => [c.in, c]))('CanonicalMIMEHeaderKey(%j)', (_in, c) => {
    expect(canonicalHeaderKey(c.in), c.group).toBe(c.out);
  });

  it('the response headers Node hands over in lower case are logged as kubectl logs them at -v=8', () => {
    // `kubectl get --raw /api -v=8` (v1.32) against the test API server printed Content-Type, Content-Length, Date,
    // Connection and Keep-Alive; a real API server's own are canonicalized by the same rule.
    const url = new URL('https://example.test/api');
    const lines = logged(8, (log) => {
      log.request('GET', url, { accept: 'application/json, */*' }, undefined);
      log.response(
        'GET',
        url,
        {
          status: 200,
          statusText: 'OK',
          headers: {
            'content-type': 'application/json',
            'content-length': '132',
            'keep-alive': 'timeout=5',
            'x-kubernetes-pf-flowschema-uid': 'f',
            'audit-id': 'a',
          },
          body: Buffer.from('{}'),
        },
        3,
      );
    });
    const names = lines
      .map((l) => /\] {5}([^:]+): /.exec(l)?.[1])
      .filter((n): n is string => n !== undefined);
    expect(names).toStrictEqual([
      'Accept',
      'Content-Type',
      'Content-Length',
      'Keep-Alive',
      'X-Kubernetes-Pf-Flowschema-Uid',
      'Audit-Id',
    ]);
  });

  it("leaves out what Go's transport handles below kubectl's log: gzip asked and unzipped, lengths written", () => {
    // kubectl's -v=8 shows a request's http.Header (Go adds Accept-Encoding in the request's extra headers and writes
    // Content-Length from its length) and an answer's headers after the transport unzipped it (Content-Encoding and
    // Content-Length deleted); an answer that was not gzipped keeps its Content-Length.
    const url = new URL('https://example.test/apis/rbac.authorization.k8s.io/v1/clusterroles');
    const answer = (headers: Record<string, string>) => ({
      status: 200,
      statusText: 'OK',
      headers,
      body: Buffer.from('{}'),
    });
    const lines = logged(8, (log) => {
      log.request(
        'POST',
        url,
        {
          'Content-Type': 'application/json',
          Accept: 'application/json, */*',
          'Accept-Encoding': 'gzip',
          'Content-Length': '2',
        },
        '{}',
      );
      log.response(
        'POST',
        url,
        answer({ 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': '20' }),
        3,
      );
      log.response('GET', url, answer({ 'content-type': 'application/json', 'content-length': '2' }), 3);
    });
    const names = lines.map((l) => /\] {5}([^:]+): /.exec(l)?.[1] ?? /\] (\w+ Headers):/.exec(l)?.[1] ?? '');
    expect(names.filter((n) => n !== '')).toStrictEqual([
      'Request Headers',
      'Content-Type',
      'Accept',
      'Response Headers',
      'Content-Type',
      'Response Headers',
      'Content-Type',
      'Content-Length',
    ]);
  });
});
