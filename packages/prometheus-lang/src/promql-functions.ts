/**
 * PromQL's functions and their signatures, as Prometheus declares them (promql/parser/functions.go,
 * v3.16), with the release that introduced each one and whether it needs
 * `--enable-feature=promql-experimental-functions`. The parser refuses a call to a function it does
 * not know and to an experimental one without the flag, so both depend on the target Prometheus.
 * Release facts come from Prometheus' CHANGELOG; functions older than 2.20 are marked 2.0.
 */
import { isAtLeast, type PrometheusVersion } from './prometheus-version.ts';

/** A PromQL value type, named as Prometheus' ValueType. */
export type PromqlValueType = 'scalar' | 'string' | 'vector' | 'matrix';

/** What the parser knows about a function. */
export interface PromqlFunction {
  name: string;
  /** Argument types; with `variadic` the last one repeats (or is optional). */
  argTypes: readonly PromqlValueType[];
  /**
   * 0: exactly argTypes.length arguments. n > 0: the last argument may be left out or repeated up
   * to n times in all. -1: the last argument repeats without limit (at least argTypes.length - 1).
   */
  variadic: number;
  returnType: PromqlValueType;
  /** True when the target Prometheus keeps it behind `promql-experimental-functions`. */
  experimental: boolean;
}

interface FunctionHistory {
  argTypes: readonly PromqlValueType[];
  variadic?: number;
  returnType: PromqlValueType;
  /** First release whose parser knows it. */
  since: string;
  /** Release that removed it (holt_winters became double_exponential_smoothing). */
  until?: string;
  /** Experimental from `since` until this release (or still, when `true`). */
  experimentalUntil?: string | true;
}

const V = 'vector';
const S = 'scalar';
const M = 'matrix';
const STR = 'string';

/** Every function any supported Prometheus release knows. */
const FUNCTION_HISTORY: Readonly<Record<string, FunctionHistory>> = {
  abs: { argTypes: [V], returnType: V, since: '2.0.0' },
  absent: { argTypes: [V], returnType: V, since: '2.0.0' },
  absent_over_time: { argTypes: [M], returnType: V, since: '2.16.0' },
  acos: { argTypes: [V], returnType: V, since: '2.31.0' },
  acosh: { argTypes: [V], returnType: V, since: '2.31.0' },
  asin: { argTypes: [V], returnType: V, since: '2.31.0' },
  asinh: { argTypes: [V], returnType: V, since: '2.31.0' },
  atan: { argTypes: [V], returnType: V, since: '2.31.0' },
  atanh: { argTypes: [V], returnType: V, since: '2.31.0' },
  avg_over_time: { argTypes: [M], returnType: V, since: '2.0.0' },
  ceil: { argTypes: [V], returnType: V, since: '2.0.0' },
  changes: { argTypes: [M], returnType: V, since: '2.0.0' },
  clamp: { argTypes: [V, S, S], returnType: V, since: '2.26.0' },
  clamp_max: { argTypes: [V, S], returnType: V, since: '2.0.0' },
  clamp_min: { argTypes: [V, S], returnType: V, since: '2.0.0' },
  cos: { argTypes: [V], returnType: V, since: '2.31.0' },
  cosh: { argTypes: [V], returnType: V, since: '2.31.0' },
  count_over_time: { argTypes: [M], returnType: V, since: '2.0.0' },
  days_in_month: { argTypes: [V], variadic: 1, returnType: V, since: '2.0.0' },
  day_of_month: { argTypes: [V], variadic: 1, returnType: V, since: '2.0.0' },
  day_of_week: { argTypes: [V], variadic: 1, returnType: V, since: '2.0.0' },
  day_of_year: { argTypes: [V], variadic: 1, returnType: V, since: '2.21.0' },
  deg: { argTypes: [V], returnType: V, since: '2.31.0' },
  delta: { argTypes: [M], returnType: V, since: '2.0.0' },
  deriv: { argTypes: [M], returnType: V, since: '2.0.0' },
  double_exponential_smoothing: { argTypes: [M, S, S], returnType: V, since: '3.0.0', experimentalUntil: true },
  end: { argTypes: [], returnType: S, since: '3.12.0', experimentalUntil: true },
  exp: { argTypes: [V], returnType: V, since: '2.0.0' },
  first_over_time: { argTypes: [M], returnType: V, since: '3.7.0', experimentalUntil: '3.14.0' },
  floor: { argTypes: [V], returnType: V, since: '2.0.0' },
  histogram_avg: { argTypes: [V], returnType: V, since: '2.51.0' },
  histogram_count: { argTypes: [V], returnType: V, since: '2.40.0' },
  histogram_fraction: { argTypes: [S, S, V], returnType: V, since: '2.40.0' },
  histogram_quantile: { argTypes: [S, V], returnType: V, since: '2.0.0' },
  histogram_quantiles: { argTypes: [V, STR, S, S], variadic: 9, returnType: V, since: '3.11.0', experimentalUntil: true },
  histogram_stddev: { argTypes: [V], returnType: V, since: '2.47.0' },
  histogram_stdvar: { argTypes: [V], returnType: V, since: '2.47.0' },
  histogram_sum: { argTypes: [V], returnType: V, since: '2.40.0' },
  holt_winters: { argTypes: [M, S, S], returnType: V, since: '2.0.0', until: '3.0.0' },
  hour: { argTypes: [V], variadic: 1, returnType: V, since: '2.0.0' },
  idelta: { argTypes: [M], returnType: V, since: '2.0.0' },
  increase: { argTypes: [M], returnType: V, since: '2.0.0' },
  info: { argTypes: [V, V], variadic: 1, returnType: V, since: '2.55.0', experimentalUntil: true },
  integral: { argTypes: [M, S], variadic: 1, returnType: V, since: '3.16.0', experimentalUntil: true },
  irate: { argTypes: [M], returnType: V, since: '2.0.0' },
  label_join: { argTypes: [V, STR, STR, STR], variadic: -1, returnType: V, since: '2.0.0' },
  label_replace: { argTypes: [V, STR, STR, STR, STR], returnType: V, since: '2.0.0' },
  last_over_time: { argTypes: [M], returnType: V, since: '2.26.0' },
  ln: { argTypes: [V], returnType: V, since: '2.0.0' },
  log10: { argTypes: [V], returnType: V, since: '2.0.0' },
  log2: { argTypes: [V], returnType: V, since: '2.0.0' },
  mad_over_time: { argTypes: [M], returnType: V, since: '2.49.0', experimentalUntil: true },
  max_of: { argTypes: [S, S], returnType: S, since: '3.13.0', experimentalUntil: true },
  max_over_time: { argTypes: [M], returnType: V, since: '2.0.0' },
  min_of: { argTypes: [S, S], returnType: S, since: '3.13.0', experimentalUntil: true },
  min_over_time: { argTypes: [M], returnType: V, since: '2.0.0' },
  minute: { argTypes: [V], variadic: 1, returnType: V, since: '2.0.0' },
  month: { argTypes: [V], variadic: 1, returnType: V, since: '2.0.0' },
  pi: { argTypes: [], returnType: S, since: '2.31.0' },
  predict_linear: { argTypes: [M, S], returnType: V, since: '2.0.0' },
  present_over_time: { argTypes: [M], returnType: V, since: '2.29.0' },
  quantile_over_time: { argTypes: [S, M], returnType: V, since: '2.0.0' },
  rad: { argTypes: [V], returnType: V, since: '2.31.0' },
  range: { argTypes: [], returnType: S, since: '3.12.0', experimentalUntil: true },
  rate: { argTypes: [M], returnType: V, since: '2.0.0' },
  resets: { argTypes: [M], returnType: V, since: '2.0.0' },
  round: { argTypes: [V, S], variadic: 1, returnType: V, since: '2.0.0' },
  scalar: { argTypes: [V], returnType: S, since: '2.0.0' },
  sgn: { argTypes: [V], returnType: V, since: '2.26.0' },
  sin: { argTypes: [V], returnType: V, since: '2.31.0' },
  sinh: { argTypes: [V], returnType: V, since: '2.31.0' },
  sort: { argTypes: [V], returnType: V, since: '2.0.0' },
  sort_by_label: { argTypes: [V, STR], variadic: -1, returnType: V, since: '2.49.0', experimentalUntil: true },
  sort_by_label_desc: { argTypes: [V, STR], variadic: -1, returnType: V, since: '2.49.0', experimentalUntil: true },
  sort_desc: { argTypes: [V], returnType: V, since: '2.0.0' },
  sqrt: { argTypes: [V], returnType: V, since: '2.0.0' },
  start: { argTypes: [], returnType: S, since: '3.12.0', experimentalUntil: true },
  start_timestamp: { argTypes: [V], returnType: V, since: '3.14.0', experimentalUntil: true },
  stddev_over_time: { argTypes: [M], returnType: V, since: '2.0.0' },
  stdvar_over_time: { argTypes: [M], returnType: V, since: '2.0.0' },
  step: { argTypes: [], returnType: S, since: '3.12.0', experimentalUntil: true },
  sum_over_time: { argTypes: [M], returnType: V, since: '2.0.0' },
  tan: { argTypes: [V], returnType: V, since: '2.31.0' },
  tanh: { argTypes: [V], returnType: V, since: '2.31.0' },
  time: { argTypes: [], returnType: S, since: '2.0.0' },
  timestamp: { argTypes: [V], returnType: V, since: '2.0.0' },
  ts_of_first_over_time: { argTypes: [M], returnType: V, since: '3.7.0', experimentalUntil: true },
  ts_of_last_over_time: { argTypes: [M], returnType: V, since: '3.5.0', experimentalUntil: true },
  ts_of_max_over_time: { argTypes: [M], returnType: V, since: '3.5.0', experimentalUntil: true },
  ts_of_min_over_time: { argTypes: [M], returnType: V, since: '3.5.0', experimentalUntil: true },
  vector: { argTypes: [S], returnType: V, since: '2.0.0' },
  year: { argTypes: [V], variadic: 1, returnType: V, since: '2.0.0' },
};

/** The functions the parser of `version` knows, each marked experimental or not for that release. */
export function promqlFunctionsOf(version: PrometheusVersion): ReadonlyMap<string, PromqlFunction> {
  const functions = new Map<string, PromqlFunction>();
  for (const [name, history] of Object.entries(FUNCTION_HISTORY)) {
    if (!isAtLeast(version, history.since)) continue;
    if (history.until !== undefined && isAtLeast(version, history.until)) continue;
    const experimental =
      history.experimentalUntil === true || (history.experimentalUntil !== undefined && !isAtLeast(version, history.experimentalUntil));
    functions.set(name, {
      name,
      argTypes: history.argTypes,
      variadic: history.variadic ?? 0,
      returnType: history.returnType,
      experimental,
    });
  }
  return functions;
}

/** When `name` was added (and removed), for messages about a function the target Prometheus lacks. */
export function promqlFunctionHistory(name: string): { since: string; until?: string } | undefined {
  if (!Object.hasOwn(FUNCTION_HISTORY, name)) return undefined;
  const { since, until } = FUNCTION_HISTORY[name]!;
  return until ? { since, until } : { since };
}
