/**
 * The long fuzz campaign: `pnpm fuzz [--runs N] [--seed S] [--generator-share F] [--yaml-strings M]` (or
 * `node e2e/fuzz/campaign.ts ...`).
 *
 * M strings (default N) go to the YAML reader property: each is written by promop's YAML writer in every position and
 * read back with Go's yaml.v2 and yaml.v3 (tools/go-check).
 * N is the total number of cases: the share F (default 0.25) goes to the generator property (by far the costliest
 * case: it draws a Prometheus and up to 16 candidates, renders twice and parses configs), the rest is shared
 * by the validator properties (accept and reject, for every kind; cheap cases). Prints each property's figures
 * as it finishes, then the totals, the seed and the time; exits 1 when any property failed (its report has the seed
 * and path to replay it).
 */
import { KINDS } from './fuzz-properties.ts';
import { runFuzz } from './fuzz-run.ts';

function flag(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  if (index >= 0) return process.argv[index + 1];
  return process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
}

function numberFlag(name: string, fallback: number, valid: (value: number) => boolean, what: string): number {
  const text = flag(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!valid(value)) {
    console.error(`--${name} must be ${what}, not ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return value;
}

const isCount = (value: number): boolean => Number.isSafeInteger(value) && value >= 0;

const runs = numberFlag('runs', 10_000, isCount, 'a non-negative integer');
const seed = numberFlag('seed', Date.now() % 2 ** 31, isCount, 'a non-negative integer');
const generatorShare = numberFlag('generator-share', 0.25, (value) => value >= 0 && value <= 1, 'a number from 0 to 1');
const yamlStrings = numberFlag('yaml-strings', runs, isCount, 'a non-negative integer');
const validatorProperties = KINDS.length * 2;
const generatorRuns = Math.ceil(runs * generatorShare);
const validatorRuns = Math.max(1, Math.ceil((runs - generatorRuns) / validatorProperties));

console.log(`fuzz campaign: seed ${seed}, ${generatorRuns} generator cases, ${validatorRuns} cases per validator property, ${yamlStrings} YAML strings`);
const started = performance.now();
const results = runFuzz({
  seed,
  validatorRuns,
  generatorRuns,
  yamlStrings,
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
