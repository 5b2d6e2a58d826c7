/**
 * What PromQL's lexer produces, as Prometheus' lexer (promql/parser/lex.go) names it: the token kinds, the keywords,
 * a token and a lexical error, and the feature switches that change how text is cut.
 */

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
export const KEYWORDS: ReadonlySet<string> = new Set(PROMQL_KEYWORDS);

/** Keywords that inside `[...]` (durations) are still keywords; every other word is an error there. */
export const DURATION_KEYWORDS: ReadonlySet<string> = new Set(['step', 'range', 'max_of', 'min_of']);

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
