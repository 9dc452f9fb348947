/**
 * Where Crossplane's composed kinds show up, read from the objects as they came (nothing here trusts a field's
 * type: a malformed entry is skipped, never guessed): compositions' resource templates, composite resources'
 * references to what they composed, the API server's forbidden messages Crossplane reported, and the kinds
 * WatchOperations watch.
 */
import type { KubeObject } from '../kube/types.js';
import { parseForbidden, type ForbiddenRequest } from './forbidden.js';

/** Why a kind is needed: the object that says so. */
export type Evidence =
  | {
      readonly source: 'Composition';
      readonly name: string;
      readonly step?: string;
      readonly resource?: string;
    }
  | {
      readonly source: 'Composite';
      readonly kind: string;
      readonly name: string;
      readonly namespace?: string;
      readonly composed: string;
    }
  | {
      readonly source: 'Denial';
      readonly via: 'Event' | 'Condition';
      readonly kind: string;
      readonly name: string;
      readonly namespace?: string;
      readonly verb: string;
    }
  | { readonly source: 'WatchOperation'; readonly name: string };

/** What Crossplane does with a kind: composes it (reads and writes), or only watches it. */
export type Access = 'write' | 'read';

/** A kind named by apiVersion and kind (compositions, resource references, watches). */
export interface KindNeed {
  readonly apiVersion: string;
  readonly kind: string;
  readonly access: Access;
  readonly evidence: Evidence;
}

/** A resource named by group and plural (forbidden messages). */
export interface ResourceNeed {
  readonly group: string;
  readonly resource: string;
  readonly access: Access;
  readonly evidence: Evidence;
}

/** A composition step whose function's input cannot be read statically. */
export interface NotAnalysed {
  readonly composition: string;
  readonly step: string;
  readonly function: string;
}

type Obj = Readonly<Record<string, unknown>>;

function obj(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}
function arr(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : [];
}
function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** function-patch-and-transform's input (its `Resources` kind in the pt.fn.crossplane.io group). */
function isPatchAndTransform(input: Obj | undefined): boolean {
  return (
    input !== undefined &&
    str(input.apiVersion)?.startsWith('pt.fn.crossplane.io/') === true &&
    input.kind === 'Resources'
  );
}

function templates(resources: unknown, evidence: (name: string | undefined) => Evidence): KindNeed[] {
  return arr(resources).flatMap((r) => {
    const base = obj(obj(r)?.base);
    const apiVersion = str(base?.apiVersion);
    const kind = str(base?.kind);
    if (apiVersion === undefined || kind === undefined) return [];
    return [{ apiVersion, kind, access: 'write' as const, evidence: evidence(str(obj(r)?.name)) }];
  });
}

/**
 * The kinds a Composition's templates name: function-patch-and-transform's `input.resources[].base` in a Pipeline,
 * `spec.resources[].base` in the v1 Resources mode; every other function's step is not analysed.
 */
export function composedByComposition(c: KubeObject): { needs: KindNeed[]; notAnalysed: NotAnalysed[] } {
  const spec = obj(c.spec);
  const name = c.metadata.name;
  if (spec?.mode !== 'Pipeline') {
    return {
      needs: templates(spec?.resources, (resource) => ({
        source: 'Composition',
        name,
        ...(resource !== undefined ? { resource } : {}),
      })),
      notAnalysed: [],
    };
  }
  const needs: KindNeed[] = [];
  const notAnalysed: NotAnalysed[] = [];
  for (const s of arr(spec.pipeline)) {
    const step = obj(s);
    const stepName = str(step?.step) ?? '';
    const input = obj(step?.input);
    if (isPatchAndTransform(input)) {
      needs.push(
        ...templates(input?.resources, (resource) => ({
          source: 'Composition',
          name,
          step: stepName,
          ...(resource !== undefined ? { resource } : {}),
        })),
      );
    } else {
      notAnalysed.push({
        composition: name,
        step: stepName,
        function: str(obj(step?.functionRef)?.name) ?? '',
      });
    }
  }
  return { needs, notAnalysed };
}

function where(o: KubeObject): { kind: string; name: string; namespace?: string } {
  const ns = o.metadata.namespace;
  return { kind: o.kind, name: o.metadata.name, ...(ns !== undefined && ns !== '' ? { namespace: ns } : {}) };
}

/** The kinds a composite resource composed: v2's `spec.crossplane.resourceRefs`, v1's `spec.resourceRefs`. */
export function composedByComposite(xr: KubeObject): KindNeed[] {
  const spec = obj(xr.spec);
  const refs = [...arr(obj(spec?.crossplane)?.resourceRefs), ...arr(spec?.resourceRefs)];
  return refs.flatMap((r) => {
    const ref = obj(r);
    const apiVersion = str(ref?.apiVersion);
    const kind = str(ref?.kind);
    if (apiVersion === undefined || kind === undefined) return [];
    return [
      {
        apiVersion,
        kind,
        access: 'write' as const,
        evidence: { source: 'Composite' as const, ...where(xr), composed: str(ref?.name) ?? '' },
      },
    ];
  });
}

/** The user name the API server gives a service account. */
export function serviceAccountUserName(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

function denials(
  message: unknown,
  user: string,
  evidence: (r: ForbiddenRequest) => Evidence,
): ResourceNeed[] {
  const text = str(message);
  if (text === undefined) return [];
  return parseForbidden(text)
    .filter((r) => r.user === user)
    .map((r) => ({ group: r.group, resource: r.resource, access: 'write' as const, evidence: evidence(r) }));
}

/** The resources Crossplane's account (USER) was refused, as a Warning Event about the object reports it. */
export function deniedInEvent(event: KubeObject, user: string): ResourceNeed[] {
  const involved = obj(event.involvedObject) ?? obj(event.regarding);
  const kind = str(involved?.kind) ?? event.kind;
  const name = str(involved?.name) ?? event.metadata.name;
  const namespace = str(involved?.namespace);
  return denials(event.message ?? event.note, user, (r) => ({
    source: 'Denial',
    via: 'Event',
    kind,
    name,
    ...(namespace !== undefined ? { namespace } : {}),
    verb: r.verb,
  }));
}

/** The resources Crossplane's account (USER) was refused, as an XR's or claim's status conditions report it. */
export function deniedInConditions(o: KubeObject, user: string): ResourceNeed[] {
  return arr(obj(o.status)?.conditions).flatMap((c) =>
    denials(obj(c)?.message, user, (r) => ({
      source: 'Denial',
      via: 'Condition',
      ...where(o),
      verb: r.verb,
    })),
  );
}

/** The kind a WatchOperation watches: Crossplane gets, lists and watches it. */
export function watchedBy(op: KubeObject): KindNeed[] {
  const watch = obj(obj(op.spec)?.watch);
  const apiVersion = str(watch?.apiVersion);
  const kind = str(watch?.kind);
  if (apiVersion === undefined || kind === undefined) return [];
  return [
    { apiVersion, kind, access: 'read', evidence: { source: 'WatchOperation', name: op.metadata.name } },
  ];
}
