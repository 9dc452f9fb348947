/**
 * The roleRefs `bind` binds, as given: `--role-ref` flags, a roleRefs YAML/JSON document, the entries of a
 * RootSync's roleRefs; their validation and normalisation; and the `--service-account` argument. Entries follow
 * Config Sync's RootSync `spec.override.roleRefs` (kind, name, namespace; an empty namespace is none).
 */
import { UserError } from '../errors.js';
import { compareStrings } from '../kube/order.js';
import type { ServiceAccountRef } from './target.js';

export const MAX_NAME_LENGTH = 253;
export const MAX_LABEL_VALUE_LENGTH = 63;

/** Bad `bind` input: a malformed --role-ref, roleRefs file, RootSync roleRefs or service account argument. */
export class BindInputError extends UserError {
  override readonly name = 'BindInputError';
}

export type RoleRefSpec = { kind: 'ClusterRole' | 'Role'; name: string; namespace?: string };

const ACCEPTED_FORMS = 'ClusterRole/NAME, ClusterRole/NAME@NAMESPACE or Role/NAME@NAMESPACE';
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * The kind, spelt exactly as the RootSync CRD's enum (kpt-config-sync pkg/api/configsync/v1beta1
 * resource_override.go, RootSyncRoleRef.Kind: `+kubebuilder:validation:Enum=Role;ClusterRole`): the API server
 * rejects any other spelling, so `clusterrole` is an error here too, not a silent fix.
 */
function roleKind(kind: unknown): RoleRefSpec['kind'] | undefined {
  return kind === 'ClusterRole' || kind === 'Role' ? kind : undefined;
}

/** Why KIND is no roleRef kind: a note on case when it differs from one only in case. */
function kindProblem(kind: unknown): string {
  const shown = JSON.stringify(kind) ?? 'nothing';
  const fold = typeof kind === 'string' ? kind.toLowerCase() : '';
  const meant = fold === 'clusterrole' ? 'ClusterRole' : fold === 'role' ? 'Role' : undefined;
  return meant !== undefined
    ? `kind ${shown} must be spelt ${meant} (kinds are case-sensitive, as in the RootSync API)`
    : `kind must be ClusterRole or Role, got ${shown}`;
}

/** Why a role name is unusable, or undefined when it is fine (RBAC names are path segments: no `/`, no `%`). */
function roleNameProblem(name: string): string | undefined {
  if (name === '') return 'the name is empty';
  if (name === '.' || name === '..') return `"${name}" is not a valid name`;
  if (/[/%\s]/.test(name)) return `"${name}" contains "/", "%" or white space`;
  if (name.length > MAX_NAME_LENGTH)
    return `"${name.slice(0, 20)}…" is longer than ${MAX_NAME_LENGTH} characters`;
  return undefined;
}

function namespaceProblem(ns: string): string | undefined {
  if (ns.length > MAX_LABEL_VALUE_LENGTH || !DNS_LABEL.test(ns)) {
    return `"${ns}" is not a valid namespace name (lower-case letters, digits and "-", at most 63 characters)`;
  }
  return undefined;
}

/** Parses one `--role-ref` value: `ClusterRole/NAME`, `ClusterRole/NAME@NS` or `Role/NAME@NS` (kind case-sensitive). */
export function parseRoleRefFlag(s: string): RoleRefSpec {
  const fail = (why: string): never => {
    throw new BindInputError(`invalid --role-ref "${s}": ${why}; accepted forms: ${ACCEPTED_FORMS}`, {
      hint: 'e.g. --role-ref ClusterRole/crossplane-edit --role-ref Role/deployer@team-a',
    });
  };
  const m = /^([^/]*)\/([^@]*)(?:@(.*))?$/.exec(s.trim());
  if (m === null) return fail('expected KIND/NAME[@NAMESPACE]');
  const [, kindPart = '', name = '', ns] = m;
  const kind = roleKind(kindPart);
  if (kind === undefined) return fail(kindProblem(kindPart));
  const nameProblem = roleNameProblem(name);
  if (nameProblem !== undefined) return fail(nameProblem);
  if (ns !== undefined) {
    const nsProblem = namespaceProblem(ns);
    if (nsProblem !== undefined) return fail(nsProblem);
    return { kind, name, namespace: ns };
  }
  if (kind === 'Role') return fail('a Role needs a namespace (Role/NAME@NAMESPACE)');
  return { kind, name };
}

/** Parses `--service-account NS/NAME`. */
export function parseServiceAccountFlag(s: string): ServiceAccountRef {
  const m = /^([^/]+)\/([^/]+)$/.exec(s.trim());
  const fail = (why: string): never => {
    throw new BindInputError(`invalid --service-account "${s}": ${why}`, {
      hint: 'give it as NAMESPACE/NAME, e.g. --service-account flux-system/kustomize-controller',
    });
  };
  if (m === null) return fail('expected NAMESPACE/NAME');
  const [, namespace = '', name = ''] = m;
  const nsProblem = namespaceProblem(namespace);
  if (nsProblem !== undefined) return fail(nsProblem);
  if (name.length > MAX_NAME_LENGTH || !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name)) {
    return fail(`"${name}" is not a valid ServiceAccount name`);
  }
  return { namespace, name };
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Parses a roleRefs document: a YAML/JSON list of `{kind, name, namespace}` (also accepted: an object with a
 * `roleRefs` list). `source` names the input in error messages.
 */
export function parseRoleRefsDocument(doc: unknown, source: string): RoleRefSpec[] {
  const list = isRecord(doc) && 'roleRefs' in doc ? doc['roleRefs'] : doc;
  if (!Array.isArray(list)) {
    throw new BindInputError(`${source}: expected a list of roleRefs ({kind, name, namespace})`, {
      hint: 'e.g. "- kind: ClusterRole\\n  name: crossplane-edit"',
    });
  }
  return list.map((entry: unknown, i) => parseRoleRefEntry(entry, `${source}: entry ${i}`));
}

/** One roleRef entry `{kind, name, namespace}`; `where` names it in error messages. */
export function parseRoleRefEntry(entry: unknown, where: string): RoleRefSpec {
  if (!isRecord(entry))
    throw new BindInputError(`${where}: expected a mapping with kind, name and namespace`);
  for (const key of Object.keys(entry)) {
    if (key !== 'kind' && key !== 'name' && key !== 'namespace') {
      throw new BindInputError(`${where}: unknown field "${key}" (allowed: kind, name, namespace)`);
    }
  }
  const { kind: rawKind, name, namespace } = entry;
  const kind = roleKind(rawKind);
  if (kind === undefined) throw new BindInputError(`${where}: ${kindProblem(rawKind)}`);
  if (typeof name !== 'string') throw new BindInputError(`${where}: name must be a string`);
  const nameProblem = roleNameProblem(name);
  if (nameProblem !== undefined) throw new BindInputError(`${where}: ${nameProblem}`);
  // Config Sync treats an empty namespace as none (roleRef.Namespace == "").
  if (namespace === undefined || namespace === null || namespace === '') return { kind, name };
  if (typeof namespace !== 'string') throw new BindInputError(`${where}: namespace must be a string`);
  const nsProblem = namespaceProblem(namespace);
  if (nsProblem !== undefined) throw new BindInputError(`${where}: ${nsProblem}`);
  return { kind, name, namespace };
}

function refKey(r: RoleRefSpec): string {
  return `${r.namespace ?? ''}\u0000${r.kind}\u0000${r.name}`;
}

/**
 * Validates and de-duplicates roleRefs, in a stable order (cluster-wide first, then by namespace, kind, name).
 * A Role and a ClusterRole of the same name are different refs.
 */
export function normalizeRoleRefs(refs: readonly RoleRefSpec[]): RoleRefSpec[] {
  const byKey = new Map<string, RoleRefSpec>();
  refs.forEach((r, i) => {
    const kind = roleKind(r.kind);
    if (kind === undefined) throw new BindInputError(`roleRef ${i}: ${kindProblem(r.kind)}`);
    const nameProblem = roleNameProblem(r.name);
    if (nameProblem !== undefined) throw new BindInputError(`roleRef ${i}: ${nameProblem}`);
    const namespace = r.namespace === '' ? undefined : r.namespace;
    if (kind === 'Role' && namespace === undefined) {
      throw new BindInputError(
        `roleRef ${i} (Role/${r.name}): a Role must specify 'spec.override.roleRefs.namespace' (the namespace it lives in)`,
        { hint: `write it as Role/${r.name}@NAMESPACE, or use ClusterRole/${r.name} if it is a ClusterRole` },
      );
    }
    if (namespace !== undefined) {
      const nsProblem = namespaceProblem(namespace);
      if (nsProblem !== undefined) throw new BindInputError(`roleRef ${i}: ${nsProblem}`);
    }
    const ref: RoleRefSpec =
      namespace === undefined ? { kind, name: r.name } : { kind, name: r.name, namespace };
    byKey.set(refKey(ref), ref);
  });
  return [...byKey.entries()].sort(([a], [b]) => compareStrings(a, b)).map(([, r]) => r);
}
