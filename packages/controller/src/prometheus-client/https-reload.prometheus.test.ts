/**
 * A Prometheus serving HTTPS with the web config file promop renders (workload/web-config.ts), the kubelet's mounts
 * played by the test (the Secrets' and ConfigMap's files under a temporary root), and promop's reload-and-verify
 * over HTTPS: it pins the serving certificate of `spec.web.tlsConfig.cert` and presents its client certificate.
 * Everything listens on 127.0.0.1; certificates from the testkit's PKI.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parsePrometheusVersion } from '@promop/config-generator';
import type { Prometheus } from '@promop/crds';
import { createClientCert, createPki, startPrometheus, type Pki, type PrometheusProcess } from '@promop/testkit';
import { WEB_CONFIG_DIR, webConfigOf, webTlsFilePath, type WebConfig } from '../workload/web-config.ts';
import { PrometheusReloader, prometheusPodUrl } from './prometheus-reloader.ts';

const config = (job: string) => `global:\n  scrape_interval: 30s\nscrape_configs:\n- job_name: ${job}\n  static_configs:\n  - targets: ['127.0.0.1:1']\n`;

/** A Prometheus serving HTTPS from Secret `web-tls`, asking clients for a certificate signed by ConfigMap `client-ca`'s CA. */
const prometheusObject: Prometheus = {
  apiVersion: 'monitoring.coreos.com/v1',
  kind: 'Prometheus',
  metadata: { name: 'main', namespace: 'monitoring' },
  spec: {
    version: '3.16.0',
    web: {
      tlsConfig: {
        cert: { secret: { name: 'web-tls', key: 'tls.crt' } },
        keySecret: { name: 'web-tls', key: 'tls.key' },
        client_ca: { configMap: { name: 'client-ca', key: 'ca.crt' } },
        clientAuthType: 'RequireAndVerifyClientCert',
        minVersion: 'TLS12',
        curvePreferences: ['X25519', 'CurveP256'],
      },
      httpConfig: { headers: { xFrameOptions: 'Deny', xContentTypeOptions: 'NoSniff' } },
    },
  },
};

describe('a Prometheus with spec.web.tlsConfig, reloaded by promop over HTTPS', () => {
  let dir: string;
  let pki: Pki;
  let promopClient: { cert: string; key: string };
  let configFile: string;
  let prometheus: PrometheusProcess;
  let web: WebConfig;
  const reloaders: PrometheusReloader[] = [];
  const reloader = (withClientCertificate: boolean) => {
    const created = new PrometheusReloader({
      allowedNetworks: ['127.0.0.1'], initialDelayMs: 100, maxDelayMs: 400,
      ...(withClientCertificate ? { clientCertificate: () => ({ cert: readFileSync(promopClient.cert, 'utf8'), key: readFileSync(promopClient.key, 'utf8') }) } : {}),
    });
    reloaders.push(created);
    return created;
  };
  const baseUrl = () => prometheusPodUrl('127.0.0.1', Number(new URL(prometheus.url).port), '/', 'https');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'promop-https-'));
    pki = createPki(dir);
    promopClient = createClientCert(dir, 'promop', 'promop', []);
    const built = webConfigOf(prometheusObject, parsePrometheusVersion('3.16.0')!);
    if (!built.ok || !built.value) throw new Error(`no web config: ${JSON.stringify(built)}`);
    web = built.value;
    // The kubelet's part: each referenced key becomes the file the web config names, under a root of our own.
    const root = join(dir, 'root');
    const contents: Record<string, string> = { 'tls.crt': pki.servingCert, 'tls.key': pki.servingKey, 'ca.crt': pki.caCert };
    for (const reference of web.references) {
      const file = join(root, webTlsFilePath(reference));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, readFileSync(contents[reference.key]!));
    }
    const webConfigFile = join(dir, 'web-config.yaml');
    writeFileSync(webConfigFile, web.text.replaceAll(WEB_CONFIG_DIR, join(root, WEB_CONFIG_DIR)));
    configFile = join(dir, 'prometheus.yaml');
    writeFileSync(configFile, config('before'));
    prometheus = await startPrometheus(configFile, {}, { https: { webConfigFile, caFile: pki.caCert, clientCert: promopClient.cert, clientKey: promopClient.key } });
  });

  afterAll(async () => {
    await prometheus?.stop();
    await Promise.all(reloaders.map((each) => each.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders a web config file the real Prometheus serves HTTPS from, with the headers asked for', async () => {
    expect(web.https).toBe(true);
    expect(web.text).toBe([
      'tls_server_config:',
      `  cert_file: ${WEB_CONFIG_DIR}/secret/web-tls-cert/tls.crt`,
      `  key_file: ${WEB_CONFIG_DIR}/secret/web-tls-key/tls.key`,
      '  client_auth_type: RequireAndVerifyClientCert',
      `  client_ca_file: ${WEB_CONFIG_DIR}/configmap/client-ca-ca/ca.crt`,
      '  min_version: TLS12',
      '  curve_preferences:',
      '    - X25519',
      '    - CurveP256',
      'http_server_config:',
      '  headers:',
      '    X-Content-Type-Options: nosniff',
      '    X-Frame-Options: deny',
      '',
    ].join('\n'));
    expect(prometheus.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const info = await prometheus.apiGet<{ version: string }>('/api/v1/status/buildinfo');
    expect(info.version).toMatch(/^3\./);
  });

  it('reloads it and reads back the loaded config, pinning its certificate and presenting promop\'s', async () => {
    writeFileSync(configFile, config('after-https-reload'));
    const outcome = await reloader(true).reloadAndVerify({
      baseUrl: baseUrl(), expectedConfigText: config('after-https-reload'), timeoutMs: 10_000,
      tls: { servingCertificate: readFileSync(pki.servingCert, 'utf8'), clientCertificateRequired: true },
    });
    expect(outcome).toMatchObject({ outcome: 'verified', attempts: 1 });
    const loaded = await prometheus.apiGet<{ yaml: string }>('/api/v1/status/config');
    expect(loaded.yaml).toContain('job_name: after-https-reload');
  });

  it('says what is missing, and sends nothing, when the Prometheus requires a client certificate promop does not have', async () => {
    const outcome = await reloader(false).reloadAndVerify({
      baseUrl: baseUrl(), expectedConfigText: config('after-https-reload'), timeoutMs: 5_000,
      tls: { servingCertificate: readFileSync(pki.servingCert, 'utf8'), clientCertificateRequired: true },
    });
    expect(outcome).toEqual({
      outcome: 'failed', attempts: 0, elapsedMs: 0,
      reason: expect.stringMatching(/^spec\.web\.tlsConfig\.clientAuthType makes Prometheus refuse clients without a certificate, and promop has none: start promop run with --prometheus-client-cert/),
    });
  });

  it('refuses a pod presenting another certificate than spec.web.tlsConfig.cert holds, before sending the reload', async () => {
    writeFileSync(configFile, config('never-loaded'));
    const outcome = await reloader(true).reloadAndVerify({
      baseUrl: baseUrl(), expectedConfigText: config('never-loaded'), timeoutMs: 5_000,
      // The CA's own certificate: valid, signed by the same CA, and still not the one the pod must present.
      tls: { servingCertificate: readFileSync(pki.caCert, 'utf8'), clientCertificateRequired: true },
    });
    expect(outcome.outcome === 'unreachable' && outcome.reason).toMatch(/another certificate than spec\.web\.tlsConfig\.cert holds/);
    const loaded = await prometheus.apiGet<{ yaml: string }>('/api/v1/status/config');
    expect(loaded.yaml).toContain('job_name: after-https-reload');
  });

  it('cannot be reloaded over plain HTTP: the scheme follows spec.web.tlsConfig', async () => {
    const outcome = await reloader(true).reloadAndVerify({
      baseUrl: prometheusPodUrl('127.0.0.1', Number(new URL(prometheus.url).port)), expectedConfigText: config('never-loaded'), timeoutMs: 2_000,
    });
    expect(outcome.outcome).not.toBe('verified');
  });
});
