/**
 * The sidecar promop renders, run for real: a Prometheus 3.16 process and `thanos sidecar` (v0.42.2, the version
 * promop renders by default; tools/thanos) started with the args of the `thanos-sidecar` container promop builds
 * for a Prometheus with `spec.thanos`, then `thanos query` reading it over gRPC. Thanos refuses a flag it does
 * not know, so every rendered flag is exercised. Only the pod's addresses are replaced (localhost:9090 and the
 * wildcard listen addresses become free loopback ports) and the HTTP client file is the Secret's text on disk.
 * Everything listens and dials on 127.0.0.1.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort, startPrometheus, startUntilReady, startProcess, toolPath, type PrometheusProcess } from '@promop/testkit';
import { buildStatefulSets } from './statefulset.ts';
import { THANOS_HTTP_CLIENT_CONFIG } from './thanos-sidecar.ts';
import { testOutput, testPrometheus, versionOf } from '../test-support/workload-fixtures.ts';

const spec = { version: 'v3.16.0', logFormat: 'json' as const, thanos: { logLevel: 'debug' as const, minTime: '-1w', readyTimeout: '2m', getConfigInterval: '5s', getConfigTimeout: '10s' } };

/** The args promop renders for the sidecar of `monitoring/main`. */
function renderedSidecarArgs(): string[] {
  const built = buildStatefulSets(testPrometheus(spec), { ...testOutput(), version: versionOf(spec) });
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  const sidecar = built.value[0]!.spec!.template.spec!.containers.find((container) => container.name === 'thanos-sidecar');
  return sidecar!.args!;
}

/** `args` with the pod's addresses and mounted file replaced by this process' own. */
function onLoopback(args: string[], where: { prometheusUrl: string; grpcPort: number; httpPort: number; httpClientFile: string }): string[] {
  return args.map((arg) => {
    if (arg.startsWith('--prometheus.url=')) return `--prometheus.url=${where.prometheusUrl}`;
    if (arg.startsWith('--grpc-address=')) return `--grpc-address=127.0.0.1:${where.grpcPort}`;
    if (arg.startsWith('--http-address=')) return `--http-address=127.0.0.1:${where.httpPort}`;
    if (arg.startsWith('--prometheus.http-client-file=')) return `--prometheus.http-client-file=${where.httpClientFile}`;
    return arg;
  });
}

interface QueryResult { data: { result: { metric: Record<string, string>; value: [number, string] }[] } }

describe('the thanos-sidecar container promop renders, run beside a real Prometheus', () => {
  const dir = mkdtempSync(join(tmpdir(), 'promop-thanos-'));
  const configFile = join(dir, 'prometheus.yaml');
  let prometheus: PrometheusProcess;
  const stops: (() => Promise<void>)[] = [];
  let sidecarHttp: number;
  let queryHttp: number;

  beforeAll(async () => {
    // The sidecar refuses a Prometheus without external labels; promop's configs always have them.
    const config = (target: string) => [
      'global:', '  scrape_interval: 1s', '  external_labels:', '    prometheus: monitoring/main', '    prometheus_replica: prometheus-main-0',
      'scrape_configs:', '- job_name: prometheus', '  static_configs:', `  - targets: ['${target}']`, '',
    ].join('\n');
    writeFileSync(configFile, config('127.0.0.1:1'));
    prometheus = await startPrometheus(configFile);
    stops.push(() => prometheus.stop());
    // Scrape itself, once its port is known.
    writeFileSync(configFile, config(new URL(prometheus.url).host));
    expect((await fetch(`${prometheus.url}/-/reload`, { method: 'POST' })).ok).toBe(true);

    const httpClientFile = join(dir, 'prometheus.http-client-file.yaml');
    writeFileSync(httpClientFile, THANOS_HTTP_CLIENT_CONFIG);
    const grpcPort = await freePort();
    sidecarHttp = await freePort();
    const sidecarArgs = onLoopback(renderedSidecarArgs(), { prometheusUrl: `${prometheus.url}/`, grpcPort, httpPort: sidecarHttp, httpClientFile });
    const sidecar = startProcess('thanos-sidecar', toolPath('thanos'), sidecarArgs, join(dir, 'sidecar.log'));
    stops.push((await startUntilReady(sidecar, `http://127.0.0.1:${sidecarHttp}/-/ready`, join(dir, 'sidecar'))).stop);

    queryHttp = await freePort();
    const query = startProcess('thanos-query', toolPath('thanos'), [
      'query', `--http-address=127.0.0.1:${queryHttp}`, `--grpc-address=127.0.0.1:${await freePort()}`, `--endpoint=127.0.0.1:${grpcPort}`,
    ], join(dir, 'query.log'));
    stops.push((await startUntilReady(query, `http://127.0.0.1:${queryHttp}/-/ready`, join(dir, 'query'))).stop);
  }, 60_000);

  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
  });

  it('is started with exactly the flags promop renders, which Thanos accepts', () => {
    expect(renderedSidecarArgs()).toEqual([
      'sidecar', '--prometheus.url=http://localhost:9090/', '--grpc-address=:10901', '--http-address=:10902',
      '--log.level=debug', '--log.format=json', '--min-time=-1w', '--prometheus.ready_timeout=2m',
      '--prometheus.get_config_timeout=10s', '--prometheus.get_config_interval=5s',
      '--prometheus.http-client-file=/etc/thanos/config/prometheus.http-client-file.yaml',
    ]);
  });

  it('becomes ready and serves the Prometheus\' series, with its external labels, through thanos query', async () => {
    const answer = await eventually(
      async () => (await (await fetch(`http://127.0.0.1:${queryHttp}/api/v1/query?query=${encodeURIComponent('up{job="prometheus"}')}`)).json()) as QueryResult,
      (body) => body.data.result.length > 0,
      30_000, 500,
    );
    expect(answer.data.result.map((series) => series.metric)).toEqual([
      { __name__: 'up', instance: new URL(prometheus.url).host, job: 'prometheus', prometheus: 'monitoring/main', prometheus_replica: 'prometheus-main-0' },
    ]);
    expect(answer.data.result[0]!.value[1]).toBe('1');
  });
});
