/**
 * What the rule checker's lexers and parsers throw to abandon their input at the first error, and
 * catch before returning the error as a value. Not an Error: bad input is not a bug, and capturing
 * a stack trace would cost more than the whole parse of a rule.
 */
export class ParseStop {
  /** Where the problem is in the input. */
  readonly at: number;
  readonly message: string;

  constructor(at: number, message: string) {
    this.at = at;
    this.message = message;
  }
}
