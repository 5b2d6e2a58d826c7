import { injectLabelMatcher } from './inject-label-matcher.ts';
import { findPromqlSyntaxError } from '@promop/prometheus-lang';

describe('injecting the enforced namespace matcher', () => {
  it.each([
    ['a bare metric name', 'up', 'up{namespace="team-a"}'],
    ['a selector with matchers keeps them and their spacing', 'up{job="a", instance=~"x.*"}', 'up{job="a", instance=~"x.*",namespace="team-a"}'],
    ['empty braces', 'up{}', 'up{namespace="team-a"}'],
    ['a selector without a metric name', '{__name__=~"up|down"}', '{__name__=~"up|down",namespace="team-a"}'],
    ['an existing matcher on the label is replaced, whatever its operator', 'up{namespace=~".*", job="a"}', 'up{job="a",namespace="team-a"}'],
    ['a replaced matcher in the middle takes its separator with it', 'up{job="a", namespace="x", code="5"}', 'up{job="a", code="5",namespace="team-a"}'],
    ['a quoted matcher on the label is replaced', 'up{"namespace"!="x"}', 'up{namespace="team-a"}'],
    ['a quoted metric name', '{"http.requests"}', '{"http.requests",namespace="team-a"}'],
    ['a range selector', 'rate(x[5m])', 'rate(x{namespace="team-a"}[5m])'],
    ['a subquery with offset and @', 'max_over_time(rate(x[1m])[1h:5m] offset 1h) @ end()', 'max_over_time(rate(x{namespace="team-a"}[1m])[1h:5m] offset 1h) @ end()'],
    ['both sides of a binary operation', 'a / on (job) group_left b', 'a{namespace="team-a"} / on (job) group_left b{namespace="team-a"}'],
    ['a string literal that looks like a selector is untouched', 'label_replace(up, "dst", "x{y}", "src", "(.*)")', 'label_replace(up{namespace="team-a"}, "dst", "x{y}", "src", "(.*)")'],
    ['a comment is untouched', 'up # not_a{selector}\n', 'up{namespace="team-a"} # not_a{selector}\n'],
    ['a number has no selector', '1', '1'],
  ])('%s', (_story, expr, expected) => {
    expect(injectLabelMatcher(expr, 'namespace', 'team-a')).toBe(expected);
    expect(findPromqlSyntaxError(expected)).toBeUndefined();
  });

  it('quotes a label name that PromQL cannot write bare', () => {
    expect(injectLabelMatcher('up', 'k8s.namespace', 'a')).toBe('up{"k8s.namespace"="a"}');
  });

  it('escapes the value', () => {
    expect(injectLabelMatcher('up', 'namespace', 'a"b\\c')).toBe('up{namespace="a\\"b\\\\c"}');
  });
});
