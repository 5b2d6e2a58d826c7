/**
 * The side-by-side benchmark's protobuf watch of Secrets against the real API server: what it decodes is byte for
 * byte what was written (a 200 KB binary value, a gzipped one), updates and deletes come as MODIFIED and DELETED,
 * and the ConfigWatch built on it answers from Secrets listed before it started and from the watch after.
 */
import { sharedTestEnv } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BenchApi } from './api-client.ts';
import { ConfigFile, ConfigWatch, contains, type ConfigLayout } from './config-watch.ts';
import { decodeSecretWatchEvent, watchProtobufFrames, type SecretWatchEvent } from './protobuf-watch.ts';

const NAMESPACE = `protobuf-watch-${randomBytes(3).toString('hex')}`;
let api: BenchApi;
let credentialsDir: string;

/** BenchApi reads its credentials from files; the shared control plane's kubeconfig holds them inline. */
function benchApiForSharedControlPlane(): BenchApi {
  const access = sharedTestEnv();
  const kc = access.kubeConfig();
  const caData = kc.getCurrentCluster()?.caData;
  const user = kc.getCurrentUser();
  if (!caData || !user?.certData || !user.keyData) throw new Error('the shared kubeconfig has no inline client certificate');
  credentialsDir = mkdtempSync(join(tmpdir(), 'protobuf-watch-'));
  const file = (name: string, base64: string): string => {
    const path = join(credentialsDir, name);
    writeFileSync(path, Buffer.from(base64, 'base64'));
    return path;
  };
  return new BenchApi({ server: access.apiServerUrl, caFile: file('ca.crt', caData), certFile: file('admin.crt', user.certData), keyFile: file('admin.key', user.keyData) });
}

const secretsPath = `/api/v1/namespaces/${NAMESPACE}/secrets`;
const secretBody = (name: string, data: Record<string, Buffer>) => ({
  apiVersion: 'v1', kind: 'Secret', metadata: { name },
  data: Object.fromEntries(Object.entries(data).map(([key, value]) => [key, value.toString('base64')])),
});

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  api = benchApiForSharedControlPlane();
  await api.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
});

afterAll(async () => {
  await api.send('DELETE', `/api/v1/namespaces/${NAMESPACE}`);
  api.close();
  rmSync(credentialsDir, { recursive: true, force: true });
});

describe('a protobuf watch of the Secrets of a namespace', () => {
  it('decodes the bytes written, then a MODIFIED after an update and a DELETED after a delete', async () => {
    const binary = randomBytes(200_000); // random bytes are not UTF-8, and 200 KB spans many TCP chunks
    const gzipped = gzipSync('global:\n  scrape_interval: 30s\n'.repeat(1_000));
    const list = await api.json<{ metadata: { resourceVersion: string } }>('GET', secretsPath);
    const events: { event: SecretWatchEvent; arrivedAt: number }[] = [];
    const abort = new AbortController();
    const watching = watchProtobufFrames(api, `${secretsPath}?watch=1&resourceVersion=${list.metadata.resourceVersion}`, ({ bytes, arrivedAt }) => {
      events.push({ event: decodeSecretWatchEvent(bytes), arrivedAt });
    }, abort.signal).catch((error: unknown) => error);
    try {
      const started = performance.now();
      await api.json('POST', secretsPath, secretBody('config', { 'binary.bin': binary, 'prometheus.yaml.gz': gzipped }));
      const added = await until('ADDED', () => events.find(({ event }) => event.type === 'ADDED'));
      expect(added.arrivedAt).toBeGreaterThan(started);
      if (added.event.type !== 'ADDED') throw new Error('unreachable');
      expect(added.event.secret.name).toBe('config');
      expect(Object.keys(added.event.secret.data).sort()).toEqual(['binary.bin', 'prometheus.yaml.gz']);
      expect(added.event.secret.data['binary.bin']?.equals(binary)).toBe(true);
      expect(added.event.secret.data['prometheus.yaml.gz']?.equals(gzipped)).toBe(true);

      const changed = Buffer.from(binary);
      changed[100_000] = (changed[100_000] as number) ^ 0xff;
      await api.json('PUT', `${secretsPath}/config`, secretBody('config', { 'binary.bin': changed }));
      const modified = await until('MODIFIED', () => events.find(({ event }) => event.type === 'MODIFIED'));
      if (modified.event.type !== 'MODIFIED') throw new Error('unreachable');
      expect(Object.keys(modified.event.secret.data)).toEqual(['binary.bin']);
      expect(modified.event.secret.data['binary.bin']?.equals(changed)).toBe(true);
      expect(BigInt(modified.event.secret.resourceVersion)).toBeGreaterThan(BigInt(added.event.secret.resourceVersion));

      await api.json('DELETE', `${secretsPath}/config`);
      const deleted = await until('DELETED', () => events.find(({ event }) => event.type === 'DELETED'));
      expect(deleted.event.type === 'DELETED' && deleted.event.secret.name).toBe('config');
      expect(events.map(({ event }) => event.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    } finally {
      abort.abort();
      await watching;
    }
  });

  it('feeds a ConfigWatch: Secrets listed before it started, then changes and a delete seen through the watch', async () => {
    const yaml = (job: string) => `scrape_configs:\n- job_name: serviceMonitor/team/${job}/0\n` + `# ${'padding '.repeat(20_000)}\n`;
    // Prometheus `p` is configured by Secret `p`: a gzipped main file and a plain one it includes.
    const layout: ConfigLayout = async (prometheus, read) => {
      const files = [await read(prometheus, 'prometheus.yaml.gz'), await read(prometheus, 'extra.yaml')];
      return files.every((file) => file !== undefined) ? (files as ConfigFile[]) : undefined;
    };
    await api.json('POST', secretsPath, secretBody('listed', { 'prometheus.yaml.gz': gzipSync(yaml('before')), 'extra.yaml': Buffer.from('# listed\n') }));
    const watch = new ConfigWatch(api, NAMESPACE, layout);
    await watch.start();
    try {
      // From the initial (JSON) list, its base64 turned into the same bytes the watch delivers.
      expect((await watch.current('listed'))?.map((file) => file.text)).toEqual([yaml('before'), '# listed\n']);
      expect(await watch.current('watched')).toBeUndefined();

      const created = watch.waitFor('watched', contains('serviceMonitor/team/first/0'), 20_000);
      const beforeCreate = performance.now();
      await api.json('POST', secretsPath, secretBody('watched', { 'prometheus.yaml.gz': gzipSync(yaml('first')), 'extra.yaml': Buffer.from('# one\n') }));
      expect(await created).toBeGreaterThan(beforeCreate);

      const updated = watch.waitFor('watched', contains('serviceMonitor/team/second/0'), 20_000);
      const beforeUpdate = performance.now();
      await api.json('PUT', `${secretsPath}/watched`, secretBody('watched', { 'prometheus.yaml.gz': gzipSync(yaml('second')), 'extra.yaml': Buffer.from('# two\n') }));
      expect(await updated).toBeGreaterThan(beforeUpdate);
      expect((await watch.current('watched'))?.map((file) => file.serviceMonitorJobs())).toEqual([['serviceMonitor/team/second/0'], []]);

      await api.json('DELETE', `${secretsPath}/watched`);
      await until('the deleted Secret to leave the ConfigWatch', async () => ((await watch.current('watched')) === undefined ? true : undefined));
      expect(watch.failure).toBeUndefined();
    } finally {
      watch.stop();
    }
  });
});
