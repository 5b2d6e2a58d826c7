/**
 * Under enforcedNamespaceLabel, an alert's labels and annotations cannot read another team's series through the
 * `query` template function: the namespace matcher is added to a query written as a string literal, and a rule
 * whose query is built while the alert fires is refused with the reason (docs/compatibility.md "Tenancy guards").
 */
import type { Prometheus, PrometheusRule } from '@promop/crds';
import { load } from 'js-yaml';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPromtool } from '@promop/testkit';
import { parsePrometheusVersion } from '../prometheus-version.ts';
import { renderRules } from './index.ts';
import { enforceOnTemplateQueries } from './template-query-enforcement.ts';

const V3 = parsePrometheusVersion('v3.16.0')!;
const prometheus = { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace: 'monitoring', name: 'main' }, spec: {} } as unknown as Prometheus;

function alertWith(annotations: Record<string, string>, labels: Record<string, string> = {}): PrometheusRule {
  return {
    apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { namespace: 'team-a', name: 'r', uid: 'uid-r' },
    spec: { groups: [{ name: 'g', rules: [{ alert: 'Slow', expr: 'up == 0', labels, annotations }] }] },
  } as unknown as PrometheusRule;
}

function render(rule: PrometheusRule, enforcedNamespaceLabel: string | null = 'namespace') {
  const output = renderRules({ prometheus, rules: [rule], version: V3, ...(enforcedNamespaceLabel ? { enforcedNamespaceLabel } : {}) });
  const files = Object.assign({}, ...output.ruleConfigMaps.map((configMap) => configMap.files)) as Record<string, string>;
  return { verdict: output.verdicts[0]!, text: Object.values(files)[0] };
}

function writtenRule(text: string | undefined): { annotations?: Record<string, string>; labels?: Record<string, string> } {
  const document = load(text ?? '') as { groups: Array<{ rules: Array<{ annotations?: Record<string, string>; labels?: Record<string, string> }> }> };
  return document.groups[0]!.rules[0]!;
}

describe("a team's alert whose annotation queries Prometheus, under enforcedNamespaceLabel", () => {
  it("only sees the team's own series: the namespace matcher is added to the query literal", () => {
    const { verdict, text } = render(alertWith({ summary: '{{ query "sum(rate(http_requests_total{code=~\\"5..\\"}[5m]))" | first | value | humanize }} errors/s' }));
    expect(verdict).toEqual(expect.objectContaining({ accepted: true }));
    expect(writtenRule(text).annotations?.summary).toBe('{{ query "sum(rate(http_requests_total{code=~\\"5..\\",namespace=\\"team-a\\"}[5m]))" | first | value | humanize }} errors/s');
  });

  it('replaces a matcher on the enforced label that names another team', () => {
    const { text } = render(alertWith({ description: '{{ with query `secret_total{namespace="team-b"}` }}{{ . | first | value }}{{ end }}' }));
    expect(writtenRule(text).annotations?.description).toBe('{{ with query `secret_total{namespace="team-a"}` }}{{ . | first | value }}{{ end }}');
  });

  it('reaches a literal piped into query, in labels too, and every query of the template', () => {
    const { text } = render(alertWith({ runbook: '{{ "up" | query | len }} / {{ query "node_load1" | len }}' }, { worst: '{{ $q := "topk(1, load)" | query }}{{ range $q }}{{ .Labels.instance }}{{ end }}' }));
    const rule = writtenRule(text);
    expect(rule.annotations?.runbook).toBe('{{ "up{namespace=\\"team-a\\"}" | query | len }} / {{ query "node_load1{namespace=\\"team-a\\"}" | len }}');
    expect(rule.labels?.worst).toBe('{{ $q := "topk(1, load{namespace=\\"team-a\\"})" | query }}{{ range $q }}{{ .Labels.instance }}{{ end }}');
  });

  it.each([
    ['built with printf from the alert labels', '{{ printf "node_uname_info{instance=%q}" $labels.instance | query | first | label "nodename" }}', 'spec.groups[0].rules[0].annotations.node'],
    ['taken from a variable', '{{ $expr := "up" }}{{ query $expr }}', 'spec.groups[0].rules[0].annotations.node'],
    ['given in parentheses', '{{ query ("up") }}', 'spec.groups[0].rules[0].annotations.node'],
  ])('is refused when the query is %s: the matcher cannot be added exactly', (_story, template, path) => {
    const { verdict } = render(alertWith({ node: template }));
    expect(verdict).toEqual(expect.objectContaining({ accepted: false }));
    if (verdict.selected && !verdict.accepted) {
      expect(verdict.reason).toMatch(new RegExp(`^${path.replace(/[.[\]]/g, '\\$&')}: the query template function at column \\d+ runs PromQL when the alert fires and namespace="team-a" \\(enforcedNamespaceLabel\\) must be added to it, but its argument is built while the alert fires`));
    }
  });

  it('is refused when the query literal is not PromQL the selector editor can read', () => {
    const { verdict } = render(alertWith({ s: '{{ query "sum(" }}' }));
    expect(verdict.selected && !verdict.accepted && verdict.reason).toMatch(/^spec\.groups\[0\]\.rules\[0\]\.annotations\.s: namespace="team-a" \(enforcedNamespaceLabel\) cannot be added to the query at column 10/);
  });

  it('is written unchanged when the Prometheus enforces no namespace label (as prometheus-operator writes it)', () => {
    const template = '{{ printf "up{instance=%q}" $labels.instance | query | len }}';
    const { verdict, text } = render(alertWith({ s: template }), null);
    expect(verdict).toEqual(expect.objectContaining({ accepted: true }));
    expect(writtenRule(text).annotations?.s).toBe(template);
  });

  it('leaves templates that run no query, and text that merely says "query", byte for byte', () => {
    const template = 'query {{ $labels.query }} took {{ $value | humanizeDuration }} ({{ "query" }})';
    expect(enforceOnTemplateQueries(template, 'namespace', 'team-a')).toBe(template);
    expect(render(alertWith({ s: template })).verdict).toEqual(expect.objectContaining({ accepted: true }));
  });

  it('writes a rule file the real promtool accepts', async () => {
    const { text } = render(alertWith(
      { summary: '{{ query "sum(rate(http_requests_total{code=~\\"5..\\"}[5m]))" | first | value | humanize }}', raw: '{{ with query `secret_total{namespace="team-b"}` }}{{ . | first | value }}{{ end }}' },
      { worst: '{{ $q := "topk(1, load)" | query }}{{ range $q }}{{ .Labels.instance }}{{ end }}' },
    ));
    const dir = mkdtempSync(join(tmpdir(), 'promop-template-query-'));
    try {
      const file = join(dir, 'rules.yaml');
      writeFileSync(file, text ?? '');
      const result = await runPromtool(['check', 'rules', file]);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
