/**
 * A long differential campaign of promop's Go regexp parser against Go's regexp (tools/go-check):
 *
 *   node packages/prometheus-lang/scripts/go-regexp-differential.ts --cases 100000 [--seed 1] [--hostile]
 *
 * Generates regexes (src/go-regexp/regex-arbitraries.ts; --hostile: only the forms at Go's limits), prints
 * the counts, promop's slowest pattern and every disagreement; exits 1 when there is one.
 */
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { compareWithGo } from '../src/go-regexp/go-regexp-differential.ts';
import { goRegexArbitrary, hostileRegexArbitrary } from '../src/go-regexp/regex-arbitraries.ts';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '10000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    hostile: { type: 'boolean', default: false },
    chunk: { type: 'string', default: '5000' },
  },
});
const total = Number(values.cases);
const seed = Number(values.seed);
const chunk = Number(values.chunk);
const patterns = fc.sample(values.hostile ? hostileRegexArbitrary() : goRegexArbitrary(), { seed, numRuns: total });
let failed = false;
for (let from = 0; from < total; from += chunk) {
  for (const reading of ['relabeling', 'matcher'] as const) {
    const result = compareWithGo(patterns.slice(from, from + chunk), reading);
    const { disagreements, ...counts } = result;
    console.log(JSON.stringify({ seed, from, reading, ...counts, slowestMs: Math.round(counts.slowestMs), disagreements: disagreements.length }));
    for (const disagreement of disagreements) console.log(JSON.stringify(disagreement));
    if (disagreements.length > 0) failed = true;
  }
}
process.exit(failed ? 1 : 0);
