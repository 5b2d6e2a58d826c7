import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Alertmanager } from '@promop/crds';
import { createPki } from '@promop/testkit';
import { load } from 'js-yaml';
import { alertmanagerArgs, buildAlertmanagerStatefulSet } from './alertmanager-children.ts';
import { renderAlertmanagerConfiguration, alertmanagerReferences } from './alertmanager-rendering.ts';
import {
  TLS_FILES_HASH_ANNOTATION, alertmanagerPodTls, alertmanagerTlsDataProblems, alertmanagerTlsOf, type AlertmanagerTls,
} from './alertmanager-tls.ts';

type Spec = NonNullable<Alertmanager['spec']>;
const alertmanager = (spec: Spec): Alertmanager => ({
  apiVersion: 'monitoring.coreos.com/v1', kind: 'Alertmanager', metadata: { name: 'main', namespace: 'monitoring', uid: 'uid-main', generation: 1 }, spec,
});
const tlsOf = (spec: Spec): AlertmanagerTls => {
  const result = alertmanagerTlsOf(spec);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.value;
};

const webTls = {
  cert: { secret: { name: 'web-tls', key: 'tls.crt' } }, keySecret: { name: 'web-tls', key: 'tls.key' },
  client_ca: { configMap: { name: 'client-ca', key: 'ca.crt' } }, clientAuthType: 'RequireAndVerifyClientCert',
};
const clusterTLS = {
  server: { cert: { secret: { name: 'mesh', key: 'tls.crt' } }, keySecret: { name: 'mesh', key: 'tls.key' }, client_ca: { secret: { name: 'mesh', key: 'ca.crt' } }, clientAuthType: 'RequireAndVerifyClientCert' },
  client: { cert: { configMap: { name: 'mesh-client', key: 'tls.crt' } }, keySecret: { name: 'mesh', key: 'client.key' }, ca: { secret: { name: 'mesh', key: 'ca.crt' } }, serverName: 'alertmanager', insecureSkipVerify: false },
};

describe('the web config file', () => {
  it('lays out the file, Secret, flag and mounts as upstream, with HTTPS probes and the file\'s hash in the pod template', () => {
    const spec: Spec = { version: 'v0.28.1', web: { tlsConfig: webTls, httpConfig: { http2: false, headers: { xFrameOptions: 'Deny' } } } };
    const tls = tlsOf(spec);
    expect(load(tls.web!.text)).toEqual({
      tls_server_config: {
        cert_file: '/etc/alertmanager/web_config/secret/web-tls-cert/tls.crt',
        key_file: '/etc/alertmanager/web_config/secret/web-tls-key/tls.key',
        client_auth_type: 'RequireAndVerifyClientCert',
        client_ca_file: '/etc/alertmanager/web_config/configmap/client-ca-ca/ca.crt',
      },
      http_server_config: { http2: false, headers: { 'X-Frame-Options': 'deny' } },
    });
    const args = alertmanagerArgs(alertmanager(spec));
    expect(args).toContain('--web.config.file=/etc/alertmanager/web_config/web-config.yaml');
    expect(args.some((arg) => arg.startsWith('--cluster.tls-config'))).toBe(false);
    const pod = buildAlertmanagerStatefulSet(alertmanager(spec), 'h').spec!.template;
    const container = pod.spec!.containers[0]!;
    expect(container.readinessProbe?.httpGet?.scheme).toBe('HTTPS');
    expect(container.livenessProbe?.httpGet?.scheme).toBe('HTTPS');
    expect(pod.spec!.volumes).toEqual(expect.arrayContaining([
      { name: 'web-config', secret: { secretName: 'alertmanager-main-web-config' } },
      { name: 'web-config-tls-secret-key-web-tls', secret: { secretName: 'web-tls' } },
      { name: 'web-config-tls-configmap-client-ca-client-ca', configMap: { name: 'client-ca' } },
    ]));
    expect(container.volumeMounts).toEqual(expect.arrayContaining([
      { name: 'web-config', mountPath: '/etc/alertmanager/web_config/web-config.yaml', subPath: 'web-config.yaml', readOnly: true },
      { name: 'web-config-tls-secret-cert-web-tls', mountPath: '/etc/alertmanager/web_config/secret/web-tls-cert', readOnly: true },
    ]));
    const hash = pod.metadata?.annotations?.[TLS_FILES_HASH_ANNOTATION];
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    const changed = { ...spec, web: { tlsConfig: { ...webTls, minVersion: 'TLS13' } } };
    expect(buildAlertmanagerStatefulSet(alertmanager(changed), 'h').spec!.template.metadata?.annotations?.[TLS_FILES_HASH_ANNOTATION]).not.toBe(hash);
  });

  it('writes httpConfig alone over HTTP, and nothing at all without either field', () => {
    const tls = tlsOf({ web: { httpConfig: { http2: true } } });
    expect(tls.web).toMatchObject({ https: false });
    expect(buildAlertmanagerStatefulSet(alertmanager({ web: { httpConfig: { http2: true } } }), 'h').spec!.template.spec!.containers[0]!.readinessProbe?.httpGet?.scheme).toBeUndefined();
    expect(tlsOf({ web: { getConcurrency: 3 } })).toEqual({ web: undefined, cluster: undefined });
    const plain = buildAlertmanagerStatefulSet(alertmanager({}), 'h').spec!.template;
    expect(plain.metadata?.annotations?.[TLS_FILES_HASH_ANNOTATION]).toBeUndefined();
    expect(plain.spec!.volumes!.some((volume) => volume.name.startsWith('web-config') || volume.name.startsWith('cluster-tls'))).toBe(false);
  });

  it('refuses, at their paths, values exporter-toolkit would refuse, a shape the CRD would not store, and a release without the flag', () => {
    const problems = (spec: Spec) => { const result = alertmanagerTlsOf(spec); return result.ok ? [] : result.problems.map((problem) => `${problem.path}: ${problem.message}`); };
    expect(problems({ web: { tlsConfig: { ...webTls, clientAuthType: 'Sometimes', minVersion: 'SSL3' } } })).toEqual([
      expect.stringMatching(/^spec\.web\.tlsConfig\.clientAuthType: "Sometimes" is not a client auth type Alertmanager knows/),
      expect.stringMatching(/^spec\.web\.tlsConfig\.minVersion: "SSL3" is not a TLS version Alertmanager knows/),
    ]);
    expect(problems({ web: { tlsConfig: { cert: 'tls.crt', keySecret: { name: 'k' }, cipherSuites: 'all' } } })).toEqual([
      'spec.web.tlsConfig.cert: must be an object', 'spec.web.tlsConfig.keySecret.key: must name the key', 'spec.web.tlsConfig.cipherSuites: must be a list of strings',
    ]);
    expect(problems({ web: 'https' } as unknown as Spec)).toEqual([]);
    expect(problems({ version: 'v0.21.0', web: { tlsConfig: webTls } })).toEqual(['spec.web.tlsConfig: Alertmanager v0.21.0 has no --web.config.file (0.22 and newer have it)']);
  });
});

describe('the cluster TLS file', () => {
  it('writes the server and client blocks as upstream, mounts their material apart, and passes --cluster.tls-config', () => {
    const spec: Spec = { replicas: 3, clusterTLS };
    expect(load(tlsOf(spec).cluster!.text)).toEqual({
      tls_server_config: {
        cert_file: '/etc/alertmanager/cluster_tls_config/server_tls/secret/mesh-cert/tls.crt',
        key_file: '/etc/alertmanager/cluster_tls_config/server_tls/secret/mesh-key/tls.key',
        client_auth_type: 'RequireAndVerifyClientCert',
        client_ca_file: '/etc/alertmanager/cluster_tls_config/server_tls/secret/mesh-ca/ca.crt',
      },
      tls_client_config: {
        key_file: '/etc/alertmanager/cluster_tls_config/client_tls/secret/mesh-key/client.key',
        cert_file: '/etc/alertmanager/cluster_tls_config/client_tls/configmap/mesh-client-cert/tls.crt',
        ca_file: '/etc/alertmanager/cluster_tls_config/client_tls/secret/mesh-ca/ca.crt',
        server_name: 'alertmanager',
        insecure_skip_verify: false,
      },
    });
    const args = alertmanagerArgs(alertmanager(spec));
    expect(args[args.length - 1]).toBe('--cluster.tls-config=/etc/alertmanager/cluster_tls_config/cluster-tls-config.yaml');
    const pod = buildAlertmanagerStatefulSet(alertmanager(spec), 'h').spec!.template.spec!;
    expect(pod.volumes).toEqual(expect.arrayContaining([
      { name: 'cluster-tls-config', secret: { secretName: 'alertmanager-main-cluster-tls-config' } },
      { name: 'cluster-tls-server-config-secret-key-mesh', secret: { secretName: 'mesh' } },
      { name: 'cluster-tls-client-config-configmap-cert-mesh-client', configMap: { name: 'mesh-client' } },
    ]));
    expect(pod.containers[0]!.volumeMounts).toEqual(expect.arrayContaining([
      { name: 'cluster-tls-config', mountPath: '/etc/alertmanager/cluster_tls_config/cluster-tls-config.yaml', subPath: 'cluster-tls-config.yaml', readOnly: true },
      { name: 'cluster-tls-client-config-secret-key-mesh', mountPath: '/etc/alertmanager/cluster_tls_config/client_tls/secret/mesh-key', readOnly: true },
    ]));
  });

  it('needs a server, and a client with a certificate and its key, and Alertmanager 0.24', () => {
    const paths = (spec: Spec) => { const result = alertmanagerTlsOf(spec); return result.ok ? [] : result.problems.map((problem) => problem.path); };
    expect(paths({ clusterTLS: {} })).toEqual(['spec.clusterTLS.server', 'spec.clusterTLS.client']);
    expect(paths({ clusterTLS: { server: clusterTLS.server, client: { ca: clusterTLS.client.ca } } })).toEqual(['spec.clusterTLS.client.cert', 'spec.clusterTLS.client.keySecret']);
    expect(paths({ clusterTLS: { ...clusterTLS, server: { certFile: '/c' } } })).toEqual(['spec.clusterTLS.server.keySecret']);
    expect(paths({ version: '0.23.0', clusterTLS })).toEqual(['spec.clusterTLS']);
  });
});

describe('the TLS material, read from the Alertmanager\'s namespace', () => {
  let dir: string;
  let cert: string;
  let key: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'promop-am-tls-'));
    const pki = createPki(dir);
    cert = readFileSync(pki.servingCert, 'utf8');
    key = readFileSync(pki.servingKey, 'utf8');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const SECRET_MARKER = 'not-a-key-but-a-secret-value';
  const sources = (namespace: string, secretData: Record<string, string>, caData: Record<string, string> = {}) => ({
    secrets: [{ namespace, name: 'web-tls', data: secretData }],
    configMaps: [{ namespace, name: 'client-ca', data: caData }],
  });

  it('refuses a missing object or key and material that is no PEM certificate or key, at its path, never quoting it', () => {
    const tls = tlsOf({ web: { tlsConfig: webTls } });
    expect(alertmanagerTlsDataProblems(tls, 'monitoring', sources('monitoring', { 'tls.crt': cert, 'tls.key': key }, { 'ca.crt': cert }))).toEqual([]);
    const problems = alertmanagerTlsDataProblems(tls, 'monitoring', sources('monitoring', { 'tls.crt': 'garbage', 'tls.key': SECRET_MARKER }));
    expect(problems).toEqual([
      { path: 'spec.web.tlsConfig.keySecret', message: 'key tls.key of Secret web-tls holds no PEM private key' },
      { path: 'spec.web.tlsConfig.cert.secret', message: 'key tls.crt of Secret web-tls holds no PEM certificate' },
      { path: 'spec.web.tlsConfig.client_ca.configMap.key', message: 'ConfigMap client-ca has no key ca.crt' },
    ]);
    expect(JSON.stringify(problems)).not.toContain(SECRET_MARKER);
    // The same names in another namespace are not the Alertmanager's.
    expect(alertmanagerTlsDataProblems(tls, 'monitoring', sources('elsewhere', { 'tls.crt': cert, 'tls.key': key }, { 'ca.crt': cert })).map((problem) => problem.message)).toEqual([
      'Secret web-tls does not exist in namespace monitoring', 'Secret web-tls does not exist in namespace monitoring', 'ConfigMap client-ca does not exist in namespace monitoring',
    ]);
  });

  it('makes the rendering refuse the Alertmanager with the first such problem, and reads only its own namespace\'s objects', () => {
    const am = alertmanager({ web: { tlsConfig: webTls }, clusterTLS: { ...clusterTLS, client: { ...clusterTLS.client, cert: { secret: { name: 'mesh', key: 'tls.crt' } } } } });
    const rendering = renderAlertmanagerConfiguration(am, { alertmanagerConfigs: [], namespaces: [], ...sources('monitoring', { 'tls.crt': cert, 'tls.key': key }, { 'ca.crt': cert }) });
    expect(rendering.output).toMatchObject({ ok: false, problem: { path: 'spec.clusterTLS.server.keySecret', message: 'Secret mesh does not exist in namespace monitoring' } });
    expect(alertmanagerReferences([am], [])).toEqual({
      secrets: new Set(['monitoring/alertmanager-main', 'monitoring/web-tls', 'monitoring/mesh']),
      configMaps: new Set(['monitoring/client-ca']),
    });
  });

  it('pins the serving certificate and says when the pods require a client certificate', () => {
    expect(alertmanagerPodTls(tlsOf({ web: { tlsConfig: webTls } }), 'monitoring', sources('monitoring', { 'tls.crt': cert }))).toEqual({ servingCertificate: cert, clientCertificateRequired: true });
    expect(alertmanagerPodTls(tlsOf({ web: { tlsConfig: { certFile: '/c', keyFile: '/k' } } }), 'monitoring', sources('monitoring', {}))).toEqual({ clientCertificateRequired: false });
    expect(alertmanagerPodTls(tlsOf({ web: { httpConfig: { http2: true } } }), 'monitoring', sources('monitoring', {}))).toBeUndefined();
  });
});
