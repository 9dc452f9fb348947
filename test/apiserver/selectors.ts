/**
 * Label and field selectors as query strings (k8s.io/apimachinery/pkg/labels and pkg/fields).
 */
import { badRequest } from './status.js';

export type Requirement =
  | { key: string; op: 'eq' | 'neq'; value: string }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | 'notexists' };

const KEY = /^[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?$/;

/** Splits on commas that are not inside parentheses. */
function splitTop(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts;
}

export function parseLabelSelector(selector: string): Requirement[] {
  const out: Requirement[] = [];
  if (selector.trim() === '') return out;
  for (const raw of splitTop(selector)) {
    const part = raw.trim();
    const fail = (): never => {
      throw badRequest(`unable to parse requirement: found '${part}', expected: valid label selector`);
    };
    let m: RegExpExecArray | null;
    if ((m = /^!\s*(\S+)$/.exec(part)) !== null) {
      if (!KEY.test(m[1] ?? '')) fail();
      out.push({ key: m[1] ?? '', op: 'notexists' });
    } else if ((m = /^(\S+?)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part)) !== null) {
      if (!KEY.test(m[1] ?? '')) fail();
      const values = (m[3] ?? '')
        .split(',')
        .map((v) => v.trim())
        .filter((v, i, all) => v !== '' || all.length === 1);
      out.push({ key: m[1] ?? '', op: m[2] === 'in' ? 'in' : 'notin', values });
    } else if ((m = /^([^=!\s]+)\s*(==|=|!=)\s*([^=!\s]*)$/.exec(part)) !== null) {
      if (!KEY.test(m[1] ?? '')) fail();
      out.push({ key: m[1] ?? '', op: m[2] === '!=' ? 'neq' : 'eq', value: m[3] ?? '' });
    } else if (KEY.test(part)) {
      out.push({ key: part, op: 'exists' });
    } else {
      fail();
    }
  }
  return out;
}

export function labelsMatch(
  reqs: readonly Requirement[],
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  const l = labels ?? {};
  return reqs.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const v = l[r.key];
    switch (r.op) {
      case 'eq':
        return has && v === r.value;
      case 'neq':
        return !has || v !== r.value;
      case 'in':
        return has && r.values.includes(v ?? '');
      case 'notin':
        return !has || !r.values.includes(v ?? '');
      case 'exists':
        return has;
      case 'notexists':
        return !has;
    }
  });
}

export interface FieldRequirement {
  field: string;
  value: string;
  negate: boolean;
}

export function parseFieldSelector(
  selector: string,
  supported: (field: string) => boolean,
): FieldRequirement[] {
  const out: FieldRequirement[] = [];
  if (selector.trim() === '') return out;
  for (const raw of selector.split(',')) {
    const m = /^\s*([^=!\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(raw);
    if (m === null) throw badRequest(`invalid selector: '${selector}'; can't understand '${raw}'`);
    const field = m[1] ?? '';
    if (!supported(field)) throw badRequest(`field label not supported: ${field}`);
    out.push({ field, value: m[3] ?? '', negate: m[2] === '!=' });
  }
  return out;
}

export function fieldValue(obj: Record<string, unknown>, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  return typeof cur === 'string' || typeof cur === 'number' || typeof cur === 'boolean' ? String(cur) : '';
}

export function fieldsMatch(reqs: readonly FieldRequirement[], obj: Record<string, unknown>): boolean {
  return reqs.every((r) => (fieldValue(obj, r.field) === r.value) !== r.negate);
}
