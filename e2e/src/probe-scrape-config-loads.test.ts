/**
 * Probes and ScrapeConfigs rendered by promop are loaded by a real Prometheus 3.16, not only accepted by promtool:
 * each becomes a scrape pool, a static Probe target is scraped through the prober with `?module=…&target=…`, and
 * file discovery reads the targets file. Every address is on loopback (nothing here may dial outside).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '@promop/config-generator';
import type { Probe, Prometheus, ScrapeConfig } from '@promop/crds';
import { isLoopback, startPrometheus, tcpSockets, type PrometheusProcess } from '@promop/testkit';

const NAMESPACE = 'team-a';

const probe = (name: string, spec: Probe['spec']): Probe => ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'Probe', metadata: { name, namespace: NAMESPACE }, spec });
const scrapeConfig = (name: string, spec: ScrapeConfig['spec']): ScrapeConfig => ({ apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'ScrapeConfig', metadata: { name, namespace: NAMESPACE }, spec });

describe('Probes and ScrapeConfigs rendered by promop, loaded into a real Prometheus', () => {
  let prometheus: PrometheusProcess;
  let dir: string;
  let jobs: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'promop-probe-load-'));
    const targetsFile = join(dir, 'targets.json');
    writeFileSync(targetsFile, JSON.stringify([{ targets: ['127.0.0.1:9'], labels: { from: 'file' } }]));
    const prometheusObject: Prometheus = {
      apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { name: 'main', namespace: 'monitoring' },
      spec: { probeSelector: {}, probeNamespaceSelector: {}, scrapeConfigSelector: {}, scrapeConfigNamespaceSelector: {}, enforcedNamespaceLabel: 'namespace' },
    };
    const output = generate({
      prometheus: prometheusObject,
      serviceMonitors: [],
      podMonitors: [],
      probes: [
        probe('website', { prober: { url: '127.0.0.1:19115' }, module: 'http_2xx', targets: { staticConfig: { static: ['http://127.0.0.1:8080/health'], labels: { env: 'test' } } } }),
        probe('ingresses', { prober: { url: '127.0.0.1:19115' }, targets: { ingress: { selector: { matchLabels: { probe: 'yes' } } } } }),
      ],
      scrapeConfigs: [
        scrapeConfig('static-and-file', {
          staticConfigs: [{ targets: ['127.0.0.1:9'], labels: { from: 'static' } }],
          fileSDConfigs: [{ files: [targetsFile], refreshInterval: '30s' }],
          basicAuth: { username: { name: 'creds', key: 'user' }, password: { name: 'creds', key: 'password' } },
        }),
        scrapeConfig('discovered', {
          httpSDConfigs: [{ url: 'http://127.0.0.1:9/targets' }],
          consulSDConfigs: [{ server: '127.0.0.1:9', services: ['web'] }],
          kubernetesSDConfigs: [{ role: 'Pod', apiServer: 'https://127.0.0.1:9', namespaces: { names: [NAMESPACE] } }],
        }),
      ],
      prometheusRules: [],
      namespaces: [{ name: NAMESPACE, labels: {} }, { name: 'monitoring', labels: {} }],
      secrets: [{ namespace: NAMESPACE, name: 'creds', data: { user: 'scraper', password: 'not-secret-here' } }],
      configMaps: [],
    });
    if (!output.ok) throw new Error(`did not render: ${JSON.stringify(output.prometheusProblems)}`);
    const rejected = output.verdicts.filter((verdict) => verdict.selected && !verdict.accepted);
    if (rejected.length > 0) throw new Error(`rejected: ${JSON.stringify(rejected)}`);
    const config = output.configs[0] ?? '';
    jobs = [...config.matchAll(/^- job_name: (.+)$/gm)].map((m) => m[1] ?? '').sort();
    writeFileSync(join(dir, 'prometheus.yaml'), config);
    prometheus = await startPrometheus(join(dir, 'prometheus.yaml'), { POD_NAME: 'prometheus-main-0' });
  });

  afterAll(async () => {
    await prometheus?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('turns every Probe and ScrapeConfig into a scrape pool', async () => {
    expect(jobs).toEqual([`probe/${NAMESPACE}/ingresses`, `probe/${NAMESPACE}/website`, `scrapeConfig/${NAMESPACE}/discovered`, `scrapeConfig/${NAMESPACE}/static-and-file`]);
    let pools: string[] = [];
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      pools = (await prometheus.apiGet<{ scrapePools: string[] }>('/api/v1/scrape_pools')).scrapePools.sort();
      if (pools.length === jobs.length) break;
    }
    expect(pools).toEqual(jobs);
  });

  it('scrapes the static Probe target through the prober, labelled with the target and the Probe namespace', async () => {
    type Target = { scrapePool: string; scrapeUrl: string; labels: Record<string, string> };
    const targetsOf = async (pool: string) => (await prometheus.apiGet<{ activeTargets: Target[] }>(`/api/v1/targets?scrapePool=${encodeURIComponent(pool)}`)).activeTargets;
    let targets: Target[] = [];
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      targets = await targetsOf(`probe/${NAMESPACE}/website`);
      if (targets.length > 0) break;
    }
    expect(targets).toHaveLength(1);
    const url = new URL(targets[0]?.scrapeUrl ?? 'http://invalid/');
    expect([url.host, url.pathname, url.searchParams.get('module'), url.searchParams.get('target')]).toEqual(['127.0.0.1:19115', '/probe', 'http_2xx', 'http://127.0.0.1:8080/health']);
    expect(targets[0]?.labels).toMatchObject({ instance: 'http://127.0.0.1:8080/health', namespace: NAMESPACE, env: 'test', job: `probe/${NAMESPACE}/website` });
  });

  it('discovers the ScrapeConfig targets of its static list and of its file', async () => {
    type Target = { labels: Record<string, string> };
    let targets: Target[] = [];
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      targets = (await prometheus.apiGet<{ activeTargets: Target[] }>(`/api/v1/targets?scrapePool=${encodeURIComponent(`scrapeConfig/${NAMESPACE}/static-and-file`)}`)).activeTargets;
      if (targets.length === 2) break;
    }
    expect(targets.map((target) => target.labels.from).sort()).toEqual(['file', 'static']);
    expect(targets.every((target) => target.labels.namespace === NAMESPACE)).toBe(true);
  });

  it('has dialled nothing outside loopback', () => {
    const sockets = tcpSockets(prometheus.pid);
    expect(sockets.filter((socket) => socket.state === 'established' && !isLoopback(socket.remote))).toEqual([]);
  });
});
