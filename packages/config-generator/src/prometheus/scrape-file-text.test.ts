/**
 * A scrape file's text with repeated items written once: what a YAML reader gets from it is what it gets from the
 * plain text, it is never longer, and it only differs from the plain text where an item really repeats.
 */
import { load } from 'js-yaml';
import { jobSegments, toPrometheusYaml } from '../yaml-output.ts';
import { sharedItemsSaving, sharedItemsText } from './scrape-file-text.ts';

const keepNamespace = { source_labels: ['__meta_kubernetes_namespace'], target_label: 'namespace', action: 'replace' };
const keepPod = { source_labels: ['__meta_kubernetes_pod_name'], target_label: 'pod', action: 'replace' };

function job(index: number, extra: Record<string, unknown>[] = []): Record<string, unknown> {
  return {
    job_name: `serviceMonitor/team-${index % 3}/app-${index}/0`,
    kubernetes_sd_configs: [{ role: 'endpoints', namespaces: { names: [`team-${index % 3}`] } }],
    relabel_configs: [keepNamespace, { target_label: 'endpoint', replacement: `port-${index % 2}-with-a-longer-name` }, keepPod, ...extra],
  };
}

const plain = (jobs: Record<string, unknown>[]) => jobs.map((each) => toPrometheusYaml([each])).join('');
const shared = (jobs: Record<string, unknown>[]) => sharedItemsText(jobs.map(jobSegments));

describe('a scrape file\'s shared items', () => {
  const jobs = Array.from({ length: 12 }, (_, index) => job(index));
  const text = shared(jobs);

  it('reads back as exactly the jobs the plain text holds', () => {
    expect(load(`scrape_configs:\n${text}`)).toEqual(load(`scrape_configs:\n${plain(jobs)}`));
    expect(load(`scrape_configs:\n${text}`)).toEqual({ scrape_configs: jobs });
  });

  it('writes a repeated item in full once, with an anchor, and as an alias after that', () => {
    expect(text.startsWith(
      '- job_name: serviceMonitor/team-0/app-0/0\n  kubernetes_sd_configs:\n  - &r0\n    role: endpoints\n    namespaces:\n      names:\n      - team-0\n'
      + '  relabel_configs:\n  - &r1\n    source_labels:\n    - __meta_kubernetes_namespace\n    target_label: namespace\n    action: replace\n',
    )).toBe(true);
    expect(text.match(/ - \*r1\n/g)).toHaveLength(11);
    expect(text.match(/&r1\n/g)).toHaveLength(1);
    expect(text.length).toBeLessThan(plain(jobs).length / 2);
  });

  it('numbers anchors in order of first use, so equal jobs in equal order give equal text', () => {
    expect(shared(jobs.map((each) => structuredClone(each)))).toBe(text);
    const anchors = [...text.matchAll(/&r(\d+)/g)].map((match) => Number(match[1]));
    expect(anchors).toEqual(anchors.map((_, index) => index));
  });

  it('leaves items that occur once, and short ones, as they are', () => {
    const unique = [job(0), { job_name: 'other', relabel_configs: [{ action: 'drop' }, { action: 'drop' }] }];
    expect(shared(unique)).toBe(plain(unique));
  });

  it('is never longer than the plain text, and reads back the same, for files mixing repeated and unique items', () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const mixed = Array.from({ length: 1 + (seed % 7) }, (_, index) => job(index * seed, seed % 3 === 0 ? [{ target_label: `unique_${index}_${seed}`, replacement: 'x'.repeat(seed) }] : []));
      const written = shared(mixed);
      expect(Buffer.byteLength(written)).toBeLessThanOrEqual(Buffer.byteLength(plain(mixed)));
      expect(load(`scrape_configs:\n${written}`)).toEqual({ scrape_configs: mixed });
    }
  });
});

describe('the saving of shared items, known before the text is written', () => {
  it('is exactly how much shorter the written text is, for ASCII jobs', () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const mixed = Array.from({ length: 1 + (seed % 9) }, (_, index) => job(index * seed, seed % 2 === 0 ? [{ target_label: `unique_${index}`, replacement: 'y'.repeat(seed * 3) }] : []));
      const segments = mixed.map(jobSegments);
      expect(sharedItemsSaving(segments)).toBe(plain(mixed).length - sharedItemsText(segments).length);
    }
  });

  it('is zero when nothing repeats', () => {
    expect(sharedItemsSaving([jobSegments(job(0))])).toBe(0);
  });

  it('never makes the written size look smaller than it is when items hold other characters', () => {
    const jobs = Array.from({ length: 5 }, (_, index) => job(index, [{ target_label: 'team', replacement: 'équipe-données-ünïcode' }]));
    const segments = jobs.map(jobSegments);
    expect(Buffer.byteLength(plain(jobs)) - sharedItemsSaving(segments)).toBeGreaterThanOrEqual(Buffer.byteLength(sharedItemsText(segments)));
  });
});
