/**
 * Large configurations: the generated jobs move from prometheus.yaml into scrape files once they pass
 * INLINE_SCRAPE_JOBS_MAX_BYTES (Prometheus 2.43+), a change to one monitor rewrites one file, every shard gets its
 * own files, and the real promtool accepts prometheus.yaml with the files laid out as the pod mounts them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import type { PodMonitor, Prometheus, ServiceMonitor } from '@promop/crds';
import { runPromtool } from '@promop/testkit';
import { generate } from '../generate.ts';
import type { GeneratorInput, GeneratorOutput, ScrapeFile } from '../model.ts';
import { CONFIG_DIR } from '../pod-layout.ts';
import { jobSegments, toPrometheusYaml } from '../yaml-output.ts';
import { RenderMemo } from '../render-memo.ts';
import { homeSlot, packScrapeJobs, SCRAPE_FILE_MAX_BYTES, scrapeFile, type RenderedJob } from './scrape-config-files.ts';
import { sharedItemsText } from './scrape-file-text.ts';
import { renderShardConfigs } from './shard-configs.ts';

const GOLDEN = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'golden', 'prometheus', 'scrape-config-files-main.yaml');
const NAMESPACES = ['team-0', 'team-1', 'team-2', 'team-3', 'team-4'];

function serviceMonitor(index: number, endpoints = 6, interval = '30s'): ServiceMonitor {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { namespace: NAMESPACES[index % NAMESPACES.length], name: `app-${index}`, labels: {} },
    spec: { selector: { matchLabels: { app: `app-${index}` } }, endpoints: Array.from({ length: endpoints }, (_, port) => ({ port: `p${port}`, interval })) },
  } as ServiceMonitor;
}

/** 30 monitors of six endpoints: 180 jobs, about 330 KiB, over the inline limit: four files of about 80 KiB. */
const LARGE = Array.from({ length: 30 }, (_, index) => serviceMonitor(index));
const LARGE_FILES = 4;

/** The file of a monitor's jobs when there are `files` files: its home among the 256 sub-slots, modulo `files`. */
const fileOf = (owner: string, files: number) => homeSlot(owner, 256) % files;

function input(serviceMonitors: ServiceMonitor[], spec: Record<string, unknown> = {}, secrets: GeneratorInput['secrets'] = []): GeneratorInput {
  const prometheus = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'Prometheus',
    metadata: { namespace: 'monitoring', name: 'main', uid: '0b5cf4a3-2d4e-4f7b-9a51-3c1f0b8e9d21' },
    spec: { serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: {}, ...spec },
  } as Prometheus;
  return { prometheus, serviceMonitors, podMonitors: [], prometheusRules: [], namespaces: NAMESPACES.map((name) => ({ name, labels: {} })), secrets, configMaps: [] };
}

function render(generatorInput: GeneratorInput): GeneratorOutput {
  const output = generate(generatorInput);
  expect(output.prometheusProblems).toEqual([]);
  return output;
}

const jobNamesOf = (text: string) => ((load(text) as { scrape_configs?: { job_name: string }[] }).scrape_configs ?? []).map((job) => job.job_name);
const expectedJobs = (monitors: ServiceMonitor[]) => monitors
  .flatMap((monitor) => monitor.spec.endpoints.map((_, index) => `serviceMonitor/${monitor.metadata.namespace}/${monitor.metadata.name}/${index}`));

describe('a configuration under the inline limit', () => {
  it('keeps every job in prometheus.yaml and has no scrape files', () => {
    const output = render(input(LARGE.slice(0, 5)));
    expect(output.scrapeFiles).toEqual([[]]);
    expect(output.configs[0]).not.toContain('scrape_config_files');
    expect(jobNamesOf(output.configs[0]!).sort()).toEqual(expectedJobs(LARGE.slice(0, 5)).sort());
  });
});

describe('a configuration over the inline limit', () => {
  const output = render(input(LARGE));
  const files = output.scrapeFiles[0]!;

  it('names its scrape files in prometheus.yaml, by absolute path in slot order, instead of holding the jobs', () => {
    const main = load(output.configs[0]!) as Record<string, unknown>;
    expect(Object.keys(main)).toEqual(['global', 'scrape_config_files', 'storage']);
    expect(main.scrape_config_files).toEqual(files.map((file) => `${CONFIG_DIR}/${file.name}`));
    expect(files.map((file) => file.slot)).toEqual([...files.map((file) => file.slot)].sort((a, b) => a - b));
    // 330 KiB of jobs: the smallest file count (4, 16, 64, 256) whose files average at most 128 KiB.
    expect(files.map((file) => file.slot)).toEqual([0, 1, 2, 3]);
  });

  it('matches the reviewed golden prometheus.yaml', () => {
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, output.configs[0]!);
    expect(output.configs[0]).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('has every job exactly once, each monitor\'s jobs in its home slot, and each file within the size limit', () => {
    expect(files.flatMap((file) => file.jobNames).sort()).toEqual(expectedJobs(LARGE).sort());
    for (const file of files) {
      expect(jobNamesOf(file.text)).toEqual(file.jobNames);
      expect(Buffer.byteLength(file.text)).toBeLessThanOrEqual(SCRAPE_FILE_MAX_BYTES);
      for (const job of file.jobNames) expect(fileOf(`ServiceMonitor/${job.split('/').slice(1, 3).join('/')}`, LARGE_FILES)).toBe(file.slot);
    }
  });

  it('has unique job names across all files (Prometheus refuses a job name twice), PodMonitors named like ServiceMonitors included', () => {
    const podMonitors = LARGE.map((monitor) => ({ ...monitor, kind: 'PodMonitor', spec: { selector: monitor.spec.selector, podMetricsEndpoints: [{ port: 'web' }] } })) as unknown as PodMonitor[];
    const output = render({ ...input(LARGE, { podMonitorSelector: {}, podMonitorNamespaceSelector: {} }), podMonitors });
    const names = output.scrapeFiles[0]!.flatMap((file) => file.jobNames);
    expect(names).toHaveLength(180 + 30);
    expect(new Set(names).size).toBe(names.length);
  });

  it('keeps additionalScrapeConfigs in prometheus.yaml, after the list of files', () => {
    const additional = { namespace: 'monitoring', name: 'extra', data: { 'jobs.yaml': '- job_name: node\n  static_configs:\n  - targets: ["node-1:9100"]\n' } };
    const withExtra = render(input(LARGE, { additionalScrapeConfigs: { name: 'extra', key: 'jobs.yaml' } }, [additional]));
    const main = load(withExtra.configs[0]!) as Record<string, unknown>;
    expect(Object.keys(main)).toEqual(['global', 'scrape_config_files', 'scrape_configs', 'storage']);
    expect(jobNamesOf(withExtra.configs[0]!)).toEqual(['node']);
    expect(withExtra.scrapeFiles[0]).toEqual(files);
  });

  it('is accepted by the real promtool (check config, which reads the scrape files) laid out as the pod mounts them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'promop-scrape-files-'));
    try {
      writeFileSync(join(dir, 'prometheus.yaml'), output.configs[0]!.split(`${CONFIG_DIR}/`).join(`${dir}/`));
      for (const file of files) writeFileSync(join(dir, file.name), file.text);
      const checked = await runPromtool(['check', 'config', join(dir, 'prometheus.yaml')]);
      expect({ code: checked.code, output: checked.code === 0 ? '' : checked.stdout + checked.stderr }).toEqual({ code: 0, output: '' });
      // And it does read them: a broken file fails the check.
      writeFileSync(join(dir, files[0]!.name), `${files[0]!.text}- job_name: broken\n  scrape_interval: 30x\n`);
      const broken = await runPromtool(['check', 'config', join(dir, 'prometheus.yaml')]);
      expect(broken.code).not.toBe(0);
      expect(broken.stdout + broken.stderr).toContain('unknown unit "x" in duration "30x"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a change to one monitor of a large configuration', () => {
  const before = render(input(LARGE)).scrapeFiles[0]!;
  const changedFiles = (after: ScrapeFile[]) => {
    const bySlot = (files: ScrapeFile[]) => new Map(files.map((file) => [file.slot, file]));
    const old = bySlot(before);
    const now = bySlot(after);
    return [...new Set([...old.keys(), ...now.keys()])].filter((slot) => old.get(slot)?.name !== now.get(slot)?.name || old.get(slot)?.text !== now.get(slot)?.text);
  };
  const slotOf = (monitor: ServiceMonitor) => fileOf(`ServiceMonitor/${monitor.metadata.namespace}/${monitor.metadata.name}`, LARGE_FILES);

  it('rewrites only its own slot\'s file when it is edited; every other file stays byte-identical', () => {
    const edited = LARGE.map((monitor, index) => (index === 7 ? serviceMonitor(7, 6, '15s') : monitor));
    expect(changedFiles(render(input(edited)).scrapeFiles[0]!)).toEqual([slotOf(LARGE[7]!)]);
  });

  it('adds to one file when it is created, and removes from one when it is deleted', () => {
    const added = serviceMonitor(30);
    expect(changedFiles(render(input([...LARGE, added])).scrapeFiles[0]!)).toEqual([slotOf(added)]);
    expect(changedFiles(render(input(LARGE.filter((_, index) => index !== 3))).scrapeFiles[0]!)).toEqual([slotOf(LARGE[3]!)]);
  });
});

describe('a sharded large configuration', () => {
  it('gives each shard its own prometheus.yaml and files, with the same jobs in the same slots and its own shard number', () => {
    const output = render(input(LARGE, { shards: 2 }));
    const [zero, one] = output.scrapeFiles as [ScrapeFile[], ScrapeFile[]];
    expect(one.map((file) => [file.slot, file.jobNames])).toEqual(zero.map((file) => [file.slot, file.jobNames]));
    expect(zero[0]!.text).toContain('regex: 0;|.+;.+');
    expect(one[0]!.text).toContain('regex: 1;|.+;.+');
    expect(one[0]!.name).not.toBe(zero[0]!.name);
    expect(output.configs[1]).toContain(one[0]!.name);
    for (const text of [...output.configs, ...zero.map((f) => f.text), ...one.map((f) => f.text)]) expect(text).not.toContain('$(SHARD)');
  });
});

describe('Prometheus versions', () => {
  it('keeps a large configuration inline for Prometheus 2.42, which cannot read scrape_config_files', () => {
    const output = render(input(LARGE, { version: 'v2.42.0' }));
    expect(output.scrapeFiles).toEqual([[]]);
    expect(jobNamesOf(output.configs[0]!)).toHaveLength(180);
  });

  it('splits it from Prometheus 2.43 on', () => {
    expect(render(input(LARGE, { version: 'v2.43.0' })).scrapeFiles[0]!.length).toBe(LARGE_FILES);
  });
});

describe('the two ways of writing a slot', () => {
  it('give the same bytes: the slot serialised at once (fast path) and its jobs one by one (when a slot overflows)', () => {
    // Every job shares its relabeling with the others, so the files share it too (scrape-file-text.ts).
    const relabeling = { source_labels: ['__meta_kubernetes_namespace'], target_label: 'namespace', action: 'replace' };
    const config = { global: {}, scrape_configs: Array.from({ length: 40 }, (_, index) => ({ job_name: `job-${index}`, static_configs: [{ targets: [`host-${index}:80`] }], relabel_configs: [relabeling] })) };
    const owners = config.scrape_configs.map((_, index) => `ServiceMonitor/ns/monitor-${Math.floor(index / 2)}`);
    const limits = { slots: 8, maxFileBytes: 100_000, inlineMaxBytes: 0 };
    const fast = renderShardConfigs(config, 1, owners, { scrapeConfigFiles: true, hashKey: 'k', limits });
    const jobs: RenderedJob[] = config.scrape_configs.map((job, index) => {
      const segments = jobSegments(job);
      return { home: homeSlot(owners[index]!, 8), name: job.job_name, segments, bytes: Buffer.byteLength(segments.join('')) };
    });
    const packing = packScrapeJobs(jobs, limits);
    if (!fast.ok || !packing.ok) throw new Error('did not fit');
    const slow = packing.slots.flatMap((slot, index) => (slot.length === 0 ? [] : [scrapeFile(index, sharedItemsText(slot.map((job) => job.segments)), slot.map((job) => job.name), 'k')]));
    expect(fast.value.scrapeFiles[0]).toEqual(slow);
    expect(slow.some((file) => file.text.includes('- *r0\n'))).toBe(true);
  });

  it('reports jobs that do not fit as a problem of the Prometheus, at spec', () => {
    const config = { global: {}, scrape_configs: Array.from({ length: 10 }, (_, index) => ({ job_name: `job-${index}` })) };
    const result = renderShardConfigs(config, 1, config.scrape_configs.map((_, index) => `o/${index}`), {
      scrapeConfigFiles: true, hashKey: 'k', limits: { slots: 2, maxFileBytes: 60, inlineMaxBytes: 0 },
    });
    expect(result).toEqual({ ok: false, problem: { path: 'spec', message: expect.stringMatching(/^the 10 generated scrape jobs are .* more than the 2 scrape files of .* promop mounts hold; select fewer monitors/) } });
  });
});

describe('the number of files, by size', () => {
  // 16 sub-slots spread over 4 or 16 files, aimed at 2,000 bytes each: each job is about 60 bytes.
  const limits = { slots: 16, maxFileBytes: 100_000, inlineMaxBytes: 0, fileCounts: [4, 16], targetFileBytes: 2_000 };
  // The same job objects in every call, as the generator's memo hands out an unchanged monitor's jobs.
  const allJobs = Array.from({ length: 300 }, (_, index) => ({ job_name: `job-${index}`, static_configs: [{ targets: [`host-${index}:80`] }] }));
  const configOf = (jobs: number) => ({ global: {}, scrape_configs: allJobs.slice(0, jobs) });
  const ownersOf = (jobs: number) => Array.from({ length: jobs }, (_, index) => `ServiceMonitor/ns/monitor-${Math.floor(index / 2)}`);
  const filesOf = (jobs: number, memo?: RenderMemo) => {
    const result = renderShardConfigs(configOf(jobs), 1, ownersOf(jobs), { scrapeConfigFiles: true, hashKey: 'k', limits, ...(memo ? { cache: memo } : {}) });
    if (!result.ok) throw new Error(result.problem.message);
    return result.value;
  };

  it('uses the smallest count whose files average at most the target, each file gathering the sub-slots congruent to it', () => {
    for (const [jobs, files] of [[100, 4], [200, 16]] as const) {
      const scrapeFiles = filesOf(jobs).scrapeFiles[0]!;
      expect(Math.max(...scrapeFiles.map((file) => file.slot))).toBeLessThan(files);
      expect(scrapeFiles.length).toBeGreaterThan(files / 2);
      const owners = ownersOf(jobs);
      for (const file of scrapeFiles) {
        for (const name of file.jobNames) expect(homeSlot(owners[Number(name.slice(4))]!, 16) % files).toBe(file.slot);
        // Sub-slot by sub-slot, each in the jobs' order.
        const order = file.jobNames.map((name) => Number(name.slice(4))).map((index) => homeSlot(owners[index]!, 16) * 10_000 + index);
        expect(order).toEqual([...order].sort((a, b) => a - b));
      }
      expect(scrapeFiles.flatMap((file) => file.jobNames).sort()).toEqual(configOf(jobs).scrape_configs.map((job) => job.job_name).sort());
    }
  });

  it('gives with a memo the bytes it gives without, while the configuration grows past a count and shrinks back', () => {
    const memo = new RenderMemo();
    for (const jobs of [100, 120, 200, 260, 200, 120, 100]) expect(filesOf(jobs, memo)).toEqual(filesOf(jobs));
  });

  it('forgets, with a memo, the files of a count no longer used', () => {
    const memo = new RenderMemo();
    const fileKeys = () => memo.keptSequenceKeys().filter((key) => key.startsWith('file|'));
    filesOf(100, memo);
    // Four files, each gathered from four of the 16 sub-slots and kept.
    expect(fileKeys().length).toBeGreaterThan(0);
    expect(fileKeys().every((key) => key.startsWith('file|k|0|4|'))).toBe(true);
    // Sixteen files are the sub-slots themselves: nothing of the four-file layout is kept any more.
    filesOf(200, memo);
    expect(fileKeys()).toEqual([]);
    expect(memo.keptSequenceKeys().length).toBeGreaterThan(0);
    // Back to four files, built again, byte for byte what a render without memo gives.
    expect(filesOf(100, memo)).toEqual(filesOf(100));
    expect(fileKeys().length).toBeGreaterThan(0);
  });

  it('keeps, with a memo, the very file objects whose jobs did not change', () => {
    const memo = new RenderMemo();
    const before = filesOf(100, memo).scrapeFiles[0]!;
    const after = filesOf(101, memo).scrapeFiles[0]!;
    // Job 100 is one more job of monitor 50: only that monitor's file is new.
    const changed = after.filter((file) => !before.includes(file));
    expect(changed.map((file) => file.slot)).toEqual([homeSlot(ownersOf(101)[100]!, 16) % 4]);
    expect(after.length).toBe(before.length);
  });
});

describe('determinism of a large configuration', () => {
  it('gives byte-identical output whatever the order of the monitors', () => {
    const reversed = [...LARGE].reverse();
    expect(JSON.stringify(generate(input(reversed)))).toBe(JSON.stringify(generate(input(LARGE))));
  });
});

describe('the number of scrape files', () => {
  // 40 jobs that share six relabelings: written with shared items, a fraction of their plain size.
  const relabelings = Array.from({ length: 6 }, (_, index) => ({ source_labels: [`__meta_kubernetes_service_label_${index}`], target_label: `label_${index}`, action: 'replace' }));
  const config = { global: {}, scrape_configs: Array.from({ length: 40 }, (_, index) => ({ job_name: `job-${index}`, relabel_configs: relabelings })) };
  const owners = config.scrape_configs.map((_, index) => `ServiceMonitor/ns/monitor-${index}`);
  const plainBytes = config.scrape_configs.reduce((sum, job) => sum + Buffer.byteLength(toPrometheusYaml([job])), 0);
  const limitsWith = (maxFileBytes: number) => ({ slots: 8, maxFileBytes, inlineMaxBytes: 0, fileCounts: [2, 8], targetFileBytes: plainBytes / 4 });
  const filesOf = (maxFileBytes: number): ScrapeFile[] => {
    const result = renderShardConfigs(config, 1, owners, { scrapeConfigFiles: true, hashKey: 'k', limits: limitsWith(maxFileBytes) });
    if (!result.ok) throw new Error(result.problem.message);
    return result.value.scrapeFiles[0]!;
  };
  const largest = (files: ScrapeFile[]) => Math.max(...files.map((file) => Buffer.byteLength(file.text)));

  it('follows the size of the files as written, not the plain size', () => {
    // Plain, the jobs are more than two files' target (8 files); written, they are not (2 files).
    const files = filesOf(100_000);
    expect(files.map((file) => file.slot)).toEqual([0, 1]);
    expect(files.flatMap((file) => file.jobNames).sort()).toEqual(config.scrape_configs.map((job) => job.job_name).sort());
    for (const file of files) expect(load(file.text)).toEqual({ scrape_configs: file.jobNames.map((name) => config.scrape_configs.find((job) => job.job_name === name)) });
  });

  it('refuses jobs beyond what the files hold written out, however much they share', () => {
    // Written, 40 sharing jobs fit into two files of half their plain size; plain, they do not.
    const half = Math.ceil(plainBytes / 2);
    expect(largest(filesOf(100_000))).toBeLessThan(half / 2);
    const result = renderShardConfigs(config, 1, owners, { scrapeConfigFiles: true, hashKey: 'k', limits: { ...limitsWith(half), slots: 2, fileCounts: [2] } });
    expect(result).toEqual({ ok: false, problem: { path: 'spec', message: expect.stringMatching(/^the 40 generated scrape jobs are .* more than the 2 scrape files of .* promop mounts hold/) } });
  });

  it('takes more files when one would stand for more plain text than Prometheus\' YAML reader accepts aliased', () => {
    const files = (maxPlainFileBytes: number) => {
      const result = renderShardConfigs(config, 1, owners, { scrapeConfigFiles: true, hashKey: 'k', limits: { ...limitsWith(100_000), maxPlainFileBytes } });
      if (!result.ok) throw new Error(result.problem.message);
      return result.value.scrapeFiles[0]!;
    };
    expect(files(plainBytes)).toHaveLength(2);
    expect(files(plainBytes / 3).length).toBeGreaterThan(2);
  });

  it('falls back to the number of files the plain size calls for when a file of the smaller layout is over the limit', () => {
    // Jobs that share a little over half of their text: written, two files; plain, eight.
    const selector = { action: 'keep', source_labels: ['__meta_kubernetes_service_label_app_kubernetes_io_name', '__meta_kubernetes_service_labelpresent_app_kubernetes_io_name'], regex: '(checkout);true' };
    const component = { action: 'keep', source_labels: ['__meta_kubernetes_service_label_app_kubernetes_io_component', '__meta_kubernetes_service_labelpresent_app_kubernetes_io_component'], regex: '(api);true' };
    const mixed = { global: {}, scrape_configs: Array.from({ length: 40 }, (_, index) => ({ job_name: `job-${index}`, relabel_configs: [selector, component, { target_label: 'instance_name', replacement: `instance-${index}-of-the-checkout-service` }] })) };
    const mixedPlain = mixed.scrape_configs.reduce((sum, job) => sum + Buffer.byteLength(toPrometheusYaml([job])), 0);
    const render = (maxFileBytes: number) => {
      const result = renderShardConfigs(mixed, 1, owners, { scrapeConfigFiles: true, hashKey: 'k', limits: { slots: 8, maxFileBytes, inlineMaxBytes: 0, fileCounts: [2, 8], targetFileBytes: mixedPlain / 4 } });
      if (!result.ok) throw new Error(result.problem.message);
      return result.value.scrapeFiles[0]!;
    };
    const two = render(100_000);
    expect(two).toHaveLength(2);
    // A limit the two files pass but eight files of the plain text would not need to.
    const limit = largest(two) - 1;
    expect(8 * (limit - 'scrape_configs:\n'.length)).toBeGreaterThan(mixedPlain);
    const files = render(limit);
    expect(files.length).toBeGreaterThan(2);
    expect(largest(files)).toBeLessThanOrEqual(limit);
    expect(files.flatMap((file) => file.jobNames).sort()).toEqual(mixed.scrape_configs.map((job) => job.job_name).sort());
  });
});
