/**
 * A Prometheus rendered by promop with `spec.otlp` and `spec.tracingConfig` runs in a real Prometheus 3.16: it loads
 * the otlp and tracing sections, its OTLP receiver turns an OpenTelemetry gauge into a series with only the promoted
 * resource attribute as a label, and it exports its own traces to the configured (loopback) collector. The
 * receiver flag is the one the controller derives from `otlp` (workload/prometheus-args.test.ts). Every address is
 * on loopback (nothing here may dial outside).
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '@promop/config-generator';
import type { Prometheus } from '@promop/crds';
import { freePort, isLoopback, startPrometheus, tcpSockets, type PrometheusProcess } from '@promop/testkit';

/** Polls `read` until `done` holds for its value or 20 s pass; returns the last value. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (const deadline = Date.now() + 20_000; !done(value) && Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) value = await read();
  return value;
}

describe('a Prometheus with otlp and tracingConfig rendered by promop, run by a real Prometheus', () => {
  let collector: Server;
  const traceRequests: string[] = [];
  let prometheus: PrometheusProcess;
  let dir: string;
  let config: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'promop-otlp-tracing-'));
    // The trace collector: answers every OTLP/HTTP export and remembers its path.
    const collectorPort = await freePort();
    collector = createServer((request, response) => {
      traceRequests.push(request.url ?? '');
      request.resume();
      request.on('end', () => {
        response.setHeader('Content-Type', 'application/x-protobuf');
        response.end();
      });
    });
    await new Promise<void>((resolve) => collector.listen(collectorPort, '127.0.0.1', resolve));

    const object: Prometheus = {
      apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { name: 'main', namespace: 'monitoring' },
      spec: {
        otlp: { promoteResourceAttributes: ['k8s.namespace.name'], translationStrategy: 'UnderscoreEscapingWithSuffixes', keepIdentifyingResourceAttributes: false },
        tracingConfig: { endpoint: `127.0.0.1:${collectorPort}`, clientType: 'HTTP', insecure: true, samplingFraction: '1', timeout: '2s' },
      },
    };
    const output = generate({ prometheus: object, serviceMonitors: [], podMonitors: [], prometheusRules: [], namespaces: [{ name: 'monitoring', labels: {} }], secrets: [], configMaps: [] });
    if (!output.ok) throw new Error(`did not render: ${JSON.stringify(output.prometheusProblems)}`);
    config = output.configs[0] ?? '';
    writeFileSync(join(dir, 'prometheus.yaml'), config);
    prometheus = await startPrometheus(join(dir, 'prometheus.yaml'), { POD_NAME: 'prometheus-main-0' }, { args: ['--web.enable-otlp-receiver'] });
  });

  afterAll(async () => {
    await prometheus?.stop();
    await new Promise((resolve) => collector?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads the otlp and tracing sections promop rendered', async () => {
    const loaded = await prometheus.apiGet<{ yaml: string }>('/api/v1/status/config');
    expect(loaded.yaml).toMatch(/^otlp:\n {2}promote_resource_attributes:\n {2}- k8s\.namespace\.name\n/m);
    expect(loaded.yaml).toMatch(/^tracing:\n {2}client_type: http\n {2}endpoint: 127\.0\.0\.1:\d+\n {2}sampling_fraction: 1\n {2}insecure: true\n/m);
  });

  it('turns an OTLP gauge into a series labelled with the promoted resource attribute only', async () => {
    const body = {
      resourceMetrics: [{
        resource: { attributes: [
          { key: 'service.name', value: { stringValue: 'checkout' } },
          { key: 'k8s.namespace.name', value: { stringValue: 'team-a' } },
          { key: 'host.arch', value: { stringValue: 'amd64' } },
        ] },
        scopeMetrics: [{ scope: { name: 'promop-test' }, metrics: [{ name: 'orders.processed', gauge: { dataPoints: [{ asInt: '7', timeUnixNano: `${Date.now()}000000` }] } }] }],
      }],
    };
    const response = await fetch(`${prometheus.url}/api/v1/otlp/v1/metrics`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    type Series = { metric: Record<string, string>; value: [number, string] };
    const result = await eventually(
      async () => (await prometheus.apiGet<{ result: Series[] }>(`/api/v1/query?query=${encodeURIComponent('orders_processed')}`)).result,
      (series) => series.length > 0,
    );
    expect(result.map((series) => [series.metric, series.value[1]])).toEqual([[{ __name__: 'orders_processed', job: 'checkout', k8s_namespace_name: 'team-a' }, '7']]);
  });

  it('exports its own traces to the collector of tracingConfig', async () => {
    const seen = await eventually(async () => traceRequests.length, (count) => count > 0);
    expect(seen).toBeGreaterThan(0);
    expect(traceRequests[0]).toBe('/v1/traces');
  });

  it('has dialled nothing outside loopback', () => {
    expect(tcpSockets(prometheus.pid).filter((socket) => socket.state === 'established' && !isLoopback(socket.remote))).toEqual([]);
  });
});
