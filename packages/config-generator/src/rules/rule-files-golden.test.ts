/**
 * Golden rule files: what promop writes for representative PrometheusRules, reviewed like code,
 * and accepted by the real `promtool check rules`. `UPDATE_GOLDEN=1` rewrites the files.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Prometheus, PrometheusRule } from '@promop/crds';
import { PROMTOOLS, promtoolsAsNewAs, runPromtool } from '@promop/testkit';
import { parser } from '@prometheus-io/lezer-promql';
import { load } from 'js-yaml';
import { parsePrometheusVersion } from '../prometheus-version.ts';
import { renderRules, type RenderRulesInput } from './index.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const GOLDEN_DIR = join(HERE, '..', '..', 'test', 'golden', 'rules');
const CORPUS_DIR = join(HERE, '..', '..', '..', '..', '..', 'shared', 'corpus', 'kube-prometheus');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const prometheus = { metadata: { namespace: 'monitoring', name: 'main' }, spec: {} } as unknown as Prometheus;
const V3 = parsePrometheusVersion(undefined)!;

function prometheusRule(namespace: string, name: string, spec: unknown): PrometheusRule {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { namespace, name, uid: `uid-${name}` }, spec } as unknown as PrometheusRule;
}

/** The single rule file renderRules produces for `input` (asserting it was accepted). */
function renderOne(input: Omit<RenderRulesInput, 'prometheus'>): string {
  const output = renderRules({ prometheus, ...input });
  for (const verdict of output.verdicts) expect(verdict).toMatchObject({ selected: true, accepted: true });
  const files = output.ruleConfigMaps.flatMap((configMap) => Object.values(configMap.files));
  expect(files).toHaveLength(1);
  return files[0]!;
}

/** Each golden rule file and the Prometheus release it is rendered for. */
const checkedFiles: { file: string; version: string }[] = [];

function expectGolden(fileName: string, text: string, version = V3.text): void {
  const path = join(GOLDEN_DIR, fileName);
  if (UPDATE) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  expect(text).toBe(readFileSync(path, 'utf8'));
  checkedFiles.push({ file: path, version });
}

describe('golden rule files', () => {
  it('alerting and recording rules: keys sorted as prometheus-operator writes them', () => {
    const spec = {
      groups: [
        {
          rules: [
            { labels: { team: 'a', severity: 'critical' }, for: '10m', expr: 'up{job="api"} == 0', annotations: { summary: 'API down', description: '{{ $labels.instance }} is down' }, alert: 'ApiDown' },
            { expr: 'sum by (job) (rate(http_requests_total[5m]))', record: 'job:http_requests:rate5m', labels: { source: 'recorded' } },
          ],
          name: 'api',
          interval: '1m',
        },
      ],
    };
    expectGolden('alert-and-record.yaml', renderOne({ rules: [prometheusRule('team-a', 'api', spec)], version: V3 }));
  });

  it('every group and rule field on a Prometheus that supports them all', () => {
    const spec = {
      groups: [
        {
          name: 'all-fields',
          interval: '30s',
          limit: 100,
          query_offset: '1m',
          labels: { tier: 'backend' },
          partial_response_strategy: 'abort',
          rules: [{ alert: 'Flapping', expr: 'changes(up[10m]) > 3', for: '5m', keep_firing_for: '15m', labels: { severity: 'warning' } }],
        },
      ],
    };
    expectGolden('all-fields-v3.yaml', renderOne({ rules: [prometheusRule('team-a', 'all', spec)], version: V3 }));
    expectGolden('all-fields-v2.30.yaml', renderOne({ rules: [prometheusRule('team-a', 'all', spec)], version: parsePrometheusVersion('v2.30.0')! }), 'v2.30.0');
  });

  it('multi-line expressions with comments, numbers, templates and characters YAML cares about', () => {
    const spec = {
      groups: [
        {
          name: 'text',
          rules: [
            { alert: 'Multiline', expr: '# a comment line\nsum by (job) (\n  rate(errors_total{code=~"5.."}[5m])\n)\n> 0.1\n', annotations: { description: 'value: {{ $value | humanizePercentage }}; "quoted" & <html>' } },
            { alert: 'AlwaysOn', expr: 1, annotations: { summary: 'yes: true' } },
            { record: 'colon:name:x', expr: 'vector(1)' },
          ],
        },
        { name: 'empty', rules: [] },
      ],
    };
    expectGolden('text-and-numbers.yaml', renderOne({ rules: [prometheusRule('team-a', 'text', spec)], version: V3 }));
  });

  it('UTF-8 label and metric names on Prometheus 3', () => {
    const spec = { groups: [{ name: 'utf8', rules: [{ record: 'http.server.requests:rate5m', expr: 'sum(rate({"http.server.requests"}[5m]))', labels: { 'service.name': 'api' } }] }] };
    expectGolden('utf8-names.yaml', renderOne({ rules: [prometheusRule('team-a', 'utf8', spec)], version: V3 }));
  });

  it('enforcedNamespaceLabel on hand-written expressions', () => {
    const spec = {
      groups: [
        {
          name: 'enforced',
          rules: [
            { alert: 'Spoofed', expr: 'up{namespace="other", job="a"} == 0', labels: { namespace: 'other' } },
            { record: 'job:errors:ratio', expr: 'sum by (job) (rate(errors_total[5m])) / on (job) group_left sum by (job) (rate(requests_total[5m]))' },
            { alert: 'Subquery', expr: 'max_over_time(deriv(x[5m])[1h:1m] offset 5m) > 0 and absent(y) unless {__name__=~"z.*"}' },
          ],
        },
      ],
    };
    expectGolden('enforced-namespace.yaml', renderOne({ rules: [prometheusRule('team-a', 'enforced', spec)], version: V3, enforcedNamespaceLabel: 'namespace' }));
  });
});

const corpusRules = readdirSync(CORPUS_DIR)
  .filter((file) => file.endsWith('-prometheusRule.yaml'))
  .sort()
  .map((file) => ({ file, rule: load(readFileSync(join(CORPUS_DIR, file), 'utf8')) as PrometheusRule }));

// Small enough to review as goldens; the larger files get the structural check below.
const REVIEWED_CORPUS_FILES = new Set(['alertmanager-prometheusRule.yaml', 'grafana-prometheusRule.yaml', 'kubePrometheus-prometheusRule.yaml', 'kubeStateMetrics-prometheusRule.yaml', 'prometheusOperator-prometheusRule.yaml']);

describe('enforcedNamespaceLabel on the kube-prometheus rules', () => {
  const output = renderRules({ prometheus, rules: corpusRules.map(({ rule }) => rule), version: V3, enforcedNamespaceLabel: 'namespace' });
  const files = Object.assign({}, ...output.ruleConfigMaps.map((configMap) => configMap.files)) as Record<string, string>;
  const fileOf = (rule: PrometheusRule): string => files[`monitoring-${rule.metadata!.name}-.yaml`]!;

  // prometheus-prometheusRule.yaml builds one alert's query with printf (PrometheusRemoteWriteDesiredShards): a query
  // made while the alert fires cannot carry the enforced matcher, so that object is refused, with the reason.
  const accepted = new Set(output.verdicts.filter((verdict) => verdict.selected && verdict.accepted).map((verdict) => verdict.resource.name));
  const acceptedRules = corpusRules.filter(({ rule }) => accepted.has(rule.metadata!.name!));

  it('accepts 7 of the 8 rule objects and refuses the one whose alert template builds a query at alert time', () => {
    expect(corpusRules).toHaveLength(8);
    expect(acceptedRules.map(({ file }) => file)).toEqual(corpusRules.map(({ file }) => file).filter((file) => file !== 'prometheus-prometheusRule.yaml'));
    const refused = output.verdicts.find((verdict) => verdict.resource.name === 'prometheus-k8s-prometheus-rules');
    expect(refused?.selected && !refused.accepted && refused.reason).toMatch(
      /^spec\.groups\[0\]\.rules\[\d+\]\.annotations\.description: the query template function at column \d+ runs PromQL when the alert fires and namespace="monitoring" \(enforcedNamespaceLabel\) must be added to it, but its argument is built while the alert fires/,
    );
  });

  it.each(corpusRules.filter(({ file }) => REVIEWED_CORPUS_FILES.has(file)))('$file matches its golden', ({ file, rule }) => {
    expectGolden(join('kube-prometheus-enforced', file), fileOf(rule));
  });

  it('leaves exactly one namespace="monitoring" matcher in every vector selector of every expression', () => {
    let selectors = 0;
    for (const { rule } of acceptedRules) {
      const document = load(fileOf(rule)) as { groups: { rules: { expr: string; labels: Record<string, string> }[] }[] };
      for (const renderedRule of document.groups.flatMap((group) => group.rules)) {
        expect(renderedRule.labels.namespace).toBe('monitoring');
        for (const matchers of namespaceMatchersPerSelector(renderedRule.expr)) {
          expect(matchers).toEqual(['namespace="monitoring"']);
          selectors++;
        }
      }
    }
    expect(selectors).toBeGreaterThan(300);
  });

  it('keeps each expression otherwise unchanged', () => {
    const plain = renderRules({ prometheus, rules: corpusRules.map(({ rule }) => rule), version: V3 });
    const plainFiles = Object.assign({}, ...plain.ruleConfigMaps.map((configMap) => configMap.files)) as Record<string, string>;
    for (const name of Object.keys(plainFiles).filter((file) => file in files)) {
      const before = (load(plainFiles[name]!) as { groups: { rules: { expr: string }[] }[] }).groups.flatMap((group) => group.rules.map((rule) => rule.expr));
      const after = (load(files[name]!) as { groups: { rules: { expr: string }[] }[] }).groups.flatMap((group) => group.rules.map((rule) => rule.expr));
      // Removing every namespace matcher from both sides must give the same text.
      const strip = (expr: string): string => expr.replace(/,?namespace=~?"[^"]*"/g, '').replace(/\{,/g, '{').replace(/\{\}/g, '');
      expect(after.map(strip)).toEqual(before.map(strip));
    }
  });

  it('writes files promtool accepts (written to a temporary directory)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'promop-enforced-'));
    try {
      const paths = Object.entries(files).map(([name, text]) => {
        writeFileSync(join(dir, name), text);
        return join(dir, name);
      });
      const result = await runPromtool(['check', 'rules', ...paths]);
      expect(result).toMatchObject({ code: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('promtool', () => {
  it('of each built release as new as the one a golden rule file is rendered for, in its major release, accepts it (2.55.1 the v2.30 one, 3.16.0 the others)', async () => {
    expect(checkedFiles.length).toBeGreaterThanOrEqual(11);
    const failures: Record<string, string> = {};
    const checkedBy: string[] = [];
    for (const tool of PROMTOOLS) {
      const files = checkedFiles.filter(({ version }) => promtoolsAsNewAs(version).includes(tool)).map(({ file }) => file);
      if (files.length === 0) continue;
      checkedBy.push(tool);
      const result = await runPromtool(['check', 'rules', ...files], { tool });
      if (result.code !== 0) failures[tool] = result.stdout + result.stderr;
    }
    expect(checkedBy).toEqual(['promtool', 'promtool-v2']);
    expect(failures).toEqual({});
  });
});

/** For each vector selector of `expr`: its matchers on `namespace`, read back from the syntax tree. */
function namespaceMatchersPerSelector(expr: string): string[][] {
  const result: string[][] = [];
  parser.parse(expr).iterate({
    enter(node) {
      if (node.name !== 'VectorSelector') return undefined;
      const matchers: string[] = [];
      const braces = node.node.getChild('LabelMatchers');
      for (let child = braces?.firstChild; child; child = child.nextSibling) {
        const text = expr.slice(child.from, child.to);
        if (/^"?namespace"?\s*(=|!=|=~|!~)/.test(text)) matchers.push(text);
      }
      result.push(matchers);
      return false;
    },
  });
  return result;
}
