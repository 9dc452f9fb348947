/**
 * The verbs `kubectl auth can-i` knows (kubernetes/kubernetes staging/src/k8s.io/kubectl/pkg/cmd/auth/cani.go
 * @41762c588fc92e5d310649d2fa6133523a045f19: resourceVerbs and nonResourceURLVerbs, copied here as its table), the
 * verbs Kubernetes authorizes beyond them, and discovery's: none gets the warning; anything else gets kubectl's words.
 */
import { describe, expect, it } from 'vitest';
import { unknownVerbWarning } from '../../../src/authz/known-verbs.js';

const KUBECTL_RESOURCE_VERBS = [
  'get',
  'list',
  'watch',
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
  'use',
  'bind',
  'impersonate',
  '*',
];
const KUBECTL_URL_VERBS = ['get', 'put', 'post', 'head', 'options', 'delete', 'patch', '*'];
/** rbac/v1 escalate (roles), certificates' approve and sign (signers), ClusterTrustBundles' attest (signers). */
const KUBERNETES_VERBS = ['escalate', 'approve', 'sign', 'attest'];

describe('unknownVerbWarning', () => {
  it.each([...KUBECTL_RESOURCE_VERBS, ...KUBERNETES_VERBS])('knows the resource verb %s', (verb) => {
    expect(unknownVerbWarning(verb, false)).toBeUndefined();
  });

  it.each(KUBECTL_URL_VERBS)('knows the URL verb %s', (verb) => {
    expect(unknownVerbWarning(verb, true)).toBeUndefined();
  });

  it.each([
    ['delet', false],
    ['Get', false],
    ['post', false],
    ['create', true],
    ['escalate', true],
    ['', false],
  ])("warns about %j (URL: %s) in kubectl's words", (verb, url) => {
    expect(unknownVerbWarning(verb, url)).toBe(`verb '${verb}' is not a known verb`);
  });

  it('knows the verbs discovery lists for the served resources', () => {
    expect(unknownVerbWarning('proxy', false)).toBeDefined();
    expect(unknownVerbWarning('proxy', false, ['get', 'proxy'])).toBeUndefined();
    expect(unknownVerbWarning('proxy', true, ['proxy'])).toBeDefined();
  });
});
