import { rewriteForJavascript } from './re2-gaps.ts';

/**
 * Whether a Prometheus regex matcher (`=~`, RE2, fully anchored) matches the empty string: a
 * selector whose matchers all match it selects every series, and Prometheus refuses it. The
 * regex is translated to JavaScript for the test: RE2's inline flags, `\z`, `\A`, `\C`, `\Q…\E`,
 * `\pL` and POSIX classes are rewritten to forms that match the empty string exactly when the
 * original does. A regex that still does not compile is assumed not to match it.
 */
export function regexMatchesEmpty(original: string): boolean {
  const re2 = rewriteForJavascript(original);
  let translated = '';
  for (let i = 0; i < re2.length; i++) {
    const ch = re2[i]!;
    const next = re2[i + 1];
    if (ch === '\\') {
      if (next === 'Q') {
        const end = re2.indexOf('\\E', i + 2);
        const literal = end < 0 ? re2.slice(i + 2) : re2.slice(i + 2, end);
        translated += literal.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
        i = end < 0 ? re2.length : end + 1;
      } else if (next === 'z') {
        translated += '$';
        i++;
      } else if (next === 'A') {
        translated += '^';
        i++;
      } else if (next === 'C') {
        translated += '[\\s\\S]';
        i++;
      } else if (next === 'p' || next === 'P') {
        // A Unicode class matches one character, like ".".
        i = re2[i + 2] === '{' ? Math.max(re2.indexOf('}', i + 3), i + 2) : i + 2;
        translated += '.';
      } else {
        translated += ch + (next ?? '');
        i++;
      }
      continue;
    }
    if (ch === '(' && next === '?') {
      const flags = /^\(\?[imsU-]*(\)|:)/.exec(re2.slice(i));
      if (flags) {
        translated += flags[1] === ':' ? '(?:' : '';
        i += flags[0].length - 1;
        continue;
      }
      const named = /^\(\?P?<[A-Za-z_][A-Za-z0-9_]*>/.exec(re2.slice(i));
      if (named) {
        translated += '(';
        i += named[0].length - 1;
        continue;
      }
    }
    if (ch === '[' && next === ':') {
      const close = re2.indexOf(':]', i + 2);
      if (close >= 0) {
        translated += 'a';
        i = close + 1;
        continue;
      }
    }
    translated += ch;
  }
  try {
    return new RegExp(`^(?:${translated})$`, 's').test('');
  } catch {
    return false;
  }
}
