/**
 * The lexemes of PromQL that are more than one character, each cut as Prometheus' lexer cuts it: quoted and raw
 * strings with Go's escape rules, numbers and durations with Go's number syntax, and words (keywords, names,
 * `Inf`/`NaN`, the duration keywords inside brackets).
 */
import { PromqlLexCursor, isAlpha, isAlphaNumeric, isSpace } from './promql-lex-cursor.ts';
import { DURATION_KEYWORDS, KEYWORDS, type PromqlKeyword } from './promql-tokens.ts';

/** 1 for the ASCII characters of names outside braces: letters, digits, `_` and `:`. */
const IS_ASCII_NAME_CHARACTER = new Uint8Array(128).map((_, code) => (/[A-Za-z0-9_:]/.test(String.fromCharCode(code)) ? 1 : 0));

/**
 * Go's utf8.RuneError: what Go decodes from bytes that are not UTF-8 (a lone surrogate here), and
 * the replacement character itself, which Prometheus' string lexer refuses even when written literally.
 */
const isInvalidRune = (ch: string | undefined): boolean => ch === '\uFFFD' || (ch !== undefined && /^[\uD800-\uDFFF]$/.test(ch));

/** The strings, numbers, durations and words of the text; which of them comes next is the states' business. */
export class PromqlLexemes extends PromqlLexCursor {
  /** A quoted string, the opening quote already read. */
  protected lexString(quote: string): void {
    for (;;) {
      const ch = this.next();
      if (ch === '\\') {
        this.lexEscape(quote);
        continue;
      }
      if (isInvalidRune(ch)) this.fail('invalid UTF-8 rune');
      if (ch === undefined || ch === '\n') this.fail('unterminated quoted string');
      if (ch === quote) break;
    }
    this.emit('STRING');
  }

  /** Go's escape rules for PromQL strings (the backslash is already read). */
  protected lexEscape(quote: string): void {
    let ch = this.next();
    let digits: number;
    let base: number;
    let max: number;
    if (ch !== undefined && 'abfnrtv\\'.includes(ch)) return;
    if (ch === quote) return;
    if (ch !== undefined && ch >= '0' && ch <= '7') {
      [digits, base, max] = [3, 8, 255];
    } else if (ch === 'x') {
      ch = this.next();
      [digits, base, max] = [2, 16, 255];
    } else if (ch === 'u') {
      ch = this.next();
      [digits, base, max] = [4, 16, 0x10ffff];
    } else if (ch === 'U') {
      ch = this.next();
      [digits, base, max] = [8, 16, 0x10ffff];
    } else if (ch === undefined) {
      this.fail('escape sequence not terminated');
    } else {
      this.fail(`unknown escape sequence '${ch}'`);
    }
    let value = 0;
    for (;;) {
      const digit = ch === undefined ? 16 : parseInt(ch, 16);
      if (Number.isNaN(digit) || digit >= base) {
        if (ch === undefined) this.fail('escape sequence not terminated');
        this.fail(`illegal character '${ch}' in escape sequence`);
      }
      value = value * base + digit;
      digits--;
      if (digits === 0) break;
      ch = this.next();
    }
    if (value > max || (value >= 0xd800 && value < 0xe000)) this.fail('escape sequence is an invalid Unicode code point');
  }

  protected lexRawString(): void {
    for (;;) {
      const ch = this.next();
      if (isInvalidRune(ch)) this.fail('invalid UTF-8 rune');
      if (ch === undefined) this.fail('unterminated raw string');
      if (ch === '`') break;
    }
    this.emit('STRING');
  }

  protected lexNumberOrDuration(): void {
    if (this.scanNumber()) {
      this.emit('NUMBER');
      return;
    }
    if (this.acceptRemainingDuration()) {
      this.emit('DURATION');
      return;
    }
    this.fail(`bad number or duration syntax: "${this.input.slice(this.start, this.pos)}"`);
  }

  /** After a number: units, each optionally followed by more digits and units (`1h30m`, `500ms`). */
  protected acceptRemainingDuration(): boolean {
    if (!this.accept('smhdwy')) return false;
    this.accept('s');
    while (this.accept('0123456789')) {
      while (this.accept('0123456789'));
      if (!this.accept('smhdw')) return false;
      this.accept('s');
    }
    return !isAlphaNumeric(this.peek());
  }

  /**
   * Go's scanNumber: decimal or hexadecimal digits, one dot, one exponent, underscores between
   * digits; false (with the position where it stopped) for anything else.
   */
  protected scanNumber(): boolean {
    const initial = this.pos;
    let digitPattern = '0123456789';
    if (this.accept('0') && this.accept('xX')) {
      this.accept('_');
      digitPattern = '0123456789abcdefABCDEF';
    }
    this.accept('.');
    this.accept(digitPattern);
    let dotConsumed = false;
    let exponentConsumed = false;
    const continuing = `${digitPattern}._eE`;
    for (let ch = this.peek(); ch !== undefined && continuing.includes(ch); ch = this.peek()) {
      if (ch === '.' && dotConsumed) {
        this.next();
        return false;
      }
      if ((ch === 'e' || ch === 'E') && exponentConsumed) {
        this.next();
        return false;
      }
      if (this.accept('.')) {
        dotConsumed = true;
        if (this.accept('_.')) return false;
        if (digitPattern.length > 10) return false; // fractional hexadecimal literals
        continue;
      }
      if (this.accept('eE')) {
        exponentConsumed = true;
        this.accept('+-');
        if (this.accept('._eE') || this.peek() === undefined) return false;
        continue;
      }
      if (this.accept('_')) {
        if (this.accept('._eE') || this.peek() === undefined) return false;
        continue;
      }
      while (this.accept(digitPattern));
    }
    if (this.pos === initial) return false;
    return !isAlphaNumeric(this.peek());
  }

  protected lexKeywordOrIdentifier(): void {
    let isAscii = true;
    for (;;) {
      // ASCII names (nearly all of them) are read by character code, without allocating.
      const code = this.input.charCodeAt(this.pos);
      if (IS_ASCII_NAME_CHARACTER[code] === 1) {
        this.pos++;
        continue;
      }
      // With unquoted UTF-8 names: Unicode letters and ".".
      if (!this.isNameContinue(this.peek())) break;
      if (code >= 0x80) isAscii = false;
      this.next();
    }
    const word = this.input.slice(this.start, this.pos);
    // A word with a non-ASCII letter is a name even if it lower-cases to a keyword.
    const lower = isAscii ? word.toLowerCase() : word;
    const isKeyword = isAscii && KEYWORDS.has(lower);
    if (isAscii && (lower === 'inf' || lower === 'nan')) {
      this.emit('NUMBER');
    } else if (isKeyword && (lower === 'fill' || lower === 'fill_left' || lower === 'fill_right') && !this.followedByLeftParen()) {
      // fill modifiers are keywords only before "(", so `fill` stays usable as a metric name.
      this.emit('IDENTIFIER');
    } else if (isKeyword) {
      this.emit(lower as PromqlKeyword);
    } else {
      this.emit(word.includes(':') ? 'METRIC_IDENTIFIER' : 'IDENTIFIER');
    }
  }

  protected followedByLeftParen(): boolean {
    let at = this.pos;
    while (at < this.input.length && isSpace(this.input[at])) at++;
    return this.input[at] === '(';
  }

  /** `step`, `range`, `max_of`, `min_of` (any case) inside brackets; false for any other word. */
  protected scanDurationKeyword(): boolean {
    while (isAlpha(this.peek())) this.next();
    const word = this.input.slice(this.start, this.pos).toLowerCase();
    if (!DURATION_KEYWORDS.has(word)) return false;
    this.emit(word as PromqlKeyword);
    return true;
  }
}
