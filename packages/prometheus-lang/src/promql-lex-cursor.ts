/**
 * Reading PromQL text by code point, as Go reads runes, and cutting it into tokens: the position, the start of the
 * token being read, and the character classes of Prometheus' lexer. The lexer's lexemes and states build on it.
 */
import { ParseStop } from './parse-stop.ts';
import type { PromqlLexOptions, PromqlToken, PromqlTokenKind } from './promql-tokens.ts';

export const isSpace = (ch: string | undefined): boolean => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
export const isDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= '0' && ch <= '9';
export const isAlpha = (ch: string | undefined): boolean => ch !== undefined && (ch === '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'));
export const isAlphaNumeric = (ch: string | undefined): boolean => isAlpha(ch) || isDigit(ch);
export const isUnicodeLetter = (ch: string): boolean => /^\p{L}$/u.test(ch);

/** The input being cut into tokens, and the tokens so far. */
export class PromqlLexCursor {
  protected pos = 0;
  protected start = 0;
  protected readonly tokens: PromqlToken[] = [];
  protected readonly input: string;
  protected readonly options: PromqlLexOptions;

  constructor(input: string, options: PromqlLexOptions) {
    this.input = input;
    this.options = options;
  }

  protected peek(): string | undefined {
    return this.codePointAt(this.pos);
  }

  /** The character (code point) at `at`; ASCII without allocating, as most PromQL is. */
  protected codePointAt(at: number): string | undefined {
    if (at >= this.input.length) return undefined;
    const unit = this.input.charCodeAt(at);
    if (unit < 0xd800 || unit > 0xdfff) return this.input[at];
    return String.fromCodePoint(this.input.codePointAt(at)!);
  }

  protected next(): string | undefined {
    const ch = this.peek();
    if (ch !== undefined) this.pos += ch.length;
    return ch;
  }

  protected accept(valid: string): boolean {
    const ch = this.peek();
    if (ch !== undefined && valid.includes(ch)) {
      this.pos += ch.length;
      return true;
    }
    return false;
  }

  protected emit(kind: PromqlTokenKind): void {
    this.tokens.push({ kind, text: this.input.slice(this.start, this.pos), from: this.start });
    this.start = this.pos;
  }

  protected fail(message: string, from = this.start): never {
    throw new ParseStop(from, message);
  }

  protected isNameStart(ch: string | undefined): boolean {
    if (ch === undefined) return false;
    return isAlpha(ch) || (this.options.unquotedUtf8Names && ch.codePointAt(0)! >= 0x80 && isUnicodeLetter(ch));
  }

  protected isNameContinue(ch: string | undefined): boolean {
    return this.isNameStart(ch) || isDigit(ch) || (this.options.unquotedUtf8Names && ch === '.');
  }

  /** A `#` comment, up to the end of its line: no token for the parser. */
  protected lexLineComment(): void {
    while (this.pos < this.input.length && this.input[this.pos] !== '\n' && this.input[this.pos] !== '\r') this.pos++;
    this.start = this.pos;
  }

  protected skipSpaces(): void {
    while (isSpace(this.peek())) this.next();
    this.start = this.pos;
  }
}
