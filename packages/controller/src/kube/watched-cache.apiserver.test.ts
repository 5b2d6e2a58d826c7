/**
 * WatchedCache against the real API server: it lists in pages then watches, a periodic relist replaces the content
 * without emptying the cache and tells handlers only what differs, a connection cut mid-list or mid-watch is
 * survived (the watch resumes from its resourceVersion, no relist), stop() ends everything, metadata-only caches
 * hold no data, a first list the identity may not do fails start() at once, and an `objectName` cache (how
 * `--namespaces` reads each Namespace) follows one object from absent to deleted.
 */
import { CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions, type V1ConfigMap } from '@kubernetes/client-node';
import { sharedTestEnv } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { pino } from 'pino';
import { RawApi, type RawRequest } from './raw-api.ts';
import { WatchedCache, type WatchedCacheOptions } from './watched-cache.ts';

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

/** A RawApi that counts its requests and lets a test rewrite list pages. */
class CountingApi extends RawApi {
  lists = 0;
  watches = 0;
  rewritePage: ((page: { items: V1ConfigMap[] }) => void) | undefined;
  override async getJson<T>(path: string, request?: RawRequest): Promise<T> {
    this.lists += 1;
    const page = await super.getJson<T>(path, request);
    this.rewritePage?.(page as { items: V1ConfigMap[] });
    return page;
  }
  override watch(...args: Parameters<RawApi['watch']>): Promise<void> {
    this.watches += 1;
    return super.watch(...args);
  }
}

function configMapCache(api: RawApi, options: Partial<WatchedCacheOptions> = {}): WatchedCache<V1ConfigMap> {
  return new WatchedCache<V1ConfigMap>(api, { resource: 'configmaps', path: `/api/v1/namespaces/${NAMESPACE}/configmaps`, ...options }, log);
}

/**
 * A TCP forwarder to the API server that can cut every connection at once, or each connection once it has sent
 * `cutAfterBytes` to the client: a response cut off while its body streams, as a proxy or an API server timeout
 * does it (undici calls it `TypeError: terminated`).
 */
async function cuttingProxy(target: URL): Promise<{ kubeConfig: KubeConfig; cutAll(): void; cutAfterBytes: number | undefined; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const control = {
    cutAfterBytes: undefined as number | undefined,
    cutAll() {
      for (const socket of sockets) socket.destroy();
    },
  };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client);
    sockets.add(upstream);
    let sent = 0;
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      if (control.cutAfterBytes !== undefined && sent > control.cutAfterBytes) {
        control.cutAfterBytes = undefined;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', close).on('error', close);
    upstream.on('close', close).on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(sharedTestEnv().kubeconfigPath);
  kubeConfig.clusters = kubeConfig.clusters.map((cluster) => ({ ...cluster, server: `https://127.0.0.1:${port}` }));
  return Object.assign(control, {
    kubeConfig,
    close: () => {
      control.cutAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

beforeAll(async () => {
  kc = sharedTestEnv().kubeConfig();
  core = kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: NAMESPACE } } });
  await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: 'before-start' }, data: { a: '1' } } });
});

describe('a watched cache', () => {
  it('holds what was there before it started and what changes after, and hears each change with the version before it', async () => {
    const cache = configMapCache(new RawApi(kc));
    const changes: string[] = [];
    // kube-controller-manager publishes kube-root-ca.crt into every namespace, whenever it gets to it.
    cache.onChange((object, change, previous) => {
      if (object.metadata?.name !== 'kube-root-ca.crt') changes.push(`${change} ${object.metadata?.name}${previous ? ` was ${JSON.stringify(previous.data)}` : ''}`);
    });
    await cache.start();
    try {
      expect(cache.synced).toBe(true);
      expect(cache.get('before-start', NAMESPACE)?.data).toEqual({ a: '1' });
      await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: 'after-start' }, data: { b: '1' } } });
      expect(await until(() => cache.get('after-start', NAMESPACE) !== undefined)).toBe(true);
      await core.replaceNamespacedConfigMap({ namespace: NAMESPACE, name: 'after-start', body: { metadata: { name: 'after-start' }, data: { b: '2' } } });
      expect(await until(() => cache.get('after-start', NAMESPACE)?.data?.b === '2')).toBe(true);
      await core.deleteNamespacedConfigMap({ namespace: NAMESPACE, name: 'after-start' });
      expect(await until(() => cache.get('after-start', NAMESPACE) === undefined)).toBe(true);
      expect(changes).toEqual(['add before-start', 'add after-start', 'update after-start was {"b":"1"}', 'delete after-start']);
      expect(cache.list(NAMESPACE).map((c) => c.metadata?.name).filter((name) => name !== 'kube-root-ca.crt')).toEqual(['before-start']);
    } finally {
      await cache.stop();
    }
  });

  it('hands out the same list of every object while nothing changed, and a new one that holds a change as soon as its handlers hear it', async () => {
    const cache = configMapCache(new RawApi(kc));
    const seenByHandlers: string[][] = [];
    cache.onChange(() => seenByHandlers.push(cache.list().map((c) => `${c.metadata?.name}=${JSON.stringify(c.data)}`)));
    await cache.start();
    try {
      const first = cache.list();
      expect(cache.list()).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
      await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: 'listed-once' }, data: { c: '1' } } });
      expect(await until(() => cache.get('listed-once', NAMESPACE) !== undefined)).toBe(true);
      const second = cache.list();
      expect(second).not.toBe(first);
      expect(second.map((c) => c.metadata?.name)).toContain('listed-once');
      expect(seenByHandlers.at(-1)).toContain('listed-once={"c":"1"}');
      await core.replaceNamespacedConfigMap({ namespace: NAMESPACE, name: 'listed-once', body: { metadata: { name: 'listed-once' }, data: { c: '2' } } });
      expect(await until(() => cache.get('listed-once', NAMESPACE)?.data?.c === '2')).toBe(true);
      expect(cache.list()).not.toBe(second);
      expect(seenByHandlers.at(-1)).toContain('listed-once={"c":"2"}');
      await core.deleteNamespacedConfigMap({ namespace: NAMESPACE, name: 'listed-once' });
      expect(await until(() => cache.get('listed-once', NAMESPACE) === undefined)).toBe(true);
      expect(cache.list().map((c) => c.metadata?.name)).not.toContain('listed-once');
      expect(seenByHandlers.at(-1)?.some((entry) => entry.startsWith('listed-once='))).toBe(false);
    } finally {
      await cache.stop();
    }
  });

  it('lists in pages of pageSize', async () => {
    for (const name of ['page-a', 'page-b', 'page-c']) await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name, labels: { paged: 'yes' } } } });
    const api = new CountingApi(kc);
    const cache = configMapCache(api, { pageSize: 1, labelSelector: 'paged=yes' });
    await cache.start();
    try {
      expect(cache.list().map((c) => c.metadata?.name).sort()).toEqual(['page-a', 'page-b', 'page-c']);
      expect(api.lists).toBe(3);
    } finally {
      await cache.stop();
    }
  });

  it('relists on its timer without ever showing an empty cache, tells handlers nothing when nothing changed, and keeps watching', async () => {
    const api = new CountingApi(kc);
    const cache = configMapCache(api, { relistIntervalMs: 200 });
    const changes: string[] = [];
    cache.onChange((object, change) => changes.push(`${change} ${object.metadata?.name}`));
    await cache.start();
    try {
      const heardAtStart = changes.length;
      let sawEmpty = false;
      const deadline = Date.now() + 1_000;
      while (Date.now() < deadline) {
        if (cache.get('before-start', NAMESPACE) === undefined) sawEmpty = true;
        await sleep(5);
      }
      expect(sawEmpty).toBe(false);
      expect(api.lists).toBeGreaterThan(2);
      expect(changes.length).toBe(heardAtStart);
      await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: 'after-relists' } } });
      expect(await until(() => cache.get('after-relists', NAMESPACE) !== undefined)).toBe(true);
    } finally {
      await cache.stop();
    }
    // Stopped: no more changes arrive.
    const frozen = changes.length;
    await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: 'after-stop' } } });
    await sleep(500);
    expect(changes.length).toBe(frozen);
    expect(cache.get('after-stop', NAMESPACE)).toBeUndefined();
  });

  it('tells its handlers about an object a relist no longer finds (a delete the watch missed)', async () => {
    // The watch is real; the second list leaves "before-start" out, as if its delete had happened unheard.
    const api = new CountingApi(kc);
    let lists = 0;
    api.rewritePage = (page) => {
      lists += 1;
      if (lists > 1) page.items = page.items.filter((item) => item.metadata?.name !== 'before-start');
    };
    const cache = configMapCache(api, { relistIntervalMs: 200 });
    const deletes: string[] = [];
    cache.onChange((o, change) => { if (change === 'delete') deletes.push(o.metadata?.name ?? ''); });
    await cache.start();
    try {
      expect(cache.get('before-start', NAMESPACE)).toBeDefined();
      expect(await until(() => deletes.includes('before-start'), 5_000)).toBe(true);
      expect(cache.get('before-start', NAMESPACE)).toBeUndefined();
      expect(deletes).toEqual(['before-start']);
    } finally {
      await cache.stop();
    }
  });

  it('resumes a watch cut off mid-stream from its resourceVersion, without listing again or missing a change', async () => {
    const proxy = await cuttingProxy(new URL(sharedTestEnv().apiServerUrl));
    const api = new CountingApi(proxy.kubeConfig);
    const cache = configMapCache(api);
    const changes: string[] = [];
    cache.onChange((object, change) => changes.push(`${change} ${object.metadata?.name}`));
    await cache.start();
    try {
      await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: 'before-cut' } } });
      expect(await until(() => cache.get('before-cut', NAMESPACE) !== undefined)).toBe(true);
      proxy.cutAll();
      await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: 'while-cut' } } });
      expect(await until(() => cache.get('while-cut', NAMESPACE) !== undefined)).toBe(true);
      expect(api.lists).toBe(1);
      expect(api.watches).toBe(2);
      expect(changes.filter((c) => c.endsWith('-cut'))).toEqual(['add before-cut', 'add while-cut']);
    } finally {
      await cache.stop();
      await proxy.close();
      api.close();
    }
  });

  it('lists again when its watch answers 410 Gone (its resourceVersion is too old), without telling handlers anything new', async () => {
    class GoneOnceApi extends CountingApi {
      gone = false;
      override watch(...args: Parameters<RawApi['watch']>): Promise<void> {
        if (!this.gone) {
          this.gone = true;
          this.watches += 1;
          // What the API server sends when the resourceVersion was compacted away.
          return Promise.resolve().then(() => args[2]({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } }));
        }
        return super.watch(...args);
      }
    }
    const api = new GoneOnceApi(kc);
    const cache = configMapCache(api);
    const changes: string[] = [];
    cache.onChange((object, change) => changes.push(`${change} ${object.metadata?.name}`));
    await cache.start();
    try {
      const heardAtStart = changes.length;
      expect(await until(() => api.lists === 2 && api.watches === 2)).toBe(true);
      expect(changes.length).toBe(heardAtStart);
      await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: 'after-gone' } } });
      expect(await until(() => cache.get('after-gone', NAMESPACE) !== undefined)).toBe(true);
    } finally {
      await cache.stop();
    }
  });

  it('starts even when its first list is cut off while the body streams, by listing again', async () => {
    const blob = 'x'.repeat(10_000);
    for (let i = 0; i < 10; i++) await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: `big-${i}`, labels: { big: 'yes' } }, data: { blob } } });
    const proxy = await cuttingProxy(new URL(sharedTestEnv().apiServerUrl));
    proxy.cutAfterBytes = 25_000;
    const api = new CountingApi(proxy.kubeConfig);
    const cache = configMapCache(api, { labelSelector: 'big=yes' });
    try {
      await cache.start();
      expect(cache.list()).toHaveLength(10);
      expect(api.lists).toBe(2);
    } finally {
      await cache.stop();
      await proxy.close();
      api.close();
    }
  });

  it('holds only metadata when metadataOnly, and never managedFields or kubectl\'s last-applied copy', async () => {
    await core.createNamespacedConfigMap({
      namespace: NAMESPACE,
      body: { metadata: { name: 'applied', labels: { meta: 'yes' }, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"secret":"x"}}', kept: 'yes' } }, data: { secret: 'x' } },
    });
    const full = configMapCache(new RawApi(kc), { labelSelector: 'meta=yes' });
    const metadata = configMapCache(new RawApi(kc), { labelSelector: 'meta=yes', metadataOnly: true });
    await full.start();
    await metadata.start();
    try {
      expect(full.get('applied', NAMESPACE)?.data).toEqual({ secret: 'x' });
      const meta = metadata.get('applied', NAMESPACE) as V1ConfigMap & { kind?: string };
      expect(meta.kind).toBe('PartialObjectMetadata');
      expect(meta.data).toBeUndefined();
      expect(meta.metadata?.resourceVersion).toBe(full.get('applied', NAMESPACE)?.metadata?.resourceVersion);
      for (const cached of [meta, full.get('applied', NAMESPACE)]) {
        expect(cached?.metadata?.annotations).toEqual({ kept: 'yes' });
        expect(cached?.metadata?.managedFields).toBeUndefined();
      }
    } finally {
      await full.stop();
      await metadata.stop();
    }
  });

  it('fails to start, at once, for an identity that may not list', async () => {
    const nobody = sharedTestEnv().kubeConfigFor({ namespace: NAMESPACE, name: 'nobody' });
    const cache = configMapCache(new RawApi(nobody));
    const started = Date.now();
    await expect(cache.start()).rejects.toMatchObject({ code: 403 });
    expect(Date.now() - started).toBeLessThan(5_000);
    await cache.stop();
  });

  it('with objectName, holds the one object of that name: absent, created, changed, deleted', async () => {
    const name = `${NAMESPACE}-single`;
    const cache = new WatchedCache<{ metadata?: { name?: string; labels?: Record<string, string>; resourceVersion?: string } }>(
      new RawApi(kc), { resource: 'one namespace', path: '/api/v1/namespaces', objectName: name }, log,
    );
    const changes: string[] = [];
    cache.onChange((object, change) => changes.push(`${change} ${object.metadata?.labels?.['step'] ?? '-'}`));
    try {
      await cache.start();
      expect(cache.list()).toEqual([]);
      await core.createNamespace({ body: { metadata: { name, labels: { step: 'created' } } } });
      expect(await until(() => cache.get(name)?.metadata?.labels?.['step'] === 'created')).toBe(true);
      await core.patchNamespace({ name, body: { metadata: { labels: { step: 'changed' } } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
      expect(await until(() => cache.get(name)?.metadata?.labels?.['step'] === 'changed')).toBe(true);
      // Another namespace is never in it.
      expect(cache.list().map((object) => object.metadata?.name)).toEqual([name]);
      await core.deleteNamespace({ name });
      // A namespace is deleted once its finalizers ran (kube-controller-manager): the DELETED event then empties the cache.
      expect(await until(() => cache.get(name) === undefined, 60_000)).toBe(true);
      // In between, updates only (the namespace going Terminating, its finalizers removed).
      expect({ first: changes.slice(0, 2), between: changes.slice(2, -1).filter((change) => change !== 'update changed'), last: changes.at(-1) })
        .toEqual({ first: ['add created', 'update changed'], between: [], last: 'delete changed' });
    } finally {
      await cache.stop();
    }
  }, 90_000);
});
