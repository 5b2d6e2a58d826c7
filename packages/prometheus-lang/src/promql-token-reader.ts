/**
 * Reading PromQL's tokens for the parser, as Prometheus' parser reads its lexer's: one token of look-ahead (two where
 * the grammar needs it), problems recorded with their span, a syntax error that abandons the parse, and the literals
 * whose reading depends on the Prometheus release (numbers, durations, quoted names).
 */
import type { NumberLiteral, PromqlProblem, Span } from './promql-ast.ts';
import type { PromqlDialect } from './promql-dialect.ts';
import type { PromqlToken, PromqlTokenKind } from './promql-lexer.ts';
import { parseGoNumberLiteral } from './go-number.ts';
import { parseDuration } from './duration.ts';

/**
 * Thrown to abandon the parse at a syntax error and caught in parsePromql. Not an Error: a stack
 * trace would cost more than the whole parse, and bad input is a value, not a bug.
 */
export class SyntaxStop {
  readonly problem: PromqlProblem;
  /** Reached the end of the tokens a lexical error cut short: the lexer's message is the one to show. */
  readonly atLexError: boolean;

  constructor(problem: PromqlProblem, atLexError: boolean) {
    this.problem = problem;
    this.atLexError = atLexError;
  }
}

/** The tokens of one expression and the problems found in them so far. */
export class PromqlTokenReader {
  readonly problems: PromqlProblem[] = [];
  protected index = 0;
  protected readonly input: string;
  protected readonly tokens: PromqlToken[];
  protected readonly dialect: PromqlDialect;
  protected readonly lexErrorAt: number | undefined;

  constructor(input: string, tokens: PromqlToken[], dialect: PromqlDialect, lexErrorAt: number | undefined) {
    this.input = input;
    this.tokens = tokens;
    this.dialect = dialect;
    this.lexErrorAt = lexErrorAt;
  }

  // ---- tokens ----

  /** The next token; past the tokens of a lexical error, a marker that stops the parse there. */
  protected peek(ahead = 0): PromqlToken {
    const token = this.tokens[this.index + ahead];
    if (token) return token;
    return { kind: 'EOF', text: '', from: this.lexErrorAt ?? this.input.length };
  }

  protected advance(): PromqlToken {
    const token = this.peek();
    if (this.index < this.tokens.length) this.index++;
    return token;
  }

  protected expect(kind: PromqlTokenKind, context: string): PromqlToken {
    if (this.peek().kind !== kind) this.unexpected(context);
    return this.advance();
  }

  protected endOf(token: PromqlToken): number {
    return token.from + token.text.length;
  }

  protected previousEnd(): number {
    const previous = this.tokens[this.index - 1];
    return previous ? this.endOf(previous) : 0;
  }

  protected problem(span: Span, message: string): void {
    this.problems.push({ from: span.from, to: span.to, message });
  }

  protected syntaxError(message: string, token = this.peek()): never {
    const atLexError = this.index >= this.tokens.length && this.lexErrorAt !== undefined;
    throw new SyntaxStop({ from: token.from, to: this.endOf(token), message }, atLexError);
  }

  protected unexpected(context?: string): never {
    const token = this.peek();
    this.syntaxError(`unexpected ${describeToken(token)}${context ? ` in ${context}` : ''}`, token);
  }

  /** A NUMBER or DURATION token's value in seconds, reporting what Go cannot parse. */
  protected numberLiteral(token: PromqlToken, position: 'expression' | 'duration'): NumberLiteral {
    const span = { from: token.from, to: this.endOf(token) };
    let value: number;
    if (token.kind === 'DURATION') {
      if (position === 'expression' && !this.dialect.numberDurations) {
        this.syntaxError(`a duration as a number needs Prometheus v2.54.0 or later (this Prometheus is ${this.dialect.versionText})`, token);
      }
      const milliseconds = parseDuration(token.text);
      if (milliseconds === undefined) this.problem(span, `"${token.text}" is not a valid duration (examples: 30s, 5m, 1h30m)`);
      value = (milliseconds ?? 0) / 1000;
    } else {
      if (token.text.includes('_') && !this.dialect.numberDurations) {
        this.syntaxError(`"_" in numbers needs Prometheus v2.54.0 or later (this Prometheus is ${this.dialect.versionText})`, token);
      }
      const parsed = parseGoNumberLiteral(token.text);
      if (parsed === undefined) this.problem(span, `"${token.text}" is not a number Prometheus can read`);
      value = parsed ?? 0;
    }
    return { kind: 'number', value, ...span };
  }

  protected requireQuotedNames(token: PromqlToken): void {
    if (!this.dialect.quotedNames) {
      this.syntaxError(`quoted metric and label names need Prometheus v3.0.0 or later (this Prometheus is ${this.dialect.versionText})`, token);
    }
  }
}

/** How a token reads in a message: `"foo"`, `number "5"`, `end of expression`. */
function describeToken(token: PromqlToken): string {
  switch (token.kind) {
    case 'EOF':
      return 'end of expression';
    case 'IDENTIFIER':
    case 'METRIC_IDENTIFIER':
      return `identifier "${token.text}"`;
    case 'NUMBER':
      return `number "${token.text}"`;
    case 'DURATION':
      return `duration "${token.text}"`;
    case 'STRING':
      return `string ${token.text.length > 20 ? `${token.text.slice(0, 20)}…` : token.text}`;
    default:
      return `"${token.text}"`;
  }
}
