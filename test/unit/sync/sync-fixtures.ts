// Valid-by-default builders and real-fixture loading for the sync renderer tests.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type {
  ClusterSnapshot,
  Deployment,
  KubeObject,
  Namespace,
  ObjectRef,
  ProviderRevision,
  Xrd,
} from '../../../src/kube/types.js';
import { fixturePath } from '../../support/fixtures.js';

/** test/fixtures/real/: real Crossplane objects (see test/fixtures/README.md). */
export const REAL_DIR = fixturePath('real') + path.sep;

export function loadYaml(rel: string): KubeObject[] {
  const docs = parseAllDocuments(readFileSync(REAL_DIR + rel, 'utf8'));
  const out: KubeObject[] = [];
  for (const d of docs) {
    const v = d.toJS() as KubeObject | null;
    if (v === null || typeof v !== 'object') continue;
    if (v.kind === 'List') out.push(...((v as unknown as { items: KubeObject[] }).items ?? []));
    else out.push(v);
  }
  return out;
}

export function readRaw(rel: string): string {
  return readFileSync(REAL_DIR + rel, 'utf8');
}

export function realXrdFiles(): string[] {
  return readdirSync(REAL_DIR + 'xrds').filter((f) => f.endsWith('.yaml'));
}

export function xrd(
  name: string,
  spec: Partial<Xrd['spec']> = {},
  meta: Partial<Xrd['metadata']> = {},
  apiVersion = 'apiextensions.crossplane.io/v1',
): Xrd {
  const dot = name.indexOf('.');
  return {
    apiVersion,
    kind: 'CompositeResourceDefinition',
    metadata: { name, uid: `uid-${name}`, ...meta },
    spec: { group: name.slice(dot + 1), names: { kind: 'X', plural: name.slice(0, dot) }, ...spec },
  };
}

/**
 * The owner references Crossplane's RBAC manager gives the roles of the XRD NAME (uid `uid-NAME`, as xrd() makes
 * it): the XRD as controller, blocking its deletion (definition controller, meta.AsController).
 */
export function xrdOwner(name: string): Record<string, unknown>[] {
  return [
    {
      apiVersion: 'apiextensions.crossplane.io/v1',
      blockOwnerDeletion: true,
      controller: true,
      kind: 'CompositeResourceDefinition',
      name,
      uid: `uid-${name}`,
    },
  ];
}

export function crdRef(name: string, mrd = false): ObjectRef {
  return mrd
    ? { apiVersion: 'apiextensions.crossplane.io/v1alpha1', kind: 'ManagedResourceDefinition', name }
    : { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name };
}

export function rev(
  name: string,
  crds: readonly string[],
  opts: {
    image?: string;
    family?: string;
    capabilities?: string[];
    uid?: string;
    annotations?: Record<string, string>;
    deletionTimestamp?: string;
    provider?: string;
    desiredState?: string;
  } = {},
): ProviderRevision {
  return {
    apiVersion: 'pkg.crossplane.io/v1',
    kind: 'ProviderRevision',
    metadata: {
      name,
      uid: opts.uid ?? `uid-${name}`,
      labels: {
        ...(opts.family !== undefined ? { 'pkg.crossplane.io/provider-family': opts.family } : {}),
        ...(opts.provider !== undefined ? { 'pkg.crossplane.io/package': opts.provider } : {}),
      },
      ...(opts.annotations !== undefined ? { annotations: opts.annotations } : {}),
      ...(opts.deletionTimestamp !== undefined ? { deletionTimestamp: opts.deletionTimestamp } : {}),
    },
    spec: {
      image: opts.image ?? `xpkg.crossplane.io/crossplane-contrib/${name}:v1.0.0`,
      desiredState: opts.desiredState ?? 'Active',
    },
    status: {
      objectRefs: crds.map((c) => crdRef(c)),
      ...(opts.capabilities !== undefined ? { capabilities: opts.capabilities } : {}),
    },
  };
}

export function deployment(name: string, ns: string, ownerUid: string, sa: string): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: ns,
      ownerReferences: [
        {
          apiVersion: 'pkg.crossplane.io/v1',
          kind: 'ProviderRevision',
          name,
          uid: ownerUid,
          controller: true,
        },
      ],
    },
    spec: {
      template: { spec: { serviceAccountName: sa, containers: [{ name: 'package-runtime', image: 'x' }] } },
    },
  };
}

export function namespace(name: string, annotations: Record<string, string> = {}): Namespace {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, uid: `uid-ns-${name}`, annotations } };
}

export function snapshot(parts: Partial<ClusterSnapshot> = {}): ClusterSnapshot {
  return {
    xrds: [],
    providerRevisions: [],
    deployments: [],
    namespaces: [],
    clusterRoles: [],
    clusterRoleBindings: [],
    roleBindings: [],
    configMaps: [],
    others: [],
    ...parts,
  };
}

/** A deterministic shuffle (LCG), so a failing order can be reproduced. */
export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
