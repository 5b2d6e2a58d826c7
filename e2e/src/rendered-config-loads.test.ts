/**
 * What promop renders is not only accepted by promtool but loaded by a real Prometheus 3.16:
 * the kube-prometheus stack's config and rule files load, every job becomes a scrape pool, and
 * the replica label is filled in by Prometheus itself from POD_NAME (promop has no
 * config-reloader sidecar; docs/compatibility.md explains the choice).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { load } from 'js-yaml';
import { RULES_DIR } from '@promop/config-generator';
import { readManifests, renderManifests } from '@promop/controller';
import { isLoopback, REPO_ROOT, startPrometheus, tcpSockets, type PrometheusProcess, createPki } from '@promop/testkit';

const IN_POD_SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
const CORPUS = resolve(REPO_ROOT, '..', 'shared', 'corpus', 'kube-prometheus');

describe('the kube-prometheus stack rendered by promop, loaded into a real Prometheus', () => {
  let prometheus: PrometheusProcess;
  let expectedJobs: string[];
  let expectedGroups: number;
  let dir: string;

  beforeAll(async () => {
    const result = renderManifests(await readManifests([CORPUS]));
    const rendered = result.prometheuses.find((p) => p.prometheus.name === 'k8s');
    const output = rendered?.output;
    if (!output?.ok) throw new Error(`kube-prometheus did not render: ${JSON.stringify(rendered?.verdicts)}`);

    dir = mkdtempSync(join(tmpdir(), 'promop-load-'));
    // The config names in-pod paths: the rule directory, and (kube-prometheus' kubelet and
    // apiserver monitors) the pod's ServiceAccount CA and token. Point them at files written here.
    const rulesDir = join(dir, 'rules');
    const serviceAccountDir = join(dir, 'serviceaccount');
    mkdirSync(serviceAccountDir);
    mkdirSync(join(dir, 'pki'));
    copyFileSync(createPki(join(dir, 'pki')).caCert, join(serviceAccountDir, 'ca.crt'));
    writeFileSync(join(serviceAccountDir, 'token'), 'not-a-real-token');
    const config = output.configs[0]!
      .split(`${RULES_DIR}/`).join(`${rulesDir}/`)
      .split(`${IN_POD_SERVICE_ACCOUNT_DIR}/`).join(`${serviceAccountDir}/`);
    writeFileSync(join(dir, 'prometheus.yaml'), config);
    expectedGroups = 0;
    for (const configMap of output.ruleConfigMaps) {
      for (const [file, text] of Object.entries(configMap.files)) {
        const path = join(rulesDir, configMap.name, file);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, text);
        expectedGroups += (load(text) as { groups: unknown[] }).groups.length;
      }
    }
    expectedJobs = [...config.matchAll(/^- job_name: (.+)$/gm)].map((m) => m[1]!).sort();
    prometheus = await startPrometheus(join(dir, 'prometheus.yaml'), { POD_NAME: 'prometheus-k8s-0' });
  });

  afterAll(async () => {
    await prometheus?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fills the replica external label from POD_NAME', async () => {
    const { yaml } = await prometheus.apiGet<{ yaml: string }>('/api/v1/status/config');
    expect(yaml).toContain('prometheus_replica: prometheus-k8s-0');
    expect(yaml).toContain('prometheus: monitoring/k8s');
    expect(yaml).not.toContain('POD_NAME');
  });

  it('turns every ServiceMonitor endpoint into a scrape pool', async () => {
    expect(expectedJobs).toHaveLength(22); // 13 ServiceMonitors, 22 endpoints
    // The scrape manager applies a loaded config asynchronously, shortly after /-/ready.
    let pools: string[] = [];
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      pools = (await prometheus.apiGet<{ scrapePools: string[] }>('/api/v1/scrape_pools')).scrapePools.sort();
      if (pools.length === expectedJobs.length) break;
    }
    expect(pools).toEqual(expectedJobs);
  });

  it('listens on loopback only and has dialled nothing else (no in-cluster discovery outside a cluster)', () => {
    const sockets = tcpSockets(prometheus.pid);
    expect(sockets.filter((socket) => socket.state === 'listen').map((socket) => socket.local)).toEqual(['127.0.0.1']);
    expect(sockets.filter((socket) => socket.state === 'established' && !isLoopback(socket.remote))).toEqual([]);
  });

  it('loads every rule group of the 8 PrometheusRules', async () => {
    const { groups } = await prometheus.apiGet<{ groups: { name: string; rules: unknown[] }[] }>('/api/v1/rules');
    expect(expectedGroups).toBeGreaterThan(20);
    expect(groups).toHaveLength(expectedGroups);
    expect(groups.every((group) => group.rules.length > 0)).toBe(true);
  });
});
