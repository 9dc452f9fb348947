// The large example (benchmarks): every v1.23.0 AWS package, a second AWS family from another organisation,
// hundreds of XRDs and namespaces; and the full family, never written to examples/.
import path from 'node:path';
import type { KubeObject } from '../../src/kube/types.js';
import { crossplaneChart } from './chart.js';
import { crossplaneCrds } from './cluster.js';
import { CROSSPLANE_INSTALLED, CROSSPLANE_NS } from './ids.js';
import { readByPackage } from './inventories.js';
import { ACCEPTED, namespace } from './objects.js';
import { toYaml } from './output.js';
import { contribFamilyPackage, mergePackages, packageDocs, smallProviders, upboundAwsFamily, type Packages } from './packages.js';
import { aggregateGroups, kubernetesBootstrapRoles } from './reference-roles.js';
import { xrd } from './xrds.js';

export const DEFAULT_INVENTORIES = path.resolve(import.meta.dirname, '..', '..', 'test', 'fixtures', 'real');

const WORDS = [
  'account',
  'alarm',
  'api',
  'app',
  'backup',
  'bastion',
  'batch',
  'bucket',
  'cache',
  'certificate',
  'cluster',
  'cdn',
  'database',
  'dashboard',
  'dns',
  'eventbus',
  'firewall',
  'function',
  'gateway',
  'identity',
  'index',
  'ingress',
  'keyvault',
  'lake',
  'loadbalancer',
  'logging',
  'mesh',
  'monitor',
  'network',
  'nodepool',
  'notebook',
  'pipeline',
  'queue',
  'registry',
  'replica',
  'repository',
  'role',
  'schedule',
  'search',
  'secretstore',
  'service',
  'snapshot',
  'stream',
  'subnet',
  'table',
  'tenant',
  'topic',
  'vault',
  'volume',
  'warehouse',
  'webapp',
  'workflow',
];
const DOMAINS = ['platform.acme.io', 'infra.acme.io', 'data.acme.io', 'apps.acme.io', 'security.acme.io'];

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function largeXrds(): KubeObject[] {
  const xrds: KubeObject[] = [];
  let i = 0;
  for (const domain of DOMAINS) {
    for (const word of WORDS) {
      const mode = i % 4; // v1 claim, v2 namespaced, v2 namespaced, v1 without claim
      const kind = capitalize(word);
      if (mode === 0)
        xrds.push(
          xrd({
            api: 'v1',
            plural: `x${word}s`,
            group: domain,
            kind: `X${kind}`,
            claim: { kind, plural: `${word}s` },
          }),
        );
      else if (mode === 3)
        xrds.push(xrd({ api: 'v1', plural: `x${word}s`, group: `cluster.${domain}`, kind: `X${kind}` }));
      else xrds.push(xrd({ api: 'v2', plural: `${word}s`, group: domain, kind }));
      i++;
    }
  }
  xrds.push(
    xrd({
      api: 'v2',
      plural: 'organizations',
      group: 'platform.acme.io',
      kind: 'Organization',
      scope: 'Cluster',
    }),
  );
  // Longer than 63 characters: an annotation key's name part cannot hold it, so enable-xrd lists it in the
  // rbac.crossplane.io/enabled-xrds annotation instead.
  xrds.push(
    xrd({
      api: 'v2',
      plural: 'managedkubernetesclusterswithnodepools',
      group: 'compute.platform.internal.acme-corp.io',
      kind: 'ManagedKubernetesClusterWithNodePools',
    }),
  );
  return xrds;
}

export function largeNamespaces(xrds: readonly KubeObject[]): KubeObject[] {
  const namespaced = xrds.filter((x) => {
    const spec = x.spec as { claimNames?: unknown; scope?: string };
    return spec.claimNames !== undefined || (x.apiVersion.endsWith('/v2') && spec.scope === 'Namespaced');
  });
  const shortNames = namespaced.map((x) => x.metadata.name).filter((n) => n.length <= 63);
  const longNames = namespaced.map((x) => x.metadata.name).filter((n) => n.length > 63);
  const out = [
    namespace('default'),
    namespace('kube-system'),
    namespace('kube-public'),
    namespace('kube-node-lease'),
    namespace(CROSSPLANE_NS, { created: CROSSPLANE_INSTALLED }),
    namespace('config-management-system', { created: CROSSPLANE_INSTALLED }),
  ];
  for (let n = 0; n < 600; n++) {
    const name = `team-${String(n).padStart(3, '0')}`;
    // Two namespaces in three accept one to four XRDs; every tenth also the long-named one.
    const annotations: Record<string, string> = {};
    if (n % 3 !== 2) {
      for (let k = 0; k < 1 + (n % 4); k++)
        annotations[`rbac.crossplane.io/${shortNames[(n * 7 + k * 13) % shortNames.length] ?? ''}`] = ACCEPTED;
    }
    if (n % 10 === 0 && longNames.length > 0)
      annotations['rbac.crossplane.io/enabled-xrds'] = longNames.join(',');
    out.push(
      namespace(name, {
        labels: { 'acme.io/team': name, 'acme.io/cost-center': `cc-${n % 17}` },
        annotations,
      }),
    );
  }
  return out;
}

export function largePackages(inventories: string): Packages {
  const v1 = readByPackage(inventories, 'provider-upjet-aws-v1.23.0-crds-by-package.tsv');
  const services = [...v1.keys()].filter((p) => p !== 'provider-family-aws').sort();
  const upbound = upboundAwsFamily(v1, services, { previous: services.filter((_, i) => i % 15 === 0) });
  // The same family label from another organisation (crossplane-contrib, v2 line with namespaced .m. groups):
  // Crossplane does not merge its resources into the Upbound packages' roles, nor the other way round.
  const main = readByPackage(inventories, 'provider-upjet-aws-crds-by-package.tsv');
  const contrib = [
    'provider-family-aws',
    'provider-aws-s3',
    'provider-aws-ec2',
    'provider-aws-iam',
    'provider-aws-rds',
    'provider-aws-eks',
    'provider-aws-lambda',
    'provider-aws-sqs',
  ].map((pkg) => contribFamilyPackage(pkg, main.get(pkg) ?? []));
  return mergePackages([...upbound, ...contrib, ...smallProviders(inventories)]);
}


// ---------------------------------------------------------------------------------------------------------------
// The full family (benchmarks only, never written to examples/): every package of crossplane-contrib's
// provider-upjet-aws at v2.6.0, 177 revisions holding all of its 2,065 CRDs, with the Crossplane chart around them.
// Every member's roles hold the whole family, as Crossplane makes them, so `sync -f` of this renders >100 MB.

/** The documents of the full-family cluster, as one multi-document YAML text. */
export function fullFamilyYaml(inventories: string = DEFAULT_INVENTORIES): string {
  const byPackage = readByPackage(inventories, 'provider-upjet-aws-crds-by-package.tsv');
  const packages = mergePackages(
    [...byPackage.keys()].sort().map((pkg) => contribFamilyPackage(pkg, byPackage.get(pkg) ?? [])),
  );
  const chart = crossplaneChart();
  const [bootstrap = [], chartRoles = []] = aggregateGroups(kubernetesBootstrapRoles(), chart.roles);
  return toYaml(
    [
      ...crossplaneCrds(),
      namespace(CROSSPLANE_NS, { created: CROSSPLANE_INSTALLED }),
      ...bootstrap,
      ...chart.serviceAccounts,
      ...chartRoles,
      ...chart.bindings,
      chart.deployment,
      ...packageDocs(packages),
    ],
    'The whole crossplane-contrib provider-upjet-aws family (benchmarks).',
  );
}
