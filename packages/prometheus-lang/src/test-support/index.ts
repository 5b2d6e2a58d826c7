/**
 * `@promop/prometheus-lang/test-support`: the generators of PromQL, alert templates and regexes that the package's
 * differential tests use, for the generator's rule-check differential, the end-to-end fuzzing (`@promop/e2e`) and
 * the benchmarks. Never shipped in promop's image, and never imported by the package itself.
 */
export { ruleCheckCaseArbitrary, type RuleCheckCase } from '../rule-check-arbitraries.ts';
export { hostileRegexes, type HostileRegex } from '../go-regexp/hostile-regexes.ts';
