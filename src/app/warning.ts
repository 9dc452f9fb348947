/**
 * What a use case reports beside its answer, as data: each warning names its kind, the object it is about and the
 * reason, and the front end decides how to show it (the CLI: one line on stderr each, cli/warnings.ts). A leaf
 * module: deps.ts names it for AppDeps.warn, the use cases produce it, reconcile.ts carries it.
 */
import type { ComposedAnalysis } from '../composed/analyse.js';
import type { BindDenial } from '../bind/permission.js';
import type { MissingObject, NeededObject, TypoPrune } from '../bind/missing.js';

/** An object as the warnings name it. */
export interface ObjectRef {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string | undefined;
}

/** Someone or something a binding names (`User alice`, `ServiceAccount ns/name`). */
export interface Grantee {
  readonly kind: string;
  readonly name: string;
}

export type Warning =
  /** A warning the core worded (the renderer's, a RootSync's, bind's): REASON is the whole sentence. */
  | { readonly kind: 'warning'; readonly reason: string }
  /** --after-sync: the answer is for the cluster after a plain sync; nothing was written. */
  | { readonly kind: 'after-sync' }
  /** An invalid XRD or ProviderRevision a read-only command leaves out (ORIGIN: the file or the cluster). */
  | {
      readonly kind: 'invalid-owner';
      readonly object: ObjectRef;
      readonly origin: string;
      readonly reason: string;
    }
  /** A part the caller may not list (WHAT: `ClusterRoles`); READ_IN: read in that namespace only. */
  | {
      readonly kind: 'unseen';
      readonly what: string;
      readonly verb: string;
      readonly readIn?: string | undefined;
      readonly reason: string;
    }
  /**
   * audit: a read the caller may not make (WHAT: `Deployments`), READ_IN where it was read instead (namespaces,
   * comma-separated), DECIDES the steps it decides ('rbac': every step, and what each subject holds already).
   */
  | {
      readonly kind: 'audit-unseen';
      readonly what: string;
      readonly verb: string;
      readonly readIn?: string | undefined;
      readonly decides: readonly string[] | 'rbac';
    }
  /** A binding of a ClusterRole whose rules could not be read. */
  | {
      readonly kind: 'unread-role';
      readonly object: ObjectRef;
      readonly role: string;
      readonly subjects: readonly Grantee[];
    }
  /** The answer counts only what was read: PARTS parts are missing from it. */
  | { readonly kind: 'partial'; readonly parts: number }
  /** An owner whose roles are left untouched: `origin: Kind "name": why` (sync/held.ts's describeHeld). */
  | { readonly kind: 'held'; readonly owner: string }
  /** An object the plan refuses to write (KEY: its object key). */
  | { readonly kind: 'refused'; readonly key: string; readonly reason: string }
  /** An object --adopt takes over. */
  | { readonly kind: 'adopting'; readonly key: string }
  /** An owner the renderer skipped. */
  | { readonly kind: 'skipped'; readonly object: ObjectRef; readonly reason: string }
  /** sync's composed part, reported: what Crossplane composes and lacks, and who steers the grants. */
  | {
      readonly kind: 'composed-report';
      readonly analysis: ComposedAnalysis;
      readonly authors: readonly ObjectRef[];
    }
  /** bind: COUNT bindings refused, so pruning is skipped and the ServiceAccount keeps its bindings. */
  | {
      readonly kind: 'prune-skipped';
      readonly count: number;
      readonly serviceAccount: { readonly namespace: string; readonly name: string };
    }
  /** bind: a binding kept that a pruning run would delete (WHY: pruning skipped, or --no-prune). */
  | { readonly kind: 'kept'; readonly object: ObjectRef; readonly why: 'pruning skipped' | '--no-prune' }
  /** bind --allow-privileged: a privileged role bound anyway (ROLE: the role and what it grants). */
  | { readonly kind: 'privileged-bound'; readonly role: string }
  /** bind's pre-flight: a binding the API server would refuse. */
  | { readonly kind: 'forbidden'; readonly denial: BindDenial }
  /** bind: an object the bindings need that does not exist (refused). */
  | { readonly kind: 'missing'; readonly object: MissingObject }
  /** bind --allow-missing: an object the bindings need that does not exist, bound anyway. */
  | { readonly kind: 'missing-allowed'; readonly object: MissingObject }
  /** bind: a binding the run deletes whose role the new list probably misspells. */
  | { readonly kind: 'typo-prune'; readonly prune: TypoPrune }
  /** bind: an object the bindings need that the caller may not read, bound without checking it. */
  | { readonly kind: 'unreadable'; readonly object: NeededObject }
  /** enable-xrd without -n or -l: the context's namespace. */
  | {
      readonly kind: 'context-namespace';
      readonly enable: boolean;
      readonly namespace: string;
      readonly cluster: string;
    }
  /** enable-xrd: an XRD already in the requested state in a namespace. */
  | { readonly kind: 'already'; readonly enable: boolean; readonly namespace: string; readonly xrd: string }
  /** enable-xrd --sync: the management level leaves namespace roles alone. */
  | { readonly kind: 'not-synced'; readonly manage: string }
  /** kubectl auth can-i's warning about a verb it does not know (REASON: its sentence). */
  | { readonly kind: 'unknown-verb'; readonly reason: string }
  /** RESOURCE other groups serve too: kubectl's choice is answered (REASON: kubectl's or our sentence). */
  | { readonly kind: 'resource-choice'; readonly reason: string }
  /** who-can with parts unseen: whether the server lets the caller make the request. */
  | { readonly kind: 'caller-allowed'; readonly allowed: boolean }
  /** A fleet's run at -v=4: how many of its renders were rendered and how many shared between contexts. */
  | {
      readonly kind: 'renders-shared';
      readonly contexts: number;
      readonly rendered: number;
      readonly shared: number;
    };

/** Hears the warnings of a run; the CLI prints each as a line. */
export type Warn = (warning: Warning) => void;
