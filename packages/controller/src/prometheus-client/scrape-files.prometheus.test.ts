/**
 * Configurations whose jobs live in scrape files, loaded by a real Prometheus 3.16 with the files laid out as the
 * pod mounts them (prometheus.yaml and the scrape files side by side in the config directory), and the kubelet
 * played by the test: it writes the new files now, late, or leaves a scrape file out. promop must verify a
 * complete load, and see a listed scrape file that is not on disk although prometheus.yaml itself is current.
 *
 * The second part is the issue's scale: 10,000 ServiceMonitors of two endpoints (20,000 jobs),
 * generated, loaded and verified, with the time each step takes printed. Outside a cluster the jobs'
 * kubernetes_sd_configs discover (and dial) nothing.
 */
import { mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_DIR, generate, type GeneratorInput, type GeneratorOutput } from '@promop/config-generator';
import type { Prometheus, ServiceMonitor } from '@promop/crds';
import { startPrometheus, type PrometheusProcess } from '@promop/testkit';
import { PrometheusReloader } from './prometheus-reloader.ts';

const UID = '0b5cf4a3-2d4e-4f7b-9a51-3c1f0b8e9d21';

/** `count` ServiceMonitors of two endpoints over `namespaces` namespaces, the second endpoint's interval being `interval`. */
function serviceMonitors(count: number, namespaces: number, interval = '30s'): ServiceMonitor[] {
  return Array.from({ length: count }, (_, index) => ({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { namespace: `team-${index % namespaces}`, name: `app-${index}`, labels: {} },
    spec: {
      selector: { matchLabels: { app: `app-${index}` } },
      endpoints: [
        { port: 'web', relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'node_name', action: 'replace' }] },
        { port: 'metrics', path: '/internal/metrics', interval },
      ],
    },
  }) as ServiceMonitor);
}

function render(monitors: ServiceMonitor[], namespaces: number): GeneratorOutput {
  const input: GeneratorInput = {
    prometheus: {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'Prometheus',
      metadata: { namespace: 'monitoring', name: 'main', uid: UID },
      spec: { serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: {} },
    } as Prometheus,
    serviceMonitors: monitors,
    podMonitors: [],
    prometheusRules: [],
    namespaces: Array.from({ length: namespaces }, (_, index) => ({ name: `team-${index}`, labels: {} })),
    secrets: [],
    configMaps: [],
  };
  const output = generate(input);
  if (!output.ok) throw new Error(JSON.stringify(output.prometheusProblems));
  return output;
}

/** A shard's files as promop expects Prometheus to load them from `dir` (the test's config directory). */
interface LaidOut {
  configText: string;
  scrapeFileJobs: string[];
}

/**
 * Plays the kubelet: makes `dir` hold `output`'s prometheus.yaml and scrape files, as the projected volume would
 * (files of older versions removed), except the files named in `withhold`.
 */
function layOut(dir: string, output: GeneratorOutput, withhold: readonly string[] = []): LaidOut {
  const files = output.scrapeFiles[0]!;
  const configText = output.configs[0]!.split(`${CONFIG_DIR}/`).join(`${dir}/`);
  const wanted = new Set(['prometheus.yaml', ...files.map((file) => file.name)].filter((name) => !withhold.includes(name)));
  for (const file of files) if (wanted.has(file.name)) writeFileSync(join(dir, file.name), file.text);
  for (const name of readdirSync(dir)) if (!wanted.has(name)) unlinkSync(join(dir, name));
  writeFileSync(join(dir, 'prometheus.yaml'), configText);
  return { configText, scrapeFileJobs: files.flatMap((file) => file.jobNames) };
}

/** The slot names whose file differs between two outputs. */
function changedFiles(before: GeneratorOutput, after: GeneratorOutput): string[] {
  const old = new Set(before.scrapeFiles[0]!.map((file) => file.name));
  return after.scrapeFiles[0]!.filter((file) => !old.has(file.name)).map((file) => file.name);
}

const reloader = new PrometheusReloader({ allowedNetworks: ['127.0.0.1'], initialDelayMs: 100, maxDelayMs: 400 });

afterAll(async () => {
  await reloader.close();
});

describe('a Prometheus reading its jobs from scrape files', () => {
  const monitors = serviceMonitors(120, 10);
  const first = render(monitors, 10);
  const edited = render(monitors.map((monitor, index) => (index === 42 ? serviceMonitors(43, 10, '15s')[42]! : monitor)), 10);
  let dir: string;
  let prometheus: PrometheusProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'promop-scrape-files-'));
    layOut(dir, first);
    prometheus = await startPrometheus(join(dir, 'prometheus.yaml'), { POD_NAME: 'prometheus-main-0' });
  });

  afterAll(async () => {
    await prometheus?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('is split over several files, and one monitor\'s change is one new file', () => {
    // About 450 KiB of jobs: four files (the smallest count whose files average at most 128 KiB).
    expect(first.scrapeFiles[0]!.length).toBe(4);
    expect(changedFiles(first, edited)).toHaveLength(1);
  });

  it('is verified once it runs prometheus.yaml and every job of every file', async () => {
    const expected = layOut(dir, first);
    const outcome = await reloader.reloadAndVerify({ baseUrl: prometheus.url, expectedConfigText: expected.configText, expectedScrapeFileJobs: expected.scrapeFileJobs, timeoutMs: 10_000 });
    expect(outcome).toMatchObject({ outcome: 'verified', attempts: 1 });
    expect(expected.scrapeFileJobs).toHaveLength(240);
  });

  it('is stale while a scrape file that the current prometheus.yaml names is not on disk, and verified once it is', async () => {
    const [newFile] = changedFiles(first, edited);
    const expected = layOut(dir, edited, [newFile!]);
    const stale = await reloader.reloadAndVerify({ baseUrl: prometheus.url, expectedConfigText: expected.configText, expectedScrapeFileJobs: expected.scrapeFileJobs, timeoutMs: 1_000 });
    expect(stale.outcome).toBe('stale');
    // prometheus.yaml itself is the expected one: only the jobs tell.
    expect(stale.outcome === 'stale' && stale.difference).toMatch(/^\d+ of the 240 jobs of the scrape files are not loaded, e\.g\. serviceMonitor\/team-\d\/app-\d+\/\d: a scrape file the config names was not on disk$/);

    const lateWrite = setTimeout(() => layOut(dir, edited), 600);
    try {
      const outcome = await reloader.reloadAndVerify({ baseUrl: prometheus.url, expectedConfigText: expected.configText, expectedScrapeFileJobs: expected.scrapeFileJobs, timeoutMs: 10_000 });
      expect(outcome.outcome).toBe('verified');
      expect(outcome.attempts).toBeGreaterThan(1);
    } finally {
      clearTimeout(lateWrite);
    }
  });

  it('is stale while prometheus.yaml still names the previous version of a scrape file', async () => {
    const current = layOut(dir, edited);
    layOut(dir, first);
    const outcome = await reloader.reloadAndVerify({ baseUrl: prometheus.url, expectedConfigText: current.configText, expectedScrapeFileJobs: current.scrapeFileJobs, timeoutMs: 1_000 });
    expect(outcome.outcome).toBe('stale');
    expect(outcome.outcome === 'stale' && outcome.difference).toMatch(/^the loaded config differs at scrape_config_files\[\d+\]: expected ".*scrape-\d\d-[0-9a-f]{16}\.yaml", loaded ".*scrape-\d\d-[0-9a-f]{16}\.yaml"$/);
  });
});

describe('10,000 ServiceMonitors of two endpoints (20,000 jobs)', () => {
  let dir: string;
  let prometheus: PrometheusProcess;
  const timings: Record<string, number> = {};
  const timed = async <T>(step: string, work: () => T | Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await work();
    timings[step] = Math.round(performance.now() - started);
    return result;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'promop-20k-jobs-'));
    // Started with no jobs, as a pod whose config predates the monitors: loading them is a reload, as in promop.
    writeFileSync(join(dir, 'prometheus.yaml'), 'global:\n  scrape_interval: 30s\n');
    prometheus = await startPrometheus(join(dir, 'prometheus.yaml'), { POD_NAME: 'prometheus-main-0' });
  }, 60_000);

  afterAll(async () => {
    await prometheus?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    console.log(`20,000 jobs: ${JSON.stringify(timings)}`);
  });

  it('are generated into scrape files, loaded by Prometheus and verified, and one monitor\'s change after them', async () => {
    const monitors = serviceMonitors(10_000, 1_000);
    const output = await timed('generateMs', () => render(monitors, 1_000));
    const files = output.scrapeFiles[0]!;
    const bytes = files.reduce((sum, file) => sum + Buffer.byteLength(file.text), 0);
    timings.scrapeFiles = files.length;
    timings.scrapeFileMiB = Math.round(bytes / 1024 / 1024);
    timings.largestFileKiB = Math.round(Math.max(...files.map((file) => Buffer.byteLength(file.text))) / 1024);
    expect(files.flatMap((file) => file.jobNames)).toHaveLength(20_000);

    const expected = layOut(dir, output);
    const loaded = await timed('loadAndVerifyMs', () => reloader.reloadAndVerify({
      baseUrl: prometheus.url, expectedConfigText: expected.configText, expectedScrapeFileJobs: expected.scrapeFileJobs, timeoutMs: 120_000,
    }));
    expect(loaded).toMatchObject({ outcome: 'verified', attempts: 1 });
    // The check alone, without the reload: the loaded config and the loaded jobs, as reloadAndVerify reads them.
    const client = reloader.client(prometheus.url);
    const jobs = await timed('checkOnlyMs', async () => {
      await client.loadedConfig();
      return client.loadedScrapeJobs();
    });
    expect(jobs.ok && jobs.value.size).toBe(20_000);

    const edited = await timed('regenerateMs', () => render(monitors.map((monitor, index) => (index === 4_242 ? serviceMonitors(4_243, 1_000, '15s')[4_242]! : monitor)), 1_000));
    expect(changedFiles(output, edited)).toHaveLength(1);
    const expectedAfter = layOut(dir, edited);
    const reloaded = await timed('changeLoadAndVerifyMs', () => reloader.reloadAndVerify({
      baseUrl: prometheus.url, expectedConfigText: expectedAfter.configText, expectedScrapeFileJobs: expectedAfter.scrapeFileJobs, timeoutMs: 120_000,
    }));
    expect(reloaded).toMatchObject({ outcome: 'verified', attempts: 1 });
  }, 600_000);
});
