// who-can and explain --subject with -o dot|mermaid|html through the command, on the example cluster, and the
// combinations refused before anything is read. The expected path is the one examples/cluster/20-crossplane.yaml
// declares: ClusterRoleBinding crossplane-admin binds Group crossplane:masters to ClusterRole crossplane-admin, which
// aggregates crossplane:aggregate-to-admin (label rbac.crossplane.io/aggregate-to-admin), whose own rule grants `*`
// on apiextensions.crossplane.io/* (so update on compositions).
import { describe, expect, it } from 'vitest';
import { runCaptured } from '../../support/run-cli.js';

const EXAMPLES = 'examples/cluster';
// --converged: the graph draws each aggregation hop, which only the convergence view reads.
const WHO_CAN = ['who-can', 'update', 'compositions', '-f', EXAMPLES, '--converged'];
const SLOW = 60_000;

describe('-o dot|mermaid|html', () => {
  it(
    'WhoCanAsDot',
    async () => {
      const r = await runCaptured([...WHO_CAN, '-o', 'dot']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\n')[0]).toBe('digraph rbac {');
      for (const line of [
        '  label="who-can update apiextensions.crossplane.io/compositions";',
        '  "Group/crossplane:masters" -> "ClusterRoleBinding/crossplane-admin";',
        '  "ClusterRoleBinding/crossplane-admin" -> "ClusterRole/crossplane-admin";',
        '  "ClusterRole/crossplane-admin" -> "ClusterRole/crossplane:aggregate-to-admin";',
        '  "ClusterRole/crossplane:aggregate-to-admin" -> "ClusterRole/crossplane:aggregate-to-admin/rule-1";',
      ]) {
        expect(r.stdout.split('\n')).toContain(line);
      }
      expect(r.stdout).toContain(
        '"ClusterRole/crossplane:aggregate-to-admin/rule-1" [label="rule\\n* apiextensions.crossplane.io/*"',
      );
    },
    SLOW,
  );

  it(
    'WhoCanAsMermaidAndHtml',
    async () => {
      const mermaid = await runCaptured([...WHO_CAN, '-o', 'mermaid']);
      expect(mermaid.code, mermaid.stderr).toBe(0);
      expect(mermaid.stdout.split('\n').slice(0, 2)).toStrictEqual([
        'flowchart LR',
        '  %% who-can update apiextensions.crossplane.io/compositions',
      ]);
      expect(mermaid.stdout).toContain('["Group<br/>crossplane:masters"]:::subject;');
      const html = await runCaptured([...WHO_CAN, '-o', 'html']);
      expect(html.code, html.stderr).toBe(0);
      expect(html.stdout.startsWith('<!DOCTYPE html>\n')).toBe(true);
      expect(html.stdout).toContain('<title>who-can update apiextensions.crossplane.io/compositions</title>');
      expect(html.stdout).toContain('"id":"ClusterRole/crossplane:aggregate-to-admin"');
    },
    SLOW,
  );

  it(
    'ExplainSubjectDeniedPrintsTheGraphAndExitsOne',
    async () => {
      // As kubectl auth can-i: the answer is printed, a denial exits 1. crossplane:masters may not delete nodes.
      const r = await runCaptured([
        'explain',
        '--subject',
        'Group:crossplane:masters',
        '--for',
        'nodes',
        '--verb',
        'delete',
        '-f',
        EXAMPLES,
        '-o',
        'dot',
      ]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain(
        'label="explain --subject Group:crossplane:masters (cluster-wide): delete core/nodes: denied";',
      );
      expect(r.stdout).toContain('"Group/crossplane:masters" -> "ClusterRoleBinding/crossplane-admin";');
      // Denied: no rule grants it, so none is drawn.
      expect(r.stdout).not.toContain('shape=note');
    },
    SLOW,
  );
});

describe('combinations refused before anything is read: one error line, exit 2', () => {
  it.each([
    {
      reason: 'a graph draws one cluster: who-can across contexts',
      argv: ['who-can', 'get', 'pods', '--contexts', 'a,b', '-o', 'html'],
      error: 'error: -o html draws one cluster and cannot be merged across contexts',
    },
    {
      reason: 'the same for explain --subject',
      argv: ['explain', '--subject', 'User:alice', '--all-contexts', '-o', 'mermaid'],
      error: 'error: -o mermaid draws one cluster and cannot be merged across contexts',
    },
    {
      reason: 'the same for explain ROLE: its aggregation graph draws one cluster (dot)',
      argv: ['explain', 'crossplane-edit', '--contexts', 'a,b', '-o', 'dot'],
      error: 'error: -o dot draws one cluster and cannot be merged across contexts',
    },
    {
      reason: 'the same for explain ROLE (mermaid), on every context',
      argv: ['explain', 'crossplane-edit', '--all-contexts', '-o', 'mermaid'],
      error: 'error: -o mermaid draws one cluster and cannot be merged across contexts',
    },
    {
      reason: 'the matrix is a table, not a graph',
      argv: ['explain', '--subject', 'User:alice', '--matrix', '-o', 'dot', '-f', EXAMPLES],
      error: 'error: unknown output format "dot" for explain --matrix',
    },
    {
      reason: 'explain ROLE draws its aggregation as dot or mermaid, not as a page',
      argv: ['explain', 'crossplane-edit', '-o', 'html', '-f', EXAMPLES],
      error: 'error: unknown output format "html" for explain',
    },
  ])('$reason', async ({ argv, error }) => {
    const r = await runCaptured(argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(error);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);
  });
});
