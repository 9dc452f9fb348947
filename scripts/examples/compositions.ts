// What Crossplane composes: Compositions of the example's XRDs (function pipelines, and one Crossplane v1-style
// composition with spec.resources), live composite resources with their resourceRefs, the Warning events
// Crossplane records when its ServiceAccount may not apply a composed resource (and one such event about another
// user), and a WatchOperation. Shapes follow crossplane/crossplane v2.1 (apis/apiextensions/v1
// composition_types.go, apis/ops/v1alpha1 watchoperation_types.go, internal/xcrd schemas.go),
// crossplane-contrib/function-patch-and-transform (input/v1beta1) and function-go-templating (GoTemplate).
import type { KubeObject } from '../../src/kube/types.js';
import { COMPOSITIONS_CREATED, CROSSPLANE_NS, XRS_CREATED, byName, uid } from './ids.js';

type Json = Readonly<Record<string, unknown>>;

const CROSSPLANE_USER = `system:serviceaccount:${CROSSPLANE_NS}:crossplane`;

// ---------------------------------------------------------------------------------------------------------------
// Compositions

/** A function-patch-and-transform FromCompositeFieldPath patch (its default type), with optional transforms. */
function fromXr(from: string, to: string, transforms?: readonly Json[]): Json {
  return {
    type: 'FromCompositeFieldPath',
    fromFieldPath: from,
    toFieldPath: to,
    ...(transforms !== undefined ? { transforms } : {}),
  };
}

/** A string Format transform. */
const format = (fmt: string): Json => ({ type: 'string', string: { type: 'Format', fmt } });

/** A map transform. */
const map = (entries: Json): Json => ({ type: 'map', map: entries });

/** A CombineFromComposite patch formatting several XR fields into one string. */
function combine(from: readonly string[], fmt: string, to: string): Json {
  return {
    type: 'CombineFromComposite',
    combine: {
      variables: from.map((fromFieldPath) => ({ fromFieldPath })),
      strategy: 'string',
      string: { fmt },
    },
    toFieldPath: to,
  };
}

/** One composed resource template (function-patch-and-transform's ComposedTemplate, and v1's). */
function template(name: string, base: Json, patches: readonly Json[], readinessChecks?: readonly Json[]): Json {
  return {
    name,
    base,
    patches,
    ...(readinessChecks !== undefined ? { readinessChecks } : {}),
  };
}

/** Ready as soon as it exists: for kinds without a Ready condition. */
const READY_WHEN_CREATED: readonly Json[] = [{ type: 'None' }];

/** A pipeline step running function-patch-and-transform over these resources. */
function patchAndTransform(resources: readonly Json[]): Json {
  return {
    step: 'patch-and-transform',
    functionRef: { name: 'function-patch-and-transform' },
    input: { apiVersion: 'pt.fn.crossplane.io/v1beta1', kind: 'Resources', resources },
  };
}

function composition(name: string, xr: { apiVersion: string; kind: string }, spec: Json): KubeObject {
  return {
    apiVersion: 'apiextensions.crossplane.io/v1',
    kind: 'Composition',
    metadata: { name, uid: uid('Composition', name), creationTimestamp: COMPOSITIONS_CREATED },
    spec: { compositeTypeRef: xr, ...spec },
  };
}

// The XRs' types, as 40-xrds.yaml defines them (each XRD's one served, referenceable version).
const APP = { apiVersion: 'platform.acme.io/v1alpha1', kind: 'App' };
const DATABASE = { apiVersion: 'platform.acme.io/v1alpha1', kind: 'Database' };
const TENANT = { apiVersion: 'platform.acme.io/v1alpha1', kind: 'Tenant' };
const WEBSERVICE = { apiVersion: 'platform.acme.io/v1alpha1', kind: 'WebService' };
const XPOSTGRESQL = { apiVersion: 'database.platform.acme.io/v1alpha1', kind: 'XPostgreSQLInstance' };

// Managed resources, in the version 45-defined-crds.yaml serves them.
const RDS_INSTANCE = { apiVersion: 'rds.aws.upbound.io/v1beta1', kind: 'Instance' };
const K8S_OBJECT = { apiVersion: 'kubernetes.m.crossplane.io/v1beta1', kind: 'Object' };

const NAME_LABEL = 'app.kubernetes.io/name';

/** App: a web application in the XR's namespace (v2 namespaced XR: composed resources land in its namespace). */
function appWeb(): KubeObject {
  const byXrName = (to: string): Json => fromXr('metadata.name', to);
  const selector = { matchLabels: { [NAME_LABEL]: 'app' } };
  return composition('app-web', APP, {
    mode: 'Pipeline',
    pipeline: [
      patchAndTransform([
        template(
          'deployment',
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            spec: {
              replicas: 2,
              selector,
              template: {
                metadata: { labels: { [NAME_LABEL]: 'app' } },
                spec: {
                  containers: [
                    {
                      name: 'app',
                      image: 'ghcr.io/acme/web:1.0.0',
                      ports: [{ name: 'http', containerPort: 8080 }],
                    },
                  ],
                },
              },
            },
          },
          [
            byXrName('metadata.name'),
            byXrName(`spec.selector.matchLabels[${NAME_LABEL}]`),
            byXrName(`spec.template.metadata.labels[${NAME_LABEL}]`),
            fromXr('spec.parameters.version', 'spec.template.spec.containers[0].image', [
              format('ghcr.io/acme/web:%s'),
            ]),
            fromXr('spec.parameters.size', 'spec.replicas', [map({ small: 1, medium: 2, large: 4 })]),
          ],
          [{ type: 'MatchCondition', matchCondition: { type: 'Available', status: 'True' } }],
        ),
        template(
          'ingress',
          {
            apiVersion: 'networking.k8s.io/v1',
            kind: 'Ingress',
            spec: {
              ingressClassName: 'nginx',
              rules: [
                {
                  host: 'app.apps.acme.io',
                  http: {
                    paths: [
                      {
                        path: '/',
                        pathType: 'Prefix',
                        backend: { service: { name: 'app', port: { name: 'http' } } },
                      },
                    ],
                  },
                },
              ],
            },
          },
          [
            byXrName('metadata.name'),
            combine(['metadata.name', 'metadata.namespace'], '%s.%s.apps.acme.io', 'spec.rules[0].host'),
            byXrName('spec.rules[0].http.paths[0].backend.service.name'),
          ],
          READY_WHEN_CREATED,
        ),
        template(
          'netpol',
          {
            apiVersion: 'networking.k8s.io/v1',
            kind: 'NetworkPolicy',
            spec: {
              podSelector: selector,
              policyTypes: ['Ingress'],
              ingress: [
                {
                  from: [
                    { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } },
                  ],
                  ports: [{ protocol: 'TCP', port: 8080 }],
                },
              ],
            },
          },
          [byXrName('metadata.name'), byXrName(`spec.podSelector.matchLabels[${NAME_LABEL}]`)],
          READY_WHEN_CREATED,
        ),
        template(
          'config',
          { apiVersion: 'v1', kind: 'ConfigMap', data: { LOG_LEVEL: 'info' } },
          [
            fromXr('metadata.name', 'metadata.name', [format('%s-config')]),
            fromXr('spec.parameters.version', 'data.APP_VERSION'),
          ],
          READY_WHEN_CREATED,
        ),
        template(
          'pdb',
          { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', spec: { minAvailable: 1, selector } },
          [byXrName('metadata.name'), byXrName(`spec.selector.matchLabels[${NAME_LABEL}]`)],
          READY_WHEN_CREATED,
        ),
      ]),
    ],
  });
}

/** Database: nightly backups (a CronJob) and a bucket policy applied through provider-kubernetes. */
function databaseBackups(): KubeObject {
  return composition('database-backups', DATABASE, {
    mode: 'Pipeline',
    pipeline: [
      patchAndTransform([
        template(
          'backup',
          {
            apiVersion: 'batch/v1',
            kind: 'CronJob',
            spec: {
              schedule: '0 2 * * *',
              concurrencyPolicy: 'Forbid',
              jobTemplate: {
                spec: {
                  template: {
                    spec: {
                      restartPolicy: 'OnFailure',
                      containers: [
                        {
                          name: 'backup',
                          image: 'ghcr.io/acme/pg-backup:1.4.2',
                          env: [
                            { name: 'AWS_REGION', value: 'eu-west-1' },
                            { name: 'PG_VERSION', value: '16' },
                          ],
                        },
                      ],
                    },
                  },
                },
              },
            },
          },
          [
            fromXr('metadata.name', 'metadata.name', [format('%s-backup')]),
            fromXr('spec.parameters.region', 'spec.jobTemplate.spec.template.spec.containers[0].env[0].value'),
            fromXr('spec.parameters.version', 'spec.jobTemplate.spec.template.spec.containers[0].env[1].value'),
          ],
          READY_WHEN_CREATED,
        ),
        template(
          'bucket-policy',
          {
            ...K8S_OBJECT,
            spec: {
              forProvider: {
                manifest: {
                  apiVersion: 'v1',
                  kind: 'ConfigMap',
                  data: { 'policy.json': '{"Version":"2012-10-17","Statement":[]}' },
                },
              },
              providerConfigRef: { kind: 'ClusterProviderConfig', name: 'in-cluster' },
            },
          },
          [
            fromXr('metadata.name', 'metadata.name', [format('%s-bucket-policy')]),
            fromXr('metadata.name', 'spec.forProvider.manifest.metadata.name', [format('%s-bucket-policy')]),
            fromXr('metadata.namespace', 'spec.forProvider.manifest.metadata.namespace'),
          ],
        ),
      ]),
      { step: 'auto-ready', functionRef: { name: 'function-auto-ready' } },
    ],
  });
}

/** Tenant (cluster-scoped): a namespace with a quota, and the tenant's admins bound to ClusterRole admin there. */
function tenantNamespace(): KubeObject {
  const inTenantNamespace = fromXr('metadata.name', 'metadata.namespace', [format('tenant-%s')]);
  return composition('tenant-namespace', TENANT, {
    mode: 'Pipeline',
    pipeline: [
      patchAndTransform([
        template(
          'namespace',
          { apiVersion: 'v1', kind: 'Namespace', metadata: { labels: { 'acme.io/tenant': 'unset' } } },
          [
            fromXr('metadata.name', 'metadata.name', [format('tenant-%s')]),
            fromXr('metadata.name', 'metadata.labels[acme.io/tenant]'),
          ],
          READY_WHEN_CREATED,
        ),
        template(
          'quota',
          {
            apiVersion: 'v1',
            kind: 'ResourceQuota',
            metadata: { name: 'tenant-quota' },
            spec: { hard: { 'requests.cpu': '4', 'requests.memory': '8Gi', pods: '20' } },
          },
          [
            inTenantNamespace,
            fromXr('spec.parameters.size', 'spec.hard[requests.cpu]', [
              map({ small: '4', medium: '16', large: '64' }),
            ]),
            fromXr('spec.parameters.size', 'spec.hard[requests.memory]', [
              map({ small: '8Gi', medium: '32Gi', large: '128Gi' }),
            ]),
          ],
          READY_WHEN_CREATED,
        ),
        template(
          'admins',
          {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'RoleBinding',
            metadata: { name: 'tenant-admins' },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' },
            subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'unset' }],
          },
          [inTenantNamespace, fromXr('metadata.name', 'subjects[0].name', [format('acme:tenant:%s:admins')])],
          READY_WHEN_CREATED,
        ),
      ]),
    ],
  });
}

/** WebService: its resources come out of a Go template, so what it composes shows only once it is rendered. */
function webserviceTemplated(): KubeObject {
  const tmpl = [
    '---',
    'apiVersion: v1',
    'kind: Service',
    'metadata:',
    '  name: {{ .observed.composite.resource.metadata.name }}',
    '  annotations:',
    '    {{ setResourceNameAnnotation "service" }}',
    'spec:',
    '  selector:',
    '    app.kubernetes.io/name: {{ .observed.composite.resource.metadata.name }}',
    '  ports:',
    '    - name: http',
    '      port: 80',
    '      targetPort: 8080',
    '',
  ].join('\n');
  return composition('webservice-templated', WEBSERVICE, {
    mode: 'Pipeline',
    pipeline: [
      {
        step: 'render',
        functionRef: { name: 'function-go-templating' },
        input: {
          apiVersion: 'gotemplating.fn.crossplane.io/v1beta1',
          kind: 'GoTemplate',
          source: 'Inline',
          inline: { template: tmpl },
        },
      },
    ],
  });
}

/**
 * XPostgreSQLInstance (v1 XRD): a composition written for Crossplane v1's built-in patch and transform
 * (mode Resources, spec.resources), which Crossplane v2 no longer runs.
 */
function legacyPostgres(): KubeObject {
  return composition('legacy-postgres', XPOSTGRESQL, {
    mode: 'Resources',
    resources: [
      template(
        'migrate',
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          spec: {
            backoffLimit: 3,
            template: {
              spec: {
                restartPolicy: 'Never',
                containers: [
                  { name: 'migrate', image: 'ghcr.io/acme/orders-migrations:2.3.0', args: ['migrate', 'up'] },
                ],
              },
            },
          },
        },
        [
          fromXr('metadata.name', 'metadata.name', [format('%s-migrate')]),
          fromXr('spec.claimRef.namespace', 'metadata.namespace'),
        ],
        READY_WHEN_CREATED,
      ),
      template(
        'instance',
        {
          ...RDS_INSTANCE,
          spec: {
            forProvider: {
              engine: 'postgres',
              engineVersion: '16',
              instanceClass: 'db.t3.medium',
              allocatedStorage: 20,
              username: 'orders',
              autoGeneratePassword: true,
              skipFinalSnapshot: true,
            },
            providerConfigRef: { name: 'default' },
          },
        },
        [
          fromXr('metadata.name', 'metadata.name'),
          fromXr('spec.parameters.region', 'spec.forProvider.region'),
          fromXr('spec.parameters.storageGB', 'spec.forProvider.allocatedStorage'),
          fromXr('spec.parameters.version', 'spec.forProvider.engineVersion'),
        ],
      ),
    ],
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Live composite resources

interface Condition {
  readonly type: string;
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message?: string;
}

/** Conditions in the order and with the keys Crossplane's xpv1.Condition stores them. */
const conditions = (cs: readonly Condition[], at: string): Json[] =>
  cs.map((c) => ({
    type: c.type,
    status: c.status,
    lastTransitionTime: at,
    reason: c.reason,
    ...(c.message !== undefined ? { message: c.message } : {}),
  }));

const SYNCED: Condition = { type: 'Synced', status: 'True', reason: 'ReconcileSuccess' };
const AVAILABLE: Condition = { type: 'Ready', status: 'True', reason: 'Available' };

type Ref = readonly [apiVersion: string, kind: string, name: string, namespace?: string];

/** resourceRefs as Crossplane stores them: sorted by apiVersion+kind+name, a namespace only for cluster XRs. */
const resourceRefs = (refs: readonly Ref[]): Json[] =>
  [...refs]
    .sort(([av1, k1, n1], [av2, k2, n2]) => (av1 + k1 + n1 < av2 + k2 + n2 ? -1 : 1))
    .map(([apiVersion, kind, name, namespace]) => ({
      apiVersion,
      kind,
      name,
      ...(namespace !== undefined ? { namespace } : {}),
    }));

interface XrInput {
  readonly type: { apiVersion: string; kind: string };
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly parameters: Json;
  /** Crossplane's fields: under spec.crossplane for v2 XRs, directly under spec for v1 (legacy) ones. */
  readonly crossplane: Json;
  readonly legacy?: boolean;
  readonly conditions: readonly Condition[];
}

function xr(x: XrInput): KubeObject {
  return {
    ...x.type,
    metadata: {
      name: x.name,
      ...(x.namespace !== undefined ? { namespace: x.namespace } : {}),
      uid: uid(x.type.kind, x.namespace ?? '', x.name),
      creationTimestamp: XRS_CREATED,
      labels: { ...(x.labels ?? {}), 'crossplane.io/composite': x.name },
    },
    spec: {
      parameters: x.parameters,
      ...(x.legacy === true ? x.crossplane : { crossplane: x.crossplane }),
    },
    status: { conditions: conditions(x.conditions, XRS_CREATED) },
  };
}

function compositeResources(): KubeObject[] {
  return [
    xr({
      type: APP,
      name: 'web',
      namespace: 'team-a',
      parameters: { size: 'medium', version: '1.8.2' },
      crossplane: {
        compositionRef: { name: 'app-web' },
        compositionUpdatePolicy: 'Automatic',
        resourceRefs: resourceRefs([
          ['apps/v1', 'Deployment', 'web'],
          ['networking.k8s.io/v1', 'Ingress', 'web'],
          ['batch/v1', 'CronJob', 'web-cleanup'],
          // CloudNativePG's Cluster: a kind this cluster has no CRD for.
          ['postgresql.cnpg.io/v1', 'Cluster', 'web-db'],
        ]),
      },
      conditions: [
        {
          type: 'Synced',
          status: 'False',
          reason: 'ReconcileError',
          message: `cannot compose resources: cannot apply composed resource "netpol": networkpolicies.networking.k8s.io "web" is forbidden: User "${CROSSPLANE_USER}" cannot patch resource "networkpolicies" in API group "networking.k8s.io" in the namespace "team-a"`,
        },
        { type: 'Ready', status: 'False', reason: 'Creating' },
      ],
    }),
    xr({
      type: DATABASE,
      name: 'analytics',
      namespace: 'analytics',
      parameters: { region: 'eu-west-1', storageGB: 100, version: '16' },
      crossplane: {
        compositionRef: { name: 'database-backups' },
        compositionUpdatePolicy: 'Automatic',
        resourceRefs: resourceRefs([['batch/v1', 'CronJob', 'analytics-backup']]),
      },
      conditions: [SYNCED, AVAILABLE],
    }),
    // A claim's XR under a v1 XRD: Crossplane's fields directly under spec, namespaced refs with their namespace.
    xr({
      type: XPOSTGRESQL,
      name: 'orders-db-x7k2p',
      labels: { 'crossplane.io/claim-name': 'orders-db', 'crossplane.io/claim-namespace': 'payments' },
      parameters: { region: 'eu-west-1', storageGB: 50, version: '16' },
      legacy: true,
      crossplane: {
        claimRef: {
          apiVersion: 'database.platform.acme.io/v1alpha1',
          kind: 'PostgreSQLInstance',
          name: 'orders-db',
          namespace: 'payments',
        },
        compositionRef: { name: 'legacy-postgres' },
        compositionUpdatePolicy: 'Automatic',
        resourceRefs: resourceRefs([
          ['batch/v1', 'Job', 'orders-db-x7k2p-migrate', 'payments'],
          [RDS_INSTANCE.apiVersion, RDS_INSTANCE.kind, 'orders-db-x7k2p'],
        ]),
      },
      conditions: [SYNCED, AVAILABLE],
    }),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Events

interface EventInput {
  readonly namespace: string;
  readonly involved: { apiVersion: string; kind: string; name: string };
  readonly reason: string;
  readonly message: string;
  readonly component: string;
  /** The controller annotation Crossplane's recorder adds. */
  readonly controller?: string;
  readonly first: string;
  readonly last: string;
  readonly count: number;
}

/** A core v1 Event as client-go's recorder makes it: named <object>.<first occurrence in Unix nanoseconds, hex>. */
function warning(e: EventInput): KubeObject {
  const nanos = BigInt(Date.parse(e.first)) * 1_000_000n;
  const name = `${e.involved.name}.${nanos.toString(16)}`;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name,
      namespace: e.namespace,
      uid: uid('Event', e.namespace, name),
      creationTimestamp: e.first,
      ...(e.controller !== undefined ? { annotations: { controller: e.controller } } : {}),
    },
    involvedObject: {
      ...e.involved,
      namespace: e.namespace,
      uid: uid(e.involved.kind, e.namespace, e.involved.name),
    },
    reason: e.reason,
    message: e.message,
    source: { component: e.component },
    firstTimestamp: e.first,
    lastTimestamp: e.last,
    count: e.count,
    type: 'Warning',
    reportingComponent: e.component,
    reportingInstance: '',
  };
}

/** Crossplane's XR controllers record events as the XRD controller (defined/…), annotated with their own name. */
const XR_EVENTS = 'defined/compositeresourcedefinition.apiextensions.crossplane.io';

function events(): KubeObject[] {
  return [
    warning({
      namespace: 'team-a',
      involved: { ...APP, name: 'web' },
      reason: 'ComposeResources',
      message: `cannot apply composed resource "ingress": ingresses.networking.k8s.io "web" is forbidden: User "${CROSSPLANE_USER}" cannot patch resource "ingresses" in API group "networking.k8s.io" in the namespace "team-a"`,
      component: XR_EVENTS,
      controller: 'composite/apps.platform.acme.io',
      first: '2026-01-22T09:10:04Z',
      last: '2026-01-22T09:58:31Z',
      count: 14,
    }),
    warning({
      namespace: 'analytics',
      involved: { ...DATABASE, name: 'analytics' },
      reason: 'ComposeResources',
      message: `cannot apply composed resource "backup": cronjobs.batch "analytics-backup" is forbidden: User "${CROSSPLANE_USER}" cannot get resource "cronjobs" in API group "batch" in the namespace "analytics"`,
      component: XR_EVENTS,
      controller: 'composite/databases.platform.acme.io',
      first: '2026-01-22T09:10:07Z',
      last: '2026-01-22T09:31:12Z',
      count: 6,
    }),
    // Not Crossplane's: a person's forbidden update, recorded by the team's deploy tooling.
    warning({
      namespace: 'team-b',
      involved: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' },
      reason: 'FailedUpdate',
      message:
        'deployments.apps "api" is forbidden: User "alice@acme.io" cannot update resource "deployments" in API group "apps" in the namespace "team-b"',
      component: 'gitops-deployer',
      first: '2026-01-22T09:40:19Z',
      last: '2026-01-22T09:40:19Z',
      count: 1,
    }),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Operations

function watchOperation(): KubeObject {
  // Restarts a labelled StatefulSet's pods once per acme.io/config-version (idempotent: its own change is a no-op).
  const script = [
    'from google.protobuf import json_format',
    '',
    '',
    'def operate(req, rsp):',
    '    watched = req.required_resources["ops.crossplane.io/watched-resource"].items',
    '    if not watched:',
    '        return',
    '    sts = json_format.MessageToDict(watched[0].resource)',
    '    version = sts["metadata"].get("labels", {}).get("acme.io/config-version")',
    '    restarted = sts["spec"]["template"]["metadata"].get("annotations", {}).get("acme.io/restarted-for-config")',
    '    if version is None or version == restarted:',
    '        return',
    '    rsp.desired.resources["statefulset"].resource.update({',
    '        "apiVersion": "apps/v1",',
    '        "kind": "StatefulSet",',
    '        "metadata": {"name": sts["metadata"]["name"], "namespace": sts["metadata"]["namespace"]},',
    '        "spec": {"template": {"metadata": {"annotations": {"acme.io/restarted-for-config": version}}}},',
    '    })',
    '',
  ].join('\n');
  const name = 'restart-on-config-change';
  return {
    apiVersion: 'ops.crossplane.io/v1alpha1',
    kind: 'WatchOperation',
    metadata: { name, uid: uid('WatchOperation', name), creationTimestamp: COMPOSITIONS_CREATED },
    spec: {
      watch: {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        matchLabels: { 'acme.io/restart-on-config-change': 'true' },
      },
      concurrencyPolicy: 'Replace',
      successfulHistoryLimit: 3,
      failedHistoryLimit: 1,
      operationTemplate: {
        spec: {
          mode: 'Pipeline',
          pipeline: [
            {
              step: 'restart',
              functionRef: { name: 'function-python' },
              input: { apiVersion: 'python.fn.crossplane.io/v1beta1', kind: 'Script', script },
            },
          ],
        },
      },
    },
  };
}

/** The objects of 60-compositions.yaml: Compositions, composite resources, events, then the WatchOperation. */
export function compositionObjects(): KubeObject[] {
  return [
    ...[appWeb(), databaseBackups(), tenantNamespace(), webserviceTemplated(), legacyPostgres()].sort(byName),
    ...compositeResources(),
    ...events().sort(byName),
    watchOperation(),
  ];
}
