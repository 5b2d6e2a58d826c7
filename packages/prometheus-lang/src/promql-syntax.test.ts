import { findPromqlSyntaxError } from './promql-syntax.ts';

describe('PromQL syntax checking', () => {
  it.each([
    'up',
    'sum by (job) (rate(http_requests_total{code=~"5.."}[5m])) > 0.1',
    'histogram_quantile(0.99, sum by (le) (rate(x_bucket[5m])))',
    'max_over_time(deriv(x[5m])[1h:1m] offset 5m) @ end()',
    '# a comment\nup == 0',
    'foo{job=""}',
    '{"metric.with.dots"}',
    'sum(rate({a=~".*", b!=""}[5m]))',
    '{__name__=~".+"}',
  ])('accepts %j', (expr) => {
    expect(findPromqlSyntaxError(expr)).toBeUndefined();
  });

  it.each([
    ['', 'syntax error at column 1: unexpected end of expression'],
    ['sum by (job (x)', 'syntax error at column 13: unexpected "(" after "sum by (job"'],
    ['foo bar', 'syntax error at column 5: unexpected "bar" after "foo"'],
    ['up == ', 'syntax error at column 7: unexpected end of expression after "up =="'],
    ['a +\n  b c', 'syntax error at line 2, column 5: unexpected "c" after "a + b"'],
    ['{}', 'selector {} at column 1 needs a metric name or a matcher that does not match the empty string'],
    ['up + {job!="a"}', 'selector {job!="a"} at column 6 needs a metric name or a matcher that does not match the empty string'],
    ['rate(x{job=~"(a"}[5m])', 'invalid regular expression in job=~"(a" at column 8: missing closing ): (a'],
    ['{job!~"a"}', 'selector {job!~"a"} at column 1 needs a metric name or a matcher that does not match the empty string'],
  ])('rejects %j', (expr, message) => {
    expect(findPromqlSyntaxError(expr)?.message).toBe(message);
  });
});
