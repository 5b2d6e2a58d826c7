import type { V1Container, V1StatefulSet } from '@kubernetes/client-node';
import type { Prometheus } from '@promop/crds';
import { buildGoverningService } from './governing-service.ts';
import { buildStatefulSets } from './statefulset.ts';
import { buildThanosHttpClientSecret, readThanosVersion, thanosAtLeast, usesHttpClientFile } from './thanos-sidecar.ts';
import { testOutput, testPrometheus, testPrometheusAgent, versionOf } from '../test-support/workload-fixtures.ts';

type Spec = NonNullable<Prometheus['spec']>;
const OBJSTORE = { name: 'thanos-objstore', key: 'objstore.yaml' };

function built(spec: Spec) {
  return buildStatefulSets(testPrometheus(spec), { ...testOutput(), version: versionOf(spec) });
}
function statefulSet(spec: Spec): V1StatefulSet {
  const result = built(spec);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.value[0]!;
}
const containerOf = (sts: V1StatefulSet, name: string): V1Container | undefined => sts.spec?.template.spec?.containers.find((c) => c.name === name);
const sidecar = (spec: Spec) => containerOf(statefulSet(spec), 'thanos-sidecar')!;
const prometheusArgs = (spec: Spec) => containerOf(statefulSet(spec), 'prometheus')!.args ?? [];
const problemsOf = (spec: Spec) => {
  const result = built(spec);
  return result.ok ? [] : result.problems;
};

describe('a Prometheus without spec.thanos', () => {
  it('has no sidecar, no grpc port on the governing Service and no HTTP client Secret', () => {
    expect(statefulSet({}).spec?.template.spec?.containers.map((c) => c.name)).toEqual(['prometheus']);
    expect(buildGoverningService('monitoring', [testPrometheus({})]).spec?.ports?.map((p) => p.name)).toEqual(['web']);
    expect(usesHttpClientFile({})).toBe(false);
  });
});

describe('a Prometheus with spec.thanos: {} (the sidecar serves the StoreAPI, uploads nothing)', () => {
  const sts = statefulSet({ thanos: {} });

  it('runs thanos-sidecar after prometheus, with upstream\'s default image, ports and security context', () => {
    expect(sts.spec?.template.spec?.containers.map((c) => c.name)).toEqual(['prometheus', 'thanos-sidecar']);
    expect(sidecar({ thanos: {} })).toEqual({
      name: 'thanos-sidecar',
      image: 'quay.io/thanos/thanos:v0.42.2',
      args: [
        'sidecar',
        '--prometheus.url=http://localhost:9090/',
        '--grpc-address=:10901',
        '--http-address=:10902',
        '--prometheus.http-client-file=/etc/thanos/config/prometheus.http-client-file.yaml',
      ],
      ports: [{ name: 'http', containerPort: 10902, protocol: 'TCP' }, { name: 'grpc', containerPort: 10901, protocol: 'TCP' }],
      securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
      terminationMessagePolicy: 'FallbackToLogsOnError',
      volumeMounts: [{ name: 'thanos-prometheus-http-client-file', mountPath: '/etc/thanos/config' }],
    });
  });

  it('mounts the HTTP client Secret, which tells the sidecar not to verify Prometheus\' certificate on localhost', () => {
    expect(sts.spec?.template.spec?.volumes?.at(-2)).toEqual({ name: 'thanos-prometheus-http-client-file', secret: { secretName: 'prometheus-main-thanos-prometheus-http-client-file' } });
    const secret = buildThanosHttpClientSecret(testPrometheus({ thanos: {} }));
    expect(secret.metadata?.name).toBe('prometheus-main-thanos-prometheus-http-client-file');
    expect(Buffer.from(secret.data?.['prometheus.http-client-file.yaml'] ?? '', 'base64').toString()).toBe('tls_config:\n  insecure_skip_verify: true\n');
    expect(secret.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'Prometheus', name: 'main', controller: true })]);
  });

  it('leaves Prometheus compacting as usual', () => {
    expect(prometheusArgs({ thanos: {} }).filter((arg) => arg.includes('block-duration') || arg.includes('compact'))).toEqual([]);
  });

  it('puts the grpc port on the governing Service while any of its Prometheus objects has a sidecar', () => {
    const service = buildGoverningService('monitoring', [testPrometheus({}, { name: 'a', uid: 'a' }), testPrometheus({ thanos: {} }, { name: 'b', uid: 'b' })]);
    expect(service.spec?.ports).toEqual([{ name: 'web', port: 9090, targetPort: 'web' }, { name: 'grpc', port: 10901, targetPort: 'grpc' }]);
  });
});

describe('a sidecar that uploads blocks (objectStorageConfig from a Secret key)', () => {
  it('gets OBJSTORE_CONFIG from the Secret key, --tsdb.path and the data volume, as upstream', () => {
    const container = sidecar({ version: 'v3.5.0', thanos: { objectStorageConfig: OBJSTORE } });
    expect(container.env).toEqual([{ name: 'OBJSTORE_CONFIG', valueFrom: { secretKeyRef: OBJSTORE } }]);
    expect(container.args).toEqual(expect.arrayContaining(['--objstore.config=$(OBJSTORE_CONFIG)', '--tsdb.path=/prometheus']));
    expect(container.volumeMounts).toEqual([
      { name: 'prometheus-main-db', mountPath: '/prometheus' },
      { name: 'thanos-prometheus-http-client-file', mountPath: '/etc/thanos/config' },
    ]);
  });

  it('makes Prometheus < 3.9 cut blocks of blockSize without compacting them (min = max block duration, default 2h)', () => {
    expect(prometheusArgs({ version: 'v3.5.0', thanos: { objectStorageConfig: OBJSTORE } }).slice(-2))
      .toEqual(['--storage.tsdb.max-block-duration=2h', '--storage.tsdb.min-block-duration=2h']);
    expect(prometheusArgs({ version: 'v3.5.0', thanos: { objectStorageConfig: OBJSTORE, blockSize: '30m' } }).slice(-2))
      .toEqual(['--storage.tsdb.max-block-duration=30m', '--storage.tsdb.min-block-duration=30m']);
  });

  it('does the same with Prometheus 3.16 and a Thanos older than 0.41', () => {
    expect(prometheusArgs({ thanos: { version: 'v0.40.1', objectStorageConfig: OBJSTORE } }).slice(-2))
      .toEqual(['--storage.tsdb.max-block-duration=2h', '--storage.tsdb.min-block-duration=2h']);
  });

  it('delays compaction with Prometheus >= 3.9 and Thanos >= 0.41: the shipper meta file decides what may be compacted', () => {
    expect(prometheusArgs({ thanos: { objectStorageConfig: OBJSTORE } }).at(-1)).toBe('--storage.tsdb.delay-compact-file.path=/prometheus/thanos.shipper.json');
    expect(sidecar({ thanos: { objectStorageConfig: OBJSTORE } }).args).toEqual(expect.arrayContaining(['--shipper.meta-file-name=thanos.shipper.json', '--shipper.ignore-unequal-block-size']));
    expect(prometheusArgs({ thanos: { objectStorageConfig: OBJSTORE } }).some((arg) => arg.includes('block-duration'))).toBe(false);
  });

  it('forbids overlapping compaction when out-of-order samples are accepted', () => {
    expect(prometheusArgs({ version: 'v3.5.0', tsdb: { outOfOrderTimeWindow: '10m' }, thanos: { objectStorageConfig: OBJSTORE } } as Spec).at(-1))
      .toBe('--no-storage.tsdb.allow-overlapping-compaction');
  });

  it('prefers objectStorageConfigFile, as upstream, and mounts the data volume with its sub path', () => {
    const container = sidecar({ storage: { volumeClaimTemplate: { spec: {} } }, thanos: { objectStorageConfigFile: '/etc/o.yaml', objectStorageConfig: OBJSTORE } });
    expect(container.env).toBeUndefined();
    expect(container.args).toContain('--objstore.config-file=/etc/o.yaml');
    expect(container.volumeMounts?.[0]).toEqual({ name: 'prometheus-main-db', mountPath: '/prometheus', subPath: 'prometheus-db' });
  });
});

describe('every sidecar field', () => {
  it('is rendered in upstream\'s order of flags, then additionalArgs', () => {
    const container = sidecar({
      routePrefix: '/prom/', logLevel: 'warn', logFormat: 'json', imagePullPolicy: 'Always',
      thanos: {
        image: 'registry.example/thanos:v0.42.2', objectStorageConfig: OBJSTORE, tracingConfig: { name: 't', key: 'k' }, grpcListenLocal: true, logLevel: 'debug',
        minTime: '-2w', readyTimeout: '20m', getConfigInterval: '1m', getConfigTimeout: '30s',
        grpcServerTlsConfig: { caFile: '/tls/ca.crt', certFile: '/tls/tls.crt', keyFile: '/tls/tls.key', minVersion: 'TLS12', cipherSuites: ['A', 'B'], curves: ['X25519'] },
        resources: { requests: { cpu: '100m' } }, volumeMounts: [{ name: 'tls', mountPath: '/tls', readOnly: true }],
        additionalArgs: [{ name: 'shipper.upload-compacted' }, { name: 'store.limits.request-series', value: '1000' }],
      },
    });
    expect(container.image).toBe('registry.example/thanos:v0.42.2');
    expect(container.imagePullPolicy).toBe('Always');
    expect(container.resources).toEqual({ requests: { cpu: '100m' } });
    expect(container.args).toEqual([
      'sidecar',
      '--prometheus.url=http://localhost:9090/prom',
      '--grpc-address=127.0.0.1:10901',
      '--http-address=:10902',
      '--grpc-server-tls-cert=/tls/tls.crt',
      '--grpc-server-tls-key=/tls/tls.key',
      '--grpc-server-tls-client-ca=/tls/ca.crt',
      '--grpc-server-tls-min-version=1.2',
      '--grpc-server-tls-ciphers=A',
      '--grpc-server-tls-ciphers=B',
      '--grpc-server-tls-curves=X25519',
      '--objstore.config=$(OBJSTORE_CONFIG)',
      '--tsdb.path=/prometheus',
      '--shipper.meta-file-name=thanos.shipper.json',
      '--shipper.ignore-unequal-block-size',
      '--tracing.config=$(TRACING_CONFIG)',
      '--log.level=debug',
      '--log.format=json',
      '--min-time=-2w',
      '--prometheus.ready_timeout=20m',
      '--prometheus.get_config_timeout=30s',
      '--prometheus.get_config_interval=1m',
      '--prometheus.http-client-file=/etc/thanos/config/prometheus.http-client-file.yaml',
      '--shipper.upload-compacted',
      '--store.limits.request-series=1000',
    ]);
    expect(container.env?.map((e) => e.name)).toEqual(['OBJSTORE_CONFIG', 'TRACING_CONFIG']);
    expect(container.volumeMounts?.[0]).toEqual({ name: 'tls', mountPath: '/tls', readOnly: true });
  });

  it('leaves out the flags the chosen Thanos version does not have', () => {
    const old = sidecar({ thanos: { version: 'v0.23.0', getConfigTimeout: '30s', grpcServerTlsConfig: { minVersion: 'TLS13', certFile: '/c', keyFile: '/k', cipherSuites: ['A'] } } });
    expect(old.args).toEqual(['sidecar', '--prometheus.url=http://localhost:9090/', '--grpc-address=:10901', '--http-address=:10902', '--grpc-server-tls-cert=/c', '--grpc-server-tls-key=/k']);
    expect(old.volumeMounts).toBeUndefined();
    expect(usesHttpClientFile({ thanos: { version: 'v0.23.0' } })).toBe(false);
    expect(sidecar({ thanos: { version: '0.37.0', grpcServerTlsConfig: { minVersion: 'TLS13', certFile: '/c', keyFile: '/k', curves: ['X'] } } }).args)
      .toEqual(expect.arrayContaining(['--grpc-server-tls-min-version=1.3']));
  });

  it('listens on 127.0.0.1 for both with the deprecated listenLocal, and on HTTP alone with httpListenLocal', () => {
    expect(sidecar({ thanos: { listenLocal: true } }).args?.slice(2, 4)).toEqual(['--grpc-address=127.0.0.1:10901', '--http-address=127.0.0.1:10902']);
    expect(sidecar({ thanos: { httpListenLocal: true } }).args?.slice(2, 4)).toEqual(['--grpc-address=:10901', '--http-address=127.0.0.1:10902']);
  });

  it('reads Prometheus over https when it serves TLS', () => {
    const spec = { web: { tlsConfig: { keySecret: { name: 'web', key: 'tls.key' }, cert: { secret: { name: 'web', key: 'tls.crt' } } } }, thanos: {} } as Spec;
    expect(sidecar(spec).args?.[1]).toBe('--prometheus.url=https://localhost:9090/');
  });

  it('resolves the image from baseImage, tag, sha and version as upstream', () => {
    expect(sidecar({ thanos: { baseImage: 'thanos/thanos', tag: 'v0.39.0' } }).image).toBe('docker.io/thanos/thanos:v0.39.0');
    expect(sidecar({ thanos: { baseImage: 'quay.io/thanos/thanos', sha: 'abc', tag: 'v1' } }).image).toBe('quay.io/thanos/thanos@sha256:abc');
    expect(sidecar({ thanos: { baseImage: 'quay.io/thanos/thanos:v0.41.0', tag: 'v1' } }).image).toBe('quay.io/thanos/thanos:v0.41.0');
    expect(sidecar({ thanos: { baseImage: 'busybox', version: '0.38.0' } }).image).toBe('busybox:0.38.0');
  });

  it('is patched by a user container named thanos-sidecar, as prometheus-operator documents', () => {
    const container = sidecar({ thanos: {}, containers: [{ name: 'thanos-sidecar', resources: { limits: { memory: '1Gi' } } }] });
    expect(container.resources).toEqual({ limits: { memory: '1Gi' } });
    expect(container.args?.[0]).toBe('sidecar');
  });
});

describe('what promop refuses in spec.thanos, at its path', () => {
  it.each([
    ['a version that is not one', { version: 'latest' }, 'spec.thanos.version'],
    ['an additional argument that sets a flag promop sets', { additionalArgs: [{ name: 'grpc-address', value: ':1' }] }, 'spec.thanos.additionalArgs[0].name'],
    ['an additional argument negating one promop sets', { objectStorageConfig: OBJSTORE, additionalArgs: [{ name: 'x' }, { name: 'no-shipper.ignore-unequal-block-size' }] }, 'spec.thanos.additionalArgs[1].name'],
    ['a certFile without its keyFile', { grpcServerTlsConfig: { certFile: '/c' } }, 'spec.thanos.grpcServerTlsConfig.keyFile'],
    ['a keyFile without its certFile', { grpcServerTlsConfig: { keyFile: '/k' } }, 'spec.thanos.grpcServerTlsConfig.certFile'],
    ['a client CA without a server certificate', { grpcServerTlsConfig: { caFile: '/ca' } }, 'spec.thanos.grpcServerTlsConfig.caFile'],
    ['a server certificate from a Secret, which the sidecar cannot read', { grpcServerTlsConfig: { cert: { secret: { name: 's', key: 'tls.crt' } } } }, 'spec.thanos.grpcServerTlsConfig.cert'],
    ['a minTime that is neither a time nor a duration', { minTime: 'yesterday' }, 'spec.thanos.minTime'],
    ['a baseImage that is not an image reference', { baseImage: 'Quay.io/Thanos Thanos' }, 'spec.thanos.baseImage'],
  ])('%s', (_title, thanos, path) => {
    expect(problemsOf({ thanos } as Spec).map((problem) => problem.path)).toEqual([path]);
  });

  it('accepts minTime as an RFC 3339 time, a negative or positive duration', () => {
    for (const minTime of ['2026-01-02T03:04:05Z', '2026-01-02T03:04:05.5+02:00', '-1d', '36h', '-1y2w']) expect(problemsOf({ thanos: { minTime } })).toEqual([]);
  });

  it('never concerns a PrometheusAgent (it has no spec.thanos)', () => {
    const agent = buildStatefulSets(testPrometheusAgent({}), { ...testOutput(), version: versionOf() });
    expect(agent.ok && agent.value[0]?.spec?.template.spec?.containers.map((c) => c.name)).toEqual(['prometheus']);
  });
});

describe('Thanos versions, read as semver.ParseTolerant', () => {
  it('accept v-prefixed, short and pre-release forms; a pre-release sorts before its release', () => {
    expect(readThanosVersion(' v0.42 ')).toEqual({ major: 0, minor: 42, patch: 0, preRelease: '' });
    expect(thanosAtLeast(readThanosVersion('v0.41.0-rc.0')!, '0.41.0')).toBe(false);
    expect(thanosAtLeast(readThanosVersion('v0.41.0')!, '0.41.0')).toBe(true);
    expect(readThanosVersion('main-2024')).toBeUndefined();
  });
});
