/**
 * The long fuzz campaign: `pnpm fuzz [--runs N] [--seed S]` (or `node e2e/fuzz/campaign.ts ...`).
 *
 * N is the total number of cases: a quarter go to the generator property (about 60 ms a case: it draws a Prometheus
 * and up to 16 candidates, renders twice and parses configs), the rest are shared by the validator properties (accept
 * and reject, for every kind; about 2 ms a case). Prints each property's figures as it finishes, then the totals,
 * the seed and the time; exits 1 when any property failed (its report has the seed and path to replay it).
 */
import { KINDS } from './fuzz-properties.ts';
import { runFuzz } from './fuzz-run.ts';

function flag(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  if (index >= 0) return process.argv[index + 1];
  return process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
}

function positiveInteger(name: string, fallback: number): number {
  const text = flag(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) {
    console.error(`--${name} must be a non-negative integer, not ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return value;
}

const runs = positiveInteger('runs', 10_000);
const seed = positiveInteger('seed', Date.now() % 2 ** 31);
const validatorProperties = KINDS.length * 2;
const generatorRuns = Math.ceil(runs / 4);
const validatorRuns = Math.max(1, Math.ceil((runs - generatorRuns) / validatorProperties));

console.log(`fuzz campaign: seed ${seed}, ${generatorRuns} generator cases, ${validatorRuns} cases per validator property`);
const started = performance.now();
const results = runFuzz({
  seed,
  validatorRuns,
  generatorRuns,
  onProperty: (figures) => {
    const counts = Object.entries(figures.counts).map(([key, value]) => `${key}: ${value}`).join(', ');
    console.log(`${figures.failure ? 'FAIL' : 'ok  '} ${figures.property}: ${figures.cases} cases in ${(figures.milliseconds / 1000).toFixed(1)} s${counts ? ` (${counts})` : ''}`);
    if (figures.failure) console.log(figures.failure);
  },
});
const cases = results.reduce((sum, figures) => sum + figures.cases, 0);
const failures = results.filter((figures) => figures.failure !== '').length;
const seconds = (performance.now() - started) / 1000;
console.log(`fuzz campaign: ${cases} cases, ${failures} failed properties, seed ${seed}, ${seconds.toFixed(1)} s`);
process.exit(failures > 0 ? 1 : 0);
