import { validatePrometheus } from './validation.ts';

/** A Prometheus whose only field is `spec.thanos`. */
function withThanos(thanos: Record<string, unknown>) {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { name: 'k8s', namespace: 'monitoring' }, spec: { thanos } };
}

/** The paths the validator names for `thanos`, or [] when it accepts it. */
function pathsOf(thanos: Record<string, unknown>): string[] {
  const result = validatePrometheus(withThanos(thanos));
  return result.ok ? [] : result.errors.map((error) => error.path);
}

describe('spec.thanos, typed as prometheus-operator v0.93 ThanosSpec', () => {
  it('accepts every field upstream has, and fills blockSize with its default 2h', () => {
    const result = validatePrometheus(withThanos({
      image: 'quay.io/thanos/thanos:v0.42.2', version: 'v0.42.2', tag: 'v0.42.2', sha: 'abc', baseImage: 'quay.io/thanos/thanos',
      resources: { requests: { cpu: '100m' } },
      objectStorageConfig: { name: 'thanos-objstore', key: 'objstore.yaml' }, objectStorageConfigFile: '/etc/thanos/objstore.yaml',
      listenLocal: false, grpcListenLocal: true, httpListenLocal: true,
      tracingConfig: { name: 'thanos-tracing', key: 'tracing.yaml' }, tracingConfigFile: '/etc/thanos/tracing.yaml',
      grpcServerTlsConfig: { caFile: '/tls/ca.crt', certFile: '/tls/tls.crt', keyFile: '/tls/tls.key', minVersion: 'TLS12', cipherSuites: ['TLS_AES_128_GCM_SHA256'], curves: ['X25519'] },
      logLevel: 'debug', logFormat: 'json', minTime: '-2w', readyTimeout: '10m', getConfigInterval: '1m', getConfigTimeout: '30s',
      volumeMounts: [{ name: 'tls', mountPath: '/tls' }], additionalArgs: [{ name: 'shipper.upload-compacted' }, { name: 'store.limits.request-series', value: '1000' }],
    }));
    expect(result.ok ? result.value.spec?.thanos?.blockSize : result.errors).toBe('2h');
  });

  it.each([
    ['a blockSize that is not a duration', { blockSize: '2 hours' }, 'spec.thanos.blockSize'],
    ['a readyTimeout that is not a duration', { readyTimeout: '10 minutes' }, 'spec.thanos.readyTimeout'],
    ['a getConfigInterval that is not a duration', { getConfigInterval: '-1m' }, 'spec.thanos.getConfigInterval'],
    ['a getConfigTimeout that is not a duration', { getConfigTimeout: '1.5s' }, 'spec.thanos.getConfigTimeout'],
    ['a logLevel Thanos does not have', { logLevel: 'trace' }, 'spec.thanos.logLevel'],
    ['a logFormat Thanos does not have', { logFormat: 'text' }, 'spec.thanos.logFormat'],
    ['an objectStorageConfig without its key', { objectStorageConfig: { name: 'thanos-objstore' } }, 'spec.thanos.objectStorageConfig.key'],
    ['an unknown field', { objectStorage: { name: 'x', key: 'y' } }, 'spec.thanos.objectStorage'],
    ['an empty cipherSuites list', { grpcServerTlsConfig: { cipherSuites: [] } }, 'spec.thanos.grpcServerTlsConfig.cipherSuites'],
    ['a TLS minVersion that is not a TLS version', { grpcServerTlsConfig: { minVersion: '1.2' } }, 'spec.thanos.grpcServerTlsConfig.minVersion'],
    ['an additional argument without a name', { additionalArgs: [{ value: 'x' }] }, 'spec.thanos.additionalArgs[0].name'],
    ['an additional argument with an empty name', { additionalArgs: [{ name: '' }] }, 'spec.thanos.additionalArgs[0].name'],
  ])('rejects %s at its path', (_title, thanos, path) => {
    expect(pathsOf(thanos)).toEqual([path]);
  });
});
