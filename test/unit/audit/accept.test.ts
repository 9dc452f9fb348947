import { describe, expect, it } from 'vitest';
import { applyAcceptances, parseAcceptances } from '../../../src/audit/accept.js';
import type { Finding } from '../../../src/audit/audit.js';
import { UserError } from '../../../src/errors.js';

function finding(
  subject: Finding['subject'],
  capability: Finding['capability'],
  mechanism: 'bind' | 'webhook',
): Finding {
  return {
    capability,
    severity: 'critical',
    subject,
    steps: [
      {
        mechanism,
        trigger: { verb: 'create', resource: 'clusterrolebindings.rbac.authorization.k8s.io' },
        via: ['ClusterRoleBinding/x', 'ClusterRole/x'],
        actsAs: { kind: 'ClusterRole', name: 'cluster-admin' },
        why: '',
      },
    ],
    fix: '',
  };
}

describe('accept file', () => {
  it('accepts a ServiceAccount named by its user name, system:serviceaccount:NS:NAME, as the account', () => {
    const runner = { kind: 'ServiceAccount', name: 'runner', namespace: 'ops' };
    const acceptances = parseAcceptances(
      [
        {
          subject: 'User:system:serviceaccount:ops:runner',
          capability: 'cluster-admin',
          firstStep: 'bind',
          reason: 'the deploy pipeline',
        },
      ],
      'a.yaml',
    );
    const { open, accepted } = applyAcceptances([finding(runner, 'cluster-admin', 'bind')], acceptances);
    expect(open).toStrictEqual([]);
    expect(accepted.map((f) => f.reason)).toStrictEqual(['the deploy pipeline']);
  });

  it('moves a finding out only when subject, capability and first step all match', () => {
    const ann = { kind: 'User', name: 'ann' };
    const findings = [finding(ann, 'cluster-admin', 'bind'), finding(ann, 'cluster-admin', 'webhook')];
    const acceptances = parseAcceptances(
      [{ subject: 'User:ann', capability: 'cluster-admin', firstStep: 'bind', reason: 'break glass' }],
      'a.yaml',
    );
    const { open, accepted } = applyAcceptances(findings, acceptances);
    expect(open.map((f) => f.steps[0]?.mechanism)).toStrictEqual(['webhook']);
    expect(accepted.map((f) => [f.steps[0]?.mechanism, f.reason])).toStrictEqual([['bind', 'break glass']]);
  });

  const bad: Record<string, { reason: string; doc: unknown; message: RegExp }> = {
    NotAList: {
      reason: 'the file is a list',
      doc: { subject: 'User:a' },
      message: /^a\.yaml: not a YAML list$/,
    },
    NoReason: {
      reason: 'every acceptance says why',
      doc: [{ subject: 'User:a', capability: 'cluster-admin', firstStep: 'bind' }],
      message: /^a\.yaml: entry 1: reason must be a non-empty string$/,
    },
    UnknownStep: {
      reason: 'a first step is a mechanism name',
      doc: [{ subject: 'User:a', capability: 'cluster-admin', firstStep: 'sudo', reason: 'x' }],
      message: /^a\.yaml: entry 1: unknown firstStep "sudo"$/,
    },
    BadSubject: {
      reason: 'a subject is KIND:NAME, worded as every bad subject (kube/parse-subject.ts)',
      doc: [{ subject: 'a', capability: 'cluster-admin', firstStep: 'bind', reason: 'x' }],
      message: /^a\.yaml: entry 1: invalid subject "a"$/,
    },
    ImpossibleServiceAccount: {
      reason: 'no ServiceAccount has a namespace Kubernetes refuses: the entry could never match',
      doc: [{ subject: 'ServiceAccount:A/x', capability: 'cluster-admin', firstStep: 'bind', reason: 'x' }],
      message:
        /^a\.yaml: entry 1: invalid subject "ServiceAccount:A\/x": the ServiceAccount's namespace "A": /,
    },
  };
  it.each(Object.entries(bad))('refuses %s', (_n, tc) => {
    expect(() => parseAcceptances(tc.doc, 'a.yaml'), tc.reason).toThrow(UserError);
    expect(() => parseAcceptances(tc.doc, 'a.yaml'), tc.reason).toThrow(tc.message);
  });

  it('an empty file accepts nothing', () => {
    expect(parseAcceptances(null, 'a.yaml')).toStrictEqual([]);
  });
});
