#!/usr/bin/env node
// Writes the example clusters in examples/ (see examples/README.md).
//
//   node scripts/generate-examples.mjs [--out DIR] [--inventories DIR]
//
// The output is deterministic: uids are derived from names, timestamps are fixed, lists are sorted. The CRD names
// of the providers come from CRD inventories (plain name lists of the real provider packages) read from
// --inventories (default: test/fixtures/real, whose README names each inventory's source). The generated YAML is
// committed, so the examples need neither this script nor the inventories; re-run it only to change the examples.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------------------------------------------------------
// Command line

function parseArgs(argv) {
  const opts = {
    out: path.join(repoRoot, 'examples'),
    inventories: path.join(repoRoot, 'test', 'fixtures', 'real'),
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--out') opts.out = path.resolve(value());
    else if (flag === '--inventories') opts.inventories = path.resolve(value());
    else if (flag === '-h' || flag === '--help') {
      process.stdout.write('usage: node scripts/generate-examples.mjs [--out DIR] [--inventories DIR]\n');
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}`);
  }
  return opts;
}

// ---------------------------------------------------------------------------------------------------------------
// Deterministic ids and times

/** A name-based (version 5 style) UUID: the same input gives the same uid in every run. */
function uid(...parts) {
  const h = createHash('sha1')
    .update(`kubectl-crossplane-rbac/examples\u0000${parts.join('\u0000')}`)
    .digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/** The 12 hex digits Crossplane appends to a package name to name a revision (here from the image). */
function revisionHash(image) {
  return createHash('sha256').update(image).digest('hex').slice(0, 12);
}

const CLUSTER_CREATED = '2025-09-01T08:00:00Z';
const CROSSPLANE_INSTALLED = '2025-11-04T09:15:00Z';
const PROVIDERS_INSTALLED = '2025-11-04T09:20:00Z';
const PROVIDERS_UPGRADED = '2026-01-12T14:05:00Z';
const XRDS_CREATED = '2026-01-20T10:30:00Z';
const PROVIDER_INSTALLING = '2026-01-21T08:40:00Z';

// ---------------------------------------------------------------------------------------------------------------
// Inventories

function readInventoryLines(dir, file) {
  const p = path.join(dir, file);
  if (!existsSync(p)) {
    throw new Error(
      `CRD inventory ${p} not found; pass --inventories DIR (the committed examples/ do not need this script)`,
    );
  }
  return readFileSync(p, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** package name -> sorted CRD rows {name, group, plural, kind, scope, versions} from a by-package TSV. */
function readByPackage(dir, file) {
  const byPackage = new Map();
  for (const line of readInventoryLines(dir, file)) {
    const [name, pkg, group, plural, kind, scope, versions] = line.split('\t');
    if (!byPackage.has(pkg)) byPackage.set(pkg, []);
    byPackage.get(pkg).push({ name, group, plural, kind, scope, versions: versions.split(',') });
  }
  for (const rows of byPackage.values()) rows.sort((a, b) => cmp(a.name, b.name));
  return byPackage;
}

function cmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// RBAC helpers

const RBAC = 'rbac.authorization.k8s.io/v1';
const R = (apiGroups, resources, verbs) => ({ apiGroups, resources, verbs });
const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];

function clusterRole(name, { labels, annotations, rules, aggregate } = {}) {
  return {
    apiVersion: RBAC,
    kind: 'ClusterRole',
    metadata: {
      name,
      uid: uid('ClusterRole', name),
      creationTimestamp: name.startsWith('crossplane') ? CROSSPLANE_INSTALLED : CLUSTER_CREATED,
      ...(labels ? { labels } : {}),
      ...(annotations ? { annotations } : {}),
    },
    ...(aggregate
      ? {
          aggregationRule: { clusterRoleSelectors: aggregate.map((l) => ({ matchLabels: { [l]: 'true' } })) },
        }
      : {}),
    ...(rules ? { rules } : {}),
  };
}

function clusterRoleBinding(name, roleName, subjects, labels, created) {
  return {
    apiVersion: RBAC,
    kind: 'ClusterRoleBinding',
    metadata: {
      name,
      uid: uid('ClusterRoleBinding', name),
      creationTimestamp: created,
      ...(labels ? { labels } : {}),
    },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
    subjects,
  };
}

function matches(role, selector) {
  const labels = role.metadata.labels ?? {};
  return Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
}

/**
 * Fills `.rules` of every aggregating ClusterRole as Kubernetes' clusterrole-aggregation controller stores them:
 * per selector, the matched roles in name order (itself skipped), their rules appended unless an equal rule is
 * already there; repeated until nothing changes.
 */
function aggregate(roles) {
  const key = (r) =>
    JSON.stringify([
      r.apiGroups ?? [],
      r.resources ?? [],
      r.verbs ?? [],
      r.resourceNames ?? [],
      r.nonResourceURLs ?? [],
    ]);
  const sorted = [...roles].sort((a, b) => cmp(a.metadata.name, b.metadata.name));
  for (let changed = true, rounds = 0; changed; rounds++) {
    if (rounds > 50) throw new Error('aggregation does not converge');
    changed = false;
    for (const role of roles) {
      if (!role.aggregationRule) continue;
      const rules = [];
      const seen = new Set();
      for (const selector of role.aggregationRule.clusterRoleSelectors) {
        for (const other of sorted) {
          if (other.metadata.name === role.metadata.name || !matches(other, selector)) continue;
          for (const rule of other.rules ?? []) {
            if (seen.has(key(rule))) continue;
            seen.add(key(rule));
            rules.push(rule);
          }
        }
      }
      if (JSON.stringify(rules) !== JSON.stringify(role.rules ?? [])) {
        role.rules = rules;
        changed = true;
      }
    }
  }
  for (const role of roles) if (role.aggregationRule && (role.rules ?? []).length === 0) delete role.rules;
  return roles;
}

// ---------------------------------------------------------------------------------------------------------------
// Kubernetes bootstrap roles (k8s.io/kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go)

function kubernetesBootstrapRoles() {
  const boot = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
  const auto = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };
  const podsAll = ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'];
  return [
    clusterRole('cluster-admin', {
      labels: boot,
      annotations: auto,
      rules: [R(['*'], ['*'], ['*']), { nonResourceURLs: ['*'], verbs: ['*'] }],
    }),
    clusterRole('admin', {
      labels: boot,
      annotations: auto,
      aggregate: ['rbac.authorization.k8s.io/aggregate-to-admin'],
    }),
    clusterRole('edit', {
      labels: { ...boot, 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' },
      annotations: auto,
      aggregate: ['rbac.authorization.k8s.io/aggregate-to-edit'],
    }),
    clusterRole('view', {
      labels: { ...boot, 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' },
      annotations: auto,
      aggregate: ['rbac.authorization.k8s.io/aggregate-to-view'],
    }),
    clusterRole('system:aggregate-to-admin', {
      labels: { ...boot, 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' },
      annotations: auto,
      rules: [
        R(['authorization.k8s.io'], ['localsubjectaccessreviews'], ['create']),
        R(
          ['rbac.authorization.k8s.io'],
          ['rolebindings', 'roles'],
          [...WRITE.slice(0, 3), 'get', 'list', 'patch', 'update', 'watch'],
        ),
      ],
    }),
    clusterRole('system:aggregate-to-edit', {
      labels: { ...boot, 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' },
      annotations: auto,
      rules: [
        R(
          [''],
          ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'],
          READ,
        ),
        R([''], ['serviceaccounts'], ['impersonate']),
        R([''], podsAll, WRITE),
        R([''], ['pods/eviction'], ['create']),
        R(
          [''],
          [
            'configmaps',
            'events',
            'persistentvolumeclaims',
            'replicationcontrollers',
            'replicationcontrollers/scale',
            'secrets',
            'serviceaccounts',
            'services',
            'services/proxy',
          ],
          WRITE,
        ),
        R([''], ['serviceaccounts/token'], ['create']),
        R(
          ['apps'],
          [
            'daemonsets',
            'deployments',
            'deployments/rollback',
            'deployments/scale',
            'replicasets',
            'replicasets/scale',
            'statefulsets',
            'statefulsets/scale',
          ],
          WRITE,
        ),
        R(['autoscaling'], ['horizontalpodautoscalers'], WRITE),
        R(['batch'], ['cronjobs', 'jobs'], WRITE),
        R(
          ['extensions'],
          [
            'daemonsets',
            'deployments',
            'deployments/rollback',
            'deployments/scale',
            'ingresses',
            'networkpolicies',
            'replicasets',
            'replicasets/scale',
            'replicationcontrollers/scale',
          ],
          WRITE,
        ),
        R(['policy'], ['poddisruptionbudgets'], WRITE),
        R(['networking.k8s.io'], ['ingresses', 'networkpolicies'], WRITE),
        R(
          ['coordination.k8s.io'],
          ['leases'],
          ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        ),
      ],
    }),
    clusterRole('system:aggregate-to-view', {
      labels: { ...boot, 'rbac.authorization.k8s.io/aggregate-to-view': 'true' },
      annotations: auto,
      rules: [
        R(
          [''],
          [
            'configmaps',
            'endpoints',
            'persistentvolumeclaims',
            'persistentvolumeclaims/status',
            'pods',
            'replicationcontrollers',
            'replicationcontrollers/scale',
            'serviceaccounts',
            'services',
            'services/status',
          ],
          READ,
        ),
        R(
          [''],
          [
            'bindings',
            'events',
            'limitranges',
            'namespaces/status',
            'pods/log',
            'pods/status',
            'replicationcontrollers/status',
            'resourcequotas',
            'resourcequotas/status',
          ],
          READ,
        ),
        R([''], ['namespaces'], READ),
        R(['discovery.k8s.io'], ['endpointslices'], READ),
        R(
          ['apps'],
          [
            'controllerrevisions',
            'daemonsets',
            'daemonsets/status',
            'deployments',
            'deployments/scale',
            'deployments/status',
            'replicasets',
            'replicasets/scale',
            'replicasets/status',
            'statefulsets',
            'statefulsets/scale',
            'statefulsets/status',
          ],
          READ,
        ),
        R(['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], READ),
        R(['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'], READ),
        R(
          ['extensions'],
          [
            'daemonsets',
            'daemonsets/status',
            'deployments',
            'deployments/scale',
            'deployments/status',
            'ingresses',
            'ingresses/status',
            'networkpolicies',
            'replicasets',
            'replicasets/scale',
            'replicasets/status',
            'replicationcontrollers/scale',
          ],
          READ,
        ),
        R(['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status'], READ),
        R(['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies'], READ),
      ],
    }),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// The Crossplane Helm chart (crossplane/crossplane cluster/charts/crossplane/templates), release "crossplane" in
// crossplane-system, rbacManager.deploy=true, as `helm template` renders it.

const CROSSPLANE_NS = 'crossplane-system';
const CROSSPLANE_VERSION = '2.1.0';
const CROSSPLANE_IMAGE = `xpkg.crossplane.io/crossplane/crossplane:v${CROSSPLANE_VERSION}`;

function chartLabels() {
  return {
    app: 'crossplane',
    'helm.sh/chart': `crossplane-${CROSSPLANE_VERSION}`,
    'app.kubernetes.io/managed-by': 'Helm',
    'app.kubernetes.io/component': 'cloud-infrastructure-controller',
    'app.kubernetes.io/part-of': 'crossplane',
    'app.kubernetes.io/name': 'crossplane',
    'app.kubernetes.io/instance': 'crossplane',
    'app.kubernetes.io/version': CROSSPLANE_VERSION,
  };
}

function serviceAccount(namespace, name, labels, created) {
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: {
      name,
      namespace,
      uid: uid('ServiceAccount', namespace, name),
      creationTimestamp: created,
      ...(labels ? { labels } : {}),
    },
  };
}

function crossplaneChartRoles() {
  const L = chartLabels;
  const ALL = ['*'];
  const builtIn = ['apiextensions.crossplane.io', 'pkg.crossplane.io', 'secrets.crossplane.io'];
  const v2Groups = ['protection.crossplane.io', 'ops.crossplane.io'];
  const perGroup = (groups, verbs) => groups.map((g) => R([g], ['*'], verbs));
  return [
    clusterRole('crossplane', { labels: L(), aggregate: ['rbac.crossplane.io/aggregate-to-crossplane'] }),
    clusterRole('crossplane:system:aggregate-to-crossplane', {
      labels: {
        ...L(),
        'crossplane.io/scope': 'system',
        'rbac.crossplane.io/aggregate-to-crossplane': 'true',
      },
      rules: [
        R([''], ['events'], ['create', 'update', 'patch', 'delete']),
        R(['apiextensions.k8s.io'], ['customresourcedefinitions', 'customresourcedefinitions/status'], ALL),
        R([''], ['secrets'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
        R([''], ['serviceaccounts', 'services'], ALL),
        R(
          [
            'apiextensions.crossplane.io',
            'ops.crossplane.io',
            'pkg.crossplane.io',
            'protection.crossplane.io',
          ],
          ['*'],
          ALL,
        ),
        R(
          ['extensions', 'apps'],
          ['deployments'],
          ['get', 'list', 'create', 'update', 'patch', 'delete', 'watch'],
        ),
        R(
          ['', 'coordination.k8s.io'],
          ['configmaps', 'leases'],
          ['get', 'list', 'create', 'update', 'patch', 'watch', 'delete'],
        ),
        R(
          ['admissionregistration.k8s.io'],
          ['validatingwebhookconfigurations', 'mutatingwebhookconfigurations'],
          ['get', 'list', 'create', 'update', 'patch', 'watch', 'delete'],
        ),
      ],
    }),
    clusterRole('crossplane:allowed-provider-permissions', {
      labels: L(),
      aggregate: ['rbac.crossplane.io/aggregate-to-allowed-provider-permissions'],
    }),
    clusterRole('crossplane-rbac-manager', {
      labels: L(),
      rules: [
        R([''], ['events'], ['create', 'update', 'patch', 'delete']),
        R([''], ['namespaces'], READ),
        R(['apps'], ['deployments'], READ),
        R([''], ['namespaces/finalizers'], ['update']),
        R(['apiextensions.crossplane.io'], ['compositeresourcedefinitions'], READ),
        R(['apiextensions.crossplane.io'], ['compositeresourcedefinitions/finalizers'], ['update']),
        R(['pkg.crossplane.io'], ['providerrevisions'], READ),
        R(['pkg.crossplane.io'], ['providerrevisions/finalizers'], ['update']),
        R(['apiextensions.k8s.io'], ['customresourcedefinitions'], READ),
        R(
          ['rbac.authorization.k8s.io'],
          ['clusterroles', 'roles'],
          ['get', 'list', 'watch', 'create', 'update', 'patch', 'escalate'],
        ),
        R(['rbac.authorization.k8s.io'], ['clusterroles'], ['bind']),
        R(['rbac.authorization.k8s.io'], ['clusterrolebindings'], ALL),
        R(
          ['', 'coordination.k8s.io'],
          ['configmaps', 'leases'],
          ['get', 'list', 'create', 'update', 'patch', 'watch', 'delete'],
        ),
      ],
    }),
    clusterRole('crossplane-admin', { labels: L(), aggregate: ['rbac.crossplane.io/aggregate-to-admin'] }),
    clusterRole('crossplane-edit', { labels: L(), aggregate: ['rbac.crossplane.io/aggregate-to-edit'] }),
    clusterRole('crossplane-view', { labels: L(), aggregate: ['rbac.crossplane.io/aggregate-to-view'] }),
    clusterRole('crossplane-browse', { labels: L(), aggregate: ['rbac.crossplane.io/aggregate-to-browse'] }),
    clusterRole('crossplane:aggregate-to-admin', {
      labels: { 'rbac.crossplane.io/aggregate-to-admin': 'true', ...L() },
      rules: [
        R([''], ['events'], READ),
        R([''], ['secrets', 'namespaces'], ALL),
        R(['rbac.authorization.k8s.io'], ['clusterroles', 'roles'], READ),
        R(['rbac.authorization.k8s.io'], ['clusterrolebindings', 'rolebindings'], ALL),
        ...perGroup(builtIn, ALL),
        R(['apiextensions.k8s.io'], ['customresourcedefinitions'], READ),
        ...perGroup(v2Groups, ALL),
      ],
    }),
    clusterRole('crossplane:aggregate-to-edit', {
      labels: { 'rbac.crossplane.io/aggregate-to-edit': 'true', ...L() },
      rules: [
        R([''], ['events'], READ),
        R([''], ['secrets'], ALL),
        R([''], ['namespaces'], READ),
        ...perGroup(builtIn, ALL),
        ...perGroup(v2Groups, ALL),
      ],
    }),
    clusterRole('crossplane:aggregate-to-view', {
      labels: { 'rbac.crossplane.io/aggregate-to-view': 'true', ...L() },
      rules: [
        R([''], ['events'], READ),
        R([''], ['namespaces'], READ),
        ...perGroup(builtIn, READ),
        ...perGroup(v2Groups, READ),
      ],
    }),
    clusterRole('crossplane:aggregate-to-browse', {
      labels: { 'rbac.crossplane.io/aggregate-to-browse': 'true', ...L() },
      rules: [R([''], ['events'], READ), R(['apiextensions.crossplane.io'], ['*'], READ)],
    }),
  ];
}

function crossplaneChartObjects() {
  const L = chartLabels;
  return {
    serviceAccounts: [
      serviceAccount(CROSSPLANE_NS, 'rbac-manager', L(), CROSSPLANE_INSTALLED),
      serviceAccount(CROSSPLANE_NS, 'crossplane', L(), CROSSPLANE_INSTALLED),
    ],
    bindings: [
      clusterRoleBinding(
        'crossplane',
        'crossplane',
        [{ kind: 'ServiceAccount', name: 'crossplane', namespace: CROSSPLANE_NS }],
        L(),
        CROSSPLANE_INSTALLED,
      ),
      clusterRoleBinding(
        'crossplane-rbac-manager',
        'crossplane-rbac-manager',
        [{ kind: 'ServiceAccount', name: 'rbac-manager', namespace: CROSSPLANE_NS }],
        L(),
        CROSSPLANE_INSTALLED,
      ),
      clusterRoleBinding(
        'crossplane-admin',
        'crossplane-admin',
        [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'crossplane:masters' }],
        L(),
        CROSSPLANE_INSTALLED,
      ),
    ],
    deployment: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'crossplane',
        namespace: CROSSPLANE_NS,
        uid: uid('Deployment', CROSSPLANE_NS, 'crossplane'),
        creationTimestamp: CROSSPLANE_INSTALLED,
        labels: { ...L(), release: 'crossplane' },
      },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'crossplane', release: 'crossplane' } },
        strategy: { type: 'RollingUpdate' },
        template: {
          metadata: { labels: { app: 'crossplane', release: 'crossplane', ...omit(L(), ['app']) } },
          spec: {
            serviceAccountName: 'crossplane',
            containers: [
              {
                name: 'crossplane',
                image: CROSSPLANE_IMAGE,
                args: ['core', 'start'],
                ports: [
                  { name: 'readyz', containerPort: 8081 },
                  { name: 'webhooks', containerPort: 9443 },
                ],
              },
            ],
          },
        },
      },
    },
  };
}

function omit(obj, keys) {
  return Object.fromEntries(Object.entries(obj).filter(([k]) => !keys.includes(k)));
}

// ---------------------------------------------------------------------------------------------------------------
// Packages: Providers, ProviderRevisions, their Deployments and ServiceAccounts

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
}) {
  const providerUid = uid('Provider', name);
  const objects = { providers: [], revisions: [], deployments: [], serviceAccounts: [] };
  const revisionNames = images.map((image) => `${name}-${revisionHash(image)}`);
  const active = images.length - 1;
  const current = images[active];
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
    status: { currentIdentifier: current, currentRevision: revisionNames[active] },
  });
  images.forEach((image, i) => {
    const revName = revisionNames[i];
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
          ...(family ? { 'pkg.crossplane.io/provider-family': family } : {}),
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
        ...(capabilities ? { capabilities } : {}),
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
    objects.serviceAccounts.push({
      ...serviceAccount(CROSSPLANE_NS, revName, undefined, PROVIDERS_UPGRADED),
      metadata: {
        ...serviceAccount(CROSSPLANE_NS, revName, undefined, PROVIDERS_UPGRADED).metadata,
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
    });
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
function objectRefs(crds, refKind) {
  const providerConfigKinds = new Set([
    'ProviderConfig',
    'ClusterProviderConfig',
    'ProviderConfigUsage',
    'StoreConfig',
  ]);
  const refs = crds.map((c) => {
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
  const sortKey = (r) => {
    const [group, version] = r.apiVersion.split('/');
    return `${group}/${version}, Kind=${r.kind}/${r.name}`;
  };
  return refs.sort((a, b) => cmp(sortKey(b), sortKey(a)));
}

function mergePackages(parts) {
  const all = { providers: [], revisions: [], deployments: [], serviceAccounts: [] };
  for (const p of parts) for (const k of Object.keys(all)) all[k].push(...p[k]);
  return all;
}

const UPBOUND_SOURCE = 'github.com/crossplane-contrib/provider-upjet-aws';
const UPBOUND_AWS_VERSION = 'v1.23.0';
const UPBOUND_AWS_PREVIOUS = 'v1.22.0';
const FAMILY_LABEL = 'provider-family-aws';

/** The Upbound AWS family: provider-family-aws plus the given service packages, at v1.23.0. */
function upboundAwsFamily(byPackage, services, { previous }) {
  return ['provider-family-aws', ...services].map((pkg) => {
    const crds = byPackage.get(pkg);
    if (!crds) throw new Error(`package ${pkg} is not in the v1.23.0 inventory`);
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

function smallProviders(inventories) {
  const rows = (file) =>
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
function installingProvider() {
  return providerPackage({
    name: 'crossplane-contrib-provider-sql',
    source: 'github.com/crossplane-contrib/provider-sql',
    images: ['xpkg.crossplane.io/crossplane-contrib/provider-sql:v0.9.0'],
    crds: [],
    created: PROVIDER_INSTALLING,
    installing: true,
  });
}

function kindOfSmallCrd(name) {
  const plural = name.slice(0, name.indexOf('.'));
  return (
    {
      providerconfigs: 'ProviderConfig',
      clusterproviderconfigs: 'ClusterProviderConfig',
      providerconfigusages: 'ProviderConfigUsage',
    }[plural] ?? 'Managed'
  );
}

// ---------------------------------------------------------------------------------------------------------------
// XRDs

function schema(props) {
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

const PARAMS = {
  region: { type: 'string', description: 'Cloud region the resources are created in.' },
  size: { type: 'string', enum: ['small', 'medium', 'large'], default: 'small' },
  storageGB: { type: 'integer', minimum: 10 },
  version: { type: 'string' },
};

/**
 * An XRD. `kind` is 'v1' (apiextensions.crossplane.io/v1, optional claim), 'v2' (v2, scope Namespaced by
 * default), with `scope` 'Cluster' or 'LegacyCluster' for the other v2 scopes.
 */
function xrd({ api, plural, group, kind, claim, scope, params = ['region', 'size'], version = 'v1alpha1' }) {
  const name = `${plural}.${group}`;
  const singular = kind.toLowerCase();
  return {
    apiVersion: `apiextensions.crossplane.io/${api}`,
    kind: 'CompositeResourceDefinition',
    metadata: { name, uid: uid('CompositeResourceDefinition', name), creationTimestamp: XRDS_CREATED },
    spec: {
      group,
      names: { kind, listKind: `${kind}List`, plural, singular, categories: ['crossplane'] },
      ...(claim
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

function clusterXrds() {
  const claimOf = (kind, plural) => ({ kind, plural });
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

// ---------------------------------------------------------------------------------------------------------------
// Namespaces

function namespace(name, { labels, annotations, created = CLUSTER_CREATED } = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      uid: uid('Namespace', name),
      creationTimestamp: created,
      labels: { 'kubernetes.io/metadata.name': name, ...(labels ?? {}) },
      ...(annotations && Object.keys(annotations).length > 0 ? { annotations } : {}),
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

const ACCEPTED = 'xrd-claim-accepted';
const accept = (...xrdNames) =>
  Object.fromEntries(xrdNames.map((n) => [`rbac.crossplane.io/${n}`, ACCEPTED]));

function clusterNamespaces() {
  return [
    namespace('default'),
    namespace('kube-system'),
    namespace('kube-public'),
    namespace('kube-node-lease'),
    namespace(CROSSPLANE_NS, { created: CROSSPLANE_INSTALLED }),
    namespace('config-management-system', { created: CROSSPLANE_INSTALLED }),
    namespace('team-a', {
      labels: { 'acme.io/team': 'a' },
      annotations: accept(
        'xpostgresqlinstances.database.platform.acme.io',
        'xbuckets.storage.platform.acme.io',
        'apps.platform.acme.io',
        'databases.platform.acme.io',
      ),
    }),
    namespace('team-b', {
      labels: { 'acme.io/team': 'b' },
      annotations: accept('xsqlinstances.aws.platform.upbound.io', 'networks.aws.platform.upbound.io'),
    }),
    namespace('payments', {
      labels: { 'acme.io/team': 'payments' },
      annotations: accept(
        'xpostgresqlinstances.database.platform.acme.io',
        'xredisclusters.cache.platform.acme.io',
        'caches.platform.acme.io',
        'topics.messaging.acme.io',
      ),
    }),
    namespace('analytics', {
      labels: { 'acme.io/team': 'analytics' },
      annotations: accept('buckets.storage.acme.io', 'xqueues.messaging.platform.acme.io'),
    }),
    namespace('staging', { annotations: accept('webservices.platform.acme.io') }),
    namespace('production'),
    namespace('sandbox', { labels: { 'acme.io/ephemeral': 'true' } }),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Config Sync (kpt-config-sync): the RootSync, its reconciler ServiceAccount, the base ClusterRole, and the legacy
// cluster-admin binding reconciler-manager made before roleRefs were set.

function configSync() {
  const ns = 'config-management-system';
  const csLabels = { 'configmanagement.gke.io/system': 'true', 'configmanagement.gke.io/arch': 'csmr' };
  return [
    {
      apiVersion: 'configsync.gke.io/v1beta1',
      kind: 'RootSync',
      metadata: {
        name: 'root-sync',
        namespace: ns,
        uid: uid('RootSync', ns, 'root-sync'),
        creationTimestamp: CROSSPLANE_INSTALLED,
      },
      spec: {
        sourceFormat: 'unstructured',
        sourceType: 'git',
        git: {
          repo: 'https://github.com/acme/platform-config',
          branch: 'main',
          dir: 'clusters/prod-eu-1',
          auth: 'none',
        },
        override: {
          roleRefs: [
            { kind: 'ClusterRole', name: 'crossplane-edit' },
            { kind: 'ClusterRole', name: 'view' },
            { kind: 'ClusterRole', name: 'edit', namespace: 'team-a' },
            { kind: 'Role', name: 'gitops-deployer', namespace: 'team-b' },
          ],
        },
      },
    },
    {
      ...serviceAccount(
        ns,
        'root-reconciler',
        {
          'configsync.gke.io/sync-kind': 'RootSync',
          'configsync.gke.io/sync-name': 'root-sync',
          'configsync.gke.io/sync-namespace': ns,
        },
        CROSSPLANE_INSTALLED,
      ),
    },
    clusterRole('configsync.gke.io:root-reconciler', {
      labels: csLabels,
      rules: [
        R(['configsync.gke.io'], ['rootsyncs'], ['get', 'list', 'watch', 'update', 'patch']),
        R(['configsync.gke.io'], ['rootsyncs/status'], ['get', 'list', 'watch', 'update', 'patch']),
        R(['kpt.dev'], ['resourcegroups'], ['*']),
        R(['kpt.dev'], ['resourcegroups/status'], ['*']),
        R(['apiextensions.k8s.io'], ['customresourcedefinitions'], READ),
      ],
    }),
    clusterRoleBinding(
      'configsync.gke.io:root-reconciler',
      'cluster-admin',
      [{ kind: 'ServiceAccount', name: 'root-reconciler', namespace: ns }],
      {
        'configsync.gke.io/managed-by': 'reconciler-manager',
        'configsync.gke.io/sync-kind': 'RootSync',
        'configsync.gke.io/sync-namespace': ns,
      },
      CROSSPLANE_INSTALLED,
    ),
    {
      apiVersion: RBAC,
      kind: 'Role',
      metadata: {
        name: 'gitops-deployer',
        namespace: 'team-b',
        uid: uid('Role', 'team-b', 'gitops-deployer'),
        creationTimestamp: CROSSPLANE_INSTALLED,
      },
      rules: [
        R(['apps'], ['deployments'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
        R([''], ['configmaps', 'services'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
      ],
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// The large example (benchmarks): every v1.23.0 AWS package, a second AWS family from another organisation,
// hundreds of XRDs and namespaces.

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

function capitalize(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function largeXrds() {
  const xrds = [];
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

function largeNamespaces(xrds) {
  const namespaced = xrds.filter(
    (x) => x.spec.claimNames || (x.apiVersion.endsWith('/v2') && x.spec.scope === 'Namespaced'),
  );
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
    const annotations = {};
    if (n % 3 !== 2) {
      for (let k = 0; k < 1 + (n % 4); k++)
        annotations[`rbac.crossplane.io/${shortNames[(n * 7 + k * 13) % shortNames.length]}`] = ACCEPTED;
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

function largePackages(inventories) {
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
  ].map((pkg) => contribFamilyPackage(pkg, main.get(pkg)));
  return mergePackages([...upbound, ...contrib, ...smallProviders(inventories)]);
}

/** A package of crossplane-contrib's provider-upjet-aws family at v2.6.0 (managed resources as MRD refs, SafeStart). */
function contribFamilyPackage(pkg, crds) {
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
function packageDocs(packages) {
  return [
    ...packages.providers.sort(byName),
    ...packages.revisions.sort(byName),
    ...packages.serviceAccounts.sort(byName),
    ...packages.deployments.sort(byName),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Output

const HEADER =
  '# Generated by scripts/generate-examples.mjs: do not edit by hand; change the script and re-run it.\n';

function toYaml(docs, comment) {
  const body = docs
    .map((d) => stringify(d, { version: '1.1', lineWidth: 0, aliasDuplicateObjects: false }))
    .join('---\n');
  return `${HEADER}${comment ? `# ${comment}\n` : ''}---\n${body}`;
}

function write(outDir, rel, docs, comment) {
  const p = path.join(outDir, rel);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, toYaml(docs, comment));
  return rel;
}

function byName(a, b) {
  return cmp(
    `${a.metadata.namespace ?? ''}/${a.metadata.name}`,
    `${b.metadata.namespace ?? ''}/${b.metadata.name}`,
  );
}

/** The CustomResourceDefinitions of the kinds the examples use, as a real cluster has them. */
function crossplaneCrds() {
  const crd = (group, plural, kind, scope, versions, extra = {}) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}`, uid: uid('crd', plural, group) },
    spec: {
      group,
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List`, ...extra },
      scope,
      versions: versions.map((name, i) => ({
        name,
        served: true,
        storage: i === versions.length - 1,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        subresources: { status: {} },
      })),
    },
  });
  return [
    crd(
      'apiextensions.crossplane.io',
      'compositeresourcedefinitions',
      'CompositeResourceDefinition',
      'Cluster',
      ['v1', 'v2'],
      {
        shortNames: ['xrd', 'xrds'],
        categories: ['crossplane'],
      },
    ),
    crd('pkg.crossplane.io', 'providers', 'Provider', 'Cluster', ['v1'], {
      categories: ['crossplane', 'pkg'],
    }),
    crd('pkg.crossplane.io', 'providerrevisions', 'ProviderRevision', 'Cluster', ['v1'], {
      categories: ['crossplane', 'pkg'],
    }),
    crd('configsync.gke.io', 'rootsyncs', 'RootSync', 'Namespaced', ['v1beta1']),
  ];
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const v123 = readByPackage(opts.inventories, 'provider-upjet-aws-v1.23.0-crds-by-package.tsv');
  const chart = crossplaneChartObjects();
  const configSyncObjects = configSync();
  const configSyncRoles = configSyncObjects.filter((o) => o.kind === 'ClusterRole');
  const bootstrap = kubernetesBootstrapRoles();
  const chartRoles = crossplaneChartRoles();
  aggregate([...bootstrap, ...chartRoles, ...configSyncRoles]);

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
  const c = (rel) => path.join('cluster', rel);
  written.push(
    write(
      opts.out,
      c('05-crds.yaml'),
      crossplaneCrds(),
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
      c('50-config-sync.yaml'),
      configSyncObjects,
      'Config Sync: RootSync root-sync with spec.override.roleRefs; its reconciler is still bound to cluster-admin.',
    ),
  );

  const largeX = largeXrds();
  const largeP = largePackages(opts.inventories);
  const largeBootstrap = kubernetesBootstrapRoles();
  const largeChart = crossplaneChartRoles();
  aggregate([...largeBootstrap, ...largeChart]);
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
      ],
      'Large generated cluster for benchmarks: every AWS v1.23.0 package, a second AWS family from another organisation, 200+ XRDs, 600 namespaces.',
    ),
  );
  process.stdout.write(written.map((f) => `wrote ${path.join(opts.out, f)}\n`).join(''));
}

// ---------------------------------------------------------------------------------------------------------------
// The full family (benchmarks only, never written to examples/): every package of crossplane-contrib's
// provider-upjet-aws at v2.6.0, 177 revisions holding all of its 2,065 CRDs, with the Crossplane chart around them.
// Every member's roles hold the whole family, as Crossplane makes them, so `sync -f` of this renders >100 MB.

/** The documents of the full-family cluster, as one multi-document YAML text. */
export function fullFamilyYaml(inventories = path.join(repoRoot, 'test', 'fixtures', 'real')) {
  const byPackage = readByPackage(inventories, 'provider-upjet-aws-crds-by-package.tsv');
  const packages = mergePackages(
    [...byPackage.keys()].sort().map((pkg) => contribFamilyPackage(pkg, byPackage.get(pkg))),
  );
  const chart = crossplaneChartObjects();
  const bootstrap = kubernetesBootstrapRoles();
  const chartRoles = crossplaneChartRoles();
  aggregate([...bootstrap, ...chartRoles]);
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

// Run as a script (not when imported by the benchmarks).
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (err) {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
}
