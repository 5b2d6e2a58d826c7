/**
 * ReferencedObjects against the real API server, as the operator's identity: Secrets and ConfigMaps are watched as
 * metadata only, and the data of just the referenced ones is read by name, once per resourceVersion.
 */
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { sharedTestEnv, eventually } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { operatorIdentity } from '../test-support/operator-identity.ts';
import { createClusterCaches, type ClusterCaches } from './cluster-caches.ts';
import { RawApi, type RawRequest } from './raw-api.ts';
import { ReferencedObjects } from './referenced-objects.ts';

const id = randomBytes(3).toString('hex');
const NAMESPACE = `referenced-${id}`;

/** Counts the GETs of single objects (lists and watches go through the same API and are left out). */
class CountingApi extends RawApi {
  readonly reads: string[] = [];
  override getJson<T>(path: string, request?: RawRequest): Promise<T> {
    if (/\/(secrets|configmaps)\/[^/]+$/.test(path)) this.reads.push(path.slice(path.lastIndexOf('/', path.lastIndexOf('/') - 1) + 1));
    return super.getJson<T>(path, request);
  }
}

let core: CoreV1Api;
let api: CountingApi;
let caches: ClusterCaches;
let referenced: ReferencedObjects;
const keys = (...names: string[]) => new Set(names.map((name) => `${NAMESPACE}/${name}`));
const none = new Set<string>();

beforeAll(async () => {
  const admin: KubeConfig = sharedTestEnv().kubeConfig();
  core = admin.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: NAMESPACE } } });
  const kc = await operatorIdentity(admin, NAMESPACE, `promop-referenced-${id}`);
  await core.createNamespacedSecret({ namespace: NAMESPACE, body: { metadata: { name: 'auth' }, stringData: { password: 'first' } } });
  await core.createNamespacedSecret({ namespace: NAMESPACE, body: { metadata: { name: 'unrelated' }, stringData: { blob: 'x'.repeat(50_000) } } });
  await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: 'ca' }, data: { 'ca.crt': 'PEM' } } });
  api = new CountingApi(kc);
  caches = createClusterCaches(api, pino({ level: 'silent' }));
  await Promise.all([caches.secrets.start(), caches.configMaps.start()]);
  referenced = new ReferencedObjects({ secrets: caches.secrets, configMaps: caches.configMaps, api });
});

afterAll(async () => {
  await Promise.all([caches.secrets.stop(), caches.configMaps.stop()]);
  api.close();
});

describe('the Secrets and ConfigMaps promop holds', () => {
  it('are metadata only in the caches: no Secret data, not even of an unrelated big Secret', () => {
    const unrelated = caches.secrets.get('unrelated', NAMESPACE) as { data?: unknown; metadata?: { name?: string } } | undefined;
    expect(unrelated?.metadata?.name).toBe('unrelated');
    expect(unrelated?.data).toBeUndefined();
  });

  it('have data only for the referenced ones, read once per version, decoded', async () => {
    const first = await referenced.resolve({ secrets: keys('auth', 'missing'), configMaps: keys('ca') });
    expect(first.secrets).toEqual([{ namespace: NAMESPACE, name: 'auth', data: { password: 'first' } }]);
    expect(first.configMaps).toEqual([{ namespace: NAMESPACE, name: 'ca', data: { 'ca.crt': 'PEM' } }]);
    expect(api.reads.sort()).toEqual(['configmaps/ca', 'secrets/auth']);
    await referenced.resolve({ secrets: keys('auth', 'missing'), configMaps: keys('ca') });
    expect(api.reads).toHaveLength(2);
    expect(referenced.isReferenced('Secret', NAMESPACE, 'auth')).toBe(true);
    expect(referenced.isReferenced('Secret', NAMESPACE, 'missing')).toBe(true);
    expect(referenced.isReferenced('Secret', NAMESPACE, 'unrelated')).toBe(false);
  });

  it('are read again after a change, and include a referenced Secret created later', async () => {
    await core.replaceNamespacedSecret({ namespace: NAMESPACE, name: 'auth', body: { metadata: { name: 'auth' }, stringData: { password: 'second' } } });
    await core.createNamespacedSecret({ namespace: NAMESPACE, body: { metadata: { name: 'missing' }, stringData: { token: 't' } } });
    const resolved = await eventually(
      () => referenced.resolve({ secrets: keys('auth', 'missing'), configMaps: keys('ca') }),
      (data) => data.secrets.length === 2 && data.secrets.some((s) => s.data.password === 'second'),
    );
    expect(resolved.secrets.map((s) => s.data).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([{ password: 'second' }, { token: 't' }]);
  });

  it('are forgotten when no longer referenced', async () => {
    const resolved = await referenced.resolve({ secrets: keys('missing'), configMaps: none });
    expect(resolved).toEqual({ secrets: [{ namespace: NAMESPACE, name: 'missing', data: { token: 't' } }], configMaps: [] });
    expect(referenced.isReferenced('Secret', NAMESPACE, 'auth')).toBe(false);
    const reads = api.reads.length;
    await referenced.resolve({ secrets: keys('auth', 'missing'), configMaps: none });
    expect(api.reads.length).toBe(reads + 1);
  });
});
