/**
 * Under enforcedNamespaceLabel, a team's alert annotation that queries Prometheus sees only the team's own series,
 * in a real Prometheus 3.16: team-a and team-b each record `secret_total` (the enforced label puts each in its
 * namespace), and team-a's alert annotations count and sum what `query "secret_total"` returns when the alert fires.
 * Without promop's rewrite of the query literal the annotation would count both teams' series.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { generate, RULES_DIR } from '@promop/config-generator';
import type { Prometheus, PrometheusRule } from '@promop/crds';
import { startPrometheus, type PrometheusProcess } from '@promop/testkit';

const rule = (namespace: string, name: string, spec: PrometheusRule['spec']): PrometheusRule =>
  ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { namespace, name, uid: `uid-${namespace}-${name}` }, spec }) as PrometheusRule;

describe("a team's alert template querying Prometheus under enforcedNamespaceLabel, in a real Prometheus", () => {
  let prometheus: PrometheusProcess;
  let dir: string;

  beforeAll(async () => {
    const prometheusObject: Prometheus = {
      apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { name: 'main', namespace: 'monitoring' },
      spec: { ruleSelector: {}, ruleNamespaceSelector: {}, evaluationInterval: '1s', enforcedNamespaceLabel: 'namespace' },
    } as Prometheus;
    const output = generate({
      prometheus: prometheusObject,
      serviceMonitors: [],
      podMonitors: [],
      prometheusRules: [
        rule('team-b', 'secrets', { groups: [{ name: 'b', interval: '1s', rules: [{ record: 'secret_total', expr: 'vector(42)' }] }] }),
        rule('team-a', 'own', { groups: [{ name: 'a', interval: '1s', rules: [{ record: 'secret_total', expr: 'vector(7)' }] }] }),
        rule('team-a', 'peek', {
          groups: [{
            name: 'peek', interval: '1s',
            rules: [{
              alert: 'Peek', expr: 'vector(1)',
              annotations: { count: '{{ query "secret_total" | len }}', sum: '{{ range query `sum(secret_total)` }}{{ .Value }}{{ end }}' },
            }],
          }],
        }),
      ],
      namespaces: [{ name: 'team-a', labels: {} }, { name: 'team-b', labels: {} }, { name: 'monitoring', labels: {} }],
      secrets: [],
      configMaps: [],
    });
    if (!output.ok) throw new Error(`did not render: ${JSON.stringify(output.prometheusProblems)}`);
    const rejected = output.verdicts.filter((verdict) => verdict.selected && !verdict.accepted);
    if (rejected.length > 0) throw new Error(`rejected: ${JSON.stringify(rejected)}`);
    dir = mkdtempSync(join(tmpdir(), 'promop-template-query-'));
    const rulesDir = join(dir, 'rules');
    for (const configMap of output.ruleConfigMaps) {
      for (const [file, text] of Object.entries(configMap.files)) {
        const path = join(rulesDir, configMap.name, file);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, text);
      }
    }
    writeFileSync(join(dir, 'prometheus.yaml'), output.configs[0]!.split(`${RULES_DIR}/`).join(`${rulesDir}/`));
    prometheus = await startPrometheus(join(dir, 'prometheus.yaml'), { POD_NAME: 'prometheus-main-0' });
  });

  afterAll(async () => {
    await prometheus?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("fires with annotations computed from the team's own series only", async () => {
    let annotations: Record<string, string> | undefined;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 500))) {
      const { alerts } = await prometheus.apiGet<{ alerts: Array<{ labels: Record<string, string>; annotations: Record<string, string> }> }>('/api/v1/alerts');
      const peek = alerts.find((alert) => alert.labels.alertname === 'Peek');
      // Both recording rules must have run once before the alert's annotations mean anything.
      if (peek && peek.annotations.count !== '0') {
        annotations = peek.annotations;
        break;
      }
    }
    expect(annotations).toEqual({ count: '1', sum: '7' });
  });

  it("still records the other team's series (the query was confined, not the data removed)", async () => {
    const result = await prometheus.apiGet<{ result: Array<{ metric: Record<string, string> }> }>('/api/v1/query?query=secret_total');
    expect(result.result.map((sample) => sample.metric.namespace).sort()).toEqual(['team-a', 'team-b']);
  });
});
