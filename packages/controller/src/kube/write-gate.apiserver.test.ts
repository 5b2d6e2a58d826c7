/** The write gate against the real API server: a replica that does not lead sends nothing. */
import { CoreV1Api } from '@kubernetes/client-node';
import { sharedTestEnv } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { ChildWriter } from './child-writer.ts';
import { RawApi } from './raw-api.ts';
import { NotLeaderError, writeGatedAccess } from './write-gate.ts';

describe('a writer over a write-gated RawApi', () => {
  it('writes while leading, and once leadership is lost refuses locally without a request reaching the API server', async () => {
    const admin = sharedTestEnv().kubeConfig();
    const namespace = `gate-${randomBytes(3).toString('hex')}`;
    const core = admin.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    try {
      let leading = true;
      const writer = new ChildWriter(new RawApi(writeGatedAccess(admin, () => leading)));
      await writer.writeConfigMap({ metadata: { name: 'while-leading', namespace } }, undefined);
      leading = false;
      await expect(writer.writeConfigMap({ metadata: { name: 'after-loss', namespace } }, undefined)).rejects.toBeInstanceOf(NotLeaderError);
      await expect(writer.delete('ConfigMap', namespace, 'while-leading')).rejects.toBeInstanceOf(NotLeaderError);
      const names = (await core.listNamespacedConfigMap({ namespace })).items.map((c) => c.metadata?.name);
      expect(names).toContain('while-leading');
      expect(names).not.toContain('after-loss');
    } finally {
      await core.deleteNamespace({ name: namespace }).catch(() => {});
    }
  });
});
