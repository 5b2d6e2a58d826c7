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
  const structural = goParserLimitError(translated);
  if (structural) return structural;
  try {
    new RegExp(`^(?:${translated})$`);
  } catch (error) {
    // RE2 repeats an empty-width assertion (`$+`, `^*`, `\b?`, `${2}`: Prometheus loads them); JavaScript
    // refuses a bare one. In a group JavaScript repeats it too, with the same meaning.
    if (compiles(translated.replace(REPEATED_ASSERTION, '$1(?:$2)'))) return undefined;
    return (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '');
  }
  return undefined;
}

/** An unescaped `^`, `$`, `\b` or `\B` followed by a repetition operator (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`). */
const REPEATED_ASSERTION = /((?:^|[^\\])(?:\\\\)*)(\\[bB]|[$^])(?=[*+?]|\{\d+(?:,\d*)?\})/g;

function compiles(translated: string): boolean {
  try {
    new RegExp(`^(?:${translated})$`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Two limits of Go's regexp parser that JavaScript does not have (found with hostile inputs while building the fuzz
 * suite, now among its mutations: Prometheus refused the whole configuration while promop had accepted the monitor):
 * - nested counted repetitions whose counts multiply past 1000 (`(a{3}){334}`, `((a{10}){10}){11}`: Go's
 *   repeatIsValid; a `{0}` ends the chain, `{n,}` counts as n, `*`, `+` and `?` do not count);
 * - capture groups nested 999 deep or more: with Prometheus' `^(?s:…)$` around the regex the parse tree is then
 *   over Go's 1000 levels ("expression nests too deeply"). Other nodes add levels too, so a regex somewhat less deep
 *   can still fail in Go; this refuses only what certainly fails.
 * Reads the translated (JavaScript) pattern: escapes and classes are atoms, every `(` opens a group.
 */
function goParserLimitError(pattern: string): string | undefined {
  // Per open group: the largest product of counted repetitions inside it so far, and whether it captures.
  const groups: Array<{ product: number; captures: boolean }> = [{ product: 1, captures: false }];
  let captureDepth = 0;
  let lastAtom = 1;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    const current = groups[groups.length - 1] as { product: number; captures: boolean };
    if (ch === '\\') {
      i += 1;
      lastAtom = 1;
    } else if (ch === '[') {
      // A class is one atom: skip to its closing bracket (a `]` first, or escaped, is a literal).
      let j = i + 1;
      if (pattern[j] === '^') j += 1;
      if (pattern[j] === ']') j += 1;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j;
      lastAtom = 1;
    } else if (ch === '(') {
      const captures = pattern[i + 1] !== '?';
      if (captures && ++captureDepth >= 999) return 'expression nests too deeply (Prometheus allows about 1000 levels)';
      groups.push({ product: 1, captures });
      lastAtom = 1;
    } else if (ch === ')' && groups.length > 1) {
      const closed = groups.pop() as { product: number; captures: boolean };
      if (closed.captures) captureDepth -= 1;
      lastAtom = closed.product;
      const parent = groups[groups.length - 1] as { product: number };
      parent.product = Math.max(parent.product, closed.product);
    } else if (ch === '{') {
      const repeat = /^\{(\d+)(?:(,)(\d*))?\}/.exec(pattern.slice(i));
      if (!repeat) {
        lastAtom = 1;
        continue;
      }
      const min = Number(repeat[1]);
      const max = repeat[2] === undefined ? min : repeat[3] === '' ? -1 : Number(repeat[3]);
      const count = max === 0 ? 0 : max < 0 ? min : max;
      const product = count * lastAtom;
      if (product > 1000) return `invalid repeat count ${repeat[0]}: nested repetitions allow at most 1000 in all`;
      current.product = Math.max(current.product, product);
      lastAtom = product;
      i += repeat[0].length - 1;
    } else {
      lastAtom = 1;
    }
  }
  return undefined;
}
