/**
 * PromQL's tokens, exactly as Prometheus' lexer (promql/parser/lex.go, v3.16) cuts them. The
 * grammar of @prometheus-io/lezer-promql is written for an editor and differs from Prometheus in
 * places that decide whether a rule loads (it reads `a + b offset 5m` as `(a + b) offset 5m`, which
 * Prometheus refuses, when Prometheus reads `a + (b offset 5m)`), so the rule checker has its own
 * lexer and parser that follow Prometheus' state machine: keywords only outside braces and
 * brackets, the duration sub-language inside `[...]`, numbers and durations with Go's rules.
 */

import { ParseStop } from './parse-stop.ts';
import { PromqlLexemes } from './promql-lexemes.ts';
import { isDigit, isSpace } from './promql-lex-cursor.ts';
import type { PromqlLexError, PromqlLexOptions, PromqlToken } from './promql-tokens.ts';

export {
  PROMQL_KEYWORDS, type PromqlKeyword, type PromqlLexError, type PromqlLexOptions, type PromqlToken, type PromqlTokenKind,
} from './promql-tokens.ts';

/**
 * All tokens of `input` up to the first lexical error. Prometheus' lexer runs ahead of its parser
 * and does not depend on it, so a lexical error anywhere makes the expression invalid whatever the
 * parser would say about the tokens before it.
 */
export function lexPromql(input: string, options: PromqlLexOptions): { tokens: PromqlToken[]; error?: PromqlLexError } {
  return new PromqlLexer(input, options).run();
}

/**
 * Prometheus' lexer states: which lexeme comes next, decided by context (outside braces, inside braces, inside a
 * duration's brackets) and by what came before (open parentheses, a subquery colon, a duration already seen).
 */
class PromqlLexer extends PromqlLexemes {
  private parenDepth = 0;
  private braceOpen = false;
  private bracketOpen = false;
  private gotColon = false;
  private gotDuration = false;

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
}
