import { describe, expect, it } from 'vitest';
import { checkNames, selectRevisions } from '../../../src/sync/filters.js';
import { renderSync } from '../../../src/sync/render.js';
import { SyncInputError } from '../../../src/crossplane/input-error.js';
import type { ProviderRevision } from '../../../src/kube/types.js';
import { rev, snapshot, xrd } from './sync-fixtures.js';

// Names as in examples/cluster: a Provider `upbound-provider-aws-s3` owns the revision
// `upbound-provider-aws-s3-e7585f0184b8` and labels it `pkg.crossplane.io/package: upbound-provider-aws-s3`
// (Crossplane's apis/pkg/v1 LabelParentPackage).
const withOwner = (name: string, provider: string): ProviderRevision => {
  const r = rev(name, []);
  return {
    ...r,
    metadata: {
      ...r.metadata,
      labels: {},
      ownerReferences: [
        { apiVersion: 'pkg.crossplane.io/v1', kind: 'Provider', name: provider, uid: 'u', controller: true },
      ],
    },
  };
};

const REVISIONS: ProviderRevision[] = [
  rev('crossplane-contrib-provider-sql-083e4a6fc6e2', [], { provider: 'crossplane-contrib-provider-sql' }),
  rev('crossplane-contrib-provider-sql-1b2c3d4e5f60', [], { provider: 'crossplane-contrib-provider-sql' }),
  rev('provider-local-0123456789ab', []),
  withOwner('provider-nop-aaaaaaaaaaaa', 'provider-nop'),
  rev('upbound-provider-aws-cloudwatch-10ce9bb807db', [], { provider: 'upbound-provider-aws-cloudwatch' }),
  rev('upbound-provider-aws-cloudwatchlogs-d6862e326be5', [], {
    provider: 'upbound-provider-aws-cloudwatchlogs',
  }),
  rev('upbound-provider-aws-ec2-84a79a0c96bd', [], { provider: 'upbound-provider-aws-ec2' }),
  rev('upbound-provider-aws-ecr-02755d7f90ad', [], { provider: 'upbound-provider-aws-ecr' }),
  rev('upbound-provider-aws-s3-e7585f0184b8', [], { provider: 'upbound-provider-aws-s3' }),
];

describe('--provider: which revisions a name picks', () => {
  const picks: Record<string, { reason: string; names: string[]; want: string[] }> = {
    ProviderName: {
      reason: "A Provider's name picks its revision (the sync --provider example of docs/commands/sync.md).",
      names: ['upbound-provider-aws-s3'],
      want: ['upbound-provider-aws-s3-e7585f0184b8'],
    },
    ProviderNameAllRevisions: {
      reason: "A Provider's name picks every revision it has.",
      names: ['crossplane-contrib-provider-sql'],
      want: ['crossplane-contrib-provider-sql-083e4a6fc6e2', 'crossplane-contrib-provider-sql-1b2c3d4e5f60'],
    },
    RevisionName: {
      reason: "A ProviderRevision's name picks that revision only, not its Provider's other one.",
      names: ['crossplane-contrib-provider-sql-083e4a6fc6e2'],
      want: ['crossplane-contrib-provider-sql-083e4a6fc6e2'],
    },
    ProviderFromControllerReference: {
      reason: 'Without the package label, the Provider is the controller owner reference.',
      names: ['provider-nop'],
      want: ['provider-nop-aaaaaaaaaaaa'],
    },
    UniqueProviderPrefix: {
      reason: 'The beginning of one Provider name only picks it.',
      names: ['upbound-provider-aws-s'],
      want: ['upbound-provider-aws-s3-e7585f0184b8'],
    },
    UniqueRevisionPrefix: {
      reason: 'The beginning of one revision name only picks it.',
      names: ['upbound-provider-aws-ec2-84'],
      want: ['upbound-provider-aws-ec2-84a79a0c96bd'],
    },
    PrefixOfOneProvidersRevisions: {
      reason: 'A prefix that only revisions of one Provider begin with is not ambiguous: it picks them.',
      names: ['crossplane-contrib-provider-sql-'],
      want: ['crossplane-contrib-provider-sql-083e4a6fc6e2', 'crossplane-contrib-provider-sql-1b2c3d4e5f60'],
    },
    ExactBeatsPrefix: {
      reason: 'A whole name wins over the longer names it begins (cloudwatch, not cloudwatchlogs).',
      names: ['upbound-provider-aws-cloudwatch'],
      want: ['upbound-provider-aws-cloudwatch-10ce9bb807db'],
    },
    PrefixOfRevisionWithoutProvider: {
      reason: 'A revision with no Provider is named by its own name, or the beginning of it.',
      names: ['provider-lo'],
      want: ['provider-local-0123456789ab'],
    },
    Several: {
      reason: 'Several names pick the union, in byte order, each name once.',
      names: ['upbound-provider-aws-ec2', 'crossplane-contrib', 'upbound-provider-aws-ec2'],
      want: [
        'crossplane-contrib-provider-sql-083e4a6fc6e2',
        'crossplane-contrib-provider-sql-1b2c3d4e5f60',
        'upbound-provider-aws-ec2-84a79a0c96bd',
      ],
    },
  };
  it.each(Object.entries(picks))('%s', (_n, tc) => {
    expect(selectRevisions(REVISIONS, tc.names), tc.reason).toEqual(tc.want);
  });

  const refused: Record<string, { reason: string; names: string[]; message: string; hint: string }> = {
    AmbiguousPrefix: {
      reason: 'A prefix several Providers begin with is an error listing them.',
      names: ['upbound-provider-aws-ec'],
      message:
        '--provider "upbound-provider-aws-ec" matches several Providers: upbound-provider-aws-ec2, upbound-provider-aws-ecr',
      hint: 'give a whole Provider or ProviderRevision name, or more of one',
    },
    AmbiguousPrefixOfAWholeName: {
      reason: 'One letter short of a whole name, both names that begin so are listed.',
      names: ['upbound-provider-aws-cloudwatc'],
      message:
        '--provider "upbound-provider-aws-cloudwatc" matches several Providers: upbound-provider-aws-cloudwatch, upbound-provider-aws-cloudwatchlogs',
      hint: 'give a whole Provider or ProviderRevision name, or more of one',
    },
    UnknownGetsTheClosest: {
      reason:
        'The README once said provider-aws-s3: the hint is the one name containing it, not the first ten names.',
      names: ['provider-aws-s3'],
      message: 'unknown providers: "provider-aws-s3"',
      hint: 'did you mean "upbound-provider-aws-s3"?',
    },
    UnknownTypo: {
      reason: 'A typo gets the name one edit away, not its longer neighbour.',
      names: ['upbound-provider-aws-cloudwach'],
      message: 'unknown providers: "upbound-provider-aws-cloudwach"',
      hint: 'did you mean "upbound-provider-aws-cloudwatch"?',
    },
    SeveralUnknown: {
      reason: 'Every unknown name is listed, each with its own closest names.',
      names: ['upbound-provider-aws-cloudwach', 'provider-aws-s3'],
      message: 'unknown providers: "provider-aws-s3", "upbound-provider-aws-cloudwach"',
      hint: 'for "provider-aws-s3", did you mean "upbound-provider-aws-s3"? for "upbound-provider-aws-cloudwach", did you mean "upbound-provider-aws-cloudwatch"?',
    },
    UnknownNothingClose: {
      reason: 'Nothing close: the hint says how to list the Providers instead of guessing.',
      names: ['helm'],
      message: 'unknown providers: "helm"',
      hint: 'list them with: kubectl get providers.pkg.crossplane.io',
    },
  };
  it.each(Object.entries(refused))('refuses %s', (_n, tc) => {
    let err: unknown;
    try {
      selectRevisions(REVISIONS, tc.names);
    } catch (e) {
      err = e;
    }
    expect(err, tc.reason).toBeInstanceOf(SyncInputError);
    expect((err as SyncInputError).message, tc.reason).toBe(tc.message);
    expect((err as SyncInputError).hint, tc.reason).toBe(tc.hint);
    expect((err as SyncInputError).field, tc.reason).toBe('provider');
  });

  it('refuses any name when there is no revision at all', () => {
    expect(() => selectRevisions([], ['upbound-provider-aws-s3'])).toThrow(
      expect.objectContaining({
        message: 'unknown providers: "upbound-provider-aws-s3"',
        hint: 'there are none',
      }),
    );
  });

  it('narrows sync to the picked revisions', () => {
    const snap = snapshot({ providerRevisions: REVISIONS });
    const out = renderSync(snap, { providers: ['upbound-provider-aws-s'], only: ['providers'] });
    const owners = new Set(
      out.objects.flatMap((o) => (o.metadata.ownerReferences ?? []).map((r) => `${r.kind}/${r.name}`)),
    );
    expect([...owners]).toEqual(['ProviderRevision/upbound-provider-aws-s3-e7585f0184b8']);
  });
});

describe('--xrd and namespaces: unknown names get the closest known ones', () => {
  const known = ['apps.platform.acme.io', 'xsqlinstances.aws.platform.upbound.io', 'buckets.storage.acme.io'];

  it('keeps known names, once each, in byte order', () => {
    expect(
      checkNames(
        'CompositeResourceDefinitions',
        'xrd',
        [known[1] ?? '', known[0] ?? '', known[1] ?? ''],
        known,
        '',
      ),
    ).toEqual(['apps.platform.acme.io', 'xsqlinstances.aws.platform.upbound.io']);
  });

  it('names the XRD one letter away', () => {
    const snap = snapshot({ xrds: known.map((n) => xrd(n)) });
    expect(() => renderSync(snap, { xrds: ['xsqlinstance.aws.platform.upbound.io'] })).toThrow(
      expect.objectContaining({
        message: 'unknown CompositeResourceDefinitions: "xsqlinstance.aws.platform.upbound.io"',
        hint: 'did you mean "xsqlinstances.aws.platform.upbound.io"?',
      }),
    );
  });

  it('says how to list them when none is close', () => {
    expect(() => checkNames('namespaces', 'namespace', ['zz'], ['team-a', 'team-b'], 'list them')).toThrow(
      expect.objectContaining({ message: 'unknown namespaces: "zz"', hint: 'list them' }),
    );
  });
});
