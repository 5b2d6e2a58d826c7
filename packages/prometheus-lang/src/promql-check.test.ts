import { readPrometheusVersion } from './prometheus-version.ts';
import { describePosition, findPromqlProblem } from './promql-check.ts';
import { promqlDialectOf } from './promql-dialect.ts';

const V3_16 = promqlDialectOf(readPrometheusVersion('v3.16.0')!, []);
const EXPERIMENTAL = promqlDialectOf(readPrometheusVersion('v3.16.0')!, ['promql-experimental-functions', 'promql-binop-fill-modifiers']);

/** What a user reads: the position and the sentence. */
function verdict(expr: string, dialect = V3_16): string {
  const problem = findPromqlProblem(expr, dialect);
  return problem ? `${describePosition(expr, problem.from)}: ${problem.message}` : 'ok';
}

describe('PromQL that Prometheus 3.16 loads', () => {
  it.each([
    'sum by (a) (rate(x[5m]))',
    'sum(rate(x[5m])) by (a)',
    'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket[5m])))',
    'up == 0',
    'up > bool 1',
    '1 < bool 2',
    'a + b offset 5m',
    '- x offset 5m',
    'x[5m] offset 1h @ 1700000000',
    'rate(x[5m] @ end())',
    'max_over_time(deriv(x[5m])[1h:1m] offset 5m)',
    'round(x)',
    'round(x, 0.5)',
    'label_join(x, "dst", ",", "a", "b", "c")',
    'count_values("value", x)',
    'topk(3, x)',
    'a and on(job) b',
    'a * on(job) group_left(team) b',
    'x[5m + 1m]',
    'x offset (1m) + 1m',
    'x[5m] anchored',
    '5m + 1',
    'sum',
    '{"metric.with.dots"}',
    'x{a=~"\\\\d+", b!~""}',
    '# a comment\nup',
    'x[5m:]',
    'vector(1)',
    'scalar(sum(x)) * 2',
  ])('accepts %j', (expr) => {
    expect(verdict(expr)).toBe('ok');
  });
});

describe('PromQL that Prometheus 3.16 refuses, and what promop says', () => {
  it.each([
    ['rate(up)', 'column 6: rate() expects a range vector as argument 1 (such as x[5m] or a subquery (expr)[1h:5m]), got an instant vector "up"'],
    ['up + bool 1', 'column 4: bool can only follow a comparison operator (==, !=, <, <=, >, >=), not "+"'],
    ['1 < 2', 'column 3: a comparison between two scalars must use bool, as in 1 < bool 2'],
    ['foo(x)', 'column 1: unknown function foo()'],
    ['time(1)', 'column 1: time() takes 0 arguments, got 1'],
    ['round(x, 1, 2)', 'column 1: round() takes at most 2 arguments, got 3'],
    ['label_join(x, "a")', 'column 1: label_join() takes at least 3 arguments, got 2'],
    ['histogram_quantile(x, 0.9)', 'column 20: histogram_quantile() expects a scalar as argument 1 (such as 0.9 or scalar(x)), got an instant vector "x"'],
    ['sum(x[5m])', 'column 5: sum() aggregates an instant vector (such as x or rate(x[5m])), got a range vector "x[5m]"'],
    ['topk("3", x)', 'column 6: the parameter of topk() must be a scalar (such as 0.9 or scalar(x)), got a string "\\"3\\""'],
    ['count_values(1, x)', 'column 14: the parameter of count_values() (the output label name) must be a string (such as "label"), got a scalar "1"'],
    ['sum(x, y)', 'column 1: sum() takes 1 argument (an instant vector), got 2'],
    ['1 and x', 'column 1: "and" works between two instant vectors only, not with a scalar'],
    ['1 + on(a) x', 'column 1: vector matching (on/ignoring) is only allowed between two instant vectors'],
    ['a and on(x) group_left b', 'column 1: no grouping (group_left/group_right) allowed for "and"'],
    ['-x[5m]', 'column 1: unary - applies to a scalar or an instant vector, not to a range vector'],
    ['rate(x[5m])[5m]', 'column 12: a range [..] can only follow a metric selector such as x{a="b"}: ranges only allowed for vector selectors'],
    ['time()[5m:]', 'column 1: a subquery [range:step] applies to an instant vector (such as rate(x[5m])), not to a scalar "time()"'],
    ['rate(x[5m]) offset 5m', 'column 1: offset modifier must be preceded by an instant vector selector or range vector selector or a subquery'],
    ['x offset 5m offset 1m', 'column 1: offset may not be set multiple times'],
    ['x @ 1 [5m]', 'column 7: no @ modifiers allowed before range: write x[5m] @ 123, not x @ 123 [5m]'],
    ['x[0s]', 'column 3: duration must be greater than 0'],
    ['{job=~".*"}', 'column 1: selector "{job=~\\".*\\"}" needs a metric name or a matcher that does not match the empty string (it would select every series)'],
    ['x{__name__="y"}', 'column 1: the metric name is set twice: "x" and "y"'],
    ['x{a=~"[[:aplha:]]"}', 'column 3: invalid regular expression "[[:aplha:]]": invalid character class range: [:aplha:]'],
    ['sort_by_label(x, "a")', 'column 1: function sort_by_label() is experimental: the Prometheus must run with --enable-feature=promql-experimental-functions (spec.enableFeatures)'],
    ['limitk(1, x)', 'column 1: limitk() is experimental: the Prometheus must run with --enable-feature=promql-experimental-functions (spec.enableFeatures)'],
    ['a + fill(0) b', 'column 1: fill modifiers are experimental: the Prometheus must run with --enable-feature=promql-binop-fill-modifiers (spec.enableFeatures)'],
    ['x[5m:] anchored', 'column 1: anchored modifier is not supported for subqueries'],
    ['x offset (1m) + x', 'column 17: unexpected identifier "x" in duration expression, expected number, duration, step(), or range()'],
    ['sum by (job (x)', 'column 13: unexpected "(" in grouping opts'],
    ['1e400', 'column 1: "1e400" is not a number Prometheus can read'],
    ['x{a="\\q"}', 'column 5: unknown escape sequence \'q\''],
    ['rate(x[5m],)', 'column 11: trailing commas not allowed in function call args'],
    ['', 'column 1: no expression found in input'],
  ])('refuses %j', (expr, message) => {
    expect(verdict(expr)).toBe(message);
  });
});

describe('regex matchers, read as RE2 where JavaScript reads them differently', () => {
  it.each([
    ['x{a=~"$*"}', 'ok'],
    ['x{a=~"\\\\12"}', 'ok'],
    ['x{a=~"[]a]"}', 'ok'],
    ['x{a=~"a*(?i)+"}', 'ok'],
    ['x{a=~"[(?]a"}', 'ok'],
    ['{a=~"a+(?i)?"}', 'column 1: selector "{a=~\\"a+(?i)?\\"}" needs a metric name or a matcher that does not match the empty string (it would select every series)'],
    ['x{a=~"\\\\{1010}"}', 'ok'],
    ['x{a=~"\\\\p{Greek}"}', 'ok'],
    ['x{a=~"\\\\p{greek}"}', 'column 3: invalid regular expression "\\\\p{greek}": invalid character class range: \\p{greek}'],
    ['x{a=~"[]a"}', 'column 3: invalid regular expression "[]a": missing closing ]: []a'],
    ['x{a=~"\\\\C"}', 'column 3: invalid regular expression "\\\\C": invalid escape sequence: \\C'],
    ['x{a=~"(?i)+"}', 'column 3: invalid regular expression "(?i)+": missing argument to repetition operator: +'],
    ['x{a=~"\\\\p{Grek}"}', 'column 3: invalid regular expression "\\\\p{Grek}": invalid character class range: \\p{Grek}'],
    ['x{a=~"(a))"}', 'column 3: invalid regular expression "(a))": unexpected ): (a))'],
  ])('%s: %s', (expr, expected) => {
    expect(verdict(expr)).toBe(expected);
  });
});

describe('an expression nested thousands of levels deep', () => {
  it('is refused with a reason instead of crashing the generation of every rule', () => {
    const deep = `${'('.repeat(20_000)}x${')'.repeat(20_000)}`;
    expect(verdict(deep)).toBe('column 1: nested too deeply for promop to check (thousands of levels); split it into recording rules');
    expect(verdict(Array(20_000).fill('x').join(' + '))).toMatch(/nested too deeply/);
  });

  it('is checked normally at the depths rules have', () => {
    expect(verdict(`${'abs('.repeat(500)}x${')'.repeat(500)}`)).toBe('ok');
  });
});

describe('the PromQL of the Prometheus version and feature flags', () => {
  it('accepts experimental functions and fill modifiers when the Prometheus enables them', () => {
    expect(verdict('sort_by_label(x, "a")', EXPERIMENTAL)).toBe('ok');
    expect(verdict('limitk(1, x)', EXPERIMENTAL)).toBe('ok');
    expect(verdict('a + fill(0) b', EXPERIMENTAL)).toBe('ok');
    expect(verdict('info(x, {k8s_cluster="a"})', EXPERIMENTAL)).toBe('ok');
  });

  it('refuses functions a release does not have yet, and those it removed', () => {
    const v2_45 = promqlDialectOf(readPrometheusVersion('v2.45.0')!, []);
    expect(verdict('histogram_avg(x)', v2_45)).toBe('column 1: function histogram_avg() is not available in Prometheus v2.45.0 (it was added in v2.51.0)');
    expect(verdict('holt_winters(x[5m], 0.5, 0.5)', v2_45)).toBe('ok');
    expect(verdict('holt_winters(x[5m], 0.5, 0.5)')).toBe('column 1: function holt_winters() is not available in Prometheus v3.16.0 (it was removed in v3.0.0)');
  });

  it('knows first_over_time became stable in 3.14 and anchored needs a flag before 3.16', () => {
    const v3_13 = promqlDialectOf(readPrometheusVersion('v3.13.0')!, []);
    expect(verdict('first_over_time(x[5m])', v3_13)).toMatch(/is experimental/);
    expect(verdict('first_over_time(x[5m])')).toBe('ok');
    const v3_15 = promqlDialectOf(readPrometheusVersion('v3.15.1')!, []);
    expect(verdict('x[5m] anchored', v3_15)).toBe('column 1: the anchored modifier is experimental in v3.15.1: the Prometheus must run with --enable-feature=promql-extended-range-selectors');
    expect(verdict('x[5m] anchored', promqlDialectOf(readPrometheusVersion('v3.15.1')!, ['promql-extended-range-selectors']))).toBe('ok');
  });

  it('follows the 3.16 lexer fix that lets a subquery use step() before its colon', () => {
    expect(verdict('x[step():]')).toBe('ok');
    expect(verdict('x[step():]', promqlDialectOf(readPrometheusVersion('v3.15.1')!, []))).toBe('column 9: unexpected colon before duration in duration expression');
  });

  it('refuses 3.x syntax on Prometheus 2', () => {
    const v2_53 = promqlDialectOf(readPrometheusVersion('v2.53.0')!, []);
    expect(verdict('x[300]', v2_53)).toBe('column 3: a plain number as a duration needs Prometheus v2.54.0 or later: write a unit, such as 5m');
    expect(verdict('{"my.metric"}', v2_53)).toBe('column 2: quoted metric and label names need Prometheus v3.0.0 or later (this Prometheus is v2.53.0)');
    expect(verdict('x[5m + 1m]', v2_53)).toMatch(/^column 6: arithmetic in durations needs Prometheus v3.14.0 or later/);
  });
});
