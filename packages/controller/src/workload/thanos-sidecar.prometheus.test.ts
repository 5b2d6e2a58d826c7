/**
 * The sidecar promop renders, run for real: a Prometheus 3.16 process and `thanos sidecar` (v0.42.2, the version
 * promop renders by default; tools/thanos) started with the args of the `thanos-sidecar` container promop builds
 * for a Prometheus with `spec.thanos`, then `thanos query` reading it over gRPC. Thanos refuses a flag it does
 * not know, so every rendered flag is exercised. Only the pod's addresses are replaced (localhost:9090 and the
 * wildcard listen addresses become free loopback ports) and the HTTP client file is the Secret's text on disk.
 * Everything listens and dials on 127.0.0.1.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPki, eventually, freePort, startPrometheus, startUntilReady, startProcess, toolPath, type PrometheusProcess } from '@promop/testkit';
import { buildStatefulSets } from './statefulset.ts';
import { THANOS_HTTP_CLIENT_CONFIG } from './thanos-sidecar.ts';
import { testOutput, testPrometheus, versionOf } from '../test-support/workload-fixtures.ts';

type Spec = Parameters<typeof testPrometheus>[0];
const spec: Spec = { version: 'v3.16.0', logFormat: 'json', thanos: { logLevel: 'debug', minTime: '-1w', readyTimeout: '2m', getConfigInterval: '5s', getConfigTimeout: '10s' } };

/** The args promop renders for the sidecar of `monitoring/main` with `prometheusSpec`. */
function renderedSidecarArgs(prometheusSpec: Spec = spec): string[] {
  const built = buildStatefulSets(testPrometheus(prometheusSpec), { ...testOutput(), version: versionOf(prometheusSpec) });
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

/** A Prometheus scraping itself, the rendered sidecar beside it and a thanos query reading the sidecar. */
interface Stack {
  prometheus: PrometheusProcess;
  queryHttp: number;
  stop(): Promise<void>;
}

/**
 * Starts the three on loopback ports. `sidecarArgs` are the rendered args; `queryTls` are thanos query's gRPC client
 * flags when the sidecar serves TLS. Its stop removes `dir` too.
 */
async function startStack(dir: string, sidecarArgs: string[], queryTls: string[] = []): Promise<Stack> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const one of stops.reverse()) await one();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const configFile = join(dir, 'prometheus.yaml');
    // The sidecar refuses a Prometheus without external labels; promop's configs always have them.
    const config = (target: string) => [
      'global:', '  scrape_interval: 1s', '  external_labels:', '    prometheus: monitoring/main', '    prometheus_replica: prometheus-main-0',
      'scrape_configs:', '- job_name: prometheus', '  static_configs:', `  - targets: ['${target}']`, '',
    ].join('\n');
    writeFileSync(configFile, config('127.0.0.1:1'));
    const prometheus = await startPrometheus(configFile);
    stops.push(() => prometheus.stop());
    // Scrape itself, once its port is known.
    writeFileSync(configFile, config(new URL(prometheus.url).host));
    expect((await fetch(`${prometheus.url}/-/reload`, { method: 'POST' })).ok).toBe(true);

    const httpClientFile = join(dir, 'prometheus.http-client-file.yaml');
    writeFileSync(httpClientFile, THANOS_HTTP_CLIENT_CONFIG);
    const grpcPort = await freePort();
    const sidecarHttp = await freePort();
    const args = onLoopback(sidecarArgs, { prometheusUrl: `${prometheus.url}/`, grpcPort, httpPort: sidecarHttp, httpClientFile });
    const sidecar = startProcess('thanos-sidecar', toolPath('thanos'), args, join(dir, 'sidecar.log'));
    stops.push((await startUntilReady(sidecar, `http://127.0.0.1:${sidecarHttp}/-/ready`, join(dir, 'sidecar'))).stop);

    const queryHttp = await freePort();
    const query = startProcess('thanos-query', toolPath('thanos'), [
      'query', `--http-address=127.0.0.1:${queryHttp}`, `--grpc-address=127.0.0.1:${await freePort()}`, `--endpoint=127.0.0.1:${grpcPort}`, ...queryTls,
    ], join(dir, 'query.log'));
    stops.push((await startUntilReady(query, `http://127.0.0.1:${queryHttp}/-/ready`, join(dir, 'query'))).stop);
    return { prometheus, queryHttp, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `up{job="prometheus"}` through thanos query, once it has an answer (or after 30 s). */
function queriedUp(stack: Stack): Promise<QueryResult> {
  return eventually(
    async () => (await (await fetch(`http://127.0.0.1:${stack.queryHttp}/api/v1/query?query=${encodeURIComponent('up{job="prometheus"}')}`)).json()) as QueryResult,
    (body) => body.data.result.length > 0,
    30_000, 500,
  );
}

/** The series thanos query should answer: the self-scrape, with the external labels the sidecar adds. */
const expectedUp = (stack: Stack) => [
  { __name__: 'up', instance: new URL(stack.prometheus.url).host, job: 'prometheus', prometheus: 'monitoring/main', prometheus_replica: 'prometheus-main-0' },
];

describe('the thanos-sidecar container promop renders, run beside a real Prometheus', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack(mkdtempSync(join(tmpdir(), 'promop-thanos-')), renderedSidecarArgs());
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
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
    const answer = await queriedUp(stack);
    expect(answer.data.result.map((series) => series.metric)).toEqual(expectedUp(stack));
    expect(answer.data.result[0]!.value[1]).toBe('1');
  });
});

describe('a sidecar serving its StoreAPI over TLS (grpcServerTlsConfig files, minimum version, ciphers, curves)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'promop-thanos-tls-'));
  const pki = createPki(dir);
  const tlsSpec: Spec = {
    version: 'v3.16.0',
    thanos: {
      grpcServerTlsConfig: {
        certFile: pki.servingCert, keyFile: pki.servingKey, caFile: pki.caCert, minVersion: 'TLS12',
        cipherSuites: ['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256'], curves: ['CurveP256', 'X25519'],
      },
    },
  };
  let stack: Stack;

  beforeAll(async () => {
    // thanos query presents the admin client certificate, which the sidecar verifies against caFile.
    stack = await startStack(dir, renderedSidecarArgs(tlsSpec), [
      '--grpc-client-tls-secure', `--grpc-client-tls-ca=${pki.caCert}`, `--grpc-client-tls-cert=${pki.adminCert}`,
      `--grpc-client-tls-key=${pki.adminKey}`, '--grpc-client-server-name=localhost',
    ]);
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('is started with the TLS flags promop renders for Thanos 0.42, one per curve (Thanos refuses a list)', () => {
    expect(renderedSidecarArgs(tlsSpec).slice(4, 11)).toEqual([
      `--grpc-server-tls-cert=${pki.servingCert}`, `--grpc-server-tls-key=${pki.servingKey}`, `--grpc-server-tls-client-ca=${pki.caCert}`,
      '--grpc-server-tls-min-version=1.2', '--grpc-server-tls-ciphers=TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
      '--grpc-server-tls-curves=CurveP256', '--grpc-server-tls-curves=X25519',
    ]);
  });

  it('answers a thanos query that verifies it and presents a client certificate', async () => {
    const answer = await queriedUp(stack);
    expect(answer.data.result.map((series) => series.metric)).toEqual(expectedUp(stack));
  });
});
