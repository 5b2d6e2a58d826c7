/**
 * What promop's clients put on the wire: they ask for uncompressed responses. A local HTTP server on loopback
 * stands in for the API server here only to read the request headers (the API server's answers are covered by
 * shared-connections.apiserver.test.ts and every other API-server test).
 */
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sharedConnectionsKubeConfig } from './shared-connections.ts';

describe('clients made from a shared-connections KubeConfig', () => {
  it('send Accept-Encoding: identity, so a large response is not gzipped by the API server and inflated by promop', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((request, response) => {
      seen.push(request.headers);
      response.setHeader('Content-Type', 'application/json');
      response.end(JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a', namespace: 'b' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const kc = new KubeConfig();
      kc.loadFromOptions({
        clusters: [{ name: 'local', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
        users: [{ name: 'u', token: 'not-a-secret' }],
        contexts: [{ name: 'c', cluster: 'local', user: 'u' }],
        currentContext: 'c',
      });
      const core = sharedConnectionsKubeConfig(kc).makeApiClient(CoreV1Api);
      const secret = await core.readNamespacedSecret({ namespace: 'b', name: 'a' });
      expect(secret.metadata?.name).toBe('a');
      expect(seen.map((headers) => headers['accept-encoding'])).toEqual(['identity']);
      // Authentication is still applied by client-node.
      expect(seen[0]?.authorization).toBe('Bearer not-a-secret');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
