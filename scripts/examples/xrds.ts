// CompositeResourceDefinitions: v1 with and without claims, v2 namespaced, v2 Cluster and LegacyCluster.
import type { KubeObject } from '../../src/kube/types.js';
import { XRDS_CREATED, uid } from './ids.js';

type Param = 'region' | 'size' | 'storageGB' | 'version';

export interface XrdInput {
  readonly api: 'v1' | 'v2';
  readonly plural: string;
  readonly group: string;
  readonly kind: string;
  readonly claim?: { readonly kind: string; readonly plural: string };
  readonly scope?: 'Namespaced' | 'Cluster' | 'LegacyCluster';
  readonly params?: readonly Param[];
  readonly version?: string;
}

function schema(props: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return {
    openAPIV3Schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            parameters: { type: 'object', properties: props, required: Object.keys(props).slice(0, 1) },
          },
          required: ['parameters'],
        },
        status: { type: 'object', properties: { ready: { type: 'boolean' } } },
      },
    },
  };
}

const PARAMS: Readonly<Record<Param, Readonly<Record<string, unknown>>>> = {
  region: { type: 'string', description: 'Cloud region the resources are created in.' },
  size: { type: 'string', enum: ['small', 'medium', 'large'], default: 'small' },
  storageGB: { type: 'integer', minimum: 10 },
  version: { type: 'string' },
};

/**
 * An XRD. `kind` is 'v1' (apiextensions.crossplane.io/v1, optional claim), 'v2' (v2, scope Namespaced by
 * default), with `scope` 'Cluster' or 'LegacyCluster' for the other v2 scopes.
 */
export function xrd({
  api,
  plural,
  group,
  kind,
  claim,
  scope,
  params = ['region', 'size'],
  version = 'v1alpha1',
}: XrdInput): KubeObject {
  const name = `${plural}.${group}`;
  const singular = kind.toLowerCase();
  return {
    apiVersion: `apiextensions.crossplane.io/${api}`,
    kind: 'CompositeResourceDefinition',
    metadata: { name, uid: uid('CompositeResourceDefinition', name), creationTimestamp: XRDS_CREATED },
    spec: {
      group,
      names: { kind, listKind: `${kind}List`, plural, singular, categories: ['crossplane'] },
      ...(claim !== undefined
        ? {
            claimNames: {
              kind: claim.kind,
              listKind: `${claim.kind}List`,
              plural: claim.plural,
              singular: claim.kind.toLowerCase(),
            },
          }
        : {}),
      ...(api === 'v2' ? { scope: scope ?? 'Namespaced' } : {}),
      ...(api === 'v1' ? { defaultCompositionUpdatePolicy: 'Automatic' } : {}),
      versions: [
        {
          name: version,
          served: true,
          referenceable: true,
          schema: schema(Object.fromEntries(params.map((p) => [p, PARAMS[p]]))),
        },
      ],
    },
    status: {
      conditions: [
        {
          type: 'Established',
          status: 'True',
          reason: 'WatchingCompositeResource',
          lastTransitionTime: XRDS_CREATED,
        },
      ],
    },
  };
}

export function clusterXrds(): KubeObject[] {
  const claimOf = (kind: string, plural: string): { kind: string; plural: string } => ({ kind, plural });
  return [
    // v1 with claims (Crossplane v1 style, still served by v2)
    xrd({
      api: 'v1',
      plural: 'xclusters',
      group: 'aws.platformref.upbound.io',
      kind: 'XCluster',
      claim: claimOf('Cluster', 'clusters'),
    }),
    xrd({
      api: 'v1',
      plural: 'xsqlinstances',
      group: 'aws.platform.upbound.io',
      kind: 'XSQLInstance',
      claim: claimOf('SQLInstance', 'sqlinstances'),
      params: ['region', 'storageGB', 'version'],
    }),
    xrd({
      api: 'v1',
      plural: 'xworkloadidentities',
      group: 'gcp.platform.upbound.io',
      kind: 'XWorkloadIdentity',
      claim: claimOf('WorkloadIdentity', 'workloadidentities'),
    }),
    xrd({
      api: 'v1',
      plural: 'compositepostgresqlinstances',
      group: 'common.crossplane.io',
      kind: 'CompositePostgreSQLInstance',
      claim: claimOf('PostgreSQLInstance', 'postgresqlinstances'),
      params: ['storageGB', 'version'],
    }),
    xrd({
      api: 'v1',
      plural: 'xnopresources',
      group: 'nop.example.org',
      kind: 'XNopResource',
      claim: claimOf('NopResource', 'nopresources'),
    }),
    xrd({
      api: 'v1',
      plural: 'xpostgresqlinstances',
      group: 'database.platform.acme.io',
      kind: 'XPostgreSQLInstance',
      claim: claimOf('PostgreSQLInstance', 'postgresqlinstances'),
      params: ['region', 'storageGB', 'version'],
    }),
    xrd({
      api: 'v1',
      plural: 'xmysqlinstances',
      group: 'database.platform.acme.io',
      kind: 'XMySQLInstance',
      claim: claimOf('MySQLInstance', 'mysqlinstances'),
      params: ['region', 'storageGB', 'version'],
    }),
    xrd({
      api: 'v1',
      plural: 'xbuckets',
      group: 'storage.platform.acme.io',
      kind: 'XBucket',
      claim: claimOf('Bucket', 'buckets'),
    }),
    xrd({
      api: 'v1',
      plural: 'xredisclusters',
      group: 'cache.platform.acme.io',
      kind: 'XRedisCluster',
      claim: claimOf('RedisCluster', 'redisclusters'),
    }),
    xrd({
      api: 'v1',
      plural: 'xqueues',
      group: 'messaging.platform.acme.io',
      kind: 'XQueue',
      claim: claimOf('Queue', 'queues'),
    }),
    // v1 without a claim: cluster-scoped only, nothing for namespaces
    xrd({ api: 'v1', plural: 'xnetworks', group: 'aws.platform.upbound.io', kind: 'XNetwork' }),
    xrd({ api: 'v1', plural: 'xdnszones', group: 'network.platform.acme.io', kind: 'XDNSZone' }),
    // v2 namespaced XRs (the Crossplane v2 default)
    xrd({ api: 'v2', plural: 'networks', group: 'aws.platform.upbound.io', kind: 'Network' }),
    xrd({ api: 'v2', plural: 'eks', group: 'aws.platform.upbound.io', kind: 'EKS' }),
    xrd({ api: 'v2', plural: 'apps', group: 'platform.acme.io', kind: 'App', params: ['size', 'version'] }),
    xrd({
      api: 'v2',
      plural: 'databases',
      group: 'platform.acme.io',
      kind: 'Database',
      params: ['region', 'storageGB', 'version'],
    }),
    xrd({ api: 'v2', plural: 'caches', group: 'platform.acme.io', kind: 'Cache' }),
    xrd({
      api: 'v2',
      plural: 'webservices',
      group: 'platform.acme.io',
      kind: 'WebService',
      params: ['size', 'version'],
    }),
    xrd({ api: 'v2', plural: 'buckets', group: 'storage.acme.io', kind: 'Bucket' }),
    xrd({ api: 'v2', plural: 'topics', group: 'messaging.acme.io', kind: 'Topic' }),
    xrd({ api: 'v2', plural: 'iamroles', group: 'iam.platform.acme.io', kind: 'IAMRole' }),
    // v2 cluster-scoped, and a v2 LegacyCluster XRD that keeps its claim while it migrates
    xrd({
      api: 'v2',
      plural: 'tenants',
      group: 'platform.acme.io',
      kind: 'Tenant',
      scope: 'Cluster',
      params: ['size'],
    }),
    xrd({
      api: 'v2',
      plural: 'xlegacybuckets',
      group: 'storage.platform.acme.io',
      kind: 'XLegacyBucket',
      scope: 'LegacyCluster',
      claim: claimOf('LegacyBucket', 'legacybuckets'),
    }),
  ];
}
