/**
 * The dropped targets of one scrape pool, as the health reporter asks a Prometheus for them to say why a monitor has
 * no target (health/no-targets-facts.ts): filtered by pool in the query, and never read past a size bound, since a
 * Prometheus that ignores the filter answers with every pool's.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrometheusReloader, prometheusPodUrl } from './prometheus-reloader.ts';

async function withPrometheus(answer: (request: IncomingMessage, response: ServerResponse) => void, test: (baseUrl: string) => Promise<void>): Promise<void> {
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await test(prometheusPodUrl('127.0.0.1', (server.address() as AddressInfo).port));
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('the dropped targets of a scrape pool', () => {
  const reloader = new PrometheusReloader({ allowedNetworks: ['127.0.0.1'] });
  afterAll(() => reloader.close());

  it('are asked for by pool, and read', async () => {
    const urls: string[] = [];
    const data = { droppedTargets: [{ scrapePool: 'serviceMonitor/team-b/web/0', discoveredLabels: { job: 'serviceMonitor/team-b/web/0' } }], droppedTargetCounts: { 'serviceMonitor/team-b/web/0': 1 } };
    await withPrometheus((request, response) => {
      urls.push(request.url ?? '');
      response.end(JSON.stringify({ status: 'success', data }));
    }, async (baseUrl) => {
      expect(await reloader.client(baseUrl).droppedTargets('serviceMonitor/team-b/web/0', 1024)).toEqual({ ok: true, value: data });
    });
    expect(urls).toEqual(['/api/v1/targets?state=dropped&scrapePool=serviceMonitor%2Fteam-b%2Fweb%2F0']);
  });

  it('are an error, not read further, when the answer passes the bound', async () => {
    let written = 0;
    let closed!: Promise<void>;
    await withPrometheus((_request, response) => {
      closed = new Promise((resolve) => response.on('close', () => resolve()));
      // A Prometheus that ignores scrapePool= on a big cluster: megabytes of every pool's dropped targets.
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const more = () => {
        while (written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) return response.once('drain', more);
        }
        return response.end();
      };
      more();
    }, async (baseUrl) => {
      const result = await reloader.client(baseUrl).droppedTargets('probe/team-b/site', 256 * 1024);
      expect(result).toMatchObject({ ok: false, error: { kind: 'api', message: expect.stringContaining('longer than 262144 bytes') } });
    });
    // The client closed the connection long before the 64 MiB were sent.
    await closed;
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });
});
