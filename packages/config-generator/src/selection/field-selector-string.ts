/**
 * Field selectors (`status.phase=Running,spec.nodeName!=node-1`), read exactly as k8s.io/apimachinery's
 * `fields.ParseSelector` reads them. Prometheus runs that parser on every `selectors[].field` of a Kubernetes
 * discovery when it loads its configuration and refuses the whole file for one bad string.
 *
 * The grammar, as apimachinery implements it:
 * - terms are separated by `,` (a `\,` stays inside its term); empty terms are skipped, so "" and "," select
 *   everything;
 * - a term is split at the first `!=`, `==` or `=` found scanning from the left (checked in that order at each
 *   position); a term without one is an error. The field name is not checked at all: which fields exist is the
 *   API server's business, at list time;
 * - in the value, `\\`, `\,` and `\=` are the only escapes; any other backslash sequence, a trailing backslash,
 *   or an unescaped `,` or `=` is an error.
 */

/** One term of a parsed field selector, with its value unescaped. */
export interface FieldTerm {
  field: string;
  operator: '=' | '==' | '!=';
  value: string;
}

/** The outcome of parsing: the terms, or why the text is not a field selector. */
export type FieldSelectorParse = { ok: true; terms: FieldTerm[] } | { ok: false; reason: string };

const OPERATORS = ['!=', '==', '='] as const;

/** The terms between unescaped commas, their backslashes kept. */
function splitTerms(text: string): string[] {
  if (text.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (escaped) escaped = false;
    else if (c === '\\') escaped = true;
    else if (c === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

function splitTerm(term: string): FieldTerm | undefined {
  for (let i = 0; i < term.length; i++) {
    const operator = OPERATORS.find((op) => term.startsWith(op, i));
    if (operator) return { field: term.slice(0, i), operator, value: term.slice(i + operator.length) };
  }
  return undefined;
}

/** The value with its escapes removed, or why it is not a valid escaped value. */
function unescapeValue(value: string): { ok: true; value: string } | { ok: false; reason: string } {
  let out = '';
  let escaped = false;
  for (const c of value) {
    if (escaped) {
      if (c !== '\\' && c !== ',' && c !== '=') return { ok: false, reason: `"\\${c}" is not an escape sequence of a field selector value (only \\\\, \\, and \\= are)` };
      out += c;
      escaped = false;
    } else if (c === '\\') escaped = true;
    else if (c === ',' || c === '=') return { ok: false, reason: `"${c}" in the value "${value}" must be escaped as "\\${c}"` };
    else out += c;
  }
  if (escaped) return { ok: false, reason: `the value "${value}" ends with a lone backslash` };
  return { ok: true, value: out };
}

/**
 * Parses `text` as apimachinery's `fields.ParseSelector` does: its terms (sorted as apimachinery sorts them), or
 * the first reason it refuses the text. Never throws.
 */
export function parseFieldSelectorString(text: string): FieldSelectorParse {
  // apimachinery sorts the raw terms (byte order) before reading them; the first error is that of the first term in that order.
  const parts = splitTerms(text).sort(compareBytes);
  const terms: FieldTerm[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const term = splitTerm(part);
    if (!term) return { ok: false, reason: `"${part}" is not a term of a field selector (expected field=value, field==value or field!=value)` };
    const value = unescapeValue(term.value);
    if (!value.ok) return { ok: false, reason: `in "${part}": ${value.reason}` };
    terms.push({ ...term, value: value.value });
  }
  return { ok: true, terms };
}

const encoder = new TextEncoder();

/** Go's string order (bytes of UTF-8), which differs from JavaScript's for characters beyond U+FFFF. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(encoder.encode(a), encoder.encode(b));
}
