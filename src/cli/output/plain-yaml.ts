/**
 * A fast printer for the YAML of plain data (objects, arrays, strings, numbers, booleans, null): exactly the text
 * `formatYaml` gets from the `yaml` package, without building its document model, which is most of the time of
 * printing large outputs. It prints only what it can prove the same (single-line printable ASCII strings, finite
 * numbers) and gives up on anything else, so callers fall back to the `yaml` package for that value; a property test
 * compares the two on random data (test/unit/cli/plain-yaml.test.ts).
 */

/** Thrown inside the printer when a value needs the `yaml` package; never escapes this module. */
class Unsupported extends Error {}
const UNSUPPORTED = new Unsupported('needs the yaml package');

/** Strings that are plain scalars without further checks: the common case (names, groups, verbs, labels). */
const SIMPLE_PLAIN = /^[A-Za-z_/][A-Za-z0-9_./:-]*$/;
/** Of those, the ones YAML 1.2's core schema reads as something other than a string. */
const SIMPLE_NOT_STRINGS: ReadonlySet<string> = new Set([
  'null',
  'Null',
  'NULL',
  'true',
  'True',
  'TRUE',
  'false',
  'False',
  'FALSE',
]);
/** Printable ASCII only: no line breaks, tabs, control or non-ASCII characters, whose quoting depends on context. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** yaml's plainString: what may not be a plain scalar (indicators at the start, ": ", " #", a trailing space or colon). */
const NOT_PLAIN = /^[ ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-] |: | #|[ :]$/;
/** A document marker at the start: yaml decides by indentation there, so those go to the yaml package. */
const DOCUMENT_MARKER = /^(?:---|\.\.\.)/;
/** The core schema's non-string scalars (null, bool, int, octal, hex, .inf/.nan, floats): these strings are quoted. */
const CORE_NON_STRING =
  /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))?$/;
/** yaml writes a key longer than this as an explicit `? key`. */
const MAX_IMPLICIT_KEY = 1024;

/**
 * The YAML `formatYaml` prints for VALUE (block style, no folding, single quotes preferred, no aliases), or
 * undefined when VALUE holds anything this printer does not cover.
 */
export function formatPlainYaml(value: unknown): string | undefined {
  try {
    if (isPlainObject(value)) {
      const body = mapBody(value, '');
      return body === '' ? '{}\n' : `${body}\n`;
    }
    if (Array.isArray(value)) return value.length === 0 ? '[]\n' : `${seqBody(value, '')}\n`;
    return undefined;
  } catch (err) {
    if (err === UNSUPPORTED) return undefined;
    throw err;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The pairs of a block map at INDENT; the first line carries no indentation (the caller places it). */
function mapBody(obj: Record<string, unknown>, indent: string): string {
  let out = '';
  let first = true;
  const inner = `${indent}  `;
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    if (v === undefined) continue; // the yaml package leaves such pairs out, as JSON does
    const k = scalarString(key);
    if (k.length > MAX_IMPLICIT_KEY) throw UNSUPPORTED;
    if (first) first = false;
    else out += `\n${indent}`;
    out += `${k}:`;
    if (Array.isArray(v)) {
      out += v.length === 0 ? ' []' : `\n${indent}${seqBody(v, indent)}`;
    } else if (isPlainObject(v)) {
      const body = mapBody(v, inner);
      out += body === '' ? ' {}' : `\n${inner}${body}`;
    } else {
      out += ` ${scalar(v)}`;
    }
  }
  return out;
}

/** The items of a block sequence at INDENT (`- ` at INDENT, not indented under its key); first line unindented. */
function seqBody(items: readonly unknown[], indent: string): string {
  let out = '';
  const inner = `${indent}  `;
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += `\n${indent}`;
    const v = items[i];
    if (Array.isArray(v)) {
      out += v.length === 0 ? '- []' : `- ${seqBody(v, inner)}`;
    } else if (isPlainObject(v)) {
      const body = mapBody(v, inner);
      out += body === '' ? '- {}' : `- ${body}`;
    } else {
      out += `- ${scalar(v)}`;
    }
  }
  return out;
}

function scalar(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return scalarString(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(v)) throw UNSUPPORTED;
      return Object.is(v, -0) ? '-0' : JSON.stringify(v);
    case 'object':
      if (v === null) return 'null';
      throw UNSUPPORTED;
    default:
      throw UNSUPPORTED;
  }
}

/** A string scalar as yaml prints it, plain when it reads back as the same string, else quoted. */
function scalarString(s: string): string {
  if (SIMPLE_PLAIN.test(s) && !s.endsWith(':') && !SIMPLE_NOT_STRINGS.has(s)) return s;
  if (!PRINTABLE_ASCII.test(s) || DOCUMENT_MARKER.test(s)) throw UNSUPPORTED;
  if (!NOT_PLAIN.test(s) && !CORE_NON_STRING.test(s)) return s;
  // yaml's quotedString with singleQuote: single quotes unless only those would need escaping.
  if (s.includes("'") && !s.includes('"')) return JSON.stringify(s);
  return `'${s.replaceAll("'", "''")}'`;
}
