/**
 * `audit --accept FILE`: findings someone has accepted, with a reason, so that CI fails only on new ones. The file
 * is a YAML list of `{subject: KIND:NAME, capability, firstStep, reason}` (a ServiceAccount as
 * `ServiceAccount:NAMESPACE/NAME`); a finding is accepted when all three match.
 */
import { UserError } from '../errors.js';
import { CAPABILITIES, MECHANISM_ORDER } from './catalogue.js';
import type { Finding } from './audit.js';
import { accountOfUser, type Identity } from './rights.js';
import { parseSubject } from '../kube/parse-subject.js';

export interface Acceptance {
  readonly subject: Identity;
  readonly capability: string;
  readonly firstStep: string;
  readonly reason: string;
}

export interface AcceptedFinding extends Finding {
  readonly reason: string;
}

function field(entry: Record<string, unknown>, key: string, where: string): string {
  const v = entry[key];
  if (typeof v !== 'string' || v === '')
    throw new UserError(`${where}: ${key} must be a non-empty string`, { hint: ACCEPT_HINT });
  return v;
}

const ACCEPT_HINT =
  'each entry: {subject: KIND:NAME (ServiceAccount:NAMESPACE/NAME), capability, firstStep (a mechanism), reason}';

/** The entries of an accept file (already parsed from YAML), checked: one clear error for the first bad entry. */
export function parseAcceptances(doc: unknown, file: string): Acceptance[] {
  if (doc === null || doc === undefined) return [];
  if (!Array.isArray(doc)) throw new UserError(`${file}: not a YAML list`, { hint: ACCEPT_HINT });
  return doc.map((raw: unknown, i) => {
    const where = `${file}: entry ${String(i + 1)}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new UserError(`${where}: not a mapping`, { hint: ACCEPT_HINT });
    }
    const entry = raw as Record<string, unknown>;
    const named = parseSubject(field(entry, 'subject', where), 'subject', where);
    // User:system:serviceaccount:NS:NAME is that account, as audit reports it (audit.ts).
    const subject = accountOfUser(named) ?? named;
    const capability = field(entry, 'capability', where);
    if (!(CAPABILITIES as readonly string[]).includes(capability)) {
      throw new UserError(`${where}: unknown capability "${capability}"`, {
        hint: `one of ${CAPABILITIES.join(', ')}`,
      });
    }
    const firstStep = field(entry, 'firstStep', where);
    if (!(MECHANISM_ORDER as readonly string[]).includes(firstStep)) {
      throw new UserError(`${where}: unknown firstStep "${firstStep}"`, {
        hint: `one of ${MECHANISM_ORDER.join(', ')}`,
      });
    }
    return { subject, capability, firstStep, reason: field(entry, 'reason', where) };
  });
}

function matches(a: Acceptance, f: Finding): boolean {
  return (
    a.subject.kind === f.subject.kind &&
    a.subject.name === f.subject.name &&
    (a.subject.namespace ?? '') === (f.subject.namespace ?? '') &&
    a.capability === f.capability &&
    a.firstStep === f.steps[0]?.mechanism
  );
}

/** The findings split into those still open and those an acceptance covers (with its reason). */
export function applyAcceptances(
  findings: readonly Finding[],
  acceptances: readonly Acceptance[],
): { open: Finding[]; accepted: AcceptedFinding[] } {
  const open: Finding[] = [];
  const accepted: AcceptedFinding[] = [];
  for (const f of findings) {
    const a = acceptances.find((x) => matches(x, f));
    if (a === undefined) open.push(f);
    else accepted.push({ ...f, reason: a.reason });
  }
  return { open, accepted };
}
