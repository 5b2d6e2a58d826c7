/**
 * The fuzz suite in CI: every property of fuzz-properties.ts with a fixed seed and a modest number of cases, so it
 * stays short. `pnpm fuzz --runs N --seed S` runs the same properties for as long as you like.
 */
import { KINDS } from './fuzz-properties.ts';
import { fuzzGenerator, fuzzValidators, type PropertyFigures } from './fuzz-run.ts';

const SEED = 20261201;
const VALIDATOR_RUNS = 60;
const GENERATOR_RUNS = 60;

/** Fails with fast-check's report (seed, path, shrunk counterexample, the broken property) when one failed. */
function expectHeld(figures: PropertyFigures): void {
  expect(figures.failure).toBe('');
}

describe.each(KINDS)('the %s validator, given objects derived from its schema', (kind) => {
  let accepts: PropertyFigures;
  let rejects: PropertyFigures;
  beforeAll(() => {
    [accepts, rejects] = fuzzValidators(kind, VALIDATOR_RUNS, SEED) as [PropertyFigures, PropertyFigures];
  }, 60_000);

  it('accepts every valid one', () => {
    expectHeld(accepts);
    expect(accepts.cases).toBe(VALIDATOR_RUNS);
  });

  it('rejects every one broken by a mutation (wrong type, out of range, bad pattern, unknown or missing field...) at the mutated path, with a sentence', () => {
    expectHeld(rejects);
    expect(rejects.counts['wrong type']).toBeGreaterThan(10);
    expect(rejects.counts['unknown field']).toBeGreaterThan(5);
  });
});

describe('the generator, given a Prometheus and monitors and rules from the schemas, hand-written ones and hostile mutations', () => {
  let figures: PropertyFigures;
  beforeAll(() => {
    figures = fuzzGenerator(GENERATOR_RUNS, SEED);
  }, 120_000);

  it('never throws, locates every rejection with a reason, keeps Secret values out of verdicts and problems, and renders the same bytes in any input order', () => {
    expectHeld(figures);
  });

  it('exercised both outcomes and inlined planted Secret values where the config carries credentials (so the leak check has something to find)', () => {
    expect(figures.counts['candidates accepted']).toBeGreaterThan(30);
    expect(figures.counts['candidates rejected']).toBeGreaterThan(30);
    expect(figures.counts['Prometheus refused']).toBeGreaterThan(2);
    expect(figures.counts['configs with an inlined Secret value']).toBeGreaterThan(2);
  });
});
