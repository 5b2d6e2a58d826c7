/** The error every part of the parser throws with Go's error code; parseGoRegexp turns it into a value. */
import type { GoRegexpErrorCode } from './ast.ts';

/** Go's syntax.Error: its code, and the part of the pattern it quotes. */
export class GoRegexpError extends Error {
  readonly code: GoRegexpErrorCode;
  readonly expr: string;

  constructor(code: GoRegexpErrorCode, expr: string) {
    super(`${code}: ${expr}`);
    this.code = code;
    this.expr = expr;
  }
}
