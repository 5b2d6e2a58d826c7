/**
 * reloadAndVerify against a real Prometheus 3.16, with the kubelet played by the test: it rewrites the config
 * file on disk (now, late, never, or wrongly) and promop must tell which happened. Every config scrapes only a
 * closed port on 127.0.0.1.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPrometheus, type PrometheusProcess } from '@promop/testkit';
import { PrometheusReloader } from './prometheus-reloader.ts';

/** A config scraping a closed loopback port once per job, with rule files from `rulesDir`. */
function configWithJobs(jobs: string[], rulesDir: string, scrapeInterval = '30s'): string {
  return [
    'global:',
    `  scrape_interval: ${scrapeInterval}`,
    '  evaluation_interval: 60s',
    '  external_labels:',
    '    prometheus_replica: ${POD_NAME}',
    'rule_files:',
    `- ${rulesDir}/*.yaml`,
    'scrape_configs:',
    ...jobs.flatMap((job) => [`- job_name: ${job}`, '  static_configs:', "  - targets: ['127.0.0.1:1']"]),
    '',
  ].join('\n');
}

function ruleFile(threshold: number): string {
  return `groups:\n- name: promop-test\n  rules:\n  - alert: TooManyUp\n    expr: sum(up) by (job) > ${threshold}\n    for: 5m\n    labels:\n      severity: warning\n  - record: job:up:sum\n    expr: sum by(job)(up)\n`;
}

/** The scrape pools, polled until they equal `expected` or 12 s pass. */
async function scrapePoolsOnceSettled(prometheus: PrometheusProcess, expected: string[]): Promise<string[]> {
  const deadline = Date.now() + 12_000;
  for (;;) {
    const { scrapePools } = await prometheus.apiGet<{ scrapePools: string[] }>('/api/v1/scrape_pools');
    if (JSON.stringify([...scrapePools].sort()) === JSON.stringify(expected) || Date.now() > deadline) return [...scrapePools].sort();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('promop reloading a real Prometheus after the kubelet updates its files', () => {
  let dir: string;
  let configFile: string;
  let rulesDir: string;
  let prometheus: PrometheusProcess;
  const reloader = new PrometheusReloader({ allowedNetworks: ['127.0.0.1'], initialDelayMs: 100, maxDelayMs: 400 });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'promop-reload-'));
    configFile = join(dir, 'prometheus.yaml');
    rulesDir = join(dir, 'rules');
    mkdirSync(rulesDir);
    writeFileSync(configFile, configWithJobs(['a'], rulesDir));
    prometheus = await startPrometheus(configFile, { POD_NAME: 'prometheus-main-0' });
  });

  afterAll(async () => {
    await prometheus?.stop();
    await reloader.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads readiness, build and runtime info from the same client the reloader uses', async () => {
    const client = reloader.client(prometheus.url);
    expect(await client.ready()).toEqual({ ok: true, value: true });
    expect(await client.buildInfo()).toMatchObject({ ok: true, value: { version: '3.16.0' } });
    expect(await client.runtimeInfo()).toMatchObject({ ok: true, value: { reloadConfigSuccess: true, lastConfigTime: expect.stringMatching(/^\d{4}-/) } });
    expect(await client.ruleGroups()).toEqual({ ok: true, value: [] });
  });

  it('verifies config B once it is on disk, and Prometheus then has scrape pool b', async () => {
    const configB = configWithJobs(['a', 'b'], rulesDir);
    writeFileSync(configFile, configB);
    const outcome = await reloader.reloadAndVerify({ baseUrl: prometheus.url, expectedConfigText: configB, timeoutMs: 10_000 });
    expect(outcome).toMatchObject({ outcome: 'verified', attempts: 1 });
    // Scrape pools appear when service discovery first delivers targets (throttled to one update per 5 s).
    expect(await scrapePoolsOnceSettled(prometheus, ['a', 'b'])).toEqual(['a', 'b']);
  });

  it('waits for a file the kubelet writes late, and verifies it then', async () => {
    const configC = configWithJobs(['a', 'b', 'c'], rulesDir, '15s');
    const lateWrite = setTimeout(() => writeFileSync(configFile, configC), 800);
    try {
      const outcome = await reloader.reloadAndVerify({ baseUrl: prometheus.url, expectedConfigText: configC, timeoutMs: 10_000 });
      expect(outcome.outcome).toBe('verified');
      expect(outcome.attempts).toBeGreaterThan(1);
    } finally {
      clearTimeout(lateWrite);
    }
  });

  it('reports an invalid config as rejected with Prometheus\' reason, and Prometheus keeps the previous one', async () => {
    const previous = configWithJobs(['a', 'b'], rulesDir);
    writeFileSync(configFile, previous);
    expect((await reloader.reloadAndVerify({ baseUrl: prometheus.url, expectedConfigText: previous, timeoutMs: 10_000 })).outcome).toBe('verified');

    const invalid = configWithJobs(['a', 'b', 'broken'], rulesDir, '30x');
    writeFileSync(configFile, invalid);
    const outcome = await reloader.reloadAndVerify({ baseUrl: prometheus.url, expectedConfigText: invalid, timeoutMs: 10_000 });
    expect(outcome).toMatchObject({ outcome: 'rejected', attempts: 1 });
    expect(outcome.outcome === 'rejected' && outcome.reason).toMatch(/unknown unit "x" in duration "30x"/);
    const loaded = await prometheus.apiGet<{ yaml: string }>('/api/v1/status/config');
    expect([...loaded.yaml.matchAll(/job_name: (\w+)/g)].map((m) => m[1])).toEqual(['a', 'b']);
    expect(await prometheus.apiGet('/api/v1/status/runtimeinfo')).toMatchObject({ reloadConfigSuccess: false });
    writeFileSync(configFile, previous);
  });

  it('reports stale when the expected config never reaches the disk before the deadline', async () => {
    const onDisk = configWithJobs(['a', 'b'], rulesDir);
    writeFileSync(configFile, onDisk);
    const notYetWritten = configWithJobs(['a', 'b', 'd'], rulesDir);
    const started = Date.now();
    const outcome = await reloader.reloadAndVerify({ baseUrl: prometheus.url, expectedConfigText: notYetWritten, timeoutMs: 1_500 });
    expect(outcome.outcome).toBe('stale');
    expect(outcome.outcome === 'stale' && outcome.difference).toMatch(/scrape_configs/);
    expect(outcome.attempts).toBeGreaterThan(1);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('sees a rule change (a new threshold) that leaves the config unchanged', async () => {
    const config = configWithJobs(['a', 'b'], rulesDir);
    writeFileSync(configFile, config);
    const ruleFilePath = join(rulesDir, 'monitoring-team.yaml');
    writeFileSync(ruleFilePath, ruleFile(5));
    const verified = await reloader.reloadAndVerify({ baseUrl: prometheus.url, expectedConfigText: config, expectedRuleFiles: { [ruleFilePath]: ruleFile(5) }, timeoutMs: 10_000 });
    expect(verified.outcome).toBe('verified');

    const stale = await reloader.reloadAndVerify({ baseUrl: prometheus.url, expectedConfigText: config, expectedRuleFiles: { [ruleFilePath]: ruleFile(6) }, timeoutMs: 1_000 });
    expect(stale.outcome).toBe('stale');
    expect(stale.outcome === 'stale' && stale.difference).toMatch(/TooManyUp.*expression differs/);
  });

  it('reports a bad rule file as rejected', async () => {
    const config = configWithJobs(['a', 'b'], rulesDir);
    writeFileSync(join(rulesDir, 'broken.yaml'), 'groups:\n- name: broken\n  rules:\n  - record: x\n    expr: rate(\n');
    try {
      const outcome = await reloader.reloadAndVerify({ baseUrl: prometheus.url, expectedConfigText: config, timeoutMs: 5_000 });
      expect(outcome.outcome).toBe('rejected');
      expect(outcome.outcome === 'rejected' && outcome.reason).toMatch(/failed to reload config/);
    } finally {
      rmSync(join(rulesDir, 'broken.yaml'));
    }
  });

  it('reports a stopped Prometheus as unreachable, quickly', async () => {
    const url = prometheus.url;
    await prometheus.stop();
    const started = Date.now();
    const outcome = await reloader.reloadAndVerify({ baseUrl: url, expectedConfigText: configWithJobs(['a'], rulesDir), timeoutMs: 30_000 });
    expect(outcome).toMatchObject({ outcome: 'unreachable', attempts: 1 });
    expect(outcome.outcome === 'unreachable' && outcome.reason).toMatch(/ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
