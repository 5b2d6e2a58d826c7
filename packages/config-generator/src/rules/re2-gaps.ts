/**
 * Where RE2 (Go's regexp/syntax) and the JavaScript-based check of scrape/re2-regex.ts disagree,
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
 * brace that looks like a repeat count over 1000 (`\\{1010}`).
 * A complete RE2 parser would make both this and scrape/re2-regex.ts unnecessary.
 */
import { re2RegexError } from '../scrape/re2-regex.ts';
import { isRe2UnicodeClassName } from './re2-unicode-classes.ts';
import { ParseStop } from './parse-stop.ts';

/** Why Prometheus would refuse `regex` in a matcher, or undefined when RE2 compiles it. */
export function re2Problem(regex: string): string | undefined {
  return re2GapError(regex) ?? re2RegexError(rewriteForJavascript(regex));
}

/** `$*` → `(?:$)*`, `\12` → the character itself: the same language, in a form JavaScript compiles. */
export function rewriteForJavascript(regex: string): string {
  let out = '';
  for (let i = 0; i < regex.length; i++) {
    const ch = regex[i]!;
    const next = regex[i + 1];
    if (ch === '[' && !insideBrackets(regex, i)) {
      // "]" first in a bracket expression is a literal in RE2 and ends an empty class in JavaScript.
      const negated = next === '^';
      const afterOpen = i + (negated ? 2 : 1);
      out += negated ? '[^' : '[';
      if (regex[afterOpen] === ']') {
        out += '\\]';
        i = afterOpen;
      } else {
        i = afterOpen - 1;
      }
      continue;
    }
    if (ch === '\\' && next === 'x' && regex[i + 2] === '{') {
      const close = regex.indexOf('}', i + 3);
      const code = close < 0 ? NaN : parseInt(regex.slice(i + 3, close), 16);
      if (Number.isInteger(code) && code <= 0x10ffff) {
        const character = String.fromCodePoint(code);
        // An astral character is two code units without the "u" flag: a group keeps a repetition on both.
        const inBrackets = insideBrackets(regex, i);
        out += /[\\^$.*+?()[\]{}|\/-]/.test(character) ? `\\${character}` : character.length > 1 && !inBrackets ? `(?:${character})` : character;
        i = close;
        continue;
      }
    }
    const flags = ch === '(' && next === '?' ? /^\(\?[imsU-]*\)/.exec(regex.slice(i)) : null;
    if (flags && /^[*+?{]/.test(regex.slice(i + flags[0].length)) && out !== '' && !/(\(|\||\(\?:|\(\?[imsU-]*\))$/.test(out)) {
      // RE2 applies a repetition after "(?i)" to the operand before it; an empty group keeps that valid.
      out += '(?:)';
      i += flags[0].length - 1;
      continue;
    }
    if (ch === '\\' && next !== undefined && /[0-7]/.test(next)) {
      const octal = /^[0-7]{1,3}/.exec(regex.slice(i + 1))![0];
      if (next !== '0' && octal.length === 1) {
        out += ch + next; // a lone \1-\7: left for the backreference refusal
        i += 1;
        continue;
      }
      const character = String.fromCodePoint(parseInt(octal, 8));
      out += /[\\^$.*+?()[\]{}|\/-]/.test(character) ? `\\${character}` : character;
      i += octal.length;
      continue;
    }
    const assertion = ch === '\\' && next !== undefined && 'bBAz'.includes(next) ? ch + next : ch === '^' || ch === '$' ? ch : undefined;
    if (assertion && /^[*+?{]/.test(regex.slice(i + assertion.length)) && !insideBrackets(regex, i)) {
      out += `(?:${assertion})`;
      i += assertion.length - 1;
      continue;
    }
    // re2RegexError finds repeat counts over 1000 by their text, so a literal brace must not look
    // like one: `\{1010}` or `[{1010}]` is no repetition.
    if (ch === '\\' && (next === '{' || next === '}')) {
      out += next === '{' ? '\\x7b' : '\\x7d';
      i += 1;
      continue;
    }
    if ((ch === '{' || ch === '}') && insideBrackets(regex, i)) {
      out += ch === '{' ? '\\x7b' : '\\x7d';
      continue;
    }
    if (ch === '\\' && next !== undefined) {
      out += ch + next;
      i += 1;
      continue;
    }
    out += ch;
  }
  return out;
}

/** Whether position `at` is inside a bracket expression (RE2's rules for where one starts and ends). */
function insideBrackets(regex: string, at: number): boolean {
  let inside = false;
  for (let i = 0; i < at; i++) {
    const ch = regex[i];
    if (ch === '\\') {
      i++;
    } else if (!inside && ch === '[') {
      inside = true;
      if (regex[i + 1] === '^') i++;
      if (regex[i + 1] === ']') i++;
    } else if (inside && ch === '[' && regex[i + 1] === ':') {
      const end = regex.indexOf(':]', i + 2);
      if (end >= 0 && end < at) i = end + 1;
    } else if (inside && ch === ']') {
      inside = false;
    }
  }
  return inside;
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
