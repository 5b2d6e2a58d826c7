import type { ScrapeFile } from '@promop/config-generator';
import { buildScrapeSecrets } from './scrape-secrets.ts';
import { testOutput, testPrometheus } from '../test-support/workload-fixtures.ts';

const decode = (value: string | undefined) => Buffer.from(value ?? '', 'base64').toString('utf8');
const file = (slot: number, name: string, text = 'scrape_configs:\n- job_name: a\n'): ScrapeFile => ({ slot, name, text, jobNames: ['a'] });

describe('scrape Secrets', () => {
  it('are one per scrape file, named after the shard\'s config Secret and the slot, holding the file under its own name', () => {
    const output = { ...testOutput(['main 0', 'main 1']), scrapeFiles: [[file(0, 'scrape-00-aa.yaml'), file(17, 'scrape-17-bb.yaml')], [file(3, 'scrape-03-cc.yaml')]] };
    const secrets = buildScrapeSecrets(testPrometheus(), output);
    expect(secrets.map((shard) => shard.map((secret) => secret.metadata?.name))).toEqual([
      ['prometheus-main-scrape-0', 'prometheus-main-scrape-17'],
      ['prometheus-main-shard-1-scrape-3'],
    ]);
    expect(Object.keys(secrets[0]![1]!.data ?? {})).toEqual(['scrape-17-bb.yaml']);
    expect(decode(secrets[0]![1]!.data?.['scrape-17-bb.yaml'])).toBe('scrape_configs:\n- job_name: a\n');
  });

  it('are labelled with the Prometheus and shard (so emptied slots are found and deleted), and owned by the Prometheus', () => {
    const secret = buildScrapeSecrets(testPrometheus(), { scrapeFiles: [[], [file(5, 'scrape-05-dd.yaml')]] })[1]![0]!;
    expect(secret.metadata?.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'promop', 'operator.prometheus.io/name': 'main', 'operator.prometheus.io/shard': '1' });
    expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Prometheus', name: 'main', controller: true });
  });

  it('are none when the jobs are inline', () => {
    expect(buildScrapeSecrets(testPrometheus(), testOutput(['a', 'b']))).toEqual([[], []]);
  });

  it('refuse a file larger than a Secret holds (the generator never makes one)', () => {
    expect(() => buildScrapeSecrets(testPrometheus(), { scrapeFiles: [[file(0, 'scrape-00-ee.yaml', 'x'.repeat(1024 * 1024 + 1))]] })).toThrow(/bug: scrape file/);
  });
});
