import type { Prometheus, PrometheusRule } from '@promop/crds';
import { load } from 'js-yaml';
import type { Verdict } from '../model.ts';
import { parsePrometheusVersion, type PrometheusVersion } from '../prometheus-version.ts';
import { renderRules } from './index.ts';

const V3 = parsePrometheusVersion('v3.16.0')!;
const V2_55 = parsePrometheusVersion('v2.55.0')!;

const prometheus = { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace: 'monitoring', name: 'main' }, spec: {} } as unknown as Prometheus;

function prometheusRule(name: string, spec: unknown, namespace = 'team-a'): PrometheusRule {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { namespace, name, uid: `uid-${name}` }, spec } as unknown as PrometheusRule;
}

const goodRule = prometheusRule('good', {
  groups: [{ name: 'good', rules: [{ alert: 'Down', expr: 'up == 0', for: '5m', labels: { severity: 'page' } }] }],
});

function groupWith(rule: Record<string, unknown>, extra: Record<string, unknown> = {}): unknown {
  return { groups: [{ name: 'g', ...extra, rules: [{ alert: 'A', expr: 'up == 0' }, rule] }] };
}

function renderedFiles(output: ReturnType<typeof renderRules>): Record<string, string> {
  return Object.assign({}, ...output.ruleConfigMaps.map((configMap) => configMap.files));
}

function rejection(verdict: Verdict | undefined): { reason: string; paths: string[] } {
  if (!verdict?.selected || verdict.accepted) throw new Error(`expected a rejected verdict, got ${JSON.stringify(verdict)}`);
  return { reason: verdict.reason, paths: verdict.problems.map((problem) => problem.path) };
}

interface BadCase {
  story: string;
  spec: unknown;
  reason: string;
  version?: PrometheusVersion;
}

const badCases: BadCase[] = [
  {
    story: 'a PromQL syntax error is reported with its column',
    spec: groupWith({ alert: 'B', expr: 'sum by (job (rate(x[5m]))' }),
    reason: 'spec.groups[0].rules[1].expr: syntax error at column 13: unexpected "(" after "sum by (job"',
  },
  {
    story: 'an expression cut short is reported at its end',
    spec: groupWith({ record: 'job:x:rate5m', expr: 'sum by (job) (rate(x[5m])' }),
    reason: 'spec.groups[0].rules[1].expr: syntax error at column 26: unexpected end of expression after "…ob) (rate(x[5m])"',
  },
  {
    story: 'a multi-line expression error gives line and column',
    spec: groupWith({ alert: 'B', expr: 'up\n  == 0 0' }),
    reason: 'spec.groups[0].rules[1].expr: syntax error at line 2, column 8: unexpected "0" after "up == 0"',
  },
  {
    story: 'a selector that matches every series, which Prometheus refuses to parse',
    spec: groupWith({ record: 'all:count', expr: 'count({job=~".*"})' }),
    reason: 'spec.groups[0].rules[1].expr: selector {job=~".*"} at column 7 needs a metric name or a matcher that does not match the empty string',
  },
  {
    story: 'a PromQL type error, which only Prometheus itself used to find',
    spec: groupWith({ alert: 'B', expr: 'rate(up) > 0' }),
    reason: 'spec.groups[0].rules[1].expr: column 6: rate() expects a range vector as argument 1 (such as x[5m] or a subquery (expr)[1h:5m]), got an instant vector "up"',
  },
  {
    story: 'a type error in an expression the editor grammar misreads elsewhere (a metric named offset)',
    spec: groupWith({ alert: 'B', expr: 'sum(offset) + rate(up)' }),
    reason: 'spec.groups[0].rules[1].expr: column 20: rate() expects a range vector as argument 1 (such as x[5m] or a subquery (expr)[1h:5m]), got an instant vector "up"',
  },
  {
    story: 'bool on an arithmetic operator',
    spec: groupWith({ record: 'x:y', expr: 'up + bool 1' }),
    reason: 'spec.groups[0].rules[1].expr: column 4: bool can only follow a comparison operator (==, !=, <, <=, >, >=), not "+"',
  },
  {
    story: 'an experimental function the Prometheus does not enable',
    spec: groupWith({ record: 'x:y', expr: 'sort_by_label(up, "job")' }),
    reason: 'spec.groups[0].rules[1].expr: column 1: function sort_by_label() is experimental: the Prometheus must run with --enable-feature=promql-experimental-functions (spec.enableFeatures)',
  },
  {
    story: 'a broken template in an annotation',
    spec: groupWith({ alert: 'B', expr: 'up == 0', annotations: { summary: '{{ $labels.instance } is down' } }),
    reason: 'spec.groups[0].rules[1].annotations.summary: template error at column 21: unexpected "}" in operand',
  },
  {
    story: 'an unknown function in an alert label template',
    spec: groupWith({ alert: 'B', expr: 'up == 0', labels: { severity: '{{ if gt $value 10.0 }}page{{ else }}{{ lower "TICKET" }}{{ end }}' } }),
    reason: 'spec.groups[0].rules[1].labels.severity: template error at column 41: function "lower" not defined',
  },
  {
    story: 'a rule with both record and alert',
    spec: groupWith({ record: 'x:y', alert: 'B', expr: 'up' }),
    reason: 'spec.groups[0].rules[1]: only one of "record" and "alert" may be set, found record "x:y" and alert "B"',
  },
  {
    story: 'a rule with neither record nor alert',
    spec: groupWith({ expr: 'up' }),
    reason: 'spec.groups[0].rules[1]: one of "record" or "alert" must be set',
  },
  {
    story: 'an alert with an empty name',
    spec: groupWith({ alert: '', expr: 'up' }),
    reason: 'spec.groups[0].rules[1].alert: must not be empty',
  },
  {
    story: 'a rule without expr',
    spec: groupWith({ alert: 'B' }),
    reason: 'spec.groups[0].rules[1].expr: must be set',
  },
  {
    story: 'a recording rule name that is not a metric name (Prometheus 2)',
    spec: groupWith({ record: 'job:http-requests:rate5m', expr: 'up' }),
    reason: 'spec.groups[0].rules[1].record: "job:http-requests:rate5m" is not a valid metric name (must match [a-zA-Z_:][a-zA-Z0-9_:]*)',
    version: V2_55,
  },
  {
    story: 'a recording rule name with a selector in it',
    spec: groupWith({ record: 'up{job="a"}', expr: 'up' }),
    reason: 'spec.groups[0].rules[1].record: "up{job="a"}" contains braces; should that part be in expr?',
  },
  {
    story: 'a recording rule with annotations',
    spec: groupWith({ record: 'x:y', expr: 'up', annotations: { summary: 's' } }),
    reason: 'spec.groups[0].rules[1].annotations: a recording rule cannot have annotations',
  },
  {
    story: 'a recording rule with for',
    spec: groupWith({ record: 'x:y', expr: 'up', for: '5m' }),
    reason: 'spec.groups[0].rules[1].for: a recording rule cannot have "for"',
  },
  {
    story: 'an alert with an invalid for',
    spec: groupWith({ alert: 'B', expr: 'up', for: '5 minutes' }),
    reason: 'spec.groups[0].rules[1].for: "5 minutes" is not a valid duration (examples: 30s, 5m, 1h30m)',
  },
  {
    story: 'an alert with a fractional keep_firing_for',
    spec: groupWith({ alert: 'B', expr: 'up', keep_firing_for: '1.5h' }),
    reason: 'spec.groups[0].rules[1].keep_firing_for: "1.5h" is not a valid duration (examples: 30s, 5m, 1h30m)',
  },
  {
    story: 'a group with an invalid interval',
    spec: groupWith({ alert: 'B', expr: 'up' }, { interval: '1x' }),
    reason: 'spec.groups[0].interval: "1x" is not a valid duration (examples: 30s, 5m, 1h30m)',
  },
  {
    story: 'a group with a negative query_offset',
    spec: groupWith({ alert: 'B', expr: 'up' }, { query_offset: '-1m' }),
    reason: 'spec.groups[0].query_offset: "-1m" is not a valid duration (examples: 30s, 5m, 1h30m)',
  },
  {
    story: 'a group with a negative limit',
    spec: groupWith({ alert: 'B', expr: 'up' }, { limit: -1 }),
    reason: 'spec.groups[0].limit: must be a non-negative integer, got -1',
  },
  {
    story: 'two groups with the same name',
    spec: { groups: [{ name: 'same', rules: [] }, { name: 'other', rules: [] }, { name: 'same', rules: [] }] },
    reason: 'spec.groups[2].name: group name "same" is already used by spec.groups[0]; Prometheus refuses a file with repeated group names',
  },
  {
    story: 'a group without a name',
    spec: { groups: [{ rules: [{ alert: 'A', expr: 'up' }] }] },
    reason: 'spec.groups[0].name: group name must be a non-empty string',
  },
  {
    story: 'a label name with a dash (Prometheus 2)',
    spec: groupWith({ alert: 'B', expr: 'up', labels: { 'team-name': 'a' } }),
    reason: 'spec.groups[0].rules[1].labels["team-name"]: "team-name" is not a valid label name (must match [a-zA-Z_][a-zA-Z0-9_]*)',
    version: V2_55,
  },
  {
    story: 'a rule label named __name__',
    spec: groupWith({ record: 'x:y', expr: 'up', labels: { __name__: 'z' } }),
    reason: 'spec.groups[0].rules[1].labels.__name__: label name "__name__" is reserved for the metric name',
  },
  {
    story: 'a group label with an invalid name (Prometheus 3, UTF-8 names)',
    spec: groupWith({ alert: 'B', expr: 'up' }, { labels: { '': 'x' } }),
    reason: 'spec.groups[0].labels[""]: "" is not a valid label name (must be non-empty UTF-8 text)',
  },
  {
    story: 'a label value that is not a string',
    spec: groupWith({ alert: 'B', expr: 'up', labels: { severity: 3 } }),
    reason: 'spec.groups[0].rules[1].labels.severity: value must be a string, got 3',
  },
  {
    story: 'an annotation name with a dot (Prometheus 2)',
    spec: groupWith({ alert: 'B', expr: 'up', annotations: { 'runbook.url': 'x' } }),
    reason: 'spec.groups[0].rules[1].annotations["runbook.url"]: "runbook.url" is not a valid annotation name (must match [a-zA-Z_][a-zA-Z0-9_]*)',
    version: V2_55,
  },
  {
    story: 'groups that are not a list',
    spec: { groups: { name: 'g' } },
    reason: 'spec.groups: must be a list of rule groups',
  },
  {
    story: 'a rule list that is not a list',
    spec: { groups: [{ name: 'g', rules: 'up == 0' }] },
    reason: 'spec.groups[0].rules: must be a list of rules',
  },
];

describe('a PrometheusRule with a mistake, selected next to a good one', () => {
  it.each(badCases)('$story: is rejected with the exact field, and the good one is still rendered', ({ spec, reason, version }) => {
    const output = renderRules({ prometheus, rules: [prometheusRule('bad', spec), goodRule], version: version ?? V3 });
    expect(rejection(output.verdicts[0]).reason).toBe(reason);
    expect(output.verdicts[1]).toEqual({ resource: { kind: 'PrometheusRule', namespace: 'team-a', name: 'good' }, selected: true, accepted: true, warnings: [] });
    expect(Object.keys(renderedFiles(output))).toEqual(['team-a-good-uid-good.yaml']);
  });

  it('lists every problem of the object, not only the first', () => {
    const spec = { groups: [{ name: 'g', interval: 'soon', rules: [{ alert: 'A', expr: 'up ==' }, { record: 'a-b', expr: 'up', for: '1m' }] }] };
    const output = renderRules({ prometheus, rules: [prometheusRule('bad', spec)], version: V2_55 });
    expect(rejection(output.verdicts[0]).paths).toEqual([
      'spec.groups[0].interval',
      'spec.groups[0].rules[0].expr',
      'spec.groups[0].rules[1].record',
      'spec.groups[0].rules[1].for',
    ]);
  });
});

describe('an expression the label enforcer cannot read, under enforcedNamespaceLabel', () => {
  const spec = groupWith({ record: 'x:y', expr: 'sum(offset)' });

  it('is accepted without enforcement, as Prometheus accepts a metric named offset', () => {
    expect(renderRules({ prometheus, rules: [prometheusRule('r', spec)], version: V3 }).verdicts[0]).toMatchObject({ accepted: true });
  });

  it('is refused with enforcement, so no selector escapes the namespace label', () => {
    const output = renderRules({ prometheus, rules: [prometheusRule('r', spec)], version: V3, enforcedNamespaceLabel: 'namespace' });
    expect(rejection(output.verdicts[0]).reason).toMatch(
      /^spec\.groups\[0\]\.rules\[1\]\.expr: namespace="team-a" \(enforcedNamespaceLabel\) cannot be added to this expression, which Prometheus accepts/,
    );
  });
});

describe('rule checks that follow the Prometheus', () => {
  it('accepts experimental functions when the Prometheus enables them', () => {
    const experimental = { ...prometheus, spec: { enableFeatures: ['promql-experimental-functions'] } } as unknown as Prometheus;
    const spec = groupWith({ record: 'x:y', expr: 'sort_by_label(up, "job")' });
    const output = renderRules({ prometheus: experimental, rules: [prometheusRule('sorted', spec)], version: V3 });
    expect(output.verdicts[0]).toMatchObject({ accepted: true });
  });

  it('does not read the labels of a recording rule as templates, as Prometheus does not', () => {
    const spec = groupWith({ record: 'x:y', expr: 'up', labels: { note: '{{ not a template' } });
    expect(renderRules({ prometheus, rules: [prometheusRule('r', spec)], version: V3 }).verdicts[0]).toMatchObject({ accepted: true });
  });
});

describe('UTF-8 names on Prometheus 3', () => {
  const spec = groupWith({ record: 'http.requests:rate5m', expr: 'up', labels: { 'team.name': 'a' } });

  it('are accepted, as Prometheus 3 itself accepts them', () => {
    const output = renderRules({ prometheus, rules: [prometheusRule('utf8', spec)], version: V3 });
    expect(output.verdicts[0]).toMatchObject({ accepted: true });
  });

  it('are rejected when the Prometheus uses the legacy name validation scheme', () => {
    const legacy = { ...prometheus, spec: { nameValidationScheme: 'Legacy' } } as unknown as Prometheus;
    const output = renderRules({ prometheus: legacy, rules: [prometheusRule('utf8', spec)], version: V3 });
    expect(rejection(output.verdicts[0]).reason).toBe(
      'spec.groups[0].rules[1].record: "http.requests:rate5m" is not a valid metric name (must match [a-zA-Z_:][a-zA-Z0-9_:]*)',
    );
  });
});

describe('fields the Prometheus version does not know', () => {
  const spec = {
    groups: [
      {
        name: 'g',
        interval: '1m',
        limit: 10,
        query_offset: '30s',
        labels: { tier: 'x' },
        partial_response_strategy: 'warn',
        rules: [{ alert: 'A', expr: 'up == 0', keep_firing_for: '5m' }],
      },
    ],
  };

  it('are dropped with a warning for each, and the rest is rendered', () => {
    const output = renderRules({ prometheus, rules: [prometheusRule('old', spec)], version: parsePrometheusVersion('v2.30.0')! });
    expect(output.verdicts[0]).toEqual({
      resource: { kind: 'PrometheusRule', namespace: 'team-a', name: 'old' },
      selected: true,
      accepted: true,
      warnings: [
        'spec.groups[0].labels was dropped: Prometheus v2.30.0 does not support it (needs v3.0.0 or later)',
        'spec.groups[0].limit was dropped: Prometheus v2.30.0 does not support it (needs v2.31.0 or later)',
        'spec.groups[0].query_offset was dropped: Prometheus v2.30.0 does not support it (needs v2.53.0 or later)',
        'spec.groups[0].rules[0].keep_firing_for was dropped: Prometheus v2.30.0 does not support it (needs v2.42.0 or later)',
      ],
    });
    expect(load(renderedFiles(output)['team-a-old-uid-old.yaml']!)).toEqual({
      groups: [{ interval: '1m', name: 'g', rules: [{ alert: 'A', expr: 'up == 0' }] }],
    });
  });

  it('are kept on a version that knows them, except partial_response_strategy (Thanos only)', () => {
    const output = renderRules({ prometheus, rules: [prometheusRule('new', spec)], version: V3 });
    expect(output.verdicts[0]).toMatchObject({ accepted: true, warnings: [] });
    expect(renderedFiles(output)['team-a-new-uid-new.yaml']).toBe(
      [
        'groups:',
        '- interval: 1m',
        '  labels:',
        '    tier: x',
        '  limit: 10',
        '  name: g',
        '  query_offset: 30s',
        '  rules:',
        '  - alert: A',
        '    expr: up == 0',
        '    keep_firing_for: 5m',
        '',
      ].join('\n'),
    );
  });

  it('are not validated when they are dropped anyway', () => {
    const invalidButDropped = { groups: [{ name: 'g', query_offset: 'soon', rules: [{ alert: 'A', expr: 'up', keep_firing_for: 'later' }] }] };
    const output = renderRules({ prometheus, rules: [prometheusRule('old', invalidButDropped)], version: parsePrometheusVersion('v2.40.0')! });
    expect(output.verdicts[0]).toMatchObject({ accepted: true });
  });
});

describe('an empty PrometheusRule', () => {
  it('is accepted and rendered as a file with no groups, as Prometheus accepts it', () => {
    const output = renderRules({ prometheus, rules: [prometheusRule('empty', {})], version: V3 });
    expect(output.verdicts[0]).toMatchObject({ accepted: true });
    expect(renderedFiles(output)['team-a-empty-uid-empty.yaml']).toBe('groups: []\n');
  });
});

describe('no PrometheusRule at all', () => {
  it('still gives one empty ConfigMap, so the Prometheus pod always has its rules volume', () => {
    expect(renderRules({ prometheus, rules: [], version: V3 })).toEqual({
      ruleConfigMaps: [{ name: 'prometheus-main-rulefiles-0', files: {} }],
      verdicts: [],
    });
  });
});

describe('enforcedNamespaceLabel', () => {
  const spec = { groups: [{ name: 'g', rules: [{ record: 'ns:up:sum', expr: 'sum by (namespace) (up{namespace="other"})', labels: { namespace: 'spoofed' } }] }] };

  it('pins every selector and the rule labels to the rule object namespace', () => {
    const output = renderRules({ prometheus, rules: [prometheusRule('r', spec)], version: V3, enforcedNamespaceLabel: 'namespace' });
    expect(load(renderedFiles(output)['team-a-r-uid-r.yaml']!)).toEqual({
      groups: [{ name: 'g', rules: [{ expr: 'sum by (namespace) (up{namespace="team-a"})', labels: { namespace: 'team-a' }, record: 'ns:up:sum' }] }],
    });
  });

  it('leaves excluded rule objects alone', () => {
    const output = renderRules({
      prometheus,
      rules: [prometheusRule('r', spec)],
      version: V3,
      enforcedNamespaceLabel: 'namespace',
      isExcludedFromEnforcement: (namespace, name) => namespace === 'team-a' && name === 'r',
    });
    expect(load(renderedFiles(output)['team-a-r-uid-r.yaml']!)).toEqual(load(renderedFiles(renderRules({ prometheus, rules: [prometheusRule('r', spec)], version: V3 }))['team-a-r-uid-r.yaml']!));
  });
});

describe('a PrometheusRule whose file would exceed 512 KiB', () => {
  it('is rejected alone, with its size', () => {
    // Text of about 509 KiB (under the limit checked before the rules are: rule-input-limits.ts), a file of more.
    const rules = Array.from({ length: 2750 }, (_, index) => ({ alert: `Alert${index}`, expr: `up{job="job-${'x'.repeat(150)}"} == 0` }));
    const output = renderRules({ prometheus, rules: [prometheusRule('huge', { groups: [{ name: 'g', rules }] }), goodRule], version: V3 });
    expect(rejection(output.verdicts[0]).reason).toMatch(
      /^spec: the rule file is \d+ bytes, over the 524288-byte \(512 KiB\) limit of one ConfigMap; split it into several PrometheusRules$/,
    );
    expect(output.verdicts[1]).toMatchObject({ accepted: true });
    expect(Object.keys(renderedFiles(output))).toEqual(['team-a-good-uid-good.yaml']);
  });
});

describe('rendering', () => {
  it('is deterministic: the same input gives byte-identical output', () => {
    const input = () => ({ prometheus, rules: [prometheusRule('b', groupWith({ record: 'a:b', expr: 'up' })), goodRule], version: V3, enforcedNamespaceLabel: 'ns' });
    expect(JSON.stringify(renderRules(input()))).toBe(JSON.stringify(renderRules(input())));
  });
});
