/**
 * promop's Go regexp parser against Prometheus' own regex readers (tools/go-check: relabel.NewRegexp, and
 * labels.NewFastRegexMatcher for PromQL matchers, built with Go 1.26). For every generated regex the verdict — refused with which error code, or accepted and whether it matches the empty
 * string — must be Go's. A long campaign with other seeds and counts:
 * `node packages/prometheus-lang/scripts/go-regexp-differential.ts --cases 100000`.
 */
import fc from 'fast-check';
import { compareWithGo } from './go-regexp-differential.ts';
import { goRegexArbitrary, hostileRegexArbitrary } from './regex-arbitraries.ts';

describe.each(['relabeling', 'matcher'] as const)('regexes compared with Prometheus\' own reader of a %s', (reading) => {
  it('gives Prometheus\' verdict on every one of 6000 generated regexes', () => {
    const result = compareWithGo(fc.sample(goRegexArbitrary(), { seed: 20261206, numRuns: 6000 }), reading);
    expect(result.disagreements.slice(0, 20)).toEqual([]);
    // Both verdicts are common, so agreement means something either way; the Unicode name deviation stays rare.
    expect(result.accepted / result.cases).toBeGreaterThan(0.2);
    expect(result.accepted / result.cases).toBeLessThan(0.8);
    // A matcher's class names are read exactly on both sides; only a relabeling's loose spellings are left out.
    if (reading === 'matcher') expect(result.skipped).toBe(0);
    expect(result.skipped / result.cases).toBeLessThan(0.02);
  }, 180_000);

  it('gives Prometheus\' verdict on 600 regexes at Go\'s limits (nesting, counts, program size, factoring)', () => {
    const result = compareWithGo(fc.sample(hostileRegexArbitrary(), { seed: 7, numRuns: 600 }), reading);
    expect(result.disagreements.slice(0, 20)).toEqual([]);
    expect(result.accepted / result.cases).toBeGreaterThan(0.2);
    expect(result.accepted / result.cases).toBeLessThan(0.8);
  }, 180_000);
});
