// Writes the example clusters in examples/ (see examples/README.md).
//
//   tsx scripts/generate-examples.ts [--out DIR] [--inventories DIR]
//
// The output is deterministic: uids are derived from names, timestamps are fixed, lists are sorted. The CRD names
// of the providers come from CRD inventories (plain name lists of the real provider packages) read from
// --inventories (default: test/fixtures/real, whose README names each inventory's source). The roles Kubernetes,
// the Crossplane chart and Config Sync install are read from their vendored copies in test/fixtures/ and
// aggregated by src/authz/aggregate.ts. The generated YAML is committed, so the examples need neither this script
// nor the inventories; re-run it only to change the examples. The parts live in scripts/examples/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CROSSPLANE_VERSION, crossplaneChart } from './examples/chart.js';
import {
  clusterNamespaces,
  compositionCrds,
  configSync,
  crossplaneCrds,
  platformTeamBinding,
  tenantRbac,
} from './examples/cluster.js';
import { compositionObjects } from './examples/compositions.js';
import { readByPackage, readCrdDetails } from './examples/inventories.js';
import { definedCrds } from './examples/defined-crds.js';
import { DEFAULT_INVENTORIES, largeNamespaces, largePackages, largeXrds } from './examples/large.js';
import { write } from './examples/output.js';
import {
  UPBOUND_AWS_PREVIOUS,
  UPBOUND_AWS_VERSION,
  installingProvider,
  mergePackages,
  packageDocs,
  smallProviders,
  upboundAwsFamily,
} from './examples/packages.js';
import { aggregateGroups, kubernetesBootstrapRoles } from './examples/reference-roles.js';
import { clusterXrds } from './examples/xrds.js';
import type { ClusterRole } from '../src/kube/types.js';

export { fullFamilyYaml } from './examples/large.js';

const repoRoot = path.resolve(import.meta.dirname, '..');

interface Options {
  out: string;
  inventories: string;
}

function parseArgs(argv: readonly string[]): Options {
  const opts: Options = { out: path.join(repoRoot, 'examples'), inventories: DEFAULT_INVENTORIES };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--out') opts.out = path.resolve(value());
    else if (flag === '--inventories') opts.inventories = path.resolve(value());
    else if (flag === '-h' || flag === '--help') {
      process.stdout.write('usage: tsx scripts/generate-examples.ts [--out DIR] [--inventories DIR]\n');
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}`);
  }
  return opts;
}

function main(): void {
  const opts = parseArgs(process.argv.slice(2));
  const v123 = readByPackage(opts.inventories, 'provider-upjet-aws-v1.23.0-crds-by-package.tsv');
  // Each package CRD's kind, scope and versions, as its package declares them.
  const details = readCrdDetails(opts.inventories);
  const chart = crossplaneChart();
  const configSyncObjects = configSync();
  const configSyncRoles = configSyncObjects.filter((o): o is ClusterRole => o.kind === 'ClusterRole');
  const [bootstrap = [], chartRoles = []] = aggregateGroups(
    kubernetesBootstrapRoles(),
    chart.roles,
    configSyncRoles,
  );

  const familyServices = [
    'provider-aws-s3',
    'provider-aws-ec2',
    'provider-aws-iam',
    'provider-aws-rds',
    'provider-aws-eks',
    'provider-aws-lambda',
    'provider-aws-kms',
    'provider-aws-sqs',
    'provider-aws-sns',
    'provider-aws-route53',
    'provider-aws-elasticache',
    'provider-aws-dynamodb',
    'provider-aws-cloudwatch',
    'provider-aws-cloudwatchlogs',
    'provider-aws-apigateway',
    'provider-aws-secretsmanager',
    'provider-aws-ecr',
    'provider-aws-ecs',
    'provider-aws-efs',
    'provider-aws-elbv2',
    'provider-aws-acm',
    'provider-aws-autoscaling',
    'provider-aws-cloudfront',
    'provider-aws-cognitoidp',
  ];
  const packages = mergePackages([
    ...upboundAwsFamily(v123, familyServices, { previous: ['provider-aws-s3'] }),
    ...smallProviders(opts.inventories),
    installingProvider(),
  ]);

  const written = [];
  const c = (rel: string): string => path.join('cluster', rel);
  written.push(
    write(
      opts.out,
      c('05-crds.yaml'),
      [...crossplaneCrds(), ...compositionCrds()],
      'CustomResourceDefinitions of the Crossplane and Config Sync kinds used below (schemas elided).',
    ),
  );
  written.push(
    write(
      opts.out,
      c('00-namespaces.yaml'),
      clusterNamespaces(),
      'Namespaces; some accept XRDs for claims / namespaced XRs (rbac.crossplane.io/<xrd>: xrd-claim-accepted).',
    ),
  );
  written.push(
    write(
      opts.out,
      c('10-kubernetes-bootstrap-rbac.yaml'),
      bootstrap,
      "Kubernetes' bootstrap cluster-admin/admin/edit/view and their aggregate-to roles; aggregated .rules as the controller stores them.",
    ),
  );
  written.push(
    write(
      opts.out,
      c('20-crossplane.yaml'),
      [...chart.serviceAccounts, ...chartRoles, ...chart.bindings, chart.deployment],
      `Crossplane ${CROSSPLANE_VERSION} as its Helm chart renders it (release crossplane, rbacManager.deploy=true; the RBAC manager Deployment itself is not running here).`,
    ),
  );
  written.push(
    write(
      opts.out,
      c('30-providers.yaml'),
      packageDocs(packages),
      `Upbound AWS provider family ${UPBOUND_AWS_VERSION} (provider-family-aws + ${familyServices.length} services; provider-aws-s3 also has an inactive ${UPBOUND_AWS_PREVIOUS} revision), provider-kubernetes and provider-helm; provider-sql is still being installed (no objectRefs yet).`,
    ),
  );
  written.push(
    write(
      opts.out,
      c('40-xrds.yaml'),
      clusterXrds(),
      'CompositeResourceDefinitions: v1 with and without claims, v2 namespaced, v2 Cluster and LegacyCluster.',
    ),
  );
  written.push(
    write(
      opts.out,
      c('45-defined-crds.yaml'),
      definedCrds([...packageDocs(packages), ...clusterXrds()], details),
      "The CustomResourceDefinitions Crossplane created for the XRDs and provider packages above, with its owner references (an XRD controls its XR's and claim's; a package's active revision controls its CRDs, the others own them).",
    ),
  );
  written.push(
    write(
      opts.out,
      c('50-config-sync.yaml'),
      configSyncObjects,
      'Config Sync: RootSync root-sync with spec.override.roleRefs; its reconciler is still bound to cluster-admin.',
    ),
  );
  written.push(
    write(
      opts.out,
      c('55-tenant-rbac.yaml'),
      tenantRbac(),
      "A team's RBAC in its namespace sandbox: User ns-reader may read its Roles and RoleBindings (and nothing cluster-wide); Group sandbox-devs is bound to edit there.",
    ),
  );

  written.push(
    write(
      opts.out,
      c('60-compositions.yaml'),
      compositionObjects(),
      'Compositions of the XRDs above (function pipelines, and one Crossplane v1-style spec.resources composition), live XRs with their resourceRefs, Warning events of forbidden composed resources, and a WatchOperation.',
    ),
  );

  written.push(
    write(
      opts.out,
      path.join('audit', 'platform-team.yaml'),
      platformTeamBinding(),
      'Read with examples/cluster by `audit`: the group platform-engineers bound to crossplane-edit in every namespace.',
    ),
  );

  const largeX = largeXrds();
  const largeP = largePackages(opts.inventories);
  const [largeBootstrap = [], largeChart = []] = aggregateGroups(kubernetesBootstrapRoles(), chart.roles);
  written.push(
    write(
      opts.out,
      path.join('large', 'cluster.yaml'),
      [
        ...crossplaneCrds(),
        ...largeNamespaces(largeX),
        ...largeBootstrap,
        ...chart.serviceAccounts,
        ...largeChart,
        ...chart.bindings,
        chart.deployment,
        ...packageDocs(largeP),
        ...largeX,
        ...definedCrds([...packageDocs(largeP), ...largeX], details),
      ],
      'Large generated cluster for benchmarks: every AWS v1.23.0 package, a second AWS family from another organisation, 200+ XRDs, 600 namespaces.',
    ),
  );
  process.stdout.write(written.map((f) => `wrote ${path.join(opts.out, f)}\n`).join(''));
}

// Run as a script (not when imported by the benchmarks).
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (err) {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
}
