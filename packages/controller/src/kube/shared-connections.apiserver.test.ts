/** Shared connections against the real API server: the writers' requests reuse one TLS connection. */
import { CoreV1Api } from '@kubernetes/client-node';
import { sharedTestEnv } from '@promop/e2e';
import { randomBytes } from 'node:crypto';
import { sharedConnectionsKubeConfig, type ConnectionStats } from './shared-connections.ts';
import { writeGatedKubeConfig } from './write-gate.ts';

describe('clients made from a shared-connections KubeConfig', () => {
  it('send one request after another over one connection, also through a write gate, and still authenticate each', async () => {
    const admin = sharedTestEnv().kubeConfig();
    const namespace = `conn-${randomBytes(3).toString('hex')}`;
    const stats: ConnectionStats = { connections: 0 };
    const shared = sharedConnectionsKubeConfig(admin, stats);
    const core = shared.makeApiClient(CoreV1Api);
    const gated = writeGatedKubeConfig(shared, () => true).makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    try {
      for (let i = 0; i < 5; i++) await gated.createNamespacedConfigMap({ namespace, body: { metadata: { name: `c${i}` }, data: { i: String(i) } } });
      const names = (await core.listNamespacedConfigMap({ namespace })).items.map((c) => c.metadata?.name).filter((name) => name?.startsWith('c'));
      expect(names).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
      // Seven requests (namespace, five ConfigMaps, the list): client-node alone opens a connection for each.
      expect(stats.connections).toBe(1);
    } finally {
      await core.deleteNamespace({ name: namespace }).catch(() => {});
    }
  });
});
