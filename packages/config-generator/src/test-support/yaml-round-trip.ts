/**
 * The reader property of promop's YAML writer: any string a team can write, in any position of a generated file
 * (mapping value, mapping key of any length, sequence item, nested under sequences and mappings, inside a scrape
 * job cut into segments), is read back by Go's YAML libraries — the ones Prometheus reads its files with — as
 * exactly the value promop meant. "Meant" is the string as a Kubernetes object can hold it: an unpaired UTF-16
 * surrogate is stored by the API server as U+FFFD.
 *
 * Each fast-check case is a batch of strings checked with one go-check process per library, so a run of 100,000
 * strings costs a few hundred spawns; a failing batch shrinks to the one string that breaks.
 */
import fc from 'fast-check';
import { jobSegments, toPrometheusYaml } from '../index.ts';
import { readYamlWithGoSync, type GoYamlLibrary } from '@promop/testkit';

/** Characters that have broken YAML writers: breaks and separators, controls, quotes, indicators, BOM, surrogates. */
const AWKWARD = [
  '\n', '\r', '\r\n', '\t', '\u0085', '\u2028', '\u2029', '\u000b', '\u000c', '\u0000', '\u0007', '\u001b', '\u007f',
  '\u0080', '\u009f', '\u00a0', '\ufeff', '\ufffe', '\uffff', '\ud800', '\udfff', '\ud83d\ude00', '\u{10ffff}',
  ' ', '  ', ': ', ' #', '#', '-', '- ', '---', '...', '?', '? ', ':', '"', "'", '\\', '\\n', '\\u2029', '%', '@',
  '`', '!', '&', '*', '|', '>', '{', '}', '[', ']', ',', '<<', '=', '~', 'null', 'true', 'no', 'y', '0x1F', '0o17',
  '1e3', '.inf', '.nan', '12:30', '2024-01-01', '1_000', '+1', '-.5', 'job_name:', '\n- job_name: x\n', 'é', '日本',
];

/** An arbitrary string built from awkward pieces and arbitrary Unicode, now and then longer than an implicit key. */
export function teamString(): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...AWKWARD) },
    { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 8 }) },
  );
  const short = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));
  const long = fc.tuple(short, fc.integer({ min: 1000, max: 1100 })).map(([text, length]) => (text || 'k').repeat(Math.ceil(length / Math.max(1, (text || 'k').length))).slice(0, length));
  return fc.oneof({ weight: 9, arbitrary: short }, { weight: 1, arbitrary: long });
}

/** The documents one string is written into, each paired with the value Go must read back. */
export function documentsFor(text: string): Array<{ yaml: string; expected: unknown }> {
  const documents: unknown[] = [
    { value: text },
    { [text]: 'value' },
    { list: [text, 'after'] },
    { list: [{ [text]: text, other: 1 }] },
    { outer: { [text]: [text, text] } },
    { outer: { [text]: { [text]: text } } },
    { list: [[text]] },
  ];
  const out = documents.map((document) => ({ yaml: toPrometheusYaml(document), expected: document }));
  // A scrape job as the scrape files write it: cut into segments, relabelings apart.
  const job = { job_name: text, params: { [text]: [text] }, relabel_configs: [{ replacement: text, regex: text }, { [text]: text }] };
  out.push({ yaml: jobSegments(job).join(''), expected: [job] });
  return out.map(({ yaml, expected }) => ({ yaml, expected: storedForm(expected) }));
}

/** The value with every string as the API server stores it (unpaired surrogates become U+FFFD). */
function storedForm(value: unknown): unknown {
  if (typeof value === 'string') return value.toWellFormed();
  if (Array.isArray(value)) return value.map(storedForm);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.toWellFormed(), storedForm(item)]));
  }
  return value;
}

/** One difference between what promop meant and what a Go library read, for a report. */
export interface RoundTripMismatch {
  library: GoYamlLibrary;
  text: string;
  yaml: string;
  read: unknown;
  expected: unknown;
}

/** The strings of `texts` that some Go library reads back differently (or refuses), in every position. */
export function roundTripMismatches(texts: readonly string[], libraries: readonly GoYamlLibrary[] = ['yaml-v2', 'yaml-v3']): RoundTripMismatch[] {
  const cases = texts.flatMap((text) => documentsFor(text).map((document) => ({ text, ...document })));
  const mismatches: RoundTripMismatch[] = [];
  for (const library of libraries) {
    const readings = readYamlWithGoSync(library, cases.map((entry) => entry.yaml));
    readings.forEach((reading, index) => {
      const entry = cases[index]!;
      const read = reading.error !== undefined ? { error: reading.error } : reading.value;
      if (!sameValue(read, entry.expected)) mismatches.push({ library, text: entry.text, yaml: entry.yaml, read, expected: entry.expected });
    });
  }
  return mismatches;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  return aKeys.length === bKeys.length && aKeys.every((key) => Object.hasOwn(b, key) && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/**
 * Runs the property: `batches` fast-check cases of exactly `batchSize` strings each (a failure shrinks the strings,
 * and the report names the first one that breaks). Returns fast-check's report, or '', and the strings checked.
 */
export function checkYamlRoundTrip(options: { batches: number; batchSize: number; seed: number }): { failure: string; strings: number } {
  let strings = 0;
  const details = fc.check(
    fc.property(fc.array(teamString(), { minLength: options.batchSize, maxLength: options.batchSize }), (texts) => {
      strings += texts.length;
      const mismatches = roundTripMismatches(texts);
      if (mismatches.length > 0) {
        const first = mismatches[0]!;
        throw new Error(
          `${mismatches.length} mismatches; first, ${first.library} on ${JSON.stringify(first.text).slice(0, 400)}:\n${first.yaml.slice(0, 600)}\nread ${JSON.stringify(first.read).slice(0, 400)}\nmeant ${JSON.stringify(first.expected).slice(0, 400)}`,
        );
      }
    }),
    { numRuns: options.batches, seed: options.seed, endOnFailure: true },
  );
  const failure = details.failed ? `${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}\n${fc.defaultReportMessage(details) ?? ''}`.slice(0, 2000) : '';
  return { failure, strings };
}
