/**
 * Go literals in templates as text/template's parser checks them: string literals
 * (strconv.Unquote) and numbers (parse.newNumber: character constants, complex, integers that
 * overflow, floats). Used by go-template.ts.
 */
import { goParseFloat, goParseInteger } from './go-number.ts';
import type { Item } from './go-template-lexer.ts';

/** Go's strconv.Unquote for "..." and `...` literals; undefined for invalid escapes. */
export function unquoteGoString(literal: string): string | undefined {
  if (literal.startsWith('`')) return literal.endsWith('`') && literal.length >= 2 ? literal.slice(1, -1) : undefined;
  if (literal.length < 2 || !literal.startsWith('"') || !literal.endsWith('"')) return undefined;
  const body = literal.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch === '"' || ch === '\n') return undefined;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const escape = goEscape(body, i + 1, '"');
    if (!escape) return undefined;
    out += escape.value;
    i = escape.end - 1;
  }
  return out;
}

/** One Go escape sequence after a backslash at `at`: its value and where it ends, or undefined. */
function goEscape(text: string, at: number, quote: string): { value: string; end: number } | undefined {
  const kind = text[at];
  const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };
  if (kind === undefined) return undefined;
  if (Object.hasOwn(simple, kind)) return { value: simple[kind]!, end: at + 1 };
  if (kind === quote) return { value: quote, end: at + 1 };
  const forms: Record<string, [number, number]> = { x: [2, 16], u: [4, 16], U: [8, 16] };
  if (kind >= '0' && kind <= '7') {
    const digits = text.slice(at, at + 3);
    if (!/^[0-7]{3}$/.test(digits) || parseInt(digits, 8) > 255) return undefined;
    return { value: String.fromCharCode(parseInt(digits, 8)), end: at + 3 };
  }
  const form = forms[kind];
  if (!form) return undefined;
  const digits = text.slice(at + 1, at + 1 + form[0]);
  if (!new RegExp(`^[0-9a-fA-F]{${form[0]}}$`).test(digits)) return undefined;
  const value = parseInt(digits, 16);
  if (kind !== 'x' && (value > 0x10ffff || (value >= 0xd800 && value < 0xe000))) return undefined;
  return { value: kind === 'x' ? String.fromCharCode(value) : String.fromCodePoint(value), end: at + 1 + form[0] };
}

/** Why Go's parse.newNumber refuses a number item, or undefined when it is a number. */
export function goTemplateNumberError(item: Item): string | undefined {
  const text = item.value;
  if (item.type === 'charConstant') {
    const body = text.slice(1);
    if (body.startsWith('\\')) {
      const escape = goEscape(body, 1, "'");
      if (!escape || body.slice(escape.end) !== "'") return `malformed character constant: ${text}`;
      return undefined;
    }
    const first = String.fromCodePoint(body.codePointAt(0) ?? 0);
    if (body === "'" || body.slice(first.length) !== "'") return `malformed character constant: ${text}`;
    return undefined;
  }
  if (item.type === 'complex') {
    const match = /^([+-]?[^+-]+)([+-].*)i$/.exec(text);
    return match && goParseFloat(match[1]!) !== undefined && goParseFloat(match[2]!) !== undefined ? undefined : `illegal number syntax: "${text}"`;
  }
  if (text.endsWith('i') && goParseFloat(text.slice(0, -1)) !== undefined) return undefined;
  if (goParseInteger(text, 'uint64') !== undefined || goParseInteger(text, 'int64') !== undefined) return undefined;
  const float = goParseFloat(text);
  if (float !== undefined) return /[.eEpP]/.test(text) ? undefined : `integer overflow: "${text}"`;
  return `illegal number syntax: "${text}"`;
}
