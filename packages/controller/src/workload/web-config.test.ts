import type { Prometheus } from '@promop/crds';
import { parsePrometheusVersion } from '@promop/config-generator';
import { buildStatefulSets } from './statefulset.ts';
import { buildWebConfigSecret, webConfigOf, WEB_CONFIG_HASH_ANNOTATION } from './web-config.ts';
import { testOutput, testPrometheus, versionOf } from '../test-support/workload-fixtures.ts';

type Spec = NonNullable<Prometheus['spec']>;
type TlsConfig = NonNullable<NonNullable<Spec['web']>['tlsConfig']>;

const v3 = parsePrometheusVersion('3.16.0')!;
const secretTls: TlsConfig = { cert: { secret: { name: 'web-tls', key: 'tls.crt' } }, keySecret: { name: 'web-tls', key: 'tls.key' } };
const problemsOf = (tlsConfig: TlsConfig) => {
  const result = webConfigOf(testPrometheus({ web: { tlsConfig } }), v3);
  return result.ok ? [] : result.problems;
};
const statefulSet = (spec: Spec) => {
  const result = buildStatefulSets(testPrometheus(spec), { ...testOutput(), version: versionOf(spec) });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.value[0]!;
};

describe('the web config of a Prometheus with spec.web.tlsConfig', () => {
  it('is the file prometheus-operator writes, in the Secret prometheus-<name>-web-config owned by the Prometheus', () => {
    const prometheus = testPrometheus({ web: { tlsConfig: { ...secretTls, certFile: undefined, cipherSuites: ['TLS_AES_128_GCM_SHA256'], preferServerCipherSuites: true }, httpConfig: { http2: false } } });
    const web = webConfigOf(prometheus, v3);
    expect(web.ok && web.value?.text).toBe([
      'tls_server_config:',
      '  cert_file: /etc/prometheus/web_config/secret/web-tls-cert/tls.crt',
      '  key_file: /etc/prometheus/web_config/secret/web-tls-key/tls.key',
      '  cipher_suites:',
      '    - TLS_AES_128_GCM_SHA256',
      '  prefer_server_cipher_suites: true',
      'http_server_config:',
      '  http2: false',
      '',
    ].join('\n'));
    if (!web.ok || !web.value) throw new Error('no web config');
    const secret = buildWebConfigSecret(prometheus, web.value);
    expect(secret.metadata?.name).toBe('prometheus-main-web-config');
    expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Prometheus', name: 'main', controller: true });
    expect(Object.keys(secret.data ?? {})).toEqual(['web-config.yaml']);
  });

  it('names files of the container as given (certFile, keyFile, clientCAFile)', () => {
    const web = webConfigOf(testPrometheus({ web: { tlsConfig: { certFile: '/tls/c.pem', keyFile: '/tls/k.pem', clientCAFile: '/tls/ca.pem', clientAuthType: 'VerifyClientCertIfGiven' } } }), v3);
    expect(web.ok && web.value?.text).toBe('tls_server_config:\n  cert_file: /tls/c.pem\n  key_file: /tls/k.pem\n  client_auth_type: VerifyClientCertIfGiven\n  client_ca_file: /tls/ca.pem\n');
    expect(web.ok && web.value?.references).toEqual([]);
  });

  it('is refused at the field to change when upstream refuses it or Prometheus would not start with it', () => {
    expect(problemsOf({ cert: secretTls.cert })).toEqual([{ path: 'spec.web.tlsConfig.keySecret', message: 'the TLS private key must be set (keySecret or keyFile)' }]);
    expect(problemsOf({ keySecret: secretTls.keySecret })).toEqual([{ path: 'spec.web.tlsConfig.cert', message: 'the TLS certificate must be set (cert or certFile)' }]);
    expect(problemsOf({ ...secretTls, certFile: '/c.pem' })).toEqual([{ path: 'spec.web.tlsConfig.certFile', message: 'cannot be set together with cert' }]);
    expect(problemsOf({ ...secretTls, keyFile: '/k.pem' })).toEqual([{ path: 'spec.web.tlsConfig.keyFile', message: 'cannot be set together with keySecret' }]);
    expect(problemsOf({ ...secretTls, client_ca: { secret: { name: 'ca', key: 'ca.crt' } }, clientCAFile: '/ca.pem', clientAuthType: 'RequireAndVerifyClientCert' }))
      .toEqual([{ path: 'spec.web.tlsConfig.clientCAFile', message: 'cannot be set together with client_ca' }]);
    expect(problemsOf({ ...secretTls, client_ca: { secret: { name: 'ca', key: 'ca.crt' } } }))
      .toEqual([{ path: 'spec.web.tlsConfig.clientAuthType', message: 'must ask for client certificates when a client CA is set (VerifyClientCertIfGiven or RequireAndVerifyClientCert)' }]);
    expect(problemsOf({ ...secretTls, cert: { secret: { name: 'a', key: 'k' }, configMap: { name: 'b', key: 'k' } } }))
      .toEqual([{ path: 'spec.web.tlsConfig.cert', message: 'set either secret or configMap, not both' }]);
    expect(problemsOf({ ...secretTls, keySecret: { key: '../etc' } })).toEqual([
      { path: 'spec.web.tlsConfig.keySecret.name', message: 'must name the object to mount' },
      { path: 'spec.web.tlsConfig.keySecret.key', message: '"../etc" is not a key a Secret or ConfigMap can hold' },
    ]);
    expect(problemsOf({ ...secretTls, clientAuthType: 'Always', minVersion: 'TLS1.3', curvePreferences: ['P256'], cipherSuites: ['TLS_RSA_WITH_RC4_128_SHA'] }).map((p) => p.path)).toEqual([
      'spec.web.tlsConfig.clientAuthType', 'spec.web.tlsConfig.minVersion', 'spec.web.tlsConfig.cipherSuites[0]', 'spec.web.tlsConfig.curvePreferences[0]',
    ]);
  });

  it('is absent without tlsConfig and httpConfig, and for Prometheus older than 2.24 (as upstream)', () => {
    expect(webConfigOf(testPrometheus({ web: { pageTitle: 'x' } }), v3)).toEqual({ ok: true, value: undefined });
    expect(webConfigOf(testPrometheus({ web: { tlsConfig: secretTls } }), parsePrometheusVersion('2.23.0')!)).toEqual({ ok: true, value: undefined });
  });
});

describe('the StatefulSet of a Prometheus serving HTTPS', () => {
  const spec: Spec = { version: '3.16.0', web: { tlsConfig: { ...secretTls, client_ca: { configMap: { name: 'clients', key: 'ca.crt' } }, clientAuthType: 'VerifyClientCertIfGiven' } } };

  it('passes --web.config.file, mounts the file and each Secret/ConfigMap whole, and probes over HTTPS', () => {
    const pod = statefulSet(spec).spec!.template;
    const container = pod.spec!.containers[0]!;
    expect(container.args?.at(-1)).toBe('--web.config.file=/etc/prometheus/web_config/web-config.yaml');
    expect(pod.spec!.volumes!.filter((v) => v.name.startsWith('web-config'))).toEqual([
      { name: 'web-config', secret: { secretName: 'prometheus-main-web-config' } },
      { name: 'web-config-tls-secret-key-web-tls', secret: { secretName: 'web-tls' } },
      { name: 'web-config-tls-secret-cert-web-tls', secret: { secretName: 'web-tls' } },
      { name: 'web-config-tls-configmap-client-ca-clients', configMap: { name: 'clients' } },
    ]);
    expect(container.volumeMounts!.filter((m) => m.name.startsWith('web-config'))).toEqual([
      { name: 'web-config', mountPath: '/etc/prometheus/web_config/web-config.yaml', subPath: 'web-config.yaml', readOnly: true },
      { name: 'web-config-tls-secret-key-web-tls', mountPath: '/etc/prometheus/web_config/secret/web-tls-key', readOnly: true },
      { name: 'web-config-tls-secret-cert-web-tls', mountPath: '/etc/prometheus/web_config/secret/web-tls-cert', readOnly: true },
      { name: 'web-config-tls-configmap-client-ca-clients', mountPath: '/etc/prometheus/web_config/configmap/clients-ca', readOnly: true },
    ]);
    expect([container.startupProbe, container.readinessProbe, container.livenessProbe].map((probe) => probe?.httpGet?.scheme)).toEqual(['HTTPS', 'HTTPS', 'HTTPS']);
  });

  it('rolls its pods when the file changes (the subPath mount is never refreshed)', () => {
    const annotation = (s: Spec) => statefulSet(s).spec!.template.metadata!.annotations![WEB_CONFIG_HASH_ANNOTATION];
    const before = annotation(spec);
    expect(before).toMatch(/^[0-9a-f]{16}$/);
    expect(annotation({ ...spec, web: { ...spec.web, httpConfig: { headers: { xFrameOptions: 'Deny' } } } })).not.toBe(before);
  });

  it('is unchanged for a Prometheus without spec.web.tlsConfig and httpConfig: plain HTTP, no flag, no volume', () => {
    const container = statefulSet({ version: '3.16.0' }).spec!.template.spec!.containers[0]!;
    expect(container.args?.some((arg) => arg.startsWith('--web.config.file'))).toBe(false);
    expect(container.readinessProbe?.httpGet?.scheme).toBe('HTTP');
  });

  it('is refused with the web config\'s problems', () => {
    const result = buildStatefulSets(testPrometheus({ web: { tlsConfig: { cert: secretTls.cert } } }), { ...testOutput(), version: versionOf({}) });
    expect(result).toEqual({ ok: false, problems: [{ path: 'spec.web.tlsConfig.keySecret', message: 'the TLS private key must be set (keySecret or keyFile)' }] });
  });
});
