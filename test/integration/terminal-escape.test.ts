/**
 * Names from the cluster and from the command line never reach the terminal raw (kubectl's CVE-2021-25743): a
 * RoleBinding seeded into the test API server with escape sequences and a right-to-left override in its subject,
 * its own name and its role's name goes through who-can, explain --subject and an error message. Human output holds
 * each control character as Go's strconv.Quote writes it (golang/go
 * src/strconv/quote.go@1bfcc11beb5d91ea391237644a39119a45615b7a appendEscapedRune: \a \r, \xNN below space, \uNNNN);
 * -o json holds the exact names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { runPlugin, startSeeded, type CliResult } from './harness.js';

const RBAC = 'rbac.authorization.k8s.io';
/** Sets the window title, erases the line, returns to its start and writes a line of its own, then flips the rest. */
const SUBJECT = 'mallory\u001b]0;owned\u0007\u001b[2K\rGroup  system:masters\u202eexe.txt';
const SUBJECT_SHOWN = 'mallory\\x1b]0;owned\\a\\x1b[2K\\rGroup  system:masters\\u202eexe.txt';
/** RBAC names are path segments: anything but `/` and `%` (path.IsValidPathSegmentName), so these are valid. */
const ROLE = 'pod-reader\u001b[31m';
const ROLE_SHOWN = 'pod-reader\\x1b[31m';
const BINDING = 'readers\u202e\u2066';
const BINDING_SHOWN = 'readers\\u202e\\u2066';

const BIDI_CONTROLS = new Set([
  0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
]);
/** Whether TEXT holds a raw terminal control: a C0 control but the line feed, DEL, a C1 control, a bidi control. */
function hasRawControl(text: string): boolean {
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if ((c < 0x20 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f) || BIDI_CONTROLS.has(c)) return true;
  }
  return false;
}

function expectNoRawControl(r: CliResult): void {
  expect(hasRawControl(r.stdout), `stdout: ${JSON.stringify(r.stdout)}`).toBe(false);
  expect(hasRawControl(r.stderr), `stderr: ${JSON.stringify(r.stderr)}`).toBe(false);
}

describe('names with terminal escapes, from the test API server', () => {
  let server: TestApiServer;
  let kubeconfig: string;

  beforeAll(async () => {
    ({ server, kubeconfig } = await startSeeded());
    server.seed([
      {
        apiVersion: `${RBAC}/v1`,
        kind: 'ClusterRole',
        metadata: { name: ROLE },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
      },
      {
        apiVersion: `${RBAC}/v1`,
        kind: 'RoleBinding',
        metadata: { name: BINDING, namespace: 'team-a' },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: ROLE },
        subjects: [{ apiGroup: RBAC, kind: 'User', name: SUBJECT }],
      },
    ]);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('who-can prints the subject, binding and role escaped in its table', async () => {
    const r = await runPlugin(['who-can', 'get', 'configmaps', '-n', 'team-a', '--kubeconfig', kubeconfig]);
    expect(r.code, r.stderr).toBe(0);
    expectNoRawControl(r);
    const row = r.stdout.split('\n').find((l) => l.startsWith('mallory'));
    expect(row).toMatch(
      new RegExp(
        `^${escapeRe(SUBJECT_SHOWN)}\\s+User\\s+${escapeRe(`RoleBinding/team-a/${BINDING_SHOWN} → ClusterRole/${ROLE_SHOWN}`)}$`,
      ),
    );
  });

  it('who-can -o wide escapes every column too', async () => {
    const r = await runPlugin([
      'who-can',
      'get',
      'configmaps',
      '-n',
      'team-a',
      '-o',
      'wide',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expectNoRawControl(r);
    expect(r.stdout).toContain(SUBJECT_SHOWN);
  });

  it('who-can -o json holds the exact names', async () => {
    const r = await runPlugin([
      'who-can',
      'get',
      'configmaps',
      '-n',
      'team-a',
      '-o',
      'json',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      subjects: {
        kind: string;
        name: string;
        paths: { binding: { name: string }; role: { name: string } }[];
      }[];
    };
    const s = doc.subjects.find((x) => x.kind === 'User' && x.name === SUBJECT);
    expect(s?.paths[0]?.binding.name).toBe(BINDING);
    expect(s?.paths[0]?.role.name).toBe(ROLE);
    // JSON's own encoding of the name: ESC, BEL and CR as \u escapes, U+202E as the character itself.
    expect(r.stdout).toContain(JSON.stringify(SUBJECT));
  });

  it('explain --subject echoes the subject escaped, and its bindings', async () => {
    const r = await runPlugin([
      'explain',
      '--subject',
      `User:${SUBJECT}`,
      '-n',
      'team-a',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expectNoRawControl(r);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`User ${SUBJECT_SHOWN} (groups: system:authenticated)`);
    expect(lines).toContain(
      `  RoleBinding/team-a/${BINDING_SHOWN} → ClusterRole/${ROLE_SHOWN}  (1 rule; via User ${SUBJECT_SHOWN})`,
    );
  });

  it('explain --subject -o json holds the exact name', async () => {
    const r = await runPlugin([
      'explain',
      '--subject',
      `User:${SUBJECT}`,
      '-n',
      'team-a',
      '-o',
      'json',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      subject: { name: string };
      bindings: { binding: { name: string } }[];
    };
    expect(doc.subject.name).toBe(SUBJECT);
    expect(doc.bindings.map((b) => b.binding.name)).toContain(BINDING);
  });

  it('an error echoes the argument and names from the cluster escaped', async () => {
    const r = await runPlugin(['explain', 'pod-reader\u001b[2K\r', '--kubeconfig', kubeconfig]);
    expect(r.code).toBe(2);
    expectNoRawControl(r);
    expect(r.stderr).toBe(
      `error: clusterrole "pod-reader\\x1b[2K\\r" not found\nhint: did you mean "${ROLE_SHOWN}"?\n`,
    );
  });

  it('a bad flag value is echoed escaped', async () => {
    const r = await runPlugin([
      'explain',
      '--subject',
      'Robot:\u001b]0;x\u0007\u202e',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(r.code).toBe(2);
    expectNoRawControl(r);
    expect(r.stderr.split('\n')[0]).toBe('error: invalid --subject "Robot:\\x1b]0;x\\a\\u202e"');
  });
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
