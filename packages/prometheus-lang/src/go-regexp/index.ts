/**
 * Go's regexp/syntax in TypeScript: the one place promop decides whether Prometheus accepts a regex and whether it
 * matches the empty string. No user regex ever runs on JavaScript's backtracking engine.
 */
export { Flag, Op, PERL_FLAGS, type GoRegexp, type GoRegexpErrorCode, type GoRegexpParse } from './ast.ts';
export { parseGoRegexp } from './parse.ts';
export { matchesEmpty } from './matches-empty.ts';
export { readPrometheusRegex, type PrometheusRegex } from './prometheus-regex.ts';
export { type RegexReading } from './unicode-classes.ts';
