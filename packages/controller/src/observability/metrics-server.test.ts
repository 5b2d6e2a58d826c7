/**
 * The operator's /metrics, /healthz and /readyz, served on loopback by a real node:http server.
 */
import { createServer } from 'node:net';
import { Agent, request } from 'undici';
import { startMetricsServer, type MetricsServer } from './metrics-server.ts';
import { OperatorMetrics } from './operator-metrics.ts';

async function get(url: string, agent?: Agent): Promise<{ status: number; body: string; contentType: string | undefined }> {
  const response = await request(url, { signal: AbortSignal.timeout(5_000), ...(agent ? { dispatcher: agent } : {}) });
  const contentType = response.headers['content-type'];
  return { status: response.statusCode, body: await response.body.text(), contentType: typeof contentType === 'string' ? contentType : undefined };
}

describe('the operator metrics server', () => {
  let metrics: OperatorMetrics;
  let server: MetricsServer;
  let ready: boolean | Error;

  beforeEach(async () => {
    metrics = new OperatorMetrics();
    ready = false;
    server = await startMetricsServer({
      metrics,
      address: '127.0.0.1:0',
      isReady: () => {
        if (ready instanceof Error) throw ready;
        return ready;
      },
    });
  });

  afterEach(async () => {
    await server.close(1_000);
  });

  it('exposes what the controller recorded on /metrics, in the Prometheus text format', async () => {
    metrics.recordReconcile('success', 0.2);
    metrics.recordReconcile('error', 3);
    metrics.recordReload('verified', 0.5);
    metrics.recordReload('rejected', 0.1);
    metrics.setManagedResources('monitoring/main', new Map([['ServiceMonitor', { selected: 12, rejected: 1 }]]));
    metrics.workQueue.depth(4);
    metrics.setReady(true);

    const { status, body, contentType } = await get(`${server.url}/metrics`);
    expect(status).toBe(200);
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(body).toContain('promop_reconcile_total{result="success"} 1');
    expect(body).toContain('promop_reconcile_total{result="error"} 1');
    expect(body).toContain('promop_reconcile_total{result="retry"} 0');
    expect(body).toContain('promop_reconcile_duration_seconds_bucket{le="0.25",result="success"} 1');
    expect(body).toContain('promop_reconcile_duration_seconds_count{result="error"} 1');
    expect(body).toContain('promop_reload_total{outcome="verified"} 1');
    expect(body).toContain('promop_reload_total{outcome="rejected"} 1');
    expect(body).toContain('promop_reload_total{outcome="stale"} 0');
    expect(body).toContain('promop_reload_duration_seconds_bucket{le="0.5",outcome="verified"} 1');
    expect(body).toContain('promop_managed_resources{prometheus="monitoring/main",kind="ServiceMonitor",state="selected"} 12');
    expect(body).toContain('promop_managed_resources{prometheus="monitoring/main",kind="ServiceMonitor",state="rejected"} 1');
    expect(body).toContain('promop_managed_resources{prometheus="monitoring/main",kind="PrometheusRule",state="selected"} 0');
    expect(body).toContain('promop_workqueue_depth 4');
    expect(body).toContain('promop_ready 1');
    expect(body).toContain('process_cpu_user_seconds_total');
  });

  it('answers /healthz with 200 whatever the readiness', async () => {
    expect(await get(`${server.url}/healthz`)).toMatchObject({ status: 200, body: 'ok\n' });
  });

  it('answers /readyz from the callback, and a failing callback means not ready', async () => {
    expect(await get(`${server.url}/readyz`)).toMatchObject({ status: 503, body: 'not ready\n' });
    ready = true;
    expect(await get(`${server.url}/readyz`)).toMatchObject({ status: 200, body: 'ok\n' });
    ready = new Error('informer caches not synced');
    expect(await get(`${server.url}/readyz`)).toMatchObject({ status: 503, body: 'not ready: informer caches not synced\n' });
  });

  it('answers other paths with 404 and other methods with 405', async () => {
    expect((await get(`${server.url}/debug/pprof`)).status).toBe(404);
    const post = await request(`${server.url}/metrics`, { method: 'POST', signal: AbortSignal.timeout(5_000) });
    await post.body.dump();
    expect(post.statusCode).toBe(405);
  });

  it('closes promptly even with a keep-alive scrape connection open, and then refuses connections', async () => {
    const agent = new Agent({ keepAliveTimeout: 60_000 });
    try {
      expect((await get(`${server.url}/metrics`, agent)).status).toBe(200);
      const started = Date.now();
      await server.close(10_000);
      expect(Date.now() - started).toBeLessThan(1_000);
      await expect(get(`${server.url}/healthz`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await agent.close();
    }
  });

  it('lets a request in flight finish when closing', async () => {
    let release: () => void = () => {};
    ready = true;
    const slow = await startMetricsServer({ metrics, address: '127.0.0.1:0', isReady: () => new Promise<boolean>((resolve) => { release = () => resolve(true); }) });
    const pending = get(`${slow.url}/readyz`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = slow.close(5_000);
    release();
    expect(await pending).toMatchObject({ status: 200 });
    await closing;
  });

  it('fails to start, instead of serving nothing, when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      await expect(startMetricsServer({ metrics, address: `127.0.0.1:${port}`, isReady: () => true })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
