/**
 * Which PromQL the target Prometheus parses: its functions and the syntax its release and its
 * `--enable-feature` flags (the Prometheus' `spec.enableFeatures`) turn on. Facts come from
 * Prometheus' source (3.15 and 3.16, which our tests run) and CHANGELOG (older releases).
 */
import { isAtLeast, type PrometheusVersion } from './prometheus-version.ts';
import { promqlFunctionsOf, type PromqlFunction } from './promql-functions.ts';

/** The PromQL one Prometheus accepts in rule files. */
export interface PromqlDialect {
  /** The release, for messages (`v3.16.0`). */
  versionText: string;
  functions: ReadonlyMap<string, PromqlFunction>;
  /** `promql-experimental-functions`: experimental functions and limitk/limit_ratio. */
  experimentalFunctions: boolean;
  /** limitk() and limit_ratio() exist (2.54+, experimental). */
  limitAggregations: boolean;
  /** `fill()`, `fill_left()`, `fill_right()` binary operator modifiers exist (3.10+). */
  fillModifiersExist: boolean;
  /** ... and are enabled (`promql-binop-fill-modifiers`). */
  fillModifiers: boolean;
  /** `</` and `>/` (trim native histograms, 3.11+). */
  trimOperators: boolean;
  /** `anchored` / `smoothed` after selectors exist (3.7+). */
  extendedRangeSelectorsExist: boolean;
  /** ... and are enabled (always from 3.16, else `promql-extended-range-selectors`). */
  extendedRangeSelectors: boolean;
  /** Arithmetic in ranges, offsets and subquery steps (3.4+; always from 3.14, else `promql-duration-expr`). */
  durationExpressions: boolean;
  /** `step()`, `range()` and `min_of()`/`max_of()` inside duration expressions (3.13+; `min()`/`max()` before). */
  durationFunctions: boolean;
  /** `--enable-feature=promql-unquoted-utf8-names` (3.16+). */
  unquotedUtf8Names: boolean;
  /** `x[step():]` parses (3.16+; a lexer fix). */
  colonAfterDurationKeyword: boolean;
  /** Numbers as ranges and offsets, durations as numbers, `_` in numbers (2.54+). */
  numberDurations: boolean;
  /** Quoted metric and label names: `{"my.metric"}`, `by ("a.b")` (3.0+, 2.55 with `utf8-names`). */
  quotedNames: boolean;
  /** The `@` modifier (2.33+, 2.25 with `promql-at-modifier`). */
  atModifier: boolean;
  /** Negative offsets (2.33+, 2.26 with `promql-negative-offset`). */
  negativeOffsets: boolean;
}

/** The dialect of `version` with the given `--enable-feature` values. */
export function promqlDialectOf(version: PrometheusVersion, enabledFeatures: readonly string[]): PromqlDialect {
  const features = new Set(enabledFeatures.flatMap((feature) => feature.split(',')).map((feature) => feature.trim()));
  const at = (release: string): boolean => isAtLeast(version, release);
  const extendedRangeSelectorsExist = at('3.7.0');
  const fillModifiersExist = at('3.10.0');
  return {
    versionText: version.text,
    functions: promqlFunctionsOf(version),
    experimentalFunctions: features.has('promql-experimental-functions'),
    limitAggregations: at('2.54.0'),
    fillModifiersExist,
    fillModifiers: fillModifiersExist && features.has('promql-binop-fill-modifiers'),
    trimOperators: at('3.11.0'),
    extendedRangeSelectorsExist,
    extendedRangeSelectors: at('3.16.0') || (extendedRangeSelectorsExist && features.has('promql-extended-range-selectors')),
    durationExpressions: at('3.14.0') || (at('3.4.0') && features.has('promql-duration-expr')),
    durationFunctions: at('3.13.0'),
    unquotedUtf8Names: at('3.16.0') && features.has('promql-unquoted-utf8-names'),
    colonAfterDurationKeyword: at('3.16.0'),
    numberDurations: at('2.54.0'),
    quotedNames: at('3.0.0') || (at('2.55.0') && features.has('utf8-names')),
    atModifier: at('2.33.0') || (at('2.25.0') && features.has('promql-at-modifier')),
    negativeOffsets: at('2.33.0') || (at('2.26.0') && features.has('promql-negative-offset')),
  };
}
