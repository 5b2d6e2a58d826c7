/**
 * PromQL's tokens, exactly as Prometheus' lexer (promql/parser/lex.go, v3.16) cuts them. The
 * grammar of @prometheus-io/lezer-promql is written for an editor and differs from Prometheus in
 * places that decide whether a rule loads (it reads `a + b offset 5m` as `(a + b) offset 5m`, which
 * Prometheus refuses, when Prometheus reads `a + (b offset 5m)`), so the rule checker has its own
 * lexer and parser that follow Prometheus' state machine: keywords only outside braces and
 * brackets, the duration sub-language inside `[...]`, numbers and durations with Go's rules.
 */

import { ParseStop } from './parse-stop.ts';

/** What a token is: a keyword or operator as written (lower case), or one of the classes below. */
export type PromqlTokenKind =
  | 'NUMBER' | 'DURATION' | 'STRING' | 'IDENTIFIER' | 'METRIC_IDENTIFIER'
  | '(' | ')' | '{' | '}' | '[' | ']' | ',' | ':' | '=' | '@'
  | '+' | '-' | '*' | '/' | '%' | '^' | '==' | '!=' | '<=' | '<' | '>=' | '>' | '</' | '>/' | '=~' | '!~'
  | PromqlKeyword
  | 'EOF';

/** Words the lexer turns into keywords (case-insensitively) outside braces and brackets. */
export const PROMQL_KEYWORDS = [
  'and', 'or', 'unless', 'atan2',
  'sum', 'avg', 'count', 'min', 'max', 'group', 'stddev', 'stdvar', 'topk', 'bottomk', 'count_values', 'quantile', 'limitk', 'limit_ratio',
  'offset', 'smoothed', 'anchored', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'fill', 'fill_left', 'fill_right', 'bool',
  'start', 'end', 'step', 'range', 'max_of', 'min_of',
] as const;
export type PromqlKeyword = (typeof PROMQL_KEYWORDS)[number];
const KEYWORDS: ReadonlySet<string> = new Set(PROMQL_KEYWORDS);

/** Keywords that inside `[...]` (durations) are still keywords; every other word is an error there. */
const DURATION_KEYWORDS: ReadonlySet<string> = new Set(['step', 'range', 'max_of', 'min_of']);

/** One token: its kind, its text and where it starts (offset in the JavaScript string). */
export interface PromqlToken {
  kind: PromqlTokenKind;
  text: string;
  from: number;
}

/** A lexical error: Prometheus stops reading the expression there. */
export interface PromqlLexError {
  from: number;
  message: string;
}

/** Lexer switches that follow Prometheus feature flags. */
export interface PromqlLexOptions {
  /** `--enable-feature=promql-unquoted-utf8-names` (3.16+): Unicode letters and inner dots in names. */
  unquotedUtf8Names: boolean;
  /**
   * 3.16+: a duration keyword (`step()`) counts as the duration before a subquery colon, and each
   * `[` starts afresh. Before, only a number did, once per expression: `x[step():]` was refused.
   */
  colonAfterDurationKeyword: boolean;
}

/**
 * All tokens of `input` up to the first lexical error. Prometheus' lexer runs ahead of its parser
 * and does not depend on it, so a lexical error anywhere makes the expression invalid whatever the
 * parser would say about the tokens before it.
 */
export function lexPromql(input: string, options: PromqlLexOptions): { tokens: PromqlToken[]; error?: PromqlLexError } {
  return new PromqlLexer(input, options).run();
}

const isSpace = (ch: string | undefined): boolean => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
const isDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= '0' && ch <= '9';
const isAlpha = (ch: string | undefined): boolean => ch !== undefined && (ch === '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'));
const isAlphaNumeric = (ch: string | undefined): boolean => isAlpha(ch) || isDigit(ch);
const isUnicodeLetter = (ch: string): boolean => /^\p{L}$/u.test(ch);

/** 1 for the ASCII characters of names outside braces: letters, digits, `_` and `:`. */
const IS_ASCII_NAME_CHARACTER = new Uint8Array(128).map((_, code) => (/[A-Za-z0-9_:]/.test(String.fromCharCode(code)) ? 1 : 0));

/**
 * Go's utf8.RuneError: what Go decodes from bytes that are not UTF-8 (a lone surrogate here), and
 * the replacement character itself, which Prometheus' string lexer refuses even when written literally.
 */
const isInvalidRune = (ch: string | undefined): boolean => ch === '\uFFFD' || (ch !== undefined && /^[\uD800-\uDFFF]$/.test(ch));

class PromqlLexer {
  private pos = 0;
  private start = 0;
  private readonly tokens: PromqlToken[] = [];
  private parenDepth = 0;
  private braceOpen = false;
  private bracketOpen = false;
  private gotColon = false;
  private gotDuration = false;
  private readonly input: string;
  private readonly options: PromqlLexOptions;

  constructor(input: string, options: PromqlLexOptions) {
    this.input = input;
    this.options = options;
  }

  run(): { tokens: PromqlToken[]; error?: PromqlLexError } {
    try {
      // Prometheus' state functions, as one loop: which one runs next depends only on these flags
      // (a state that returns "statements" while a brace is open continues inside the braces).
      let inDuration = false;
      for (;;) {
        if (this.braceOpen) {
          this.lexInsideBraces();
        } else if (inDuration) {
          inDuration = this.lexDurationExpression();
          continue;
        } else {
          const next = this.lexStatement();
          if (next === 'eof') break;
          inDuration = next === 'duration';
          continue;
        }
      }
      return { tokens: this.tokens };
    } catch (error) {
      if (error instanceof ParseStop) return { tokens: this.tokens, error: { from: error.at, message: error.message } };
      throw error;
    }
  }

  // ---- reading characters (by code point, as Go reads runes) ----

  private peek(): string | undefined {
    return this.codePointAt(this.pos);
  }

  /** The character (code point) at `at`; ASCII without allocating, as most PromQL is. */
  private codePointAt(at: number): string | undefined {
    if (at >= this.input.length) return undefined;
    const unit = this.input.charCodeAt(at);
    if (unit < 0xd800 || unit > 0xdfff) return this.input[at];
    return String.fromCodePoint(this.input.codePointAt(at)!);
  }

  private next(): string | undefined {
    const ch = this.peek();
    if (ch !== undefined) this.pos += ch.length;
    return ch;
  }

  private accept(valid: string): boolean {
    const ch = this.peek();
    if (ch !== undefined && valid.includes(ch)) {
      this.pos += ch.length;
      return true;
    }
    return false;
  }

  private emit(kind: PromqlTokenKind): void {
    this.tokens.push({ kind, text: this.input.slice(this.start, this.pos), from: this.start });
    this.start = this.pos;
  }

  private fail(message: string, from = this.start): never {
    throw new ParseStop(from, message);
  }

  private isNameStart(ch: string | undefined): boolean {
    if (ch === undefined) return false;
    return isAlpha(ch) || (this.options.unquotedUtf8Names && ch.codePointAt(0)! >= 0x80 && isUnicodeLetter(ch));
  }

  private isNameContinue(ch: string | undefined): boolean {
    return this.isNameStart(ch) || isDigit(ch) || (this.options.unquotedUtf8Names && ch === '.');
  }

  private skipSpaces(): void {
    while (isSpace(this.peek())) this.next();
    this.start = this.pos;
  }

  // ---- states ----

  /** Outside braces; returns what to lex next. */
  private lexStatement(): 'statement' | 'duration' | 'eof' {
    if (this.input.startsWith('#', this.pos)) {
      this.lexLineComment();
      return 'statement';
    }
    const ch = this.next();
    if (ch === undefined) {
      if (this.parenDepth !== 0) this.fail('unclosed left parenthesis');
      if (this.bracketOpen) this.fail('unclosed left bracket');
      this.tokens.push({ kind: 'EOF', text: '', from: this.pos });
      return 'eof';
    }
    if (isSpace(ch)) {
      this.skipSpaces();
      return 'statement';
    }
    switch (ch) {
      case ',':
      case '*':
      case '/':
      case '%':
      case '+':
      case '-':
      case '^':
      case '@':
        this.emit(ch);
        return 'statement';
      case '=':
        if (this.peek() === '=') {
          this.next();
          this.emit('==');
        } else if (this.peek() === '~') {
          this.fail(`unexpected character after '=': '~'`);
        } else {
          this.emit('=');
        }
        return 'statement';
      case '!':
        if (this.next() !== '=') this.fail(`unexpected character after '!'`);
        this.emit('!=');
        return 'statement';
      case '<':
      case '>':
        if (this.peek() === '=') {
          this.next();
          this.emit(ch === '<' ? '<=' : '>=');
        } else if (this.peek() === '/') {
          this.next();
          this.emit(ch === '<' ? '</' : '>/');
        } else {
          this.emit(ch);
        }
        return 'statement';
      case '"':
      case "'":
        this.lexString(ch);
        return 'statement';
      case '`':
        this.lexRawString();
        return 'statement';
      case '(':
        this.emit('(');
        this.parenDepth++;
        return 'statement';
      case ')':
        this.parenDepth--;
        if (this.parenDepth < 0) this.fail('unexpected right parenthesis');
        this.emit(')');
        return 'statement';
      case '{':
        this.emit('{');
        this.braceOpen = true;
        return 'statement';
      case '[':
        if (this.bracketOpen) this.fail('unexpected left bracket');
        this.gotColon = false;
        if (this.options.colonAfterDurationKeyword) this.gotDuration = false;
        this.emit('[');
        this.skipSpaces();
        this.bracketOpen = true;
        return 'duration';
      case ']':
        if (!this.bracketOpen) this.fail('unexpected right bracket');
        this.emit(']');
        this.bracketOpen = false;
        return 'statement';
    }
    if (isDigit(ch) || (ch === '.' && isDigit(this.peek()))) {
      this.pos -= ch.length;
      this.lexNumberOrDuration();
      return 'statement';
    }
    if (this.isNameStart(ch) || ch === ':') {
      if (!this.bracketOpen) {
        this.pos -= ch.length;
        this.lexKeywordOrIdentifier();
        return 'statement';
      }
      // Inside brackets, after the first number: only the subquery colon and duration keywords.
      if (ch === ':') {
        if (this.gotColon) this.fail(`unexpected colon ':'`);
        this.emit(':');
        this.gotColon = true;
        return 'statement';
      }
      if (this.scanDurationKeyword()) return 'statement';
      this.fail(`unexpected character: '${ch}', expected ':'`);
    }
    this.fail(`unexpected character: '${ch}'`);
  }

  /** Directly after `[` or a duration keyword; returns whether to stay in this state. */
  private lexDurationExpression(): boolean {
    const ch = this.next();
    if (ch === undefined) this.fail('unexpected end of input in duration expression');
    switch (ch) {
      case ']':
        this.emit(']');
        this.bracketOpen = false;
        this.gotColon = false;
        return false;
      case ':':
        // Prometheus reports these instead of the colon token it was emitting.
        if (!this.gotDuration) this.fail('unexpected colon before duration in duration expression');
        if (this.gotColon) this.fail('unexpected repeated colon in duration expression');
        this.emit(':');
        this.gotColon = true;
        return true;
      case '(':
        this.emit('(');
        this.parenDepth++;
        return true;
      case ')':
        this.parenDepth--;
        if (this.parenDepth < 0) this.fail('unexpected right parenthesis');
        this.emit(')');
        return true;
      case '+':
      case '-':
      case '*':
      case '/':
      case '%':
      case '^':
      case ',':
        this.emit(ch);
        return true;
    }
    if (isSpace(ch)) {
      this.skipSpaces();
      return true;
    }
    if ('smr'.includes(ch.toLowerCase())) {
      if (this.scanDurationKeyword()) {
        if (this.options.colonAfterDurationKeyword) this.gotDuration = true;
        return true;
      }
      this.fail(`unexpected character in duration expression: '${ch}'`);
    }
    if (isDigit(ch) || (ch === '.' && isDigit(this.peek()))) {
      this.pos -= ch.length;
      this.gotDuration = true;
      this.lexNumberOrDuration();
      // Prometheus continues in its statement state after a number, even inside brackets.
      return false;
    }
    this.fail(`unexpected character in duration expression: '${ch}'`);
  }

  /** Inside `{...}`: label names, matchers, strings. */
  private lexInsideBraces(): void {
    if (this.input.startsWith('#', this.pos)) {
      this.lexLineComment();
      return;
    }
    const ch = this.next();
    if (ch === undefined) this.fail('unexpected end of input inside braces');
    if (isSpace(ch)) {
      this.skipSpaces();
      return;
    }
    if (this.isNameStart(ch)) {
      while (this.isNameContinue(this.peek())) this.next();
      this.emit('IDENTIFIER');
      return;
    }
    switch (ch) {
      case ',':
        this.emit(',');
        return;
      case '"':
      case "'":
        this.lexString(ch);
        return;
      case '`':
        this.lexRawString();
        return;
      case '=':
        if (this.peek() === '~') {
          this.next();
          this.emit('=~');
        } else {
          this.emit('=');
        }
        return;
      case '!': {
        const after = this.next();
        if (after === '~') this.emit('!~');
        else if (after === '=') this.emit('!=');
        else this.fail(`unexpected character after '!' inside braces: '${after ?? 'EOF'}'`);
        return;
      }
      case '{':
        this.fail(`unexpected left brace '{'`);
        break;
      case '}':
        this.emit('}');
        this.braceOpen = false;
        return;
    }
    this.fail(`unexpected character inside braces: '${ch}'`);
  }

  private lexLineComment(): void {
    while (this.pos < this.input.length && this.input[this.pos] !== '\n' && this.input[this.pos] !== '\r') this.pos++;
    // Comments are not tokens for the parser.
    this.start = this.pos;
  }

  private lexString(quote: string): void {
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
  private lexEscape(quote: string): void {
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

  private lexRawString(): void {
    for (;;) {
      const ch = this.next();
      if (isInvalidRune(ch)) this.fail('invalid UTF-8 rune');
      if (ch === undefined) this.fail('unterminated raw string');
      if (ch === '`') break;
    }
    this.emit('STRING');
  }

  private lexNumberOrDuration(): void {
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
  private acceptRemainingDuration(): boolean {
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
  private scanNumber(): boolean {
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

  private lexKeywordOrIdentifier(): void {
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

  private followedByLeftParen(): boolean {
    let at = this.pos;
    while (at < this.input.length && isSpace(this.input[at])) at++;
    return this.input[at] === '(';
  }

  /** `step`, `range`, `max_of`, `min_of` (any case) inside brackets; false for any other word. */
  private scanDurationKeyword(): boolean {
    while (isAlpha(this.peek())) this.next();
    const word = this.input.slice(this.start, this.pos).toLowerCase();
    if (!DURATION_KEYWORDS.has(word)) return false;
    this.emit(word as PromqlKeyword);
    return true;
  }
}
