// Which resource a name resolves to when more than one group serves it, as kubectl picks it. The rules are read from
// kubectl's own code, not from ours:
// - kubernetes/kubectl pkg/cmd/auth/cani.go@dee3483a3d6a64c07fdf746caf80af446dee99ac resourceFor: the argument is
//   lower-cased; `a.b.c` is first tried as resource.version.group, then as resource.group.
// - kubernetes/client-go restmapper/shortcut.go@32ce75a7d6bc6960fd048d3d1e3b34185418d8c8 expandResourceShortcut: a
//   plural or singular is never expanded; a short name expands to the first resource in discovery order that has it
//   (the others get the warning `short name "x" could also match lower priority resource r.g`); with a group that
//   has no such short name, the first whose group starts with the one given.
// - kubernetes/apimachinery pkg/api/meta/restmapper.go@eed236ceee2c19c2753a3d93ac0631dc20750454 ResourcesFor:
//   plural or singular; with a group, the exact group, else every group it is a prefix of (`deployments.ap`).
// - client-go restmapper/discovery.go NewDiscoveryRESTMapper and apimachinery pkg/api/meta/priority.go
//   ResourceFor: among several, the core group first, then the groups in discovery order.
// The catalogues below are in discovery order (core, the built-in groups, then the CRD groups by name), as
// kube-apiserver serves them (see test/apiserver/discovery.test.ts).
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import {
  inServerOrder,
  resolveResource,
  resolveResourceNoting,
} from '../../../src/crossplane/resolve-resource.js';
import type { KnownResource } from '../../../src/crossplane/resource-names.js';

const r = (
  group: string,
  plural: string,
  kind: string,
  shortNames: string[] = [],
  versions = ['v1'],
): KnownResource => ({
  group,
  versions,
  plural,
  singular: kind.toLowerCase(),
  kind,
  shortNames,
  namespaced: true,
  source: group === '' || !group.includes('.') || group.endsWith('.k8s.io') ? 'discovery' : 'crd',
});

/** As examples/cluster is served: built-in groups by priority, then the CRD groups by name. */
const SERVED: readonly KnownResource[] = [
  r('', 'configmaps', 'ConfigMap', ['cm']),
  r('', 'secrets', 'Secret'),
  r('apps', 'deployments', 'Deployment', ['deploy']),
  r('rbac.authorization.k8s.io', 'roles', 'Role'),
  r('apigateway.aws.upbound.io', 'deployments', 'Deployment', [], ['v1beta1']),
  r('apps.example.org', 'deployments', 'Deployment'),
  r('cognitoidp.aws.upbound.io', 'users', 'User', [], ['v1beta1']),
  r('elasticache.aws.upbound.io', 'users', 'User', [], ['v1beta1']),
  r('iam.aws.upbound.io', 'roles', 'Role', [], ['v1beta1']),
  r('iam.aws.upbound.io', 'users', 'User', [], ['v1beta1']),
  r('one.example.org', 'widgets', 'Widget', ['wd']),
  r('secretsmanager.aws.upbound.io', 'secrets', 'Secret', [], ['v1beta1']),
  r('two.example.org', 'gadgets', 'Gadget', ['wd', 'cm']),
  r('two.example.org', 'wds', 'Wd'),
];

const cases: readonly (readonly [string, string, string[]?])[] = [
  ['deployments', 'deployments.apps', ['apigateway.aws.upbound.io', 'apps.example.org']],
  ['Deployment', 'deployments.apps', ['apigateway.aws.upbound.io', 'apps.example.org']],
  ['deployments.apps', 'deployments.apps'],
  ['deployments.v1.apps', 'deployments.apps'],
  ['deployments.ap', 'deployments.apps', ['apigateway.aws.upbound.io', 'apps.example.org']],
  ['deployment.app', 'deployments.apps', ['apps.example.org']],
  ['deploy', 'deployments.apps'],
  ['deploy.ap', 'deployments.apps'],
  ['deployments.apigateway', 'deployments.apigateway.aws.upbound.io'],
  ['deployments.v1beta1.apigateway.aws.upbound.io', 'deployments.apigateway.aws.upbound.io'],
  ['roles', 'roles.rbac.authorization.k8s.io', ['iam.aws.upbound.io']],
  ['secret', 'secrets', ['secretsmanager.aws.upbound.io']],
  ['users', 'users.cognitoidp.aws.upbound.io', ['elasticache.aws.upbound.io', 'iam.aws.upbound.io']],
  ['USERS.IAM.AWS.UPBOUND.IO', 'users.iam.aws.upbound.io'],
  ['users.iam', 'users.iam.aws.upbound.io'],
  // A short name: the first group in discovery order that has it; kubectl warns of the others itself.
  ['wd', 'wds.two.example.org'],
  ['gadget', 'gadgets.two.example.org'],
  ['cm', 'configmaps', ['two.example.org']],
  ['wd.one.example.org', 'widgets.one.example.org'],
  ['wd.one', 'widgets.one.example.org'],
  ['cm.two.example.org', 'gadgets.two.example.org'],
];

describe('resolveResource picks what kubectl picks', () => {
  it.each(cases.map(([name, want, others]) => ({ name, want, others: others ?? [] })))(
    '$name is $want',
    ({ name, want, others }) => {
      const { resource, warnings } = resolveResourceNoting(name, SERVED, 'get');
      expect(resource.group === '' ? resource.resource : `${resource.resource}.${resource.group}`).toBe(want);
      expect(warnings).toHaveLength(others.length);
      for (const [i, group] of others.entries()) expect(warnings[i]).toContain(`.${group}`);
    },
  );

  it("a short name two groups give: the first, with kubectl's own warning for the other", () => {
    const served = SERVED.filter((k: KnownResource) => k.plural !== 'wds');
    const { resource, warnings } = resolveResourceNoting('wd', served, 'get');
    expect(resource).toMatchObject({ group: 'one.example.org', resource: 'widgets' });
    expect(warnings).toEqual([
      'short name "wd" could also match lower priority resource gadgets.two.example.org',
    ]);
  });

  it('the warning of a resource many groups serve names the one answered and the others', () => {
    expect(resolveResourceNoting('roles', SERVED).warnings).toEqual([
      'resource "roles" could also match lower priority resource roles.iam.aws.upbound.io' +
        ' (roles.rbac.authorization.k8s.io answered, as kubectl picks it)',
    ]);
  });

  it('refuses what kubectl does not find, with the closest names', () => {
    expect(() => resolveResource('deployments.appz', SERVED)).toThrow(UsageError);
    expect(() => resolveResource('deployments.appz', SERVED)).toThrow(
      `the server doesn't have a resource type "deployments.appz"`,
    );
    // A prefix of the group, never a suffix.
    expect(() => resolveResource('users.aws.upbound.io', SERVED)).toThrow(/doesn't have a resource type/);
  });

  it('two resources of one group answering to one name are still ambiguous', () => {
    const served = [...SERVED, r('two.example.org', 'gadgetz', 'Gadget')];
    expect(() => resolveResource('gadget', served)).toThrow(
      'resource "gadget" is ambiguous: gadgets.two.example.org, gadgetz.two.example.org',
    );
  });
});

describe('inServerOrder: files have no discovery, so the order is the one kube-apiserver would serve', () => {
  it('core, then the built-in groups by their priorities, then the other groups by name', () => {
    const files = [
      r('zeta.example.org', 'things', 'Thing'),
      r('apiextensions.k8s.io', 'customresourcedefinitions', 'CustomResourceDefinition'),
      r('alpha.example.org', 'things', 'Thing'),
      r('rbac.authorization.k8s.io', 'roles', 'Role'),
      r('apps', 'deployments', 'Deployment'),
      r('', 'pods', 'Pod'),
      r('authorization.k8s.io', 'subjectaccessreviews', 'SubjectAccessReview'),
    ];
    expect(inServerOrder(files).map((k) => k.group)).toEqual([
      '',
      'apps',
      'authorization.k8s.io',
      'rbac.authorization.k8s.io',
      'apiextensions.k8s.io',
      'alpha.example.org',
      'zeta.example.org',
    ]);
    expect(resolveResource('things', inServerOrder(files)).group).toBe('alpha.example.org');
  });
});
