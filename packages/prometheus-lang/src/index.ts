/**
 * `@promop/prometheus-lang`: Prometheus' languages as the Prometheus that loads them reads them — PromQL, the Go
 * templates of alert labels and annotations, RE2 regexes (Go's regexp/syntax) and durations. Every check returns
 * why Prometheus would refuse the text, or undefined; nothing here runs a user's regex or template.
 */

// The checks.
export { checkExpression, type ExpressionProblem, type PromqlTarget } from './promql-check.ts';
export { checkTemplate, type AlertTemplateTarget, type TemplateProblem } from './alert-template.ts';
export { checkRegex } from './re2-regex.ts';
export { readPrometheusRegex, type PrometheusRegex, type RegexReading } from './go-regexp/index.ts';
export { parseDuration } from './duration.ts';
export { readPrometheusVersion, isAtLeast, type PrometheusVersion } from './prometheus-version.ts';

// How the messages write positions, counts and quoted text; shared so every promop message reads the same.
export { describePosition } from './promql-check.ts';
export { formatCount } from './format-count.ts';
export { MAX_SHOWN_CHARS, shortened, shortenedTo } from './shown-text.ts';

// For rewriting, not checking: what @promop/config-generator's enforcedNamespaceLabel needs to edit rule
// expressions and the queries of alert templates (README.md, "Exported for rewriting").
export { findPromqlSyntaxError, type PromqlSyntaxError } from './promql-syntax.ts';
export { unquotePromqlString } from './promql-string.ts';
export { lexTemplate, type Item as TemplateItem, type ItemType as TemplateItemType } from './go-template-lexer.ts';
export { unquoteGoString } from './go-template-literals.ts';
