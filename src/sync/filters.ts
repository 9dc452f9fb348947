/**
 * sync's name filters: which ProviderRevisions `--provider` picks, and the check that every `--xrd` and namespace
 * exists. Unknown names are an error naming the closest known ones.
 */
import type { ProviderRevision } from '../kube/types.js';
import { LABEL_PARENT_PACKAGE } from '../crossplane/names.js';
import { SyncInputError } from '../crossplane/input-error.js';
import { compareStrings } from '../kube/order.js';
import { unknownNamesError } from './settings.js';

/** The Provider a revision belongs to: its `pkg.crossplane.io/package` label, else its controller owner. */
export function providerNameOf(rev: ProviderRevision): string | undefined {
  return (
    rev.metadata.labels?.[LABEL_PARENT_PACKAGE] ??
    rev.metadata.ownerReferences?.find((r) => r.kind === 'Provider' && r.controller === true)?.name
  );
}

/** What a user may type to name a revision: its Provider's name, or its own name when it has no Provider. */
function ownerName(rev: ProviderRevision): string {
  return providerNameOf(rev) ?? rev.metadata.name;
}

/**
 * The revisions `--provider NAME...` picks, by name. Each NAME is a Provider's name (all its revisions), a
 * ProviderRevision's name, or, when neither is exactly NAME, the beginning of names of one Provider only (its
 * revisions whose name or Provider's name begin with NAME). Throws SyncInputError for names nothing begins with
 * (with the closest names as a hint) and for names several Providers begin with (listing them).
 */
export function selectRevisions(revisions: readonly ProviderRevision[], wanted: readonly string[]): string[] {
  const picked = new Set<string>();
  const unknown: string[] = [];
  const ambiguous: { name: string; owners: string[] }[] = [];
  for (const name of [...new Set(wanted)].sort(compareStrings)) {
    const exact = revisions.filter((r) => r.metadata.name === name || providerNameOf(r) === name);
    const matches =
      exact.length > 0
        ? exact
        : revisions.filter(
            (r) => r.metadata.name.startsWith(name) || (providerNameOf(r)?.startsWith(name) ?? false),
          );
    const owners = [...new Set(matches.map(ownerName))].sort(compareStrings);
    if (owners.length === 0) unknown.push(name);
    else if (exact.length === 0 && owners.length > 1) ambiguous.push({ name, owners });
    else for (const r of matches) picked.add(r.metadata.name);
  }
  if (unknown.length > 0) {
    const known = [...new Set(revisions.flatMap((r) => [ownerName(r), r.metadata.name]))];
    throw unknownNamesError(
      'providers',
      'provider',
      unknown,
      known.sort(compareStrings),
      'list them with: kubectl get providers.pkg.crossplane.io',
    );
  }
  if (ambiguous.length > 0) {
    const list = ambiguous
      .map((a) => `--provider "${a.name}" matches several Providers: ${a.owners.join(', ')}`)
      .join('; ');
    throw new SyncInputError(list, {
      field: 'provider',
      hint: 'give a whole Provider or ProviderRevision name, or more of one',
    });
  }
  return revisions.filter((r) => picked.has(r.metadata.name)).map((r) => r.metadata.name);
}

/**
 * The distinct NAMES in byte order, after checking that each is one of KNOWN; throws SyncInputError naming the
 * unknown ones and the closest known names (or LISTHINT when none is close).
 */
export function checkNames(
  what: string,
  flag: string,
  names: readonly string[],
  known: readonly string[],
  listHint: string,
): string[] {
  const wanted = [...new Set(names)].sort(compareStrings);
  const unknown = wanted.filter((n) => !known.includes(n));
  if (unknown.length > 0) throw unknownNamesError(what, flag, unknown, known, listHint);
  return wanted;
}
