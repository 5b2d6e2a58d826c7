import { CONFIG_FILE_NAME } from '@promop/config-generator';
import { buildConfigSecrets } from './config-secret.ts';
import { MAX_SECRET_DATA_BYTES } from './secret-size.ts';
import { testOutput, testPrometheus, versionOf } from '../test-support/workload-fixtures.ts';

const decode = (value: string | undefined) => Buffer.from(value ?? '', 'base64').toString('utf8');

describe('config Secrets', () => {
  it('are one per shard, named like the shard\'s StatefulSet, each holding that shard\'s prometheus.yaml', () => {
    const result = buildConfigSecrets(testPrometheus(), testOutput(['shard: 0\n', 'shard: 1\n']));
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.value.map((secret) => secret.metadata?.name)).toEqual(['prometheus-main', 'prometheus-main-shard-1']);
    expect(result.value.map((secret) => Object.keys(secret.data ?? {}))).toEqual([[CONFIG_FILE_NAME], [CONFIG_FILE_NAME]]);
    expect(result.value.map((secret) => decode(secret.data?.[CONFIG_FILE_NAME]))).toEqual(['shard: 0\n', 'shard: 1\n']);
  });

  it('are labelled with the Prometheus and shard, and owned by the Prometheus', () => {
    const result = buildConfigSecrets(testPrometheus(), testOutput(['a: 1\n', 'b: 2\n']));
    if (!result.ok) throw new Error('not ok');
    const secret = result.value[1]!;
    expect(secret.metadata?.namespace).toBe('monitoring');
    expect(secret.metadata?.labels).toEqual({
      'managed-by': 'promop', 'app.kubernetes.io/managed-by': 'promop', 'operator.prometheus.io/name': 'main', 'operator.prometheus.io/shard': '1',
    });
    expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Prometheus', name: 'main', controller: true });
  });

  it('accept a config of exactly 1 MiB and report a larger one as a problem naming the shard and size', () => {
    expect(buildConfigSecrets(testPrometheus(), testOutput(['x'.repeat(MAX_SECRET_DATA_BYTES)])).ok).toBe(true);
    const result = buildConfigSecrets(testPrometheus(), testOutput(['ok: 1\n', 'é'.repeat(MAX_SECRET_DATA_BYTES / 2 + 1)]));
    expect(result).toEqual({ ok: false, problems: [{ path: 'spec', message: expect.stringMatching(/^the configuration of shard 1 is 1\.00 MiB, more than the 1 MiB/) }] });
  });

  it('tell a Prometheus before 2.43, which cannot read scrape files, to upgrade; and a newer one what is left to shorten', () => {
    const large = testOutput(['x'.repeat(MAX_SECRET_DATA_BYTES + 1)]);
    const old = buildConfigSecrets(testPrometheus({ version: 'v2.42.0' }), { ...large, version: versionOf({ version: 'v2.42.0' }) });
    expect(!old.ok && old.problems[0]?.message).toMatch(/Prometheus v2\.42\.0 cannot read scrape_config_files, .*: set spec\.version to v2\.43\.0 or later, or select fewer monitors/);
    const current = buildConfigSecrets(testPrometheus({ version: 'v3.16.0' }), { ...large, version: versionOf({ version: 'v3.16.0' }) });
    expect(!current.ok && current.problems[0]?.message).toMatch(/the generated scrape jobs are already in scrape files, so shorten additionalScrapeConfigs/);
  });

  it('refuse to be built without a config (generation failed: the running config must stay)', () => {
    expect(() => buildConfigSecrets(testPrometheus(), { configs: [], version: versionOf() })).toThrow(/keep the running config/);
  });
});
