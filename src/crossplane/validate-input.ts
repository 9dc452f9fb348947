/**
 * Checks every object a command reads before anything is rendered from it: the type of every field the plugin
 * reads, and every name that ends up in a rule, as Kubernetes validates it (apimachinery
 * pkg/util/validation IsDNS1123Subdomain / IsDNS1035Label / IsDNS1123Label, and apiextensions-apiserver
 * ValidateCustomResourceDefinition: a CRD is named `<plural>.<group>`, its group a DNS subdomain with a dot, its
 * plural a DNS-1035 label). A `*` or an empty name is never valid, so no input can make a renderer grant `*`.
 */
import { UserError } from '../errors.js';
import { checkShape, fields, list, map, type Shape } from '../kube/shape.js';
import { SEMANTIC } from './validate-names.js';
import type { ClusterSnapshot, KubeObject } from '../kube/types.js';
import { RBAC_API_GROUP } from '../kube/api-names.js';

/** The parts of a snapshot a command reads (each one LIST, see app/read-snapshot.ts), and checks here. */
export type SnapshotPart =
  | keyof Omit<ClusterSnapshot, 'others'>
  | 'rootSyncs'
  | 'roles'
  | 'crds'
  | 'crdOwners'
  | 'compositions'
  | 'compositionRevisions'
  | 'operations'
  | 'cronOperations'
  | 'watchOperations'
  | 'providerConfigs'
  | 'events';

/** One object refused, and why: the field and what is wrong with it. */
export interface InvalidObject {
  readonly object: KubeObject;
  /** The field path inside the object, e.g. `spec.group` or `rules[2].verbs`. */
  readonly field: string;
  /** A sentence that starts with the field, e.g. `spec.group "*" is not a valid API group: …`. */
  readonly problem: string;
}

/** The input holds objects the plugin refuses to render from; nothing was rendered or written. */
export class InvalidInputError extends UserError {
  override readonly name = 'InvalidInputError';
  constructor(
    message: string,
    readonly invalid: readonly InvalidObject[],
  ) {
    super(message, {
      hint: 'fix or remove the object (Kubernetes itself would refuse it); nothing was rendered or written',
    });
  }
}

const STRINGS = list('string');
const METADATA = fields(
  {
    name: 'string',
    namespace: 'string',
    uid: 'string',
    resourceVersion: 'string',
    generateName: 'string',
    creationTimestamp: 'string',
    deletionTimestamp: 'string',
    labels: map('string'),
    annotations: map('string'),
    ownerReferences: list(
      fields(
        {
          apiVersion: 'string',
          kind: 'string',
          name: 'string',
          uid: 'string',
          controller: 'boolean',
          blockOwnerDeletion: 'boolean',
        },
        ['kind', 'name'],
      ),
    ),
  },
  ['name'],
);
const RULES = list(
  fields(
    {
      apiGroups: STRINGS,
      resources: STRINGS,
      verbs: STRINGS,
      resourceNames: STRINGS,
      nonResourceURLs: STRINGS,
    },
    ['verbs'],
  ),
);
const SELECTOR = fields({
  matchLabels: map('string'),
  matchExpressions: list(fields({ key: 'string', operator: 'string', values: STRINGS }, ['key', 'operator'])),
});
const BINDING = {
  metadata: METADATA,
  roleRef: fields({ apiGroup: 'string', kind: 'string', name: 'string' }, ['kind', 'name']),
  subjects: list(
    fields({ kind: 'string', name: 'string', namespace: 'string', apiGroup: 'string' }, ['kind', 'name']),
  ),
};
const XRD_NAMES = fields({ plural: 'string', singular: 'string', kind: 'string', listKind: 'string' });

/** The fields the plugin reads, per kind; anything else in an object is never looked at. */
const SHAPES: Readonly<Record<string, Shape>> = {
  CompositeResourceDefinition: fields(
    {
      metadata: METADATA,
      spec: fields(
        {
          group: 'string',
          names: XRD_NAMES,
          claimNames: XRD_NAMES,
          scope: 'string',
          versions: list(fields({ name: 'string', served: 'boolean', referenceable: 'boolean' }, ['name'])),
        },
        ['group', 'names'],
      ),
    },
    ['spec'],
  ),
  ProviderRevision: fields({
    metadata: METADATA,
    spec: fields({ image: 'string', desiredState: 'string', revision: 'number' }),
    status: fields({
      objectRefs: list(
        fields({ apiVersion: 'string', kind: 'string', name: 'string', uid: 'string' }, [
          'apiVersion',
          'kind',
          'name',
        ]),
      ),
      capabilities: STRINGS,
      // Crossplane v1 appends them to the provider's role verbatim (provider/roles RenderClusterRoles).
      permissionRequests: RULES,
    }),
  }),
  Deployment: fields({
    metadata: METADATA,
    spec: fields({
      template: fields({
        spec: fields({
          serviceAccountName: 'string',
          containers: list(fields({ name: 'string', image: 'string' })),
        }),
      }),
    }),
  }),
  Namespace: fields({ metadata: METADATA }),
  ClusterRole: fields({
    metadata: METADATA,
    rules: RULES,
    aggregationRule: fields({ clusterRoleSelectors: list(SELECTOR) }),
  }),
  Role: fields({ metadata: METADATA, rules: RULES }),
  ClusterRoleBinding: fields(BINDING, ['roleRef']),
  RoleBinding: fields(BINDING, ['roleRef']),
  ConfigMap: fields({ metadata: METADATA, data: map('string') }),
  RootSync: fields({ metadata: METADATA }),
};

// ---- names that end up in rules: validate-names.ts ----

/** What finds the first problem with one object (findInvalidField, or a memo of it). */
export type FieldCheck = (obj: KubeObject) => { field: string; problem: string } | undefined;

/** The first problem with one object, or undefined when the plugin may render from it. */
export function findInvalidField(obj: KubeObject): { field: string; problem: string } | undefined {
  const shape = SHAPES[obj.kind];
  if (shape === undefined) return undefined;
  return checkShape(obj, shape, '') ?? SEMANTIC[obj.kind]?.(obj);
}

/**
 * findInvalidField with each object's answer kept (weakly, with the object): a read checks its objects for the
 * invalid ones and sorts the same objects into a snapshot, and each check walks every rule of a role, so one CHECK
 * given to both (findInvalidObjects, snapshotFromObjects) walks each object once.
 */
export function checkedOnce(): FieldCheck {
  const seen = new WeakMap<KubeObject, ReturnType<FieldCheck> | null>();
  return (o) => {
    let found = seen.get(o);
    if (found === undefined) {
      found = findInvalidField(o) ?? null;
      seen.set(o, found);
    }
    return found ?? undefined;
  };
}

type SnapshotKey = keyof Omit<ClusterSnapshot, 'others'>;

/**
 * Whether an object is an owner Crossplane's RBAC manager reconciles alone (an XRD or a ProviderRevision): when it
 * is invalid, only its own roles are held, never the whole run.
 */
export function isOwnerObject(obj: KubeObject): boolean {
  const part = snapshotPartOf(obj);
  return part === 'xrds' || part === 'providerRevisions';
}

/**
 * The typed list of a snapshot an object belongs in, by its kind and then its API group (looked up without building
 * a `group/kind` string: every object read is sorted, thousands a context).
 */
const PART_OF_KIND: ReadonlyMap<string, { readonly group: string; readonly part: SnapshotKey }> = new Map([
  ['CompositeResourceDefinition', { group: 'apiextensions.crossplane.io', part: 'xrds' }],
  ['ProviderRevision', { group: 'pkg.crossplane.io', part: 'providerRevisions' }],
  ['Deployment', { group: 'apps', part: 'deployments' }],
  ['Namespace', { group: '', part: 'namespaces' }],
  ['ClusterRole', { group: RBAC_API_GROUP, part: 'clusterRoles' }],
  ['ClusterRoleBinding', { group: RBAC_API_GROUP, part: 'clusterRoleBindings' }],
  ['RoleBinding', { group: RBAC_API_GROUP, part: 'roleBindings' }],
  ['ConfigMap', { group: '', part: 'configMaps' }],
]);

/** The typed list of a snapshot an object belongs in, by its API group and kind; undefined: `others`. */
export function snapshotPartOf(obj: KubeObject): SnapshotKey | undefined {
  const of = PART_OF_KIND.get(obj.kind);
  if (of === undefined) return undefined;
  // The group is what comes before the first `/` of apiVersion (none: the core group, '').
  const slash = obj.apiVersion.indexOf('/');
  const length = slash >= 0 ? slash : 0;
  return length === of.group.length && obj.apiVersion.startsWith(of.group) ? of.part : undefined;
}

const PART_KINDS: Readonly<Record<SnapshotPart, readonly (keyof ClusterSnapshot)[]>> = {
  xrds: ['xrds'],
  providerRevisions: ['providerRevisions'],
  deployments: ['deployments'],
  namespaces: ['namespaces'],
  clusterRoles: ['clusterRoles'],
  clusterRoleBindings: ['clusterRoleBindings'],
  roleBindings: ['roleBindings'],
  configMaps: ['configMaps'],
  rootSyncs: [],
  roles: [],
  crds: [],
  crdOwners: [],
  // Read field by field where they are used (composed/sources.ts): nothing in them is trusted as typed.
  compositions: [],
  compositionRevisions: [],
  providerConfigs: [],
  operations: [],
  cronOperations: [],
  watchOperations: [],
  events: [],
};

function isCheckedOther(o: KubeObject): boolean {
  return (
    (o.kind === 'Role' && o.apiVersion.startsWith(`${RBAC_API_GROUP}/`)) ||
    (o.kind === 'RootSync' && o.apiVersion.startsWith('configsync.gke.io/'))
  );
}

/**
 * Every object of the parts a command reads (and the Roles and RootSyncs among the other objects) that the plugin
 * refuses, in snapshot order: the first problem of each.
 */
export function findInvalidObjects(
  objects: readonly KubeObject[],
  parts: readonly SnapshotPart[],
  field: FieldCheck = findInvalidField,
): InvalidObject[] {
  const out: InvalidObject[] = [];
  const keys = new Set(parts.flatMap((p) => PART_KINDS[p]));
  const check = (o: KubeObject): void => {
    const p = field(o);
    if (p !== undefined) out.push({ object: o, ...p });
  };
  // Each object's part found once (a large cluster's input is thousands of objects), then checked part by part.
  const byPart = new Map<string, KubeObject[]>();
  const others: KubeObject[] = [];
  for (const o of objects) {
    const part = snapshotPartOf(o);
    if (part === undefined) {
      if (isCheckedOther(o)) others.push(o);
      continue;
    }
    const list = byPart.get(part);
    if (list === undefined) byPart.set(part, [o]);
    else list.push(o);
  }
  for (const key of keys) for (const o of byPart.get(key) ?? []) check(o);
  for (const o of others) check(o);
  return out;
}

/** `Kind "name"` or `Kind "namespace/name"`. */
export function describeObject(o: KubeObject): string {
  const ns = o.metadata.namespace;
  return `${o.kind} "${ns !== undefined && ns !== '' ? `${ns}/` : ''}${o.metadata.name}"`;
}

const MAX_LISTED = 3;

/**
 * One error for all refused objects: the first named in full (where it came from, which object, which field, why),
 * the others by name. `originOf` says where an object came from (a file, or the cluster).
 */
export function invalidInputError(
  invalid: readonly InvalidObject[],
  originOf: (o: KubeObject) => string,
): InvalidInputError {
  const [first, ...rest] = invalid;
  if (first === undefined) throw new Error('invalidInputError needs at least one invalid object');
  const describe = (i: InvalidObject): string =>
    `${originOf(i.object)}: ${describeObject(i.object)}: ${i.problem}`;
  let message = describe(first);
  if (rest.length > 0) {
    const listed = rest.slice(0, MAX_LISTED).map((i) => `${describeObject(i.object)} (${i.field})`);
    const more = rest.length - listed.length;
    message += `; also invalid: ${listed.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  }
  return new InvalidInputError(message, invalid);
}
