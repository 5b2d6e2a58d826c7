/**
 * Checks that a relabeling regex would compile in Prometheus, which uses Go's RE2 syntax
 * (anchored as `^(?s:<regex>)$`). We compile with JavaScript's RegExp after translating the RE2
 * forms JavaScript spells differently, and refuse the JavaScript-only features RE2 rejects.
 *
 * Known differences we accept rather than emulate exactly:
 * - RE2 supports POSIX classes (`[[:alpha:]]`), `\pL`-style Unicode classes, `\Q…\E`, `\z`,
 *   `\A` and inline flags (`(?i)`, `(?s:…)`): they are translated or stripped before compiling.
 * - JavaScript without the `u` flag accepts some sloppy escapes that RE2 refuses; the common ones
 *   (backreferences, lookaround, unknown letter escapes, repeat counts over 1000) are refused here.
 * A regex that passes here but not RE2 is possible in exotic cases; promtool in our tests guards
 * the generated output.
 */

/** Escapes of a letter that RE2 knows (`\d`, `\b`, `\pL`, `\x41`, …). */
const RE2_LETTER_ESCAPES = new Set(['a', 'f', 't', 'n', 'r', 'v', 'd', 'D', 's', 'S', 'w', 'W', 'b', 'B', 'A', 'z', 'x', 'p', 'P', 'Q', 'E', 'C']);

/** Returns why `regex` would not compile as a Prometheus (RE2) regex, or undefined if it would. */
export function re2RegexError(regex: string): string | undefined {
  if (/\(\?(=|!|<=|<!)/.test(regex)) return 'lookahead and lookbehind are not supported (Prometheus uses RE2 syntax)';
  let translated = '';
  for (let i = 0; i < regex.length; i++) {
    const ch = regex[i] ?? '';
    if (ch === '\\') {
      const next = regex[i + 1];
      if (next === undefined) return 'trailing backslash';
      if (/[1-9]/.test(next)) return 'backreferences are not supported (Prometheus uses RE2 syntax)';
      if (/[a-zA-Z]/.test(next) && !RE2_LETTER_ESCAPES.has(next)) return `invalid escape sequence \\${next}`;
      if (next === 'Q') {
        const end = regex.indexOf('\\E', i + 2);
        const literal = end < 0 ? regex.slice(i + 2) : regex.slice(i + 2, end);
        translated += literal.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
        i = end < 0 ? regex.length : end + 1;
        continue;
      }
      if (next === 'z') translated += '$';
      else if (next === 'A') translated += '^';
      else if (next === 'C') translated += '[\\s\\S]';
      else if (next === 'p' || next === 'P') {
        // \pL or \p{Greek}: consume the class name; approximate it with "any character".
        if (regex[i + 2] === '{') {
          const close = regex.indexOf('}', i + 3);
          if (close < 0) return 'unterminated \\p{...} class';
          i = close;
        } else {
          i += 1;
        }
        translated += '.';
        continue;
      } else translated += ch + next;
      i += 1;
      continue;
    }
    if (ch === '(' && regex[i + 1] === '?') {
      // Inline flags `(?i)`, `(?s-m)`, `(?i:`; named groups `(?P<name>` and `(?<name>`.
      const flags = /^\(\?([imsU]*(?:-[imsU]*)?)(\)|:)/.exec(regex.slice(i));
      if (flags) {
        translated += flags[2] === ':' ? '(?:' : '';
        i += flags[0].length - 1;
        continue;
      }
      const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(regex.slice(i));
      if (named) {
        translated += '(';
        i += named[0].length - 1;
        continue;
      }
      if (regex[i + 2] !== ':') return 'invalid or unsupported group syntax "(?"';
    }
    if (ch === '[' && regex[i + 1] === '[' && regex[i + 2] === ':') {
      const close = regex.indexOf(':]', i + 3);
      if (close >= 0) {
        translated += '[a-zA-Z0-9';
        i = close + 1;
        continue;
      }
    }
    if (ch === '[' && regex[i + 1] === ':') {
      const close = regex.indexOf(':]', i + 2);
      if (close >= 0) {
        translated += 'a-zA-Z0-9';
        i = close + 1;
        continue;
      }
    }
    translated += ch;
  }
  for (const m of translated.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) {
    if (Number(m[1]) > 1000 || (m[2] !== undefined && m[2] !== '' && Number(m[2]) > 1000)) return 'repeat count over 1000';
  }
  try {
    new RegExp(`^(?:${translated})$`);
  } catch (error) {
    return (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '');
  }
  return undefined;
}
