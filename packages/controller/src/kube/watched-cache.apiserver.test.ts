/**
 * WatchedCache against the real API server: it lists then watches, a periodic relist replaces the watch without
 * emptying the cache, stop() ends everything, and a first list the identity may not do fails start() at once.
 */
import { CoreV1Api, type KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import { sharedTestEnv } from '@promop/e2e';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { WatchedCache } from './watched-cache.ts';

const NAMESPACE = `watched-cache-${randomBytes(3).toString('hex')}`;
const log = pino({ level: 'silent' });
let kc: KubeConfig;
let core: CoreV1Api;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

function configMapCache(kubeConfig: KubeConfig, relistIntervalMs?: number): WatchedCache<V1ConfigMap> {
  const api = kubeConfig.makeApiClient(CoreV1Api);
  return new WatchedCache<V1ConfigMap>(kubeConfig, {
    resource: 'configmaps',
    path: `/api/v1/namespaces/${NAMESPACE}/configmaps`,
    list: () => api.listNamespacedConfigMap({ namespace: NAMESPACE }),
    ...(relistIntervalMs === undefined ? {} : { relistIntervalMs }),
  }, log);
}

beforeAll(async () => {
  kc = sharedTestEnv().kubeConfig();
  core = kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: NAMESPACE } } });
  await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: 'before-start' }, data: { a: '1' } } });
});

describe('a watched cache', () => {
  it('holds what was there before it started and what changes after, and hears each change', async () => {
    const cache = configMapCache(kc);
    const changes: string[] = [];
    cache.onChange((object, change) => changes.push(`${change} ${object.metadata?.name}`));
    await cache.start();
    try {
      expect(cache.synced).toBe(true);
      expect(cache.get('before-start', NAMESPACE)?.data).toEqual({ a: '1' });
      await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: 'after-start' } } });
      expect(await until(() => cache.get('after-start', NAMESPACE) !== undefined)).toBe(true);
      await core.deleteNamespacedConfigMap({ namespace: NAMESPACE, name: 'after-start' });
      expect(await until(() => cache.get('after-start', NAMESPACE) === undefined)).toBe(true);
      expect(changes).toEqual(expect.arrayContaining(['add before-start', 'add after-start', 'delete after-start']));
    } finally {
      await cache.stop();
    }
  });

  it('relists on its timer without ever showing an empty cache, and keeps watching afterwards', async () => {
    const cache = configMapCache(kc, 200);
    let adds = 0;
    cache.onChange((_object, change) => { if (change === 'add') adds += 1; });
    await cache.start();
    try {
      const addsAfterStart = adds;
      let sawEmpty = false;
      const deadline = Date.now() + 1_000;
      while (Date.now() < deadline) {
        if (cache.get('before-start', NAMESPACE) === undefined) sawEmpty = true;
        await sleep(5);
      }
      expect(sawEmpty).toBe(false);
      // Each relist is heard as adds (a level-based reconcile does not mind).
      expect(adds).toBeGreaterThan(addsAfterStart);
      await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: 'after-relists' } } });
      expect(await until(() => cache.get('after-relists', NAMESPACE) !== undefined)).toBe(true);
    } finally {
      await cache.stop();
    }
    // Stopped: no more changes arrive.
    const frozen = adds;
    await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: 'after-stop' } } });
    await sleep(500);
    expect(adds).toBe(frozen);
    expect(cache.get('after-stop', NAMESPACE)).toBeUndefined();
  });

  it('tells its handlers about an object a relist no longer finds (a delete the watch missed)', async () => {
    // The list is scripted, the watch is real (on this namespace, where nothing else changes): the second list
    // lacks "gone", as if its delete had happened while the watch was stalled.
    const real = await core.listNamespacedConfigMap({ namespace: NAMESPACE });
    const object = (name: string): V1ConfigMap => ({ metadata: { name, namespace: NAMESPACE, resourceVersion: '1' } });
    let lists = 0;
    const cache = new WatchedCache<V1ConfigMap>(kc, {
      resource: 'configmaps',
      path: `/api/v1/namespaces/${NAMESPACE}/configmaps`,
      labelSelector: 'scripted=only',
      list: async () => {
        lists += 1;
        return { items: lists === 1 ? [object('kept'), object('gone')] : [object('kept')], metadata: { resourceVersion: real.metadata?.resourceVersion ?? '' } };
      },
      relistIntervalMs: 200,
    }, log);
    const deletes: string[] = [];
    cache.onChange((o, change) => { if (change === 'delete') deletes.push(o.metadata?.name ?? ''); });
    await cache.start();
    try {
      expect(cache.get('gone', NAMESPACE)).toBeDefined();
      expect(await until(() => deletes.includes('gone'), 5_000)).toBe(true);
      expect(cache.get('gone', NAMESPACE)).toBeUndefined();
      expect(cache.get('kept', NAMESPACE)).toBeDefined();
      expect(deletes).toEqual(['gone']);
    } finally {
      await cache.stop();
    }
  });

  it('fails to start, at once, for an identity that may not list', async () => {
    const nobody = sharedTestEnv().kubeConfigFor({ namespace: NAMESPACE, name: 'nobody' });
    const cache = configMapCache(nobody);
    const started = Date.now();
    await expect(cache.start()).rejects.toMatchObject({ code: 403 });
    expect(Date.now() - started).toBeLessThan(5_000);
    await cache.stop();
  });
});
