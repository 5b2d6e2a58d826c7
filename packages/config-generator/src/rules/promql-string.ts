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
