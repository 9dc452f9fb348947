/**
 * Where Crossplane's composed kinds show up, read from the objects as they came (nothing here trusts a field's
 * type: a malformed entry is skipped, never guessed). Two kinds of source:
 *
 * - sources that grant: Compositions and CompositionRevisions (their resource templates, their steps' required
 *   resources), Operations, CronOperations and WatchOperations (the watched kind, their steps' required resources).
 *   Whoever may write one already holds what Crossplane holds: it is how they have Crossplane act.
 * - evidence that only reports: composite resources' references to what they composed, their conditions, and the
 *   API server's forbidden messages in Crossplane's Events. Whoever may create an XR or an Event writes these too, so
 *   they explain a failure and never add a rule.
 */
import type { KubeObject } from '../kube/types.js';
import { EVENT_SOURCE_CLAIMS, EVENT_SOURCE_COMPOSITES } from '../crossplane/names.js';
import { parseForbidden, type ForbiddenRequest } from './forbidden.js';

/** Why a kind is needed: the object that says so. */
export type Evidence =
  | {
      readonly source: 'Composition' | 'CompositionRevision';
      readonly name: string;
      readonly step?: string;
      readonly resource?: string;
      /** The step's required resource (`requirements.requiredResources[].requirementName`). */
      readonly requirement?: string;
    }
  | {
      /** A WatchOperation without a step: the kind it watches. */
      readonly source: 'Operation' | 'CronOperation' | 'WatchOperation';
      readonly name: string;
      readonly step?: string;
      readonly requirement?: string;
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
    };

/**
 * Whether a source may make sync grant a kind. Every source is named here (a new one must be classified): only those
 * whose authors already steer what Crossplane does grant.
 */
const GRANTS: Readonly<Record<Evidence['source'], boolean>> = {
  Composition: true,
  CompositionRevision: true,
  Operation: true,
  CronOperation: true,
  WatchOperation: true,
  Composite: false,
  Denial: false,
};

/** Whether EVIDENCE may make sync grant its kind (else it is only reported). */
export function isGrantingEvidence(evidence: Evidence): boolean {
  return GRANTS[evidence.source];
}

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
  /** Set when the step is a CompositionRevision's (COMPOSITION is then the revision's name). */
  readonly kind?: 'CompositionRevision';
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
 * The kinds a pipeline step requires (`requirements.requiredResources[]`): Crossplane reads them before it calls the
 * function (get, list).
 */
function required(
  step: Obj | undefined,
  evidence: (requirement: string | undefined) => Evidence,
): KindNeed[] {
  return arr(obj(step?.requirements)?.requiredResources).flatMap((r) => {
    const sel = obj(r);
    const apiVersion = str(sel?.apiVersion);
    const kind = str(sel?.kind);
    if (apiVersion === undefined || kind === undefined) return [];
    return [{ apiVersion, kind, access: 'read' as const, evidence: evidence(str(sel?.requirementName)) }];
  });
}

/**
 * The kinds a Composition's or CompositionRevision's templates name: function-patch-and-transform's
 * `input.resources[].base` in a Pipeline, `spec.resources[].base` in the v1 Resources mode, and every step's required
 * resources (read); what other functions' steps compose is not analysed.
 */
export function composedByComposition(c: KubeObject): { needs: KindNeed[]; notAnalysed: NotAnalysed[] } {
  const spec = obj(c.spec);
  const name = c.metadata.name;
  const source = c.kind === 'CompositionRevision' ? 'CompositionRevision' : 'Composition';
  if (spec?.mode !== 'Pipeline') {
    return {
      needs: templates(spec?.resources, (resource) => ({
        source,
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
    needs.push(
      ...required(step, (requirement) => ({
        source,
        name,
        step: stepName,
        ...(requirement !== undefined ? { requirement } : {}),
      })),
    );
    if (isPatchAndTransform(input)) {
      needs.push(
        ...templates(input?.resources, (resource) => ({
          source,
          name,
          step: stepName,
          ...(resource !== undefined ? { resource } : {}),
        })),
      );
    } else {
      notAnalysed.push({
        ...(source === 'CompositionRevision' ? { kind: source } : {}),
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

const OPERATION_KINDS = ['Operation', 'CronOperation', 'WatchOperation'] as const;

/**
 * What an Operation, CronOperation or WatchOperation needs: a WatchOperation's watched kind (Crossplane gets, lists
 * and watches it), and each pipeline step's required resources (`spec.pipeline`, or the operation template's).
 */
export function neededByOperation(op: KubeObject): KindNeed[] {
  const source = OPERATION_KINDS.find((k) => k === op.kind);
  if (source === undefined) return [];
  const spec = obj(op.spec);
  const name = op.metadata.name;
  const needs: KindNeed[] = [];
  if (source === 'WatchOperation') {
    const watch = obj(spec?.watch);
    const apiVersion = str(watch?.apiVersion);
    const kind = str(watch?.kind);
    if (apiVersion !== undefined && kind !== undefined)
      needs.push({ apiVersion, kind, access: 'read', evidence: { source, name } });
  }
  const pipeline =
    source === 'Operation' ? spec?.pipeline : obj(obj(spec?.operationTemplate)?.spec)?.pipeline;
  for (const s of arr(pipeline)) {
    const step = obj(s);
    const stepName = str(step?.step) ?? '';
    needs.push(
      ...required(step, (requirement) => ({
        source,
        name,
        step: stepName,
        ...(requirement !== undefined ? { requirement } : {}),
      })),
    );
  }
  return needs;
}

/** A kind as a group and kind: an XR's or a claim's, which an Event must be about to count as evidence. */
export interface GroupKind {
  readonly group: string;
  readonly kind: string;
}

/** The component names an Event carries: core/v1's source and reporting component, events.k8s.io/v1's. */
function componentsOf(event: KubeObject): string[] {
  return [
    str(obj(event.source)?.component),
    str(event.reportingComponent),
    str(event.reportingController),
    str(obj(event.deprecatedSource)?.component),
  ].filter((c): c is string => c !== undefined);
}

/**
 * Whether EVENT is one Crossplane's composite or claim controllers would record: about an XR or claim (a kind one of
 * COMPOSITES), and every component it names is Crossplane's XRD controllers' (names.ts). Anyone who may create
 * Events can write such an Event too: it counts as evidence, never as a reason to grant.
 */
export function isCrossplaneCompositeEvent(event: KubeObject, composites: readonly GroupKind[]): boolean {
  const about = obj(event.involvedObject) ?? obj(event.regarding);
  const apiVersion = str(about?.apiVersion);
  const kind = str(about?.kind);
  if (apiVersion === undefined || kind === undefined) return false;
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  if (!composites.some((c) => c.group === group && c.kind === kind)) return false;
  const components = componentsOf(event);
  return (
    components.length > 0 &&
    components.every((c) => c === EVENT_SOURCE_COMPOSITES || c === EVENT_SOURCE_CLAIMS)
  );
}
