// Label values as the real API server validates them on every write: ObjectMeta's labels go through
// kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go
// @046d201c45cebd19eb1fc4612426761c64802825 ValidateLabels, one field.Invalid(metadata.labels, value, msg) per message
// of IsValidLabelValue, which is staging/src/k8s.io/apimachinery/pkg/api/validate/content/kube.go
// @c2c7d507620b919d8c6cd5d43e689e7656186df5 IsLabelValue: "must be no more than 63 characters" when longer than
// LabelValueMaxLength (63), and, checked separately, the regex message when `(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?`
// does not match. So a long value with a bad character gets both.
import { describe, expect, it } from 'vitest';
import { apiError, clusterRole, rbac, useClientServer } from './client-harness.js';

useClientServer();

const REGEX_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('label values (IsLabelValue)', () => {
  const cases: Record<string, { value: string; messages: string[]; reason: string }> = {
    SixtyFourCharacters: {
      value: 'a'.repeat(64),
      messages: ['must be no more than 63 characters'],
      reason: 'LabelValueMaxLength is 63; the pattern matches, so only the length message.',
    },
    LongAndBadCharacter: {
      value: `${'a'.repeat(63)}:`,
      messages: ['must be no more than 63 characters', REGEX_MSG],
      reason: 'Both checks run: too long, and ":" is not allowed (nor may a value end with it).',
    },
    EndsWithDot: {
      value: 'xrd.example.org.',
      messages: [REGEX_MSG],
      reason: 'A value must end with an alphanumeric character.',
    },
  };

  it.each(Object.entries(cases))('%s', async (name, tc) => {
    const roleName = `label-${name.toLowerCase()}`;
    const err = await apiError(
      rbac.createClusterRole({
        body: clusterRole(roleName, {
          metadata: { name: roleName, labels: { 'rbac.crossplane.io/xrd': tc.value } },
        }),
      }),
    );
    expect(err.code, tc.reason).toBe(422);
    expect(err.body.reason).toBe('Invalid');
    const texts = tc.messages.map((m) => `metadata.labels: Invalid value: ${JSON.stringify(tc.value)}: ${m}`);
    expect(err.body.message, tc.reason).toBe(
      `ClusterRole.rbac.authorization.k8s.io "${roleName}" is invalid: ${
        texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`
      }`,
    );
  });

  it('stores a 63-character value and an empty one', async () => {
    const labels = { 'rbac.crossplane.io/xrd': 'a'.repeat(63), empty: '' };
    const created = await rbac.createClusterRole({
      body: clusterRole('label-ok', { metadata: { name: 'label-ok', labels } }),
    });
    expect(created.metadata?.labels).toEqual(labels);
  });
});
