/**
 * Where RE2 (Go's regexp/syntax) and the JavaScript-based check of values/re2-regex.ts disagree,
 * found by the differential test against promtool. re2Problem() is the check for PromQL matchers.
 * It refuses what JavaScript accepts and RE2 does not, scanning the regex as regexp/syntax reads it:
 * - an unknown named class: `[[:aplha:]]` inside brackets, `\p{Foo}`;
 * - a bracket expression never closed, because `]` right after `[` or `[^` is a literal (`[]?`);
 * - escapes RE2 lacks or that are incomplete: `\C`, `\x4`, `\Q` inside brackets, `\E` alone, `\1`;
 * - a range whose end is a class (`[a-\d]`) or lies before its start (`[a-[]`);
 * - flags with a dangling "-": `(?i-)`.
 * Then it asks re2RegexError about a rewrite that JavaScript compiles where RE2 does: a repeated
 * assertion (`$*`, `\b{2}`), an octal escape (`\12` is not a backreference), `\x{1F600}`, a
 * literal "]" first in brackets (`[]a]`), a repetition right after flags (`a*(?i)+`), a literal
 * brace that looks like a repeat count over 1000 (`\\{1010}`), `(?` inside brackets (`[(?]`).
 * A complete RE2 parser would make both this and values/re2-regex.ts unnecessary.
 */
import { re2RegexError } from '../values/re2-regex.ts';
import { isRe2UnicodeClassName } from './re2-unicode-classes.ts';
import { ParseStop } from './parse-stop.ts';

/** Why Prometheus would refuse `regex` in a matcher, or undefined when RE2 compiles it. */
export function re2Problem(regex: string): string | undefined {
  return re2GapError(regex) ?? re2RegexError(rewriteForJavascript(regex));
}

/** Characters that need a backslash to stand for themselves in a JavaScript regex. */
const JAVASCRIPT_SPECIAL = /[\\^$.*+?()[\]{}|/-]/;

/**
 * The same language in a form JavaScript compiles: `$*` → `(?:$)*`, `\12` → the character,
 * `\x{1F600}` → the character, `[]a]` → `[\]a]`, literal braces and parentheses in brackets → `\xNN`,
 * and a repetition after `(?i)` applied to the operand before it, as RE2 does (`a*(?i)+` → `(?:a*)+`).
 */
export function rewriteForJavascript(regex: string): string {
  let out = '';
  /** Where the last operand starts in `out`; -1 at the start of an alternative or group. */
  let operandStart = -1;
  const groupStarts: number[] = [];
  let inBrackets = false;
  let bracketStart = 0;
  let bracketFirst = 0;
  /** A character as a JavaScript literal (astral ones grouped so a repetition covers both halves). */
  const literal = (character: string): string =>
    JAVASCRIPT_SPECIAL.test(character) ? `\\${character}` : character.length > 1 && !inBrackets ? `(?:${character})` : character;
  const quantifierFollows = (at: number): boolean => /^[*+?{]/.test(regex.slice(at));
  for (let i = 0; i < regex.length; i++) {
    const ch = regex[i]!;
    const next = regex[i + 1];
    const start = out.length;
    if (ch === '\\' && next !== undefined) {
      const escape = rewriteEscape(regex, i, literal);
      if (!inBrackets && 'bBAz'.includes(next) && quantifierFollows(i + 2)) out += `(?:${escape.text})`;
      else out += escape.text;
      i = escape.end - 1;
      if (!inBrackets) operandStart = start;
      continue;
    }
    if (inBrackets) {
      if (ch === '[' && next === ':' && regex.indexOf(':]', i + 2) >= 0) {
        const end = regex.indexOf(':]', i + 2);
        out += regex.slice(i, end + 2);
        i = end + 1;
      } else if (ch === ']' && i > bracketFirst) {
        out += ']';
        inBrackets = false;
        operandStart = bracketStart;
      } else if ('{}()'.includes(ch)) {
        // re2RegexError reads `(?` and `{1010}` wherever they stand; in brackets they are literals.
        out += `\\x${ch.charCodeAt(0).toString(16)}`;
      } else {
        out += ch;
      }
      continue;
    }
    if (ch === '[') {
      inBrackets = true;
      bracketStart = start;
      out += '[';
      if (next === '^') out += regex[++i];
      // "]" first in a bracket expression is a literal in RE2 and ends an empty class in JavaScript.
      if (regex[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      bracketFirst = i + 1;
      continue;
    }
    const flags = ch === '(' && next === '?' ? /^\(\?[imsU-]*\)/.exec(regex.slice(i)) : null;
    if (flags) {
      i += flags[0].length - 1;
      if (!quantifierFollows(i + 1) || operandStart < 0) {
        out += flags[0]; // flags only: re2RegexError drops them; without an operand the repetition fails there
      } else if (/[*+?}]$/.test(out)) {
        // RE2 repeats the operand before the flags, itself repeated: JavaScript needs it grouped.
        out = `${out.slice(0, operandStart)}(?:${out.slice(operandStart)})`;
      }
      continue;
    }
    if (ch === '(') {
      groupStarts.push(start);
      out += ch;
      operandStart = -1;
      continue;
    }
    if (ch === ')') {
      out += ch;
      operandStart = groupStarts.pop() ?? -1;
      continue;
    }
    if (ch === '|') {
      out += ch;
      operandStart = -1;
      continue;
    }
    if ('*+?'.includes(ch)) {
      out += ch;
      continue;
    }
    if (ch === '{' && /^\{\d+(,\d*)?\}/.test(regex.slice(i)) && operandStart >= 0) {
      const repeat = /^\{\d+(,\d*)?\}/.exec(regex.slice(i))![0];
      out += repeat;
      i += repeat.length - 1;
      continue;
    }
    out += (ch === '^' || ch === '$') && quantifierFollows(i + 1) ? `(?:${ch})` : ch;
    operandStart = start;
  }
  return out;
}

/** One escape at `at` in JavaScript form, and where it ends in `regex`. */
function rewriteEscape(regex: string, at: number, literal: (character: string) => string): { text: string; end: number } {
  const next = regex[at + 1]!;
  if (next === 'x' && regex[at + 2] === '{') {
    const close = regex.indexOf('}', at + 3);
    const code = close < 0 ? NaN : parseInt(regex.slice(at + 3, close), 16);
    if (Number.isInteger(code) && code <= 0x10ffff) return { text: literal(String.fromCodePoint(code)), end: close + 1 };
  }
  if (/[0-7]/.test(next)) {
    const octal = /^[0-7]{1,3}/.exec(regex.slice(at + 1))![0];
    // A lone \1-\7 is left as it is, for the backreference refusal.
    if (next === '0' || octal.length > 1) return { text: literal(String.fromCodePoint(parseInt(octal, 8))), end: at + 1 + octal.length };
  }
  // re2RegexError finds repeat counts over 1000 by their text: `\{1010}` is no repetition.
  if (next === '{' || next === '}') return { text: next === '{' ? '\\x7b' : '\\x7d', end: at + 2 };
  return { text: `\\${next}`, end: at + 2 };
}

const POSIX_CLASSES = new Set(['alnum', 'alpha', 'ascii', 'blank', 'cntrl', 'digit', 'graph', 'lower', 'print', 'punct', 'space', 'upper', 'word', 'xdigit']);
const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };
const CLASS_ESCAPES = new Set(['d', 'D', 's', 'S', 'w', 'W', 'p', 'P']);

/** Why RE2 would refuse `regex` for one of the reasons above, or undefined. */
function re2GapError(regex: string): string | undefined {
  const scan = new Re2Scan(regex);
  try {
    scan.run();
    return undefined;
  } catch (error) {
    if (error instanceof ParseStop) return error.message;
    throw error;
  }
}

class Re2Scan {
  private pos = 0;
  private readonly regex: string;

  constructor(regex: string) {
    this.regex = regex;
  }

  run(): void {
    const regex = this.regex;
    // re2RegexError compiles the regex inside a group of its own, where a stray ")" closes that
    // group instead of failing: parentheses are counted here.
    let depth = 0;
    while (this.pos < regex.length) {
      if (regex.startsWith('(?', this.pos)) {
        if (this.groupFlags()) depth++;
      } else if (regex[this.pos] === '(') {
        depth++;
        this.pos += 1;
      } else if (regex[this.pos] === ')') {
        if (depth === 0) this.refuse(`unexpected ): ${regex}`);
        depth--;
        this.pos += 1;
      } else if (regex[this.pos] === '[') {
        this.bracketExpression();
      } else if (regex[this.pos] === '\\') {
        if (regex[this.pos + 1] === 'Q') {
          const end = regex.indexOf('\\E', this.pos + 2);
          this.pos = end < 0 ? regex.length : end + 2;
        } else {
          this.escape(false);
        }
      } else {
        this.pos += 1;
      }
    }
    if (depth > 0) this.refuse(`missing closing ): ${regex}`);
  }

  /**
   * `(?flags)`, `(?flags:` or a named group: Go refuses a "-" without a flag after it, or a second
   * "-". Returns whether a group opens (not for `(?i)`).
   */
  private groupFlags(): boolean {
    const regex = this.regex;
    const rest = regex.slice(this.pos);
    if (/^\(\?P?</.test(rest)) {
      this.pos += 2;
      return true; // named groups: the name is left to re2RegexError
    }
    const match = /^\(\?([imsU]*)(?:(-)([imsU]*))?([:)])/.exec(rest);
    if (!match || (match[2] === '-' && match[3] === '')) {
      const end = /^\(\?[^:)]*[:)]?/.exec(rest)![0];
      this.refuse(`invalid or unsupported Perl syntax: ${end}`);
    }
    this.pos += match[0].length;
    return match[4] === ':';
  }

  /** From `[` to its `]`, checking named classes, escapes and ranges. */
  private bracketExpression(): void {
    const regex = this.regex;
    const start = this.pos;
    this.pos += 1;
    if (regex[this.pos] === '^') this.pos += 1;
    let first = true;
    while (this.pos < regex.length && (regex[this.pos] !== ']' || first)) {
      first = false;
      if (regex.startsWith('[:', this.pos)) {
        // Go looks for ":]" anywhere after, even past the bracket expression.
        const end = regex.indexOf(':]', this.pos + 2);
        if (end >= 0) {
          const name = regex.slice(this.pos + 2, end);
          if (!POSIX_CLASSES.has(name.replace(/^\^/, ''))) this.refuse(`invalid character class range: [:${name}:]`);
          this.pos = end + 2;
          continue;
        }
      }
      const low = this.classCharacter();
      if (low === undefined) continue; // a class such as \d: no range can start here
      if (regex[this.pos] === '-' && regex[this.pos + 1] !== undefined && regex[this.pos + 1] !== ']') {
        this.pos += 1;
        const high = this.classCharacter();
        if (high === undefined || high < low) this.refuse(`invalid character class range: ${regex.slice(start, this.pos)}`);
      }
    }
    if (this.pos >= regex.length) this.refuse(`missing closing ]: ${regex.slice(start)}`);
    this.pos += 1;
  }

  /** One character inside brackets (its code point), or undefined for a class escape. */
  private classCharacter(): number | undefined {
    if (this.regex[this.pos] === '\\') return this.escape(true);
    const codePoint = this.regex.codePointAt(this.pos)!;
    this.pos += codePoint > 0xffff ? 2 : 1;
    return codePoint;
  }

  /** An escape at the current `\`: its code point, or undefined for a class (`\d`, `\pL`) or assertion. */
  private escape(inBrackets: boolean): number | undefined {
    const regex = this.regex;
    const kind = regex[this.pos + 1];
    if (kind === undefined) this.refuse('trailing backslash at end of expression');
    this.pos += 2;
    if (kind === 'p' || kind === 'P') {
      const braced = regex[this.pos] === '{';
      const close = braced ? regex.indexOf('}', this.pos + 1) : this.pos;
      if (close < 0) this.refuse(`invalid character class range: \\${kind}${regex.slice(this.pos)}`);
      const name = braced ? regex.slice(this.pos + 1, close) : (regex[this.pos] ?? '');
      if (!isRe2UnicodeClassName(name.replace(/^\^/, ''))) this.refuse(`invalid character class range: \\${kind}{${name}}`);
      this.pos = close + 1;
      return undefined;
    }
    if (CLASS_ESCAPES.has(kind)) return undefined;
    if (kind === 'x') return this.hexEscape();
    if (Object.hasOwn(SIMPLE_ESCAPES, kind)) return SIMPLE_ESCAPES[kind];
    if (kind >= '0' && kind <= '7') {
      // Octal: \0 and up to two more digits, or \1-\7 and one or two more; \1 alone is a backreference.
      if (kind !== '0' && !/[0-7]/.test(regex[this.pos] ?? '')) this.refuse(`invalid escape sequence: \\${kind}`);
      let digits = kind;
      while (digits.length < 3 && regex[this.pos] !== undefined && regex[this.pos]! >= '0' && regex[this.pos]! <= '7') digits += regex[this.pos++];
      return parseInt(digits, 8);
    }
    if (!inBrackets && 'bBAz'.includes(kind)) return undefined;
    if (/[a-zA-Z0-9]/.test(kind)) this.refuse(`invalid escape sequence: \\${kind}`);
    return kind.codePointAt(0);
  }

  /** `\x41` or `\x{1F600}` (the `\x` is read). */
  private hexEscape(): number {
    const regex = this.regex;
    if (regex[this.pos] === '{') {
      const close = regex.indexOf('}', this.pos + 1);
      const digits = close < 0 ? '' : regex.slice(this.pos + 1, close);
      if (!/^[0-9a-fA-F]+$/.test(digits) || parseInt(digits, 16) > 0x10ffff) this.refuse(`invalid escape sequence: \\x${regex.slice(this.pos, close + 1)}`);
      this.pos = close + 1;
      return parseInt(digits, 16);
    }
    const digits = regex.slice(this.pos, this.pos + 2);
    if (!/^[0-9a-fA-F]{2}$/.test(digits)) this.refuse(`invalid escape sequence: \\x${digits}`);
    this.pos += 2;
    return parseInt(digits, 16);
  }

  private refuse(message: string): never {
    throw new ParseStop(this.pos, message);
  }
}
