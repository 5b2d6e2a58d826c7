/**
 * promop's Go regexp parser against Go's own regexp (tools/go-check, Go 1.26, compiling as Prometheus does). For
 * every generated regex the verdict — refused with which error code, or accepted and whether it matches the empty
 * string — must be Go's. A long campaign with other seeds and counts:
 * `node packages/config-generator/scripts/go-regexp-differential.ts --cases 100000`.
 */
import fc from 'fast-check';
import { compareWithGo } from './go-regexp-differential.ts';
import { goRegexArbitrary, hostileRegexArbitrary } from './regex-arbitraries.ts';

describe('regexes compared with Go\'s regexp as Prometheus compiles them', () => {
  it('gives Go\'s verdict on every one of 6000 generated regexes', () => {
    const result = compareWithGo(fc.sample(goRegexArbitrary(), { seed: 20261206, numRuns: 6000 }));
    expect(result.disagreements.slice(0, 20)).toEqual([]);
    // Both verdicts are common, so agreement means something either way; the Unicode name deviation stays rare.
    expect(result.accepted / result.cases).toBeGreaterThan(0.2);
    expect(result.accepted / result.cases).toBeLessThan(0.8);
    expect(result.skipped / result.cases).toBeLessThan(0.02);
  }, 180_000);

  it('gives Go\'s verdict on 600 regexes at Go\'s limits (nesting, counts, program size, factoring)', () => {
    const result = compareWithGo(fc.sample(hostileRegexArbitrary(), { seed: 7, numRuns: 600 }));
    expect(result.disagreements.slice(0, 20)).toEqual([]);
    expect(result.accepted / result.cases).toBeGreaterThan(0.2);
    expect(result.accepted / result.cases).toBeLessThan(0.8);
  }, 180_000);
});
