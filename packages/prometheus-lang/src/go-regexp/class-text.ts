/**
 * Reading the classes in the pattern text (Go's parseClass, parseUnicodeClass, parsePerlClassEscape and
 * parseClassChar): bracket expressions, `\p{…}` and `\d`-style escapes, as sorted rune ranges. The parser turns them
 * into nodes (parse.ts).
 */
import { Flag } from './ast.ts';
import {
  appendClass, appendFoldedRange, appendNamedClass, appendNegatedClass, appendRange, cleanClass, negateClass, negatedUnicodeClassRanges, PERL_CLASSES,
  posixClass,
} from './char-class.ts';
import { GoRegexpError } from './parse-error.ts';
import { BACKSLASH, nextRune, parseEscape, type Step } from './pattern-text.ts';
import { isUnicodeClassName, unicodeClassRanges, type RegexReading } from './unicode-classes.ts';

/** A class's ranges and where the text after it starts. */
export interface ClassStep {
  runes: number[];
  next: number;
}

/** How many rune pairs a bracket expression collects before it is cleaned along the way. */
const CLEAN_AT = 4096;

/** Reads the classes of one pattern; it remembers its last search for a `:]`, which Go repeats at each `[:`. */
export class ClassReader {
  private readonly s: string;
  /** Which of Prometheus' readings looks Unicode class names up (unicode-classes.ts). */
  private readonly reading: RegexReading;
  /** The last search for ":]": from where, and where it was found (-1: nowhere after). */
  private posixEnd = { from: Infinity, at: -1 };

  constructor(pattern: string, reading: RegexReading) {
    this.s = pattern;
    this.reading = reading;
  }

  /** The bracket expression at `at` under `flags`: its ranges, cleaned and negated as written. */
  parseClass(at: number, flags: number): ClassStep {
    const s = this.s;
    let t = at + 1;
    let runes: number[] = [];
    let sign = 1;
    if (s[t] === '^') {
      sign = -1;
      t++;
      // A class that does not match \n holds it before negation.
      if (!(flags & Flag.ClassNL)) runes.push(0xa, 0xa);
    }
    let first = true;
    let cleanAt = CLEAN_AT;
    while (t >= s.length || s[t] !== ']' || first) {
      if (t < s.length && s[t] === '-' && !(flags & Flag.PerlX) && !first && (t + 1 >= s.length || s[t + 1] !== ']')) {
        throw new GoRegexpError('invalid character class range', s.slice(t, t + 1 + (nextRune(s, t + 1).next - t - 1)));
      }
      first = false;
      if (s.length - t > 2 && s[t] === '[' && s[t + 1] === ':') {
        const end = this.findPosixEnd(t + 2);
        if (end >= 0) {
          const text = s.slice(t, end + 2);
          const group = posixClass(text);
          if (!group) throw new GoRegexpError('invalid character class range', text);
          runes = appendNamedClass(runes, group, flags);
          t = end + 2;
          continue;
        }
      }
      const unicode = this.parseUnicodeClass(t, flags, runes);
      if (unicode) {
        runes = unicode.runes;
        t = unicode.next;
        continue;
      }
      const perl = this.parsePerlClassEscape(t, flags, runes);
      if (perl) {
        runes = perl.runes;
        t = perl.next;
        continue;
      }
      const rangeStart = t;
      const low = this.parseClassChar(t, at);
      t = low.next;
      let hi = low.rune;
      // [a-] is a and -: a range needs something other than ] after the dash.
      if (s.length - t >= 2 && s[t] === '-' && s[t + 1] !== ']') {
        const high = this.parseClassChar(t + 1, at);
        t = high.next;
        hi = high.rune;
        if (hi < low.rune) throw new GoRegexpError('invalid character class range', s.slice(rangeStart, t));
      }
      if (flags & Flag.FoldCase) appendFoldedRange(runes, low.rune, hi);
      else appendRange(runes, low.rune, hi);
      // Go cleans the class once, at the end; cleaning it along the way gives the same class and keeps a long
      // bracket expression of few distinct characters (appendRange merges with the last two pairs only) small.
      if (runes.length > cleanAt) {
        runes = cleanClass(runes);
        cleanAt = Math.max(CLEAN_AT, 2 * runes.length);
      }
    }
    t++;
    runes = cleanClass(runes);
    return { runes: sign < 0 ? negateClass(runes) : runes, next: t };
  }

  /**
   * `\p{Greek}`, `\pL`, `\P{^Greek}` at `at`, appended to `runes` (none: outside brackets); undefined when `at`
   * holds no `\p` or `\P`.
   */
  parseUnicodeClass(at: number, flags: number, runes: number[] | undefined): ClassStep | undefined {
    const s = this.s;
    if (!(flags & Flag.UnicodeGroups) || s.length - at < 2 || s.charCodeAt(at) !== BACKSLASH || (s[at + 1] !== 'p' && s[at + 1] !== 'P')) {
      return undefined;
    }
    let sign = s[at + 1] === 'P' ? -1 : 1;
    const c = nextRune(s, at + 2);
    let t = c.next;
    let seq: string;
    let name: string;
    if (c.rune !== 0x7b) {
      seq = s.slice(at, t);
      name = seq.slice(2);
    } else {
      const end = s.indexOf('}', at);
      if (end < 0) throw new GoRegexpError('invalid character class range', s.slice(at));
      seq = s.slice(at, end + 1);
      t = end + 1;
      name = s.slice(at + 3, end);
    }
    if (name.startsWith('^')) {
      sign = -sign;
      name = name.slice(1);
    }
    const folded = (flags & Flag.FoldCase) !== 0;
    const table = isUnicodeClassName(name, this.reading) ? unicodeClassRanges(name, folded) : undefined;
    if (!table) throw new GoRegexpError('invalid character class range', seq);
    // Outside brackets the class is the table itself, shared and frozen (mergeCharClass copies it before it adds):
    // Go copies it, and thirty thousand copies of \pL are what its rune limit stops.
    if (!runes) return { runes: (sign > 0 ? table : negatedUnicodeClassRanges(name, folded)!) as number[], next: t };
    return { runes: sign > 0 ? appendClass(runes, table) : appendNegatedClass(runes, table), next: t };
  }

  /** `\d`, `\s`, `\w` and their negations at `at`, appended to `runes`. */
  parsePerlClassEscape(at: number, flags: number, runes: number[]): ClassStep | undefined {
    const s = this.s;
    if (!(flags & Flag.PerlX) || s.length - at < 2 || s.charCodeAt(at) !== BACKSLASH) return undefined;
    const letter = s[at + 1]!;
    if (!Object.hasOwn(PERL_CLASSES, letter)) return undefined;
    return { runes: appendNamedClass(runes, PERL_CLASSES[letter]!, flags), next: at + 2 };
  }

  private parseClassChar(at: number, classStart: number): Step {
    if (at >= this.s.length) throw new GoRegexpError('missing closing ]', this.s.slice(classStart));
    if (this.s.charCodeAt(at) === BACKSLASH) return parseEscape(this.s, at);
    return nextRune(this.s, at);
  }

  /** Where the next ":]" at or after `from` is (-1: none), remembering the answer: Go searches the rest each time. */
  private findPosixEnd(from: number): number {
    const cached = this.posixEnd;
    if (from >= cached.from && (cached.at < 0 || cached.at >= from)) return cached.at;
    const at = this.s.indexOf(':]', from);
    this.posixEnd = { from, at };
    return at;
  }
}
