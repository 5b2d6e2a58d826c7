/**
 * The value of a PromQL string literal (`"..."`, `'...'` or a raw backtick string), or undefined
 * for text that is not one. Escapes beyond the common ones are kept verbatim: callers only compare
 * label names and test whether a value is empty, which they do not affect.
 */
export function unquotePromqlString(literal: string): string | undefined {
  const quote = literal[0];
  if (literal.length < 2 || literal.at(-1) !== quote) return undefined;
  const body = literal.slice(1, -1);
  if (quote === '`') return body;
  if (quote !== '"' && quote !== "'") return undefined;
  const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'" };
  return body.replace(/\\(.)/g, (whole, char: string) => escapes[char] ?? whole);
}

const UTF8 = new TextEncoder();

/**
 * The exact value of a string literal the PromQL lexer accepted (its escapes are valid), as Go's
 * strutil.Unquote computes it: `\x` and octal escapes are bytes, so the value may not be UTF-8,
 * which Prometheus refuses in label names. `value` decodes invalid bytes as U+FFFD.
 */
export function decodePromqlString(literal: string): { value: string; isUtf8: boolean } {
  const quote = literal[0];
  const body = literal.slice(1, -1);
  if (quote === '`' || !body.includes('\\')) return { value: body, isUtf8: true };
  const bytes: number[] = [];
  const SIMPLE: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, "'": 39, '"': 34 };
  for (let i = 0; i < body.length; ) {
    const ch = body[i]!;
    if (ch !== '\\') {
      const end = body.indexOf('\\', i);
      const text = body.slice(i, end < 0 ? body.length : end);
      bytes.push(...UTF8.encode(text));
      i += text.length;
      continue;
    }
    const kind = body[i + 1]!;
    if (kind in SIMPLE) {
      bytes.push(SIMPLE[kind]!);
      i += 2;
    } else if (kind >= '0' && kind <= '7') {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 4;
    } else if (kind === 'x') {
      bytes.push(parseInt(body.slice(i + 2, i + 4), 16));
      i += 4;
    } else {
      const length = kind === 'u' ? 4 : 8;
      bytes.push(...UTF8.encode(String.fromCodePoint(parseInt(body.slice(i + 2, i + 2 + length), 16))));
      i += 2 + length;
    }
  }
  const array = Uint8Array.from(bytes);
  try {
    return { value: new TextDecoder('utf-8', { fatal: true }).decode(array), isUtf8: true };
  } catch {
    return { value: new TextDecoder('utf-8').decode(array), isUtf8: false };
  }
}
