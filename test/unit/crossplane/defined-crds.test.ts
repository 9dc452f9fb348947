// Live, an XRD or revision is rendered only when the CRDs it names are its own, as Crossplane made them:
// crossplane/crossplane internal/controller/pkg/revision/establisher.go@cc8eeb4f201904da32f27da8b4a83f31fa4bed1f
// prepareApply sets the establishing (active) revision as controller and adds every other revision as a
// non-controller owner; the definition controller makes the XRD the controller of its XR's and claim's CRDs.
import { describe, expect, it } from 'vitest';
import { findForeignDefinitions } from '../../../src/crossplane/defined-crds.js';
import type { KubeObject, OwnerReference, ProviderRevision } from '../../../src/kube/types.js';
import { rev, xrd } from '../sync/sync-fixtures.js';

function crd(name: string, owners: OwnerReference[] = []): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name, uid: `uid-crd-${name}`, ownerReferences: owners },
  };
}

const ctrl = (kind: string, name: string, uid: string): OwnerReference => ({
  apiVersion: kind === 'ProviderRevision' ? 'pkg.crossplane.io/v1' : 'apiextensions.crossplane.io/v1',
  kind,
  name,
  uid,
  controller: true,
  blockOwnerDeletion: true,
});
const owner = (name: string, uid: string): OwnerReference => ({
  apiVersion: 'pkg.crossplane.io/v1',
  kind: 'ProviderRevision',
  name,
  uid,
});

const claimable = xrd('xs.a.io', { claimNames: { kind: 'C', plural: 'cs' } });
const xrdCrds = [
  crd('xs.a.io', [ctrl('CompositeResourceDefinition', 'xs.a.io', 'uid-xs.a.io')]),
  crd('cs.a.io', [ctrl('CompositeResourceDefinition', 'xs.a.io', 'uid-xs.a.io')]),
];
const active = rev('provider-a-2', ['things.a.io'], { provider: 'provider-a' });
const inactive = rev('provider-a-1', ['things.a.io'], { provider: 'provider-a' });
const stranger = rev('provider-b-1', ['things.a.io'], { provider: 'provider-b' });
const sameProvider = (r: ProviderRevision): ProviderRevision[] =>
  [active, inactive, stranger].filter(
    (m) =>
      m.metadata.labels?.['pkg.crossplane.io/package'] === r.metadata.labels?.['pkg.crossplane.io/package'],
  );

const reasons = (xrds: ReturnType<typeof xrd>[], revs: ProviderRevision[], crds: KubeObject[]): string[][] =>
  findForeignDefinitions(xrds, revs, crds, sameProvider).map((f) => [f.object.metadata.name, f.reason]);

describe('CRDs an owner names are its own', () => {
  it('XrdControlsItsXrAndClaimCrds', () => {
    expect(reasons([claimable], [], xrdCrds)).toStrictEqual([]);
  });

  it('XrdWhoseClaimCrdIsMissing: not made yet, held until it is', () => {
    const [got] = reasons([claimable], [], xrdCrds.slice(0, 1));
    expect(got?.[1]).toMatch(/^its CustomResourceDefinition "cs\.a\.io" does not exist \(yet\)/);
  });

  it('XrdNamingAnotherXrdsCrd: a CRD another XRD controls would grant its resources', () => {
    const other = xrd('ys.a.io', { names: { kind: 'X', plural: 'xs' } });
    const [got] = reasons([other], [], xrdCrds);
    expect(got).toStrictEqual([
      'ys.a.io',
      'its CustomResourceDefinition "xs.a.io" is controlled by CompositeResourceDefinition "xs.a.io", not by this XRD: its roles would grant another owner\'s resources',
    ]);
  });

  it('XrdOverAnUnownedCrd: a CRD someone applied by hand is nobody’s to grant', () => {
    const [got] = reasons([xrd('xs.a.io', {})], [], [crd('xs.a.io')]);
    expect(got?.[1]).toMatch(/has no controller, not by this XRD/);
  });

  it('XrdWithTheSameNameButAnotherUid: a recreated XRD is not the one that controls the CRD', () => {
    const again = xrd('xs.a.io', {}, { uid: 'uid-new' });
    expect(reasons([again], [], xrdCrds)).toHaveLength(1);
  });

  const packageCrd = crd('things.a.io', [
    owner('provider-a-1', 'uid-provider-a-1'),
    ctrl('ProviderRevision', 'provider-a-2', 'uid-provider-a-2'),
  ]);

  it('ActiveRevisionControlsItsCrd', () => {
    expect(reasons([], [active], [packageCrd])).toStrictEqual([]);
  });

  it('InactiveRevisionOwnsIt: establisher adds it as an owner, the active revision controls', () => {
    expect(reasons([], [inactive], [packageCrd])).toStrictEqual([]);
  });

  it('InactiveRevisionNotYetAnOwner: another revision of its provider controls it', () => {
    const onlyActive = crd('things.a.io', [ctrl('ProviderRevision', 'provider-a-2', 'uid-provider-a-2')]);
    expect(reasons([], [inactive], [onlyActive])).toStrictEqual([]);
  });

  it('AnotherProvidersRevisionNamesTheCrd: held', () => {
    const [got] = reasons([], [stranger], [packageCrd]);
    expect(got?.[1]).toMatch(
      /^its CustomResourceDefinition "things\.a\.io" is controlled by ProviderRevision "provider-a-2", not by this revision/,
    );
  });

  it('RevisionWhoseCrdIsMissing: held until the package has created it', () => {
    expect(reasons([], [active], [])[0]?.[1]).toMatch(/does not exist \(yet\)/);
  });

  it('MrdRefsAreNotChecked: the MRD controller makes those CRDs', () => {
    const mrd: ProviderRevision = {
      ...active,
      status: {
        objectRefs: [
          {
            apiVersion: 'apiextensions.crossplane.io/v1alpha1',
            kind: 'ManagedResourceDefinition',
            name: 'things.a.io',
          },
        ],
      },
    };
    expect(reasons([], [mrd], [])).toStrictEqual([]);
  });
});

describe('CRDs an owner names are its own, edge cases', () => {
  it('XrdWithoutClaimsNeedsOnlyItsXrCrd', () => {
    expect(reasons([xrd('xs.a.io', {})], [], xrdCrds.slice(0, 1))).toStrictEqual([]);
  });

  it('XrdWithoutUidAcceptsTheControllerByKindAndName: objects of a file carry no uid', () => {
    const noUid = xrd('xs.a.io', {});
    const { uid: _uid, ...metadata } = noUid.metadata;
    expect(reasons([{ ...noUid, metadata }], [], xrdCrds.slice(0, 1))).toStrictEqual([]);
  });

  it('XrdOverACrdAnotherKindControls: same name, but a ProviderRevision is the controller', () => {
    const crds = [crd('xs.a.io', [ctrl('ProviderRevision', 'xs.a.io', 'uid-xs.a.io')])];
    expect(reasons([xrd('xs.a.io', {})], [], crds)).toStrictEqual([
      [
        'xs.a.io',
        'its CustomResourceDefinition "xs.a.io" is controlled by ProviderRevision "xs.a.io", not by this XRD: its roles would grant another owner\'s resources',
      ],
    ]);
  });

  it('XrdControllerWithItsUidButAnotherName: the controller must name the XRD too', () => {
    const crds = [crd('xs.a.io', [ctrl('CompositeResourceDefinition', 'other.a.io', 'uid-xs.a.io')])];
    expect(reasons([xrd('xs.a.io', {})], [], crds)).toHaveLength(1);
  });

  it('XrdMissingCrdSaysSoInFull', () => {
    expect(reasons([xrd('xs.a.io', {})], [], [])).toStrictEqual([
      [
        'xs.a.io',
        'its CustomResourceDefinition "xs.a.io" does not exist (yet): Crossplane creates it for the XRD, and its roles are synced once it does',
      ],
    ]);
  });

  it('OnlyCrdsCount: another kind with the name of a CRD is no CRD', () => {
    const notCrd: KubeObject = { ...xrdCrds[0]!, kind: 'Other' };
    expect(reasons([xrd('xs.a.io', {})], [], [notCrd])[0]?.[1]).toMatch(/does not exist \(yet\)/);
  });

  it('RefsThatAreNoCrdsAreNotChecked', () => {
    const refs: ProviderRevision = {
      ...active,
      status: {
        objectRefs: [
          { apiVersion: 'example.org/v1', kind: 'CustomResourceDefinition', name: 'things.a.io' },
          { apiVersion: 'apiextensions.k8s.io/v1', kind: 'Other', name: 'things.a.io' },
          { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'nodot' },
        ],
      },
    };
    expect(reasons([], [refs], [])).toStrictEqual([]);
    const { status: _status, ...noStatus } = active;
    expect(reasons([], [noStatus as ProviderRevision], [])).toStrictEqual([]);
  });

  it('RevisionMissingCrdSaysSoInFull', () => {
    expect(reasons([], [active], [])).toStrictEqual([
      [
        'provider-a-2',
        'its CustomResourceDefinition "things.a.io" does not exist (yet): its roles are synced once the package has created it',
      ],
    ]);
  });

  it('AnotherRevisionAmongTheOwners: owning it means a reference with the revision uid', () => {
    const crds = [
      crd('things.a.io', [
        owner('provider-b-1', 'uid-provider-b-1'),
        owner('provider-a-2', 'uid-provider-a-2'),
      ]),
    ];
    expect(reasons([], [active], crds)).toStrictEqual([]);
    expect(
      reasons([], [active], [crd('things.a.io', [owner('provider-b-1', 'uid-provider-b-1')])]),
    ).toStrictEqual([
      [
        'provider-a-2',
        'its CustomResourceDefinition "things.a.io" has no controller, not by this revision, its provider or its family: its roles would grant another owner\'s resources',
      ],
    ]);
  });

  it('RevisionWithoutUidOwnsNothing: an owner reference without uid names no revision', () => {
    const { uid: _uid, ...metadata } = active.metadata;
    const noUid: ProviderRevision = { ...active, metadata };
    const crds = [
      crd('things.a.io', [
        {
          apiVersion: 'pkg.crossplane.io/v1',
          kind: 'ProviderRevision',
          name: 'provider-a-2',
        } as OwnerReference,
      ]),
    ];
    expect(findForeignDefinitions([], [noUid], crds, () => [])).toHaveLength(1);
  });

  it('KinMustControlAsAProviderRevision: a controller of another kind with a kin uid is no kin', () => {
    const crds = [crd('things.a.io', [ctrl('CompositeResourceDefinition', 'x', 'uid-provider-a-1')])];
    expect(reasons([], [active], crds)).toHaveLength(1);
  });

  it('KinWithoutUidIsNobody: a controller without uid is not matched by a kin without uid', () => {
    const { uid: _uid, ...metadata } = inactive.metadata;
    const noUidKin: ProviderRevision = { ...inactive, metadata };
    const crds = [
      crd('things.a.io', [
        { ...ctrl('ProviderRevision', 'provider-a-1', ''), uid: undefined } as unknown as OwnerReference,
      ]),
    ];
    expect(findForeignDefinitions([], [active], crds, () => [noUidKin])).toHaveLength(1);
  });
});
