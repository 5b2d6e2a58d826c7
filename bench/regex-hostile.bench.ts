/**
 * How long promop takes to decide a hostile regex (issue 23): whether Prometheus accepts it and, if it does, whether
 * it matches the empty string — what the operator does for every relabeling regex and PromQL regex matcher, on the
 * thread that reconciles everything. The forms (packages/prometheus-lang/src/go-regexp/hostile-regexes.ts)
 * include the ones that take seconds to minutes on V8's backtracking engine, which promop does not use, and
 * megabyte-long patterns. The goal: each decided in at most 50 ms. Their verdicts are checked against Go's by
 * hostile-regexes.test.ts; here only the time.
 *
 * Run: `node bench/regex-hostile.bench.ts` (Node 24 runs TypeScript directly). Each form is decided once to warm up,
 * then RUNS times; the table shows the median and the slowest run. `--runs N` changes RUNS.
 */
import { parseArgs } from 'node:util';
import { readPrometheusRegex } from '@promop/prometheus-lang';
import { hostileRegexes } from '@promop/prometheus-lang/test-support';

const GOAL_MS = 50;
const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(values.runs);

function decide(pattern: string): string {
  const read = readPrometheusRegex(pattern, 'matcher');
  return read.ok ? `accepted, matches empty: ${read.matchesEmpty}` : `refused: ${read.code}`;
}

const rows: string[][] = [['form', 'length', 'verdict', 'median ms', 'max ms', `≤ ${GOAL_MS} ms`]];
let over = 0;
for (const form of hostileRegexes()) {
  decide(form.pattern);
  const times: number[] = [];
  let verdict = '';
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    verdict = decide(form.pattern);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  if (median > GOAL_MS) over++;
  rows.push([form.name, form.pattern.length.toLocaleString('en'), verdict, median.toFixed(1), times[times.length - 1]!.toFixed(1), median <= GOAL_MS ? 'yes' : 'NO']);
}

const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
for (const [i, row] of rows.entries()) {
  console.log(row.map((cell, column) => (column === 1 || column >= 3 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  '));
  if (i === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
}
console.log(`\n${rows.length - 1 - over} of ${rows.length - 1} forms decided within ${GOAL_MS} ms (median of ${RUNS}); node ${process.version}`);
