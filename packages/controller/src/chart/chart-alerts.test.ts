/**
 * The chart's optional monitoring of promop itself (`serviceMonitor.enabled`, `prometheusRule.enabled`): what
 * `helm template` renders, the alerting rules through the real promtool (`check rules`, and `test rules` with one
 * unit test per alert: promop-alerts.promtool-test.yaml), and both objects through promop's own checks, as a
 * Prometheus managed by promop would select them.
 */
import { generate } from '@promop/config-generator';
import type { Prometheus, PrometheusRule, ServiceMonitor } from '@promop/crds';
import { runPromtool, helm } from '@promop/testkit';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dump, loadAll } from 'js-yaml';
import { CHART_DIR } from './chart-files.ts';

const NAMESPACE = 'promop-system';
const RULE_TESTS = join(dirname(fileURLToPath(import.meta.url)), 'promop-alerts.promtool-test.yaml');

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
}

async function render(...args: string[]): Promise<{ code: number; manifests: Manifest[]; stderr: string }> {
  const result = await helm(['template', 'rel', CHART_DIR, '--namespace', NAMESPACE, ...args]);
  const manifests = result.code === 0 ? (loadAll(result.stdout) as (Manifest | null)[]).filter((m): m is Manifest => m !== null) : [];
  return { code: result.code, manifests, stderr: result.stderr };
}
const only = (manifests: Manifest[], kind: string) => {
  const found = manifests.filter((m) => m.kind === kind);
  expect(found).toHaveLength(1);
  return found[0] as Manifest;
};

describe('the chart with serviceMonitor and prometheusRule enabled', () => {
  let manifests: Manifest[];
  let workDir: string;
  beforeAll(async () => {
    const result = await render('--set', 'serviceMonitor.enabled=true', '--set', 'prometheusRule.enabled=true', '--set', 'serviceMonitor.interval=30s');
    expect(result).toMatchObject({ code: 0 });
    manifests = result.manifests;
    workDir = mkdtempSync(join(tmpdir(), 'promop-alerts-'));
  }, 60_000);
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('passes helm lint --strict with both enabled', async () => {
    const result = await helm(['lint', '--strict', CHART_DIR, '--set', 'serviceMonitor.enabled=true', '--set', 'prometheusRule.enabled=true', '--set', 'serviceMonitor.interval=30s']);
    expect({ code: result.code, output: result.stdout + result.stderr }).toEqual({ code: 0, output: expect.stringContaining('0 chart(s) failed') });
  }, 60_000);

  it('renders a ServiceMonitor that selects the metrics Service by its labels, its namespace and its `metrics` port', () => {
    const monitor = only(manifests, 'ServiceMonitor');
    const service = only(manifests, 'Service') as Manifest & { spec: { ports: { name: string }[] } };
    const { selector, namespaceSelector, endpoints } = monitor.spec as { selector: { matchLabels: Record<string, string> }; namespaceSelector: unknown; endpoints: unknown[] };
    expect(service.metadata.labels).toMatchObject(selector.matchLabels);
    expect(namespaceSelector).toEqual({ matchNames: [NAMESPACE] });
    expect(service.spec.ports.map((p) => p.name)).toContain('metrics');
    expect(endpoints).toEqual([{ port: 'metrics', path: '/metrics', interval: '30s' }]);
    expect(service.metadata.name).toBe('rel-promop-metrics');
  });

  it('renders alerting rules that promtool checks without a complaint', async () => {
    const rule = only(manifests, 'PrometheusRule');
    const file = join(workDir, 'rules.yaml');
    writeFileSync(file, dump({ groups: (rule.spec as { groups: unknown }).groups }));
    const result = await runPromtool(['check', 'rules', file]);
    expect({ code: result.code, output: result.stdout + result.stderr }).toEqual({ code: 0, output: expect.stringContaining('SUCCESS: 8 rules found') });
  }, 30_000);

  it('fires every alert in the situation it is about, and not in the healthy one (promtool test rules)', async () => {
    const rule = only(manifests, 'PrometheusRule');
    writeFileSync(join(workDir, 'rules.yaml'), dump({ groups: (rule.spec as { groups: unknown }).groups }));
    copyFileSync(RULE_TESTS, join(workDir, 'tests.yaml'));
    const result = await runPromtool(['test', 'rules', 'tests.yaml'], { cwd: workDir });
    expect({ code: result.code, output: result.stdout + result.stderr }).toEqual({ code: 0, output: expect.stringContaining('SUCCESS') });
  }, 30_000);

  it('has a unit test for every alert it defines', () => {
    const rule = only(manifests, 'PrometheusRule');
    const alerts = (rule.spec as { groups: { rules: { alert?: string }[] }[] }).groups.flatMap((g) => g.rules.map((r) => r.alert)).sort();
    const tests = (loadAll(readText(RULE_TESTS))[0] as { tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[] }).tests;
    const tested = new Set(tests.flatMap((t) => t.alert_rule_test.filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname)));
    expect(alerts).toEqual(['PromopConfigNotLoaded', 'PromopMultipleLeaders', 'PromopNoLeader', 'PromopPrometheusNotReconciled', 'PromopReconcileErrors', 'PromopRejectedResources', 'PromopReloadFailures', 'PromopWatchRestartStorm']);
    expect(alerts.filter((alert) => alert !== undefined && !tested.has(alert))).toEqual([]);
  });

  it('passes promop\'s own checks: a Prometheus managed by promop selects both and rejects neither', () => {
    const prometheus = {
      apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { name: 'self', namespace: NAMESPACE, uid: 'p-1' },
      spec: { serviceMonitorSelector: {}, ruleSelector: {} },
    } as unknown as Prometheus;
    const withUid = <T extends Manifest>(m: T) => ({ ...m, metadata: { ...m.metadata, uid: `${m.kind}-1` } });
    const output = generate({
      prometheus,
      serviceMonitors: [withUid(only(manifests, 'ServiceMonitor')) as unknown as ServiceMonitor],
      podMonitors: [],
      prometheusRules: [withUid(only(manifests, 'PrometheusRule')) as unknown as PrometheusRule],
      namespaces: [{ name: NAMESPACE, labels: {} }],
      secrets: [],
      configMaps: [],
    });
    const verdicts = output.verdicts.filter((v) => v.resource.kind !== 'Prometheus');
    expect(verdicts).toEqual([
      expect.objectContaining({ resource: expect.objectContaining({ kind: 'ServiceMonitor', name: 'rel-promop' }), selected: true, accepted: true }),
      expect.objectContaining({ resource: expect.objectContaining({ kind: 'PrometheusRule', name: 'rel-promop' }), selected: true, accepted: true }),
    ]);
    expect(output.ok).toBe(true);
    // The scrape job is named after the ServiceMonitor; its `job` label comes from the Service (the rules' default selector).
    expect(output.configs[0]).toContain(`job_name: serviceMonitor/${NAMESPACE}/rel-promop/0`);
  });
});

describe('the chart\'s self-monitoring values', () => {
  it('render nothing of it by default', async () => {
    const { manifests } = await render();
    expect(manifests.filter((m) => m.kind === 'ServiceMonitor' || m.kind === 'PrometheusRule')).toEqual([]);
  }, 60_000);

  it('use prometheusRule.jobSelector in every expression, and add the labels a ruleSelector needs', async () => {
    const { manifests } = await render('--set', 'prometheusRule.enabled=true', '--set', 'prometheusRule.jobSelector=job="promop"', '--set', 'prometheusRule.labels.role=alert-rules');
    const rule = only(manifests, 'PrometheusRule');
    expect(rule.metadata.labels).toMatchObject({ role: 'alert-rules' });
    const exprs = (rule.spec as { groups: { rules: { expr: string }[] }[] }).groups.flatMap((g) => g.rules.map((r) => r.expr));
    expect(exprs).toHaveLength(8);
    for (const expr of exprs) expect([expr, expr.includes('job="promop"') && !expr.includes('rel-promop-metrics')]).toEqual([expr, true]);
  }, 60_000);

  it('refuse a ServiceMonitor without the metrics Service it would scrape', async () => {
    const result = await render('--set', 'serviceMonitor.enabled=true', '--set', 'metrics.service.enabled=false');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('serviceMonitor.enabled needs metrics.service.enabled');
  }, 60_000);

  it('refuse an interval that is not a Prometheus duration, naming the value', async () => {
    const result = await render('--set', 'serviceMonitor.enabled=true', '--set', 'serviceMonitor.interval=30 seconds');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('/serviceMonitor/interval');
  }, 60_000);
});

function readText(path: string): string {
  return readFileSync(path, 'utf8');
}
