/**
 * Runs the fuzz properties for a number of cases from one seed, with figures: used by the CI test (fuzz.test.ts)
 * and by the long campaign (campaign.ts, `pnpm fuzz`). Every property runs through fast-check, so a failure is
 * shrunk to a small counterexample and can be replayed from the seed and path it prints.
 */
import fc from 'fast-check';
import { checkYamlRoundTrip } from '@promop/config-generator/test-support';
import { checkGenerator, checkSchemaBreakRejected, checkValidAccepted, generatorCase, KINDS, schemaBreakingCase, validObject, SECRET_MARKER } from './fuzz-properties.ts';

/** What one property saw. */
export interface PropertyFigures {
  property: string;
  cases: number;
  /** Empty when the property held; else fast-check's report (seed, path, shrunk counterexample, error). */
  failure: string;
  milliseconds: number;
  /** Property-specific counts (accepted, rejected, configs holding a Secret value...). */
  counts: Record<string, number>;
}

/** Options of one run. */
export interface FuzzRunOptions {
  seed: number;
  /** Cases per validator property (two per kind) and for the generator property. */
  validatorRuns: number;
  generatorRuns: number;
  /** Strings for the YAML reader property (yaml-round-trip.ts): each written in every position, read back by Go. */
  yamlStrings?: number;
  /** Called after each property, e.g. to print progress. */
  onProperty?: (figures: PropertyFigures) => void;
}

/** Shortens the very long strings the fuzzer draws (a million `x`) in a report. */
function shortened(text: string): string {
  return text.replace(/(.)\1{40,}/g, (run, char: string) => `${char.repeat(10)}…(${run.length} × ${JSON.stringify(char)})`).slice(0, 8000);
}

function run<T>(property: string, arbitrary: fc.Arbitrary<T>, check: (value: T, counts: Record<string, number>) => void, runs: number, seed: number): PropertyFigures {
  const counts: Record<string, number> = {};
  const started = performance.now();
  const details = fc.check(
    fc.property(arbitrary, (value) => check(value, counts)),
    { numRuns: runs, seed, endOnFailure: false },
  );
  // The broken property's message first: the counterexample after it can be long (lists of 500 items).
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  const failure = details.failed ? shortened(`${error}\n${fc.defaultReportMessage(details) ?? ''}`) : '';
  return { property, cases: details.numRuns, failure, milliseconds: Math.round(performance.now() - started), counts };
}

const count = (counts: Record<string, number>, key: string, by = 1): void => {
  counts[key] = (counts[key] ?? 0) + by;
};

/** The two validator properties of `kind`: schema-derived objects accepted, schema-breaking mutations rejected. */
export function fuzzValidators(kind: string, runs: number, seed: number): PropertyFigures[] {
  return [
    run(`validate${kind} accepts schema-derived objects`, validObject(kind), (object) => checkValidAccepted(kind, object), runs, seed),
    run(
      `validate${kind} rejects schema-breaking mutations at their path`,
      schemaBreakingCase(kind),
      (mutated, counts) => {
        if (!mutated) return count(counts, 'no applicable mutation');
        count(counts, mutated.mutation.kind);
        checkSchemaBreakRejected(kind, mutated);
      },
      runs,
      seed,
    ),
  ];
}

/** The generator property (see checkGenerator), with counts of what the cases exercised. */
export function fuzzGenerator(runs: number, seed: number): PropertyFigures {
  return run(
    'generate: no exception, located reasons, no Secret value outside the config, deterministic',
    generatorCase(),
    (fuzzCase, counts) => {
      const output = checkGenerator(fuzzCase);
      count(counts, output.ok ? 'Prometheus rendered' : 'Prometheus refused');
      count(counts, 'objects refused by the validator', fuzzCase.refused);
      for (const verdict of output.verdicts) {
        if (verdict.resource.kind === 'Prometheus') continue;
        count(counts, !verdict.selected ? 'candidates not selected' : verdict.accepted ? 'candidates accepted' : 'candidates rejected');
      }
      if (output.configs.some((config) => config.includes(SECRET_MARKER))) count(counts, 'configs with an inlined Secret value');
    },
    runs,
    seed,
  );
}

/** The YAML reader property over about `strings` strings, in batches of 500 (one Go reader process per batch). */
export function fuzzYamlReaders(strings: number, seed: number): PropertyFigures {
  const started = performance.now();
  const batchSize = 500;
  const { failure, strings: checked } = checkYamlRoundTrip({ batches: Math.max(1, Math.ceil(strings / batchSize)), batchSize, seed });
  return {
    property: 'YAML writer: every string reads back exactly with Go\'s yaml.v2 and yaml.v3, in every position',
    cases: checked,
    failure,
    milliseconds: Math.round(performance.now() - started),
    counts: {},
  };
}

/** Runs every property; the result lists each one's figures (a failure does not stop the others). */
export function runFuzz(options: FuzzRunOptions): PropertyFigures[] {
  const results: PropertyFigures[] = [];
  const record = (figures: PropertyFigures): void => {
    results.push(figures);
    options.onProperty?.(figures);
  };
  for (const kind of KINDS) fuzzValidators(kind, options.validatorRuns, options.seed).forEach(record);
  record(fuzzGenerator(options.generatorRuns, options.seed));
  if (options.yamlStrings) record(fuzzYamlReaders(options.yamlStrings, options.seed));
  return results;
}
