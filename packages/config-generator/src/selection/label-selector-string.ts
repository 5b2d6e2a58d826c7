/**
 * Label selectors in Kubernetes' text form (`app in (web,api),tier!=cache,!canary`), read exactly as
 * k8s.io/apimachinery's `labels.Parse` reads them. Prometheus runs that parser on every `selectors[].label`
 * of a Kubernetes discovery when it loads its configuration, and refuses the whole file for one bad string;
 * promop runs this one first, so only the object that wrote the string is rejected.
 *
 * The grammar, as apimachinery implements it (not only as its comment describes it):
 * - requirements are separated by `,`; an empty string (or only blanks) selects everything, but a leading or
 *   trailing `,` is an error;
 * - a requirement is `key` (exists), `!key` (does not exist), `key = value`, `key == value`, `key != value`,
 *   `key in (v1, v2)`, `key notin (v1, v2)`, or `key > n` / `key < n` with a decimal 64-bit integer;
 * - the lexer works on bytes: blanks are space, tab, CR and LF; `= ! ( ) , > <` end an identifier; a NUL byte
 *   ends the input when it starts a token; `in`/`notin` are keywords only where an operator is expected;
 * - an exact value may be empty (`key=`), a value list may hold empty values (`key in (,a)`), `key in ()` is one
 *   empty value;
 * - keys must be label keys and values label values (see label-selector.ts), checked after parsing.
 */
import { isLabelValue, isQualifiedName } from './label-selector.ts';

/** The operators of a parsed requirement (apimachinery's selection.Operator names). */
export type LabelRequirementOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

/** One requirement of a parsed selector; `values` sorted and without duplicates, as apimachinery keeps them. */
export interface LabelRequirement {
  key: string;
  operator: LabelRequirementOperator;
  values: string[];
}

/** The outcome of parsing: the requirements (sorted by key), or why the text is not a label selector. */
export type LabelSelectorParse = { ok: true; requirements: LabelRequirement[] } | { ok: false; reason: string };

type TokenKind = 'error' | 'end' | ')' | ',' | '!' | '==' | '=' | '>' | 'identifier' | 'in' | '<' | '!=' | 'notin' | '(';

interface Token {
  kind: TokenKind;
  /** The token's text (an identifier's bytes decoded; empty for the end). */
  text: string;
}

/** The literal tokens: every special character alone is one, plus `==` and `!=`; `in` and `notin` are words. */
const LITERALS: ReadonlyMap<string, TokenKind> = new Map<string, TokenKind>([
  [')', ')'], [',', ','], ['!', '!'], ['==', '=='], ['=', '='], ['>', '>'], ['in', 'in'], ['<', '<'], ['!=', '!='], ['notin', 'notin'], ['(', '('],
]);

const BLANKS = new Set([0x20, 0x09, 0x0d, 0x0a]);
const SPECIALS = new Set(['=', '!', '(', ')', ',', '>', '<'].map((c) => c.charCodeAt(0)));
const decoder = new TextDecoder();

/** apimachinery's lexer, byte for byte: `read` gives 0 at the end, as Go's does. */
class Lexer {
  #pos = 0;
  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  #read(): number {
    if (this.#pos < this.bytes.length) return this.bytes[this.#pos++]!;
    return 0;
  }

  #unread(): void {
    this.#pos--;
  }

  next(): Token {
    let ch = this.#read();
    while (BLANKS.has(ch)) ch = this.#read();
    if (ch === 0) return { kind: 'end', text: '' };
    this.#unread();
    return SPECIALS.has(ch) ? this.#special() : this.#word();
  }

  #word(): Token {
    const start = this.#pos;
    let end = start;
    for (;;) {
      const ch = this.#read();
      if (ch === 0) break;
      if (SPECIALS.has(ch) || BLANKS.has(ch)) {
        this.#unread();
        break;
      }
      end = this.#pos;
    }
    const text = decoder.decode(this.bytes.subarray(start, end));
    return { kind: LITERALS.get(text) === 'in' || LITERALS.get(text) === 'notin' ? (text as TokenKind) : 'identifier', text };
  }

  /** The longest run of special characters that is still a literal token (`!=`, `==`, else one character). */
  #special(): Token {
    let buffer = '';
    let last: Token | undefined;
    for (;;) {
      const ch = this.#read();
      if (ch === 0) break;
      if (!SPECIALS.has(ch)) {
        this.#unread();
        break;
      }
      buffer += String.fromCharCode(ch);
      const kind = LITERALS.get(buffer);
      if (kind) last = { kind, text: buffer };
      else if (last) {
        this.#unread();
        break;
      }
    }
    return last ?? { kind: 'error', text: buffer };
  }
}

/** Where a token is read: `in`/`notin` are identifiers everywhere but where an operator is expected. */
type Context = 'operator' | 'values';

class Parser {
  readonly #tokens: Token[] = [];
  #position = 0;

  constructor(text: string) {
    const lexer = new Lexer(new TextEncoder().encode(text));
    for (;;) {
      const token = lexer.next();
      this.#tokens.push(token);
      if (token.kind === 'end') break;
    }
  }

  #at(index: number, context: Context): Token {
    const token = this.#tokens[Math.min(index, this.#tokens.length - 1)]!;
    if (context === 'values' && (token.kind === 'in' || token.kind === 'notin')) return { kind: 'identifier', text: token.text };
    return token;
  }

  #lookahead(context: Context): Token {
    return this.#at(this.#position, context);
  }

  #consume(context: Context): Token {
    return this.#at(this.#position++, context);
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const token = this.#lookahead('values');
      if (token.kind === 'end') return requirements;
      if (token.kind !== 'identifier' && token.kind !== '!') throw new SyntaxError(`found ${quote(token)}, expected "!", a label key or the end`);
      requirements.push(this.#requirement());
      const after = this.#consume('values');
      if (after.kind === 'end') return requirements;
      if (after.kind !== ',') throw new SyntaxError(`found ${quote(after)}, expected "," or the end`);
      const next = this.#lookahead('values');
      if (next.kind !== 'identifier' && next.kind !== '!') throw new SyntaxError(`found ${quote(next)} after ",", expected a label key or "!"`);
    }
  }

  #requirement(): LabelRequirement {
    let negated = false;
    let token = this.#consume('values');
    if (token.kind === '!') {
      negated = true;
      token = this.#consume('values');
    }
    if (token.kind !== 'identifier') throw new SyntaxError(`found ${quote(token)}, expected a label key`);
    const key = token.text;
    checkKey(key);
    const next = this.#lookahead('values').kind;
    // `!key` takes no operator, whatever follows (what follows then has to be "," or the end).
    if (negated) return requirement(key, '!', []);
    if (next === 'end' || next === ',') return requirement(key, 'exists', []);
    const operatorToken = this.#consume('operator');
    switch (operatorToken.kind) {
      case 'in':
      case 'notin':
        return requirement(key, operatorToken.kind, this.#valueList());
      case '=':
      case '==':
      case '!=':
        return requirement(key, operatorToken.kind, this.#exactValue());
      case '>':
      case '<':
        return requirement(key, operatorToken.kind === '>' ? 'gt' : 'lt', this.#exactValue());
      default:
        throw new SyntaxError(`found ${quote(operatorToken)} after label key "${key}", expected one of =, ==, !=, in, notin, >, <`);
    }
  }

  #valueList(): string[] {
    const open = this.#consume('values');
    if (open.kind !== '(') throw new SyntaxError(`found ${quote(open)}, expected "(" to open the value list`);
    const first = this.#lookahead('values');
    if (first.kind === ')') {
      this.#consume('values');
      return [''];
    }
    if (first.kind !== 'identifier' && first.kind !== ',') throw new SyntaxError(`found ${quote(first)} in the value list, expected a value, "," or ")"`);
    const values = new Set<string>();
    for (;;) {
      const token = this.#consume('values');
      if (token.kind === 'identifier') {
        values.add(token.text);
        const after = this.#lookahead('values');
        if (after.kind === ',') continue;
        if (after.kind === ')') break;
        throw new SyntaxError(`found ${quote(after)} in the value list, expected "," or ")"`);
      }
      if (token.kind !== ',') throw new SyntaxError(`found ${quote(token)} in the value list, expected a value or ","`);
      // A "," with nothing before or after it stands for an empty value.
      if (values.size === 0) values.add('');
      const after = this.#lookahead('values').kind;
      if (after === ')') {
        values.add('');
        break;
      }
      if (after === ',') values.add('');
    }
    this.#consume('values');
    return [...values];
  }

  #exactValue(): string[] {
    const next = this.#lookahead('values');
    if (next.kind === 'end' || next.kind === ',') return [''];
    const token = this.#consume('values');
    if (token.kind !== 'identifier') throw new SyntaxError(`found ${quote(token)}, expected a value`);
    return [token.text];
  }
}

function quote(token: Token): string {
  return token.kind === 'end' ? 'the end' : `"${token.text}"`;
}

function checkKey(key: string): void {
  if (!isQualifiedName(key)) {
    throw new SyntaxError(`"${key}" is not a valid label key (an optional DNS subdomain and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit)`);
  }
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** Go's strconv.ParseInt(value, 10, 64) succeeds. */
function isInt64(value: string): boolean {
  if (!/^[+-]?[0-9]+$/.test(value)) return false;
  const n = BigInt(value);
  return n >= INT64_MIN && n <= INT64_MAX;
}

/** apimachinery's NewRequirement: the value count the operator needs, integers for > and <, label values. */
function requirement(key: string, operator: LabelRequirementOperator, parsed: string[]): LabelRequirement {
  checkKey(key);
  const values = [...new Set(parsed)].sort();
  if ((operator === 'gt' || operator === 'lt') && !values.every(isInt64)) {
    throw new SyntaxError(`"${values[0] ?? ''}" is not a 64-bit integer, which the ${operator === 'gt' ? '">"' : '"<"'} operator of label key "${key}" compares with`);
  }
  for (const value of values) {
    if (!isLabelValue(value)) {
      throw new SyntaxError(`"${value}" is not a valid value for label key "${key}" (empty, or at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit)`);
    }
  }
  return { key, operator, values };
}

/**
 * Parses `text` as apimachinery's `labels.Parse` does: the requirements sorted by key, or the first reason
 * it refuses the text. Never throws.
 */
export function parseLabelSelectorString(text: string): LabelSelectorParse {
  try {
    const requirements = new Parser(text).parse();
    // A stable sort by key, as apimachinery's sort.Sort(ByKey) gives for distinct keys.
    return { ok: true, requirements: requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) };
  } catch (error) {
    if (error instanceof SyntaxError) return { ok: false, reason: error.message };
    throw error;
  }
}
