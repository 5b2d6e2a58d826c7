/**
 * A long differential campaign of promop's rule checks against the real `promtool check rules`:
 *
 *   node packages/config-generator/scripts/rule-check-differential.ts --cases 100000 [--seed 1]
 *     [--features promql-experimental-functions,promql-binop-fill-modifiers]
 *     [--promtool /path/to/promtool --version v3.15.1]
 *
 * Generates expressions and alert templates (rule-check-arbitraries.ts), prints the counts, the
 * time promop's check takes per rule and every disagreement; exits 1 when there is one.
 */
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { parsePrometheusVersion } from '../src/prometheus-version.ts';
import { ruleCheckCaseArbitrary } from '@promop/prometheus-lang/test-support';
import { compareWithPromtool } from '../src/rules/rule-check-differential.ts';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '10000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    features: { type: 'string', default: '' },
    promtool: { type: 'string' },
    version: { type: 'string', default: 'v3.16.0' },
    chunk: { type: 'string', default: '5000' },
  },
});
const total = Number(values.cases);
const seed = Number(values.seed);
const chunk = Number(values.chunk);
const version = parsePrometheusVersion(values.version);
if (!version || !Number.isInteger(total) || !Number.isInteger(seed)) {
  console.error('usage: --cases N --seed S [--features a,b] [--promtool path --version vX.Y.Z]');
  process.exit(2);
}
const features = values.features.split(',').filter((feature) => feature !== '');
console.log(`rule-check differential: ${total} cases, seed ${seed}, Prometheus ${version.text}, features [${features.join(', ')}]`);

const started = Date.now();
let accepted = 0;
let templates = 0;
let promopMicros = 0;
let disagreements = 0;
// Chunks keep memory flat; each chunk has its own seed derived from the campaign's.
for (let done = 0, round = 0; done < total; done += chunk, round++) {
  const cases = fc.sample(ruleCheckCaseArbitrary(), { seed: seed + round, numRuns: Math.min(chunk, total - done) });
  const result = await compareWithPromtool(cases, { version, features, ...(values.promtool ? { promtool: values.promtool } : {}) });
  accepted += result.accepted;
  templates += cases.filter((ruleCase) => ruleCase.kind === 'template').length;
  promopMicros += result.promopMicros;
  disagreements += result.disagreements.length;
  for (const { ruleCase, promtool, promop } of result.disagreements) {
    console.log(`DISAGREE ${JSON.stringify(ruleCase)}\n  promtool: ${promtool}\n  promop:   ${promop}`);
  }
  console.log(`  ${done + cases.length}/${total} cases, ${disagreements} disagreements (${Math.round((Date.now() - started) / 1000)} s)`);
}
console.log(
  `done: ${total} cases (${total - templates} expressions, ${templates} templates), promtool accepted ${accepted}, ` +
    `${disagreements} disagreements, promop ${(promopMicros / total).toFixed(1)} µs per rule, ${Math.round((Date.now() - started) / 1000)} s in all`,
);
process.exit(disagreements > 0 ? 1 : 0);
