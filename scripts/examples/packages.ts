// Installed provider packages: Providers, ProviderRevisions, and the Deployments and ServiceAccounts Crossplane
// makes for the active revisions.
import type { KubeObject, ObjectMeta } from '../../src/kube/types.js';
import { compareStrings } from '../../src/kube/order.js';
import {
  CROSSPLANE_NS,
  PROVIDERS_INSTALLED,
  PROVIDERS_UPGRADED,
  PROVIDER_INSTALLING,
  byName,
  revisionHash,
  uid,
} from './ids.js';
import { readInventoryLines, type CrdRow } from './inventories.js';
import { serviceAccount } from './objects.js';

/** The objects of one or more packages, by kind. */
export interface Packages {
  readonly providers: KubeObject[];
  readonly revisions: KubeObject[];
  readonly deployments: KubeObject[];
  readonly serviceAccounts: KubeObject[];
}

interface PackageInput {
  readonly name: string;
  readonly source: string;
  readonly images: readonly string[];
  readonly crds: readonly Pick<CrdRow, 'name' | 'kind'>[];
  readonly family?: string;
  readonly refKind?: 'crd' | 'mrd';
  readonly capabilities?: readonly string[];
  readonly created: string;
  readonly installing?: boolean;
}

interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
}

/**
 * One installed provider package: the Provider, its revisions (the last one active), and the runtime Deployment
 * and ServiceAccount Crossplane makes for the active revision (named like the revision, owned by it).
 * `installing`: the active revision is not healthy yet, so Crossplane has established none of its objects (no
 * status.objectRefs) and made no Deployment or ServiceAccount (it makes them once the revision is healthy).
 */
function providerPackage({
  name,
  source,
  images,
  crds,
  family,
  refKind = 'crd',
  capabilities,
  created,
  installing = false,
}: PackageInput): Packages {
  const providerUid = uid('Provider', name);
  const objects: Packages = { providers: [], revisions: [], deployments: [], serviceAccounts: [] };
  const revisionNames = images.map((image) => `${name}-${revisionHash(image)}`);
  const active = images.length - 1;
  const current = images[active] ?? '';
  objects.providers.push({
    apiVersion: 'pkg.crossplane.io/v1',
    kind: 'Provider',
    metadata: { name, uid: providerUid, creationTimestamp: created },
    spec: {
      package: current,
      packagePullPolicy: 'IfNotPresent',
      revisionActivationPolicy: 'Automatic',
      revisionHistoryLimit: 1,
      runtimeConfigRef: {
        apiVersion: 'pkg.crossplane.io/v1beta1',
        kind: 'DeploymentRuntimeConfig',
        name: 'default',
      },
    },
    status: { currentIdentifier: current, currentRevision: revisionNames[active] ?? '' },
  });
  images.forEach((image, i) => {
    const revName = revisionNames[i] ?? '';
    const revUid = uid('ProviderRevision', revName);
    const isActive = i === active;
    objects.revisions.push({
      apiVersion: 'pkg.crossplane.io/v1',
      kind: 'ProviderRevision',
      metadata: {
        name: revName,
        uid: revUid,
        creationTimestamp: i === 0 ? created : PROVIDERS_UPGRADED,
        labels: {
          'pkg.crossplane.io/package': name,
          ...(family !== undefined ? { 'pkg.crossplane.io/provider-family': family } : {}),
        },
        annotations: { 'meta.crossplane.io/source': source },
        ownerReferences: [
          {
            apiVersion: 'pkg.crossplane.io/v1',
            kind: 'Provider',
            name,
            uid: providerUid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        desiredState: isActive ? 'Active' : 'Inactive',
        image,
        packagePullPolicy: 'IfNotPresent',
        revision: i + 1,
        runtimeConfigRef: {
          apiVersion: 'pkg.crossplane.io/v1beta1',
          kind: 'DeploymentRuntimeConfig',
          name: 'default',
        },
        tlsClientSecretName: `${name}-tls-client`,
        tlsServerSecretName: `${name}-tls-server`,
      },
      status: {
        ...(capabilities !== undefined ? { capabilities } : {}),
        conditions: [
          {
            lastTransitionTime: i === 0 ? created : PROVIDERS_UPGRADED,
            reason: !isActive
              ? 'InactivePackageRevision'
              : installing
                ? 'UnhealthyPackageRevision'
                : 'HealthyPackageRevision',
            status: isActive && installing ? 'False' : 'True',
            type: 'Healthy',
          },
        ],
        ...(isActive && installing ? {} : { objectRefs: objectRefs(crds, refKind) }),
      },
    });
    if (!isActive || installing) return;
    const sa = serviceAccount(CROSSPLANE_NS, revName, undefined, PROVIDERS_UPGRADED);
    const saMeta: ObjectMeta = {
      ...sa.metadata,
        ownerReferences: [
          {
            apiVersion: 'pkg.crossplane.io/v1',
            kind: 'ProviderRevision',
            name: revName,
            uid: revUid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
    };
    objects.serviceAccounts.push({ ...sa, metadata: saMeta });
    const selector = { 'pkg.crossplane.io/provider': name, 'pkg.crossplane.io/revision': revName };
    objects.deployments.push({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: revName,
        namespace: CROSSPLANE_NS,
        uid: uid('Deployment', CROSSPLANE_NS, revName),
        creationTimestamp: i === 0 ? created : PROVIDERS_UPGRADED,
        ownerReferences: [
          {
            apiVersion: 'pkg.crossplane.io/v1',
            kind: 'ProviderRevision',
            name: revName,
            uid: revUid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        replicas: 1,
        selector: { matchLabels: selector },
        template: {
          metadata: { labels: { ...selector } },
          spec: {
            serviceAccountName: revName,
            containers: [
              { name: 'package-runtime', image, ports: [{ name: 'metrics', containerPort: 8080 }] },
            ],
          },
        },
      },
    });
  });
  return objects;
}

/**
 * status.objectRefs as Crossplane stores them: sorted descending by "<group>/<version>, Kind=<kind>/<name>".
 * refKind 'crd': every ref a CustomResourceDefinition; 'mrd': managed resources as ManagedResourceDefinitions
 * (Crossplane v2 converts them), ProviderConfig-type kinds stay CRDs.
 */
function objectRefs(crds: PackageInput['crds'], refKind: 'crd' | 'mrd'): ObjectRef[] {
  const providerConfigKinds = new Set([
    'ProviderConfig',
    'ClusterProviderConfig',
    'ProviderConfigUsage',
    'StoreConfig',
  ]);
  const refs = crds.map((c): ObjectRef => {
    const mrd = refKind === 'mrd' && !providerConfigKinds.has(c.kind);
    return mrd
      ? {
          apiVersion: 'apiextensions.crossplane.io/v1alpha1',
          kind: 'ManagedResourceDefinition',
          name: c.name,
          uid: uid('ManagedResourceDefinition', c.name),
        }
      : {
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          name: c.name,
          uid: uid('CustomResourceDefinition', c.name),
        };
  });
  const sortKey = (r: ObjectRef): string => {
    const [group, version] = r.apiVersion.split('/');
    return `${String(group)}/${String(version)}, Kind=${r.kind}/${r.name}`;
  };
  return refs.sort((a, b) => compareStrings(sortKey(b), sortKey(a)));
}

export function mergePackages(parts: readonly Packages[]): Packages {
  const all: Packages = { providers: [], revisions: [], deployments: [], serviceAccounts: [] };
  const kinds = ['providers', 'revisions', 'deployments', 'serviceAccounts'] as const;
  for (const p of parts) for (const k of kinds) all[k].push(...p[k]);
  return all;
}

const UPBOUND_SOURCE = 'github.com/crossplane-contrib/provider-upjet-aws';
export const UPBOUND_AWS_VERSION = 'v1.23.0';
export const UPBOUND_AWS_PREVIOUS = 'v1.22.0';
const FAMILY_LABEL = 'provider-family-aws';

/** The Upbound AWS family: provider-family-aws plus the given service packages, at v1.23.0. */
export function upboundAwsFamily(
  byPackage: ReadonlyMap<string, readonly CrdRow[]>,
  services: readonly string[],
  { previous }: { previous: readonly string[] },
): Packages[] {
  return ['provider-family-aws', ...services].map((pkg) => {
    const crds = byPackage.get(pkg);
    if (crds === undefined) throw new Error(`package ${pkg} is not in the v1.23.0 inventory`);
    const images = [
      ...(previous.includes(pkg) ? [`xpkg.upbound.io/upbound/${pkg}:${UPBOUND_AWS_PREVIOUS}`] : []),
      `xpkg.upbound.io/upbound/${pkg}:${UPBOUND_AWS_VERSION}`,
    ];
    return providerPackage({
      name: `upbound-${pkg}`,
      source: UPBOUND_SOURCE,
      images,
      crds,
      family: FAMILY_LABEL,
      created: PROVIDERS_INSTALLED,
    });
  });
}

export function smallProviders(inventories: string): Packages[] {
  const rows = (file: string): PackageInput['crds'] =>
    readInventoryLines(inventories, file).map((name) => ({ name, kind: kindOfSmallCrd(name) }));
  return [
    providerPackage({
      name: 'crossplane-contrib-provider-kubernetes',
      source: 'github.com/crossplane-contrib/provider-kubernetes',
      images: ['xpkg.crossplane.io/crossplane-contrib/provider-kubernetes:v1.2.1'],
      crds: rows('provider-kubernetes-crds.txt'),
      created: PROVIDERS_INSTALLED,
    }),
    providerPackage({
      name: 'crossplane-contrib-provider-helm',
      source: 'github.com/crossplane-contrib/provider-helm',
      images: ['xpkg.crossplane.io/crossplane-contrib/provider-helm:v1.4.0'],
      crds: rows('provider-helm-crds.txt'),
      created: PROVIDERS_INSTALLED,
    }),
  ];
}

/** provider-sql, installed after everything else and not healthy yet: its revision has no objectRefs. */
export function installingProvider(): Packages {
  return providerPackage({
    name: 'crossplane-contrib-provider-sql',
    source: 'github.com/crossplane-contrib/provider-sql',
    images: ['xpkg.crossplane.io/crossplane-contrib/provider-sql:v0.9.0'],
    crds: [],
    created: PROVIDER_INSTALLING,
    installing: true,
  });
}

function kindOfSmallCrd(name: string): string {
  const plural = name.slice(0, name.indexOf('.'));
  const kinds: Readonly<Record<string, string>> = {
    providerconfigs: 'ProviderConfig',
    clusterproviderconfigs: 'ClusterProviderConfig',
    providerconfigusages: 'ProviderConfigUsage',
  };
  return kinds[plural] ?? 'Managed';
}

/** A package of crossplane-contrib's provider-upjet-aws family at v2.6.0 (managed resources as MRD refs, SafeStart). */
export function contribFamilyPackage(pkg: string, crds: readonly CrdRow[]): Packages {
  return providerPackage({
    name: `crossplane-contrib-${pkg}`,
    source: UPBOUND_SOURCE,
    images: [`xpkg.crossplane.io/crossplane-contrib/${pkg}:v2.6.0`],
    crds,
    family: FAMILY_LABEL,
    refKind: 'mrd',
    capabilities: ['SafeStart'],
    created: PROVIDERS_UPGRADED,
  });
}

/** The objects of merged packages in the order the example files hold them. */
export function packageDocs(packages: Packages): KubeObject[] {
  return [
    ...packages.providers.sort(byName),
    ...packages.revisions.sort(byName),
    ...packages.serviceAccounts.sort(byName),
    ...packages.deployments.sort(byName),
  ];
}
