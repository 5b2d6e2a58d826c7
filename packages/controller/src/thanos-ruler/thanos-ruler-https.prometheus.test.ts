/**
 * A ThanosRuler with `spec.web.tlsConfig` run for real: `thanos rule` (tools/thanos) started with the args promop
 * builds and the web configuration file it renders (the same file as a Prometheus', workload/web-config.ts), the
 * serving certificate and key from a Secret and the client CA from a ConfigMap laid out where the pod mounts them.
 * thanos rule serves HTTPS and asks clients for a certificate; promop's reload path reaches it over HTTPS, pinning
 * the certificate of `spec.web.tlsConfig.cert` and presenting its own, and proves the written rules loaded. Only
 * the pod's paths and addresses are replaced. Everything listens and dials on 127.0.0.1.
 */
import { request as httpsRequest } from 'node:https';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { KeyValueSource } from '@promop/config-generator';
import type { PrometheusRule, ThanosRuler } from '@promop/crds';
import { createClientCert, createPki, eventually, freePort, startProcess, startUntilReady, stopProcess, toolPath } from '@promop/testkit';
import { PrometheusReloader, prometheusPodUrl } from '../prometheus-client/index.ts';
import { webTlsFilePath } from '../workload/web-config.ts';
import { THANOS_RULER_WEB_CONFIG_DIR, WEB_CONFIG_FILE } from './thanos-ruler-children.ts';
import { renderThanosRuler, thanosRulerMountedRuleFiles, thanosRulerPodTls } from './thanos-ruler-rendering.ts';

const RECORDING = {
  apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { namespace: 'monitoring', name: 'slo', uid: 'uid-slo' },
  spec: { groups: [{ name: 'slo', rules: [{ record: 'team:one', expr: 'vector(1)' }] }] },
} as PrometheusRule;

describe('thanos rule serving HTTPS from the web configuration promop renders, reloaded by promop over HTTPS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'promop-thanos-ruler-https-'));
  const stops: (() => Promise<void>)[] = [];
  const reloaders: PrometheusReloader[] = [];
  let rendered: ReturnType<typeof renderThanosRuler>;
  let rulerHttp = 0;
  let secrets: KeyValueSource[] = [];
  let configMaps: KeyValueSource[] = [];
  let promopClient: { cert: string; key: string };
  const rulesRoot = join(dir, 'pod');

  beforeAll(async () => {
    const pki = createPki(dir);
    promopClient = createClientCert(dir, 'promop', 'promop', []);
    const queryHttp = await freePort();
    const query = startProcess('thanos-query', toolPath('thanos'), ['query', `--http-address=127.0.0.1:${queryHttp}`, `--grpc-address=127.0.0.1:${await freePort()}`], join(dir, 'query.log'));
    stops.push((await startUntilReady(query, `http://127.0.0.1:${queryHttp}/-/ready`, join(dir, 'query'))).stop);

    const ruler = {
      apiVersion: 'monitoring.coreos.com/v1', kind: 'ThanosRuler', metadata: { namespace: 'monitoring', name: 'secure', uid: 'u-1' },
      spec: {
        queryEndpoints: [`127.0.0.1:${queryHttp}`], evaluationInterval: '1s', ruleSelector: {}, ruleNamespaceSelector: {},
        web: {
          tlsConfig: {
            cert: { secret: { name: 'web-tls', key: 'tls.crt' } }, keySecret: { name: 'web-tls', key: 'tls.key' },
            client_ca: { configMap: { name: 'client-ca', key: 'ca.crt' } }, clientAuthType: 'RequireAndVerifyClientCert', minVersion: 'TLS12',
          },
          httpConfig: { headers: { xFrameOptions: 'Deny' } },
        },
      },
    } as ThanosRuler;
    secrets = [{ namespace: 'monitoring', name: 'web-tls', data: { 'tls.crt': readFileSync(pki.servingCert, 'utf8'), 'tls.key': readFileSync(pki.servingKey, 'utf8') } }];
    configMaps = [{ namespace: 'monitoring', name: 'client-ca', data: { 'ca.crt': readFileSync(pki.caCert, 'utf8') } }];
    rendered = renderThanosRuler(ruler, { prometheusRules: [RECORDING], namespaces: [{ name: 'monitoring', labels: {} }], secrets, configMaps });
    if (rendered.problems.length > 0 || !rendered.command.ok || !rendered.command.value.web) throw new Error(JSON.stringify(rendered.problems));

    // The kubelet's part, under a root of our own: the rule files, each TLS Secret or ConfigMap key, the web config.
    const web = rendered.command.value.web;
    for (const [path, text] of Object.entries(thanosRulerMountedRuleFiles(rendered.rules))) {
      mkdirSync(dirname(join(rulesRoot, path)), { recursive: true });
      writeFileSync(join(rulesRoot, path), text);
    }
    for (const reference of web.references) {
      const source = (reference.kind === 'Secret' ? secrets : configMaps).find((each) => each.name === reference.name)!;
      mkdirSync(dirname(join(rulesRoot, webTlsFilePath(reference))), { recursive: true });
      writeFileSync(join(rulesRoot, webTlsFilePath(reference)), source.data[reference.key]!);
    }
    const webConfigFile = join(dir, WEB_CONFIG_FILE);
    writeFileSync(webConfigFile, web.text.replaceAll(THANOS_RULER_WEB_CONFIG_DIR, join(rulesRoot, THANOS_RULER_WEB_CONFIG_DIR)));
    rulerHttp = await freePort();
    const args = rendered.command.value.args.map((arg) => arg
      .replace(/^--data-dir=.*/, `--data-dir=${join(dir, 'data')}`)
      .replace(/^--rule-file=\/etc/, `--rule-file=${rulesRoot}/etc`)
      .replace(/^--http\.config=.*/, `--http.config=${webConfigFile}`)
      .replace('$(POD_NAME)', 'secure-0'));
    const process = startProcess('thanos-rule', toolPath('thanos'), [...args, `--http-address=127.0.0.1:${rulerHttp}`, `--grpc-address=127.0.0.1:${await freePort()}`], join(dir, 'rule.log'));
    stops.push(() => stopProcess(process));
    // Ready once /-/ready answers over HTTPS to a client with a certificate its client CA signed.
    const ready = () => new Promise<number>((resolve) => {
      const request = httpsRequest(`https://127.0.0.1:${rulerHttp}/-/ready`, { ca: readFileSync(pki.caCert), cert: readFileSync(promopClient.cert), key: readFileSync(promopClient.key), timeout: 2_000 }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', () => resolve(0));
      request.end();
    });
    await eventually(ready, (status) => status === 200, 60_000, 300);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(reloaders.map((each) => each.close()));
    for (const stop of stops.reverse()) await stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const reloader = (withClientCertificate: boolean) => {
    const created = new PrometheusReloader({
      allowedNetworks: ['127.0.0.1'], initialDelayMs: 100, maxDelayMs: 400,
      ...(withClientCertificate ? { clientCertificate: () => ({ cert: readFileSync(promopClient.cert, 'utf8'), key: readFileSync(promopClient.key, 'utf8') }) } : {}),
    });
    reloaders.push(created);
    return created;
  };

  it('renders the web config file thanos rule serves HTTPS from, with the certificate to pin', () => {
    expect(rendered.command.ok && rendered.command.value.web?.text).toBe([
      'tls_server_config:',
      `  cert_file: ${THANOS_RULER_WEB_CONFIG_DIR}/secret/web-tls-cert/tls.crt`,
      `  key_file: ${THANOS_RULER_WEB_CONFIG_DIR}/secret/web-tls-key/tls.key`,
      '  client_auth_type: RequireAndVerifyClientCert',
      `  client_ca_file: ${THANOS_RULER_WEB_CONFIG_DIR}/configmap/client-ca-ca/ca.crt`,
      '  min_version: TLS12',
      'http_server_config:',
      '  headers:',
      '    X-Frame-Options: deny',
      '',
    ].join('\n'));
    expect(rendered.command.ok && thanosRulerPodTls(rendered.command.value, 'monitoring', { secrets, configMaps })).toEqual({ servingCertificate: secrets[0]!.data['tls.crt'], clientCertificateRequired: true });
  });

  it('is reloaded by promop over HTTPS and proven to evaluate the written rules; plain HTTP and a client without a certificate get nothing', async () => {
    if (!rendered.command.ok) throw new Error('refused');
    const tls = thanosRulerPodTls(rendered.command.value, 'monitoring', { secrets, configMaps })!;
    const files = Object.fromEntries(Object.entries(thanosRulerMountedRuleFiles(rendered.rules)).map(([path, text]) => [join(rulesRoot, path), text]));
    const request = { program: 'thanos-ruler' as const, baseUrl: prometheusPodUrl('127.0.0.1', rulerHttp, '/', 'https'), expectedRuleFiles: files, externalLabels: ['thanos_ruler_replica'], tls, timeoutMs: 20_000 };
    expect(await reloader(true).reloadAndVerify(request)).toMatchObject({ outcome: 'verified' });
    expect(await reloader(false).reloadAndVerify({ ...request, timeoutMs: 3_000 })).toMatchObject({ outcome: 'failed', reason: expect.stringMatching(/promop has none/) });
    await expect(fetch(`http://127.0.0.1:${rulerHttp}/api/v1/rules`).then((response) => response.status)).resolves.toBe(400);
    // Another certificate than spec.web.tlsConfig.cert holds (the CA's own, valid and from the same CA): refused.
    const otherCertificate = { ...tls, servingCertificate: configMaps[0]!.data['ca.crt']! };
    const pinned = await reloader(true).reloadAndVerify({ ...request, tls: otherCertificate, timeoutMs: 3_000 });
    expect(pinned.outcome === 'unreachable' && pinned.reason).toMatch(/another certificate than spec\.web\.tlsConfig\.cert holds/);
  }, 60_000);
});
