/**
 * The composed part's report as data (pure): each kind Crossplane composes with its status (granted, after-sync,
 * missing, refused, reported-only) and what its account lacks now, as `composed` gives it; the CLI words it
 * (cli/composed-report.ts).
 */
import { composedRoleName } from '../crossplane/names.js';
import type { ComposedAnalysis, ComposedGrant } from './analyse.js';
import type { Evidence } from './sources.js';

function resourceName(g: Pick<ComposedGrant, 'group' | 'resource'>): string {
  return g.group === '' ? g.resource : `${g.resource}.${g.group}`;
}

/**
 * What stands between Crossplane and a kind: nothing (granted), a plain sync (after-sync: the provider or XRD roles
 * it renders grant it), sync --only composed (missing), or --allow-privileged (refused); reported-only: only evidence
 * (XRs' references and conditions, Events) names it, so sync never grants it.
 */
export type ComposedStatus = 'granted' | 'after-sync' | 'missing' | 'refused' | 'reported-only';

export function viewStatus(g: ComposedGrant): ComposedStatus {
  // The analysis judges without the plugin's own composed roles (each run finds the need afresh); the account has
  // the kind now when nothing is lacking with them.
  if (g.lackingNow.length === 0) return 'granted';
  if (g.status === 'reported') return 'reported-only';
  return g.status === 'granted' ? 'after-sync' : g.status;
}

/** One resource Crossplane composes, as `composed -o json|yaml` gives it. */
export interface ComposedResourceView {
  /** `cronjobs.batch`, `namespaces` (core group): as kubectl names a resource. */
  readonly resource: string;
  readonly group: string;
  readonly kind: string;
  /** write: Crossplane applies, reads and deletes it; read: it only watches it (a WatchOperation). */
  readonly access: ComposedGrant['access'];
  readonly status: ComposedStatus;
  /** The verbs Crossplane's account lacks on it now (empty when granted). */
  readonly lacking: readonly string[];
  /** The ClusterRole `sync --only composed` writes for it (missing or refused; never reported-only). */
  readonly role?: string;
  /** Why it is privileged, when it is (refused without --allow-privileged). */
  readonly privileged?: string;
  /** What names it: the Compositions, CompositionRevisions and Operations that need it, and the evidence. */
  readonly neededBy: readonly Evidence[];
}

/** What `composed` answers: the report sync --only composed prints, as data. */
export interface ComposedView {
  /** Crossplane's account, as the API server names it. */
  readonly account: string;
  readonly resources: readonly ComposedResourceView[];
  /** Kinds named by compositions or composites that the cluster does not serve (no CRD yet). */
  readonly unresolved: readonly {
    readonly name: string;
    readonly reason: string;
    readonly neededBy: readonly Evidence[];
  }[];
  /** Composition steps whose function's input cannot be read statically. */
  readonly notAnalysed: readonly ComposedAnalysis['notAnalysed'][number][];
  /**
   * Who may create or change Compositions, CompositionRevisions, Operations, CronOperations or WatchOperations:
   * whatever Crossplane is granted, they can have it do. Nobody else steers a grant.
   */
  readonly grantAuthors: readonly {
    readonly kind: string;
    readonly name: string;
    readonly namespace?: string;
  }[];
}

/** The analysis as data, with the authors of Compositions. */
export function composedView(
  analysis: ComposedAnalysis,
  authors: readonly { readonly kind: string; readonly name: string; readonly namespace?: string }[],
): ComposedView {
  return {
    account: analysis.account,
    resources: analysis.grants.map((g) => ({
      resource: resourceName(g),
      group: g.group,
      kind: g.kind,
      access: g.access,
      status: viewStatus(g),
      lacking: g.lackingNow,
      ...(g.status === 'missing' || g.status === 'refused' ? { role: composedRoleName(g.group) } : {}),
      ...(g.privileged !== undefined ? { privileged: g.privileged } : {}),
      neededBy: g.evidence,
    })),
    unresolved: analysis.unresolved.map((u) => ({ name: u.name, reason: u.reason, neededBy: u.evidence })),
    notAnalysed: analysis.notAnalysed,
    grantAuthors: authors.map((a) => ({
      kind: a.kind,
      name: a.name,
      ...(a.namespace !== undefined ? { namespace: a.namespace } : {}),
    })),
  };
}
