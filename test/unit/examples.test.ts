/* eslint-disable @typescript-eslint/no-unsafe-return -- the example files are untyped YAML, inspected as `any` on purpose */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { roleRefsOfRootSync } from '../../src/bind/config-sync.js';
import { normalizeRoleRefs } from '../../src/bind/role-refs.js';
import { renderSync } from '../../src/sync/render.js';
import { snapshotFromObjects } from '../../src/crossplane/snapshot.js';
import type { KubeObject } from '../../src/kube/types.js';
import { fixturePath } from '../support/fixtures.js';
import { objectKey } from '../../src/kube/meta.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const examples = path.join(repoRoot, 'examples');
const script = path.join(repoRoot, 'scripts', 'generate-examples.ts');
/** Runs the generator with tsx, as `tsx scripts/generate-examples.ts` does. */
const runScript = (args: string[]): Buffer =>
  execFileSync(process.execPath, ['--import', 'tsx', script, ...args], { cwd: repoRoot, stdio: 'pipe' });
const inventories = fixturePath('real');
const computedBootstrap = fixturePath('kubernetes', 'computed-bootstrap-aggregated-admin-edit-view.yaml');

/** Every generated file, relative to `dir`, sorted (README.md is hand-written). */
function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d).sort()) {
      const p = path.join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e.endsWith('.yaml') || e.endsWith('.yml')) out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out;
}

function load(file: string): any[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  if (!Array.isArray(docs)) throw new Error(`${file}: no documents`);
  return docs.map((d) => {
    if (d.errors.length > 0) throw new Error(`${file}: ${d.errors[0]!.message}`);
    return d.toJS();
  });
}

function loadDir(dir: string): any[] {
  return yamlFiles(dir).flatMap((f) => load(path.join(dir, f)));
}

const cluster = loadDir(path.join(examples, 'cluster'));
const large = load(path.join(examples, 'large', 'cluster.yaml'));

const ofKind = (objs: any[], kind: string): any[] => objs.filter((o) => o?.kind === kind);

/** Registry and organisation of an image, as Crossplane compares family members' images (OrgDiffer). */
function registryOrg(image: string): string {
  const parts = image.split('/');
  const first = parts[0]!;
  const hasRegistry =
    parts.length > 1 && (first === 'localhost' || first.includes('.') || first.includes(':'));
  const registry = hasRegistry ? first : '';
  const org = (hasRegistry ? parts[1] : parts[0])!.split(':')[0]!;
  return `${registry === 'docker.io' ? 'index.docker.io' : registry}/${org}`;
}

/** The CRD names (plural.group) the members of the family `label` from `registry/org` reference. */
function familyResources(objs: any[], label: string, regOrg: string): Set<string> {
  const names = new Set<string>();
  for (const rev of ofKind(objs, 'ProviderRevision')) {
    if (rev.metadata.labels?.['pkg.crossplane.io/provider-family'] !== label) continue;
    if (registryOrg(rev.spec.image) !== regOrg) continue;
    for (const ref of rev.status?.objectRefs ?? []) {
      const crd =
        ref.apiVersion?.startsWith('apiextensions.k8s.io/') && ref.kind === 'CustomResourceDefinition';
      const mrd =
        ref.apiVersion?.startsWith('apiextensions.crossplane.io/') &&
        ref.kind === 'ManagedResourceDefinition';
      if ((crd || mrd) && String(ref.name).includes('.')) names.add(ref.name);
    }
  }
  return names;
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Why an XRD is invalid, or undefined. */
function xrdProblem(x: any): string | undefined {
  const s = x.spec;
  if (!['apiextensions.crossplane.io/v1', 'apiextensions.crossplane.io/v2'].includes(x.apiVersion))
    return 'apiVersion';
  if (typeof s?.group !== 'string' || !s.group.includes('.') || !DNS_SUBDOMAIN.test(s.group)) return 'group';
  if (!s.names?.kind || !s.names?.plural) return 'names';
  if (x.metadata.name !== `${s.names.plural}.${s.group}`) return 'name is not plural.group';
  if (s.claimNames && (!s.claimNames.kind || !s.claimNames.plural || s.claimNames.plural === s.names.plural))
    return 'claimNames';
  if (x.apiVersion.endsWith('/v1') && s.scope !== undefined) return 'v1 has no scope';
  if (x.apiVersion.endsWith('/v2') && !['Namespaced', 'Cluster', 'LegacyCluster'].includes(s.scope))
    return 'scope';
  if (x.apiVersion.endsWith('/v2') && s.claimNames && s.scope !== 'LegacyCluster')
    return 'only LegacyCluster v2 XRDs have claims';
  if (!Array.isArray(s.versions) || s.versions.length === 0 || !s.versions.some((v: any) => v.referenceable))
    return 'versions';
  return undefined;
}

function offersNamespaced(x: any): boolean {
  return x.spec.claimNames !== undefined || (x.apiVersion.endsWith('/v2') && x.spec.scope === 'Namespaced');
}

/** Whether Crossplane marked a revision Healthy (its objects established). */
const isHealthy = (r: any): boolean =>
  (r.status?.conditions ?? []).some((c: any) => c.type === 'Healthy' && c.status === 'True');

function invariants(name: string, objs: any[]): void {
  describe(`${name} invariants`, () => {
    it('EveryObjectHasKindAndName', () => {
      for (const o of objs) {
        expect(typeof o.apiVersion, JSON.stringify(o).slice(0, 80)).toBe('string');
        expect(typeof o.kind).toBe('string');
        expect(typeof o.metadata?.name).toBe('string');
      }
    });

    it('UidsAreUniqueUuids', () => {
      const uids = objs.map((o) => o.metadata.uid);
      for (const u of uids) expect(u).toMatch(UUID);
      expect(new Set(uids).size).toBe(uids.length);
    });

    it('NoDuplicateObjects', () => {
      const keys = objs.map(
        (o) => `${o.apiVersion}/${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`,
      );
      expect(new Set(keys).size).toBe(keys.length);
    });

    it('EveryDeploymentOwnerExists', () => {
      const revisions = new Map(ofKind(objs, 'ProviderRevision').map((r) => [r.metadata.uid, r]));
      const owned = ofKind(objs, 'Deployment').filter((d) => d.metadata.ownerReferences);
      expect(owned.length).toBeGreaterThan(0);
      for (const d of owned) {
        for (const ref of d.metadata.ownerReferences) {
          const rev = revisions.get(ref.uid);
          expect(rev, `owner of ${d.metadata.name}`).toBeDefined();
          expect(rev.metadata.name).toBe(ref.name);
        }
        expect(d.spec.template.spec.serviceAccountName).toBeTruthy();
      }
    });

    it('EveryHealthyActiveRevisionRunsAndNoOtherDoes', () => {
      const deployedOwners = new Set(
        ofKind(objs, 'Deployment').flatMap((d) => (d.metadata.ownerReferences ?? []).map((r: any) => r.uid)),
      );
      const revisions = ofKind(objs, 'ProviderRevision');
      expect(
        revisions.some((r) => r.spec.desiredState === 'Inactive'),
        'an inactive revision exists',
      ).toBe(true);
      // Crossplane starts a revision's runtime only once the revision is healthy (its objects established).
      for (const r of revisions)
        expect(deployedOwners.has(r.metadata.uid), r.metadata.name).toBe(
          r.spec.desiredState === 'Active' && isHealthy(r),
        );
    });

    it('EveryXrdIsValid', () => {
      for (const x of ofKind(objs, 'CompositeResourceDefinition'))
        expect(xrdProblem(x), x.metadata.name).toBeUndefined();
    });

    it('XrdKindsAreAllRepresented', () => {
      const xrds = ofKind(objs, 'CompositeResourceDefinition');
      expect(
        xrds.some((x) => x.apiVersion.endsWith('/v1') && x.spec.claimNames),
        'v1 with claims',
      ).toBe(true);
      expect(
        xrds.some((x) => x.apiVersion.endsWith('/v2') && x.spec.scope === 'Namespaced'),
        'v2 namespaced',
      ).toBe(true);
      expect(
        xrds.some((x) => x.apiVersion.endsWith('/v2') && x.spec.scope === 'Cluster'),
        'v2 cluster-scoped',
      ).toBe(true);
    });

    it('NoTwoXrdsServeTheSameResource', () => {
      const crds = ofKind(objs, 'CompositeResourceDefinition').flatMap((x) => [
        `${x.spec.names.plural}.${x.spec.group}`,
        ...(x.spec.claimNames ? [`${x.spec.claimNames.plural}.${x.spec.group}`] : []),
      ]);
      expect(new Set(crds).size).toBe(crds.length);
    });

    it('NamespaceAnnotationsNameNamespacedXrds', () => {
      const xrds = new Map(ofKind(objs, 'CompositeResourceDefinition').map((x) => [x.metadata.name, x]));
      let accepted = 0;
      for (const ns of ofKind(objs, 'Namespace')) {
        for (const [key, value] of Object.entries<string>(ns.metadata.annotations ?? {})) {
          if (key === 'rbac.crossplane.io/enabled-xrds') {
            for (const n of value.split(','))
              expect(xrds.get(n) && offersNamespaced(xrds.get(n)), n).toBe(true);
            continue;
          }
          if (!key.startsWith('rbac.crossplane.io/')) continue;
          const xrdName = key.slice('rbac.crossplane.io/'.length);
          expect(xrdName.length, 'an annotation key name part has at most 63 characters').toBeLessThanOrEqual(
            63,
          );
          expect(value).toBe('xrd-claim-accepted');
          const x = xrds.get(xrdName);
          expect(x && offersNamespaced(x), `${ns.metadata.name} accepts ${xrdName}`).toBe(true);
          accepted++;
        }
      }
      expect(accepted).toBeGreaterThan(0);
    });

    it('CrossplaneDeployment', () => {
      const xp = ofKind(objs, 'Deployment').find((d) => d.metadata.name === 'crossplane');
      expect(xp.metadata.namespace).toBe('crossplane-system');
      expect(xp.spec.template.spec.serviceAccountName).toBe('crossplane');
      expect(xp.spec.template.spec.containers[0].image).toBe(
        'xpkg.crossplane.io/crossplane/crossplane:v2.1.0',
      );
    });

    it('ChartAndBootstrapRoles', () => {
      const roles = new Map(ofKind(objs, 'ClusterRole').map((r) => [r.metadata.name, r]));
      for (const n of [
        'crossplane',
        'crossplane:system:aggregate-to-crossplane',
        'crossplane-admin',
        'crossplane-edit',
        'crossplane-view',
        'crossplane-browse',
        'crossplane:aggregate-to-admin',
        'crossplane:aggregate-to-edit',
        'crossplane:aggregate-to-view',
        'crossplane:aggregate-to-browse',
        'cluster-admin',
        'admin',
        'edit',
        'view',
        'system:aggregate-to-admin',
        'system:aggregate-to-edit',
        'system:aggregate-to-view',
      ]) {
        expect(roles.has(n), n).toBe(true);
      }
      expect(roles.get('crossplane-edit').aggregationRule.clusterRoleSelectors).toStrictEqual([
        { matchLabels: { 'rbac.crossplane.io/aggregate-to-edit': 'true' } },
      ]);
      expect(
        roles.get('crossplane:aggregate-to-edit').metadata.labels['rbac.crossplane.io/aggregate-to-edit'],
      ).toBe('true');
      // The aggregated crossplane-edit holds exactly its one base role's rules (no XRD or provider roles yet).
      expect(roles.get('crossplane-edit').rules).toStrictEqual(
        roles.get('crossplane:aggregate-to-edit').rules,
      );
      const bindings = new Map(ofKind(objs, 'ClusterRoleBinding').map((b) => [b.metadata.name, b]));
      expect(bindings.get('crossplane-admin').subjects).toStrictEqual([
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'crossplane:masters' },
      ]);
      expect(bindings.get('crossplane').subjects).toStrictEqual([
        { kind: 'ServiceAccount', name: 'crossplane', namespace: 'crossplane-system' },
      ]);
    });

    it('SmallProvidersAreNotInTheFamily', () => {
      const revs = ofKind(objs, 'ProviderRevision');
      for (const pkg of ['crossplane-contrib-provider-kubernetes', 'crossplane-contrib-provider-helm']) {
        const r = revs.find((x) => x.metadata.labels['pkg.crossplane.io/package'] === pkg);
        expect(r, pkg).toBeDefined();
        expect(r.metadata.labels['pkg.crossplane.io/provider-family']).toBeUndefined();
        expect(r.status.objectRefs.length).toBeGreaterThan(5);
      }
    });

    it('PackageCrdsAsTheirPackagesDeclareThem', () => {
      // Every CRD of the single providers, and the AWS families' configuration kinds: kind, scope and versions as
      // the packages' own CRDs (the inventories in test/fixtures/real, read here as plain TSV).
      const declared = new Map<string, string[]>();
      const config = new Set([
        'ProviderConfig',
        'ClusterProviderConfig',
        'ProviderConfigUsage',
        'StoreConfig',
      ]);
      const tsvs = [
        'small-providers-crds.tsv',
        'provider-upjet-aws-v1.23.0-crds-by-package.tsv',
        'provider-upjet-aws-crds-by-package.tsv',
      ];
      for (const file of tsvs) {
        for (const line of readFileSync(path.join(inventories, file), 'utf8').split('\n')) {
          if (line === '' || line.startsWith('#')) continue;
          const row = line.split('\t');
          if (file === tsvs[0] || config.has(row[4] ?? '')) declared.set(row[0] ?? '', row);
        }
      }
      const crds = ofKind(objs, 'CustomResourceDefinition').filter((c) => declared.has(c.metadata.name));
      expect(crds.length).toBeGreaterThan(10);
      for (const c of crds) {
        const [, , , , kind, scope, versions] = declared.get(c.metadata.name) ?? [];
        expect(
          [
            c.spec.names.kind,
            c.spec.names.listKind,
            c.spec.scope,
            c.spec.versions.map((v: any) => v.name).join(','),
          ],
          c.metadata.name,
        ).toStrictEqual([kind, `${kind ?? ''}List`, scope, versions]);
      }
    });
  });
}

invariants('examples/cluster', cluster);
invariants('examples/large', large);

describe('examples/cluster contents', () => {
  it('ProviderFamilyWithAtLeast300Crds', () => {
    const family = ofKind(cluster, 'ProviderRevision').filter(
      (r) => r.metadata.labels['pkg.crossplane.io/provider-family'] === 'provider-family-aws',
    );
    const packages = new Set(family.map((r) => r.metadata.labels['pkg.crossplane.io/package']));
    expect(packages.has('upbound-provider-family-aws')).toBe(true);
    for (const p of ['s3', 'ec2', 'iam', 'rds'])
      expect(packages.has(`upbound-provider-aws-${p}`), p).toBe(true);
    expect(
      familyResources(cluster, 'provider-family-aws', 'xpkg.upbound.io/upbound').size,
    ).toBeGreaterThanOrEqual(300);
    const s3 = family.find((r) => r.spec.image === 'xpkg.upbound.io/upbound/provider-aws-s3:v1.23.0');
    expect(
      s3.status.objectRefs.every(
        (r: any) => r.kind === 'CustomResourceDefinition' && r.name.endsWith('.s3.aws.upbound.io'),
      ),
    ).toBe(true);
  });

  it('ObjectRefsSortedAsCrossplaneStoresThem', () => {
    for (const r of ofKind(cluster, 'ProviderRevision')) {
      const keys = (r.status.objectRefs ?? []).map((o: any) => `${o.apiVersion}, Kind=${o.kind}/${o.name}`);
      expect(keys).toStrictEqual([...keys].sort().reverse());
    }
  });

  it('InstallingProviderGetsOnlyItsBinding: the quick start shows a revision with no objectRefs yet', () => {
    const installing = ofKind(cluster, 'ProviderRevision').filter(
      (r) => r.spec.desiredState === 'Active' && !isHealthy(r),
    );
    expect(installing.map((r) => r.metadata.name)).toEqual(['crossplane-contrib-provider-sql-083e4a6fc6e2']);
    expect(installing[0].status.objectRefs).toBeUndefined();
    // provider/binding/reconciler.go binds every revision; provider/roles/roles.go renders no role without resources.
    const keys = renderSync(snapshotFromObjects(cluster as KubeObject[])).objects.map(objectKey);
    expect(keys.filter((k) => k.includes(':crossplane-contrib-provider-sql-'))).toEqual([
      'ClusterRoleBinding/crossplane:provider:crossplane-contrib-provider-sql-083e4a6fc6e2:system',
    ]);
  });

  it('AtLeast20Xrds', () => {
    expect(ofKind(cluster, 'CompositeResourceDefinition').length).toBeGreaterThanOrEqual(20);
  });

  it('CompositionsAndXrsReferToTheExamplesXrds', () => {
    const gvk = (apiVersion: string, kind: string): string => `${apiVersion}, Kind=${kind}`;
    const xrTypes = new Set(
      ofKind(cluster, 'CompositeResourceDefinition').flatMap((x) =>
        x.spec.versions
          .filter((v: any) => v.served && v.referenceable)
          .map((v: any) => gvk(`${x.spec.group}/${v.name}`, x.spec.names.kind)),
      ),
    );
    const compositions = new Map(ofKind(cluster, 'Composition').map((c) => [c.metadata.name, c]));
    expect(compositions.size).toBeGreaterThan(0);
    for (const c of compositions.values()) {
      const { apiVersion, kind } = c.spec.compositeTypeRef;
      expect(xrTypes.has(gvk(apiVersion, kind)), c.metadata.name).toBe(true);
    }
    const xrs = cluster.filter((o) => xrTypes.has(gvk(o.apiVersion, o.kind)));
    expect(xrs.length).toBeGreaterThan(0);
    for (const xr of xrs) {
      // v2 XRs keep Crossplane's fields under spec.crossplane, v1 ones directly under spec.
      const ref = (xr.spec.crossplane ?? xr.spec).compositionRef;
      const type = compositions.get(ref?.name)?.spec.compositeTypeRef;
      expect(type && gvk(type.apiVersion, type.kind), xr.metadata.name).toBe(gvk(xr.apiVersion, xr.kind));
    }
    // Crossplane's events name a live XR, uid included.
    const uids = new Set(xrs.map((x) => x.metadata.uid));
    for (const e of ofKind(cluster, 'Event').filter((e) => e.reason === 'ComposeResources'))
      expect(uids.has(e.involvedObject.uid), e.metadata.name).toBe(true);
  });

  it('RootSyncWithRoleRefs', () => {
    expect(ofKind(cluster, 'Namespace').some((n) => n.metadata.name === 'config-management-system')).toBe(
      true,
    );
    const rs = ofKind(cluster, 'RootSync').find((r) => r.metadata.name === 'root-sync') as KubeObject;
    expect(rs.metadata.namespace).toBe('config-management-system');
    const refs = normalizeRoleRefs(roleRefsOfRootSync(rs));
    expect(refs.length).toBeGreaterThanOrEqual(3);
    // Every referenced role exists in the example.
    for (const ref of refs) {
      const found = cluster.some(
        (o) =>
          o.kind === ref.kind &&
          o.metadata.name === ref.name &&
          (ref.kind === 'ClusterRole' || o.metadata.namespace === ref.namespace),
      );
      expect(found, `${ref.kind}/${ref.name}`).toBe(true);
    }
  });

  it('BootstrapAggregationMatchesTheComputedFixture', () => {
    const computed = parseAllDocuments(readFileSync(computedBootstrap, 'utf8')).map((d) => d.toJS());
    const roles = new Map(ofKind(cluster, 'ClusterRole').map((r) => [r.metadata.name, r]));
    for (const want of computed.filter((c: any) => c?.kind === 'ClusterRole')) {
      expect(roles.get(want.metadata.name).rules, want.metadata.name).toStrictEqual(want.rules);
    }
  });
});

describe('examples/large contents', () => {
  it('BigEnoughForTheBenchmarks', () => {
    expect(ofKind(large, 'ProviderRevision').length).toBeGreaterThanOrEqual(20);
    expect(
      familyResources(large, 'provider-family-aws', 'xpkg.upbound.io/upbound').size,
    ).toBeGreaterThanOrEqual(300);
    expect(ofKind(large, 'CompositeResourceDefinition').length).toBeGreaterThanOrEqual(200);
    expect(ofKind(large, 'Namespace').length).toBeGreaterThanOrEqual(500);
    expect(statSync(path.join(examples, 'large', 'cluster.yaml')).size).toBeLessThan(15 * 1024 * 1024);
  });

  it('SameFamilyLabelFromAnotherOrganisationIsSeparate', () => {
    const upbound = familyResources(large, 'provider-family-aws', 'xpkg.upbound.io/upbound');
    const contrib = familyResources(large, 'provider-family-aws', 'xpkg.crossplane.io/crossplane-contrib');
    expect(contrib.size).toBeGreaterThan(0);
    expect(
      [...contrib].some((n) => n.includes('.aws.m.upbound.io')),
      'the v2 line has namespaced groups',
    ).toBe(true);
    expect(
      [...upbound].some((n) => n.includes('.aws.m.upbound.io')),
      'the v1.23 line has not',
    ).toBe(false);
    const mrds = ofKind(large, 'ProviderRevision')
      .flatMap((r) => r.status.objectRefs)
      .filter((o: any) => o.kind === 'ManagedResourceDefinition');
    expect(mrds.length).toBeGreaterThan(0);
  });

  it('HasAnXrdNameTooLongForAnAnnotationKey', () => {
    const long = ofKind(large, 'CompositeResourceDefinition').filter((x) => x.metadata.name.length > 63);
    expect(long.length).toBeGreaterThan(0);
    const listed = ofKind(large, 'Namespace').filter(
      (n) => n.metadata.annotations?.['rbac.crossplane.io/enabled-xrds'],
    );
    expect(listed.length).toBeGreaterThan(0);
  });
});

describe('generator', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'examples-'));
  afterAll(() => {
    rmSync(tmp, { recursive: true, force: true });
  });

  it('ReproducesTheCommittedFilesByteForByte', () => {
    runScript(['--out', tmp, '--inventories', inventories]);
    const generated = yamlFiles(tmp);
    expect(generated).toStrictEqual(yamlFiles(examples));
    for (const f of generated) {
      const same = readFileSync(path.join(tmp, f)).equals(readFileSync(path.join(examples, f)));
      expect(same, `${f} differs: re-run tsx scripts/generate-examples.ts`).toBe(true);
    }
  });

  it('RejectsUnknownArguments', () => {
    expect(() => runScript(['--bogus'])).toThrow(/unknown argument --bogus/);
  });
});
