/**
 * promop's rule checks against the real `promtool check rules` (Prometheus 3.16): thousands of
 * generated expressions and alert templates, well-formed and broken, each judged by both; every
 * verdict must agree. A long campaign with other seeds and counts:
 * `node packages/config-generator/scripts/rule-check-differential.ts --cases 100000`.
 */
import fc from 'fast-check';
import { parsePrometheusVersion } from '../prometheus-version.ts';
import { ruleCheckCaseArbitrary } from '@promop/prometheus-lang/test-support';
import { compareWithPromtool } from './rule-check-differential.ts';

const V3_16 = parsePrometheusVersion('v3.16.0')!;
const SEED = 20261201;
const CASES = 4000;

describe('rule checks compared with promtool check rules', () => {
  it.each([
    ['without feature flags', []],
    ['with experimental functions and fill modifiers', ['promql-experimental-functions', 'promql-binop-fill-modifiers']],
  ])('%s: promop and promtool give the same verdict on every generated rule', async (_, features) => {
    const cases = fc.sample(ruleCheckCaseArbitrary(), { seed: SEED, numRuns: CASES });
    const result = await compareWithPromtool(cases, { version: V3_16, features });
    expect(result.disagreements).toEqual([]);
    // Both verdicts are common, so agreement means something either way.
    expect(result.accepted / result.cases).toBeGreaterThan(0.25);
    expect(result.accepted / result.cases).toBeLessThan(0.75);
  }, 180_000);
});
