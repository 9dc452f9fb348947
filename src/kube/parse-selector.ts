import { UsageError } from '../errors.js';
import type { LabelSelector, LabelSelectorRequirement } from './types.js';

/**
 * Parses a label selector as kubectl spells it on the command line (`-l`): comma-separated requirements, each
 * `key`, `!key`, `key=value`, `key==value`, `key!=value`, `key in (a,b)` or `key notin (a,b)`. Equality becomes
 * matchLabels; everything else matchExpressions (`!=` is NotIn with one value, which also matches objects without
 * the label, as in Kubernetes). Keys and values are validated later, by compileSelector.
 */
export function parseLabelSelector(text: string): LabelSelector {
  const matchLabels: Record<string, string> = {};
  const matchExpressions: LabelSelectorRequirement[] = [];
  const parts = splitRequirements(text);
  if (parts.length === 0) throw invalid(text, 'it is empty');
  for (const raw of parts) {
    const part = raw.trim();
    if (part === '') throw invalid(text, 'it has an empty requirement');
    const set = /^([^\s!=(),]+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(part);
    if (set !== null) {
      // Stryker disable next-line StringLiteral: every group of the pattern takes part in a match, so the defaults (for the type) are never used
      const [, key = '', op = '', list = ''] = set;
      const values = list
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      if (values.length === 0) throw invalid(text, `"${key} ${op}" needs at least one value`);
      matchExpressions.push({ key, operator: op === 'in' ? 'In' : 'NotIn', values });
      continue;
    }
    const notEqual = /^([^\s!=(),]+)\s*!=\s*([^\s!=(),]*)$/.exec(part);
    if (notEqual !== null) {
      // Stryker disable next-line StringLiteral: every group of the pattern takes part in a match, so the defaults (for the type) are never used
      const [, key = '', value = ''] = notEqual;
      matchExpressions.push({ key, operator: 'NotIn', values: [value] });
      continue;
    }
    const equal = /^([^\s!=(),]+)\s*==?\s*([^\s!=(),]*)$/.exec(part);
    if (equal !== null) {
      // Stryker disable next-line StringLiteral: every group of the pattern takes part in a match, so the defaults (for the type) are never used
      const [, key = '', value = ''] = equal;
      if (key in matchLabels && matchLabels[key] !== value) {
        matchExpressions.push({ key, operator: 'In', values: [value] });
      } else {
        matchLabels[key] = value;
      }
      continue;
    }
    const absent = /^!\s*([^\s!=(),]+)$/.exec(part);
    if (absent !== null) {
      // Stryker disable next-line StringLiteral,LogicalOperator: the pattern's one group takes part in every match, so the fallback (for the type) is never used
      matchExpressions.push({ key: absent[1] ?? '', operator: 'DoesNotExist' });
      continue;
    }
    if (/^[^\s!=(),<>]+$/.test(part)) {
      matchExpressions.push({ key: part, operator: 'Exists' });
      continue;
    }
    throw invalid(text, `cannot parse "${part}"`);
  }
  return {
    ...(Object.keys(matchLabels).length > 0 ? { matchLabels } : {}),
    ...(matchExpressions.length > 0 ? { matchExpressions } : {}),
  };
}

/** Splits on commas outside parentheses. */
function splitRequirements(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  if (current.trim() !== '' || out.length > 0) out.push(current);
  return out;
}

function invalid(text: string, why: string): UsageError {
  return new UsageError(`invalid selector "${text}": ${why}`, {
    hint: 'use kubectl selector syntax, e.g. -l team=a,env in (dev,test),!frozen',
  });
}
