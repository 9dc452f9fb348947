import { describe, expect, it } from 'vitest';
import { parseForbidden } from '../../../src/composed/forbidden.js';

// Messages as Kubernetes' API server words them (apiserver responsewriters forbiddenMessage, wrapped by
// apimachinery's NewForbidden), copied from the public reports named beside each.
describe('parseForbidden', () => {
  it('ReadsANamespacedDenialWithItsObjectName', () => {
    // crossplane/crossplane#6895 (Crossplane v2, a composed CronJob).
    const msg =
      'cannot compose resources: cannot apply composed resource "example-agent": cronjobs.batch "example-agent" is forbidden: User "system:serviceaccount:crossplane-system:crossplane" cannot patch resource "cronjobs" in API group "batch" in the namespace "testteam"';
    expect(parseForbidden(msg)).toEqual([
      {
        user: 'system:serviceaccount:crossplane-system:crossplane',
        verb: 'patch',
        group: 'batch',
        resource: 'cronjobs',
        namespace: 'testteam',
        name: 'example-agent',
      },
    ]);
  });

  it('ReadsTheClusterScope', () => {
    // crossplane-contrib/provider-kubernetes#171.
    const msg =
      'cannot generate a name for composed resource "service-account": objects.kubernetes.crossplane.io "my-app-irsa-nfl8r-mgmzx" is forbidden: User "system:serviceaccount:crossplane-system:crossplane" cannot get resource "objects" in API group "kubernetes.crossplane.io" at the cluster scope';
    expect(parseForbidden(msg)).toEqual([
      {
        user: 'system:serviceaccount:crossplane-system:crossplane',
        verb: 'get',
        group: 'kubernetes.crossplane.io',
        resource: 'objects',
        name: 'my-app-irsa-nfl8r-mgmzx',
      },
    ]);
  });

  it('ReadsADenialWithoutAnObjectName', () => {
    // crossplane-contrib/provider-tencentcloud#2 (a dry-run create to name a composed resource).
    const msg =
      'cannot render composed resource from resource template at index 0: cannot use dry-run create to name composed resource: vpcs.vpc.tencentcloud.jet.crossplane.io is forbidden: User "system:serviceaccount:crossplane-system:crossplane" cannot create resource "vpcs" in API group "vpc.tencentcloud.jet.crossplane.io" at the cluster scope';
    const [r] = parseForbidden(msg);
    expect(r).toEqual({
      user: 'system:serviceaccount:crossplane-system:crossplane',
      verb: 'create',
      group: 'vpc.tencentcloud.jet.crossplane.io',
      resource: 'vpcs',
    });
  });

  it('ReadsTheCoreGroupAsEmpty', () => {
    // composable-operator/composable#104 (a core-group Service).
    const msg =
      'services is forbidden: User "system:serviceaccount:composable-system:composable-controller-manager" cannot create resource "services" in API group "" in the namespace "default"';
    expect(parseForbidden(msg)).toEqual([
      {
        user: 'system:serviceaccount:composable-system:composable-controller-manager',
        verb: 'create',
        group: '',
        resource: 'services',
        namespace: 'default',
      },
    ]);
  });

  it('SplitsASubresource', () => {
    const msg =
      'cronjobs.batch "nightly" is forbidden: User "system:serviceaccount:crossplane-system:crossplane" cannot update resource "cronjobs/status" in API group "batch" in the namespace "team-a"';
    expect(parseForbidden(msg)[0]).toMatchObject({ resource: 'cronjobs', subresource: 'status' });
  });

  it('IgnoresTheAuthorizersReasonAfterTheMessage', () => {
    const msg =
      'ingresses.networking.k8s.io is forbidden: User "system:serviceaccount:crossplane-system:crossplane" cannot list resource "ingresses" in API group "networking.k8s.io" at the cluster scope: RBAC: clusterrole.rbac.authorization.k8s.io "crossplane-extra" not found';
    expect(parseForbidden(msg)).toEqual([
      {
        user: 'system:serviceaccount:crossplane-system:crossplane',
        verb: 'list',
        group: 'networking.k8s.io',
        resource: 'ingresses',
      },
    ]);
  });

  it('ReadsEveryDenialOfAJoinedError', () => {
    const one = (r: string, g: string): string =>
      `${r}.${g} "x" is forbidden: User "system:serviceaccount:crossplane-system:crossplane" cannot patch resource "${r}" in API group "${g}" in the namespace "a"`;
    const msg = `cannot compose resources: [${one('ingresses', 'networking.k8s.io')}, ${one('jobs', 'batch')}]`;
    expect(parseForbidden(msg).map((r) => `${r.resource}.${r.group}`)).toEqual([
      'ingresses.networking.k8s.io',
      'jobs.batch',
    ]);
  });

  it('FindsNothingInOtherMessages', () => {
    expect(parseForbidden('cannot compose resources: Timeout: failed waiting for Informer to sync')).toEqual(
      [],
    );
    // The escalation check's message names no resource request of the user.
    expect(
      parseForbidden(
        'clusterroles.rbac.authorization.k8s.io "x" is forbidden: user "hank" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held',
      ),
    ).toEqual([]);
    expect(parseForbidden('')).toEqual([]);
  });

  it('UnquotesGoEscapes', () => {
    const msg =
      'foos.example.org is forbidden: User "weird\\"name" cannot get resource "foos" in API group "example.org" at the cluster scope';
    expect(parseForbidden(msg)[0]?.user).toBe('weird"name');
  });
});
