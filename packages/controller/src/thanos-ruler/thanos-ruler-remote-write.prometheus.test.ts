/**
 * A stateless ThanosRuler (`spec.remoteWrite`) run for real: `thanos rule` (tools/thanos) started with the args of
 * the container promop builds and the remote write file promop renders, its TLS material (a CA from a ConfigMap, a
 * client certificate and key from a Secret of the ruler's namespace) laid out as the tls-assets Secret is mounted,
 * sends the series its rules record to a real Prometheus that receives remote writes over HTTPS and requires a
 * client certificate. Only the pod's paths and addresses are replaced, as in thanos-ruler.prometheus.test.ts.
 * Everything listens and dials on 127.0.0.1.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyValueSource } from '@promop/config-generator';
import type { PrometheusRule, ThanosRuler } from '@promop/crds';
import { createClientCert, createPki, eventually, freePort, startProcess, startPrometheus, startUntilReady, toolPath, type PrometheusProcess } from '@promop/testkit';
import { REMOTE_WRITE_FILE, THANOS_RULER_TLS_ASSETS_DIR } from './thanos-ruler-children.ts';
import { renderThanosRuler, thanosRulerFiles } from './thanos-ruler-rendering.ts';

const POD_NAME = 'thanos-ruler-stateless-0';

const RECORDING = {
  apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { namespace: 'monitoring', name: 'slo', uid: 'uid-slo' },
  spec: { groups: [{ name: 'slo', rules: [{ record: 'team:stateless_ruler:one', expr: 'vector(1)' }] }] },
} as PrometheusRule;

describe('a stateless thanos rule started with the args and remote write file promop renders', () => {
  const dir = mkdtempSync(join(tmpdir(), 'promop-thanos-ruler-rw-'));
  const stops: (() => Promise<void>)[] = [];
  let prometheus: PrometheusProcess;
  let rendered: ReturnType<typeof renderThanosRuler>;
  let ruler: ThanosRuler;
  let client: { cert: string; key: string };

  beforeAll(async () => {
    const pki = createPki(dir);
    client = createClientCert(dir, 'ruler', 'ruler', []);
    const webConfigFile = join(dir, 'prometheus-web.yaml');
    writeFileSync(webConfigFile, [
      'tls_server_config:', `  cert_file: ${pki.servingCert}`, `  key_file: ${pki.servingKey}`,
      '  client_auth_type: RequireAndVerifyClientCert', `  client_ca_file: ${pki.caCert}`, '',
    ].join('\n'));
    const prometheusConfig = join(dir, 'prometheus.yaml');
    writeFileSync(prometheusConfig, 'global: {}\n');
    prometheus = await startPrometheus(prometheusConfig, {}, { args: ['--web.enable-remote-write-receiver'], https: { webConfigFile, caFile: pki.caCert, clientCert: client.cert, clientKey: client.key } });
    stops.push(() => prometheus.stop());

    const queryHttp = await freePort();
    const query = startProcess('thanos-query', toolPath('thanos'), ['query', `--http-address=127.0.0.1:${queryHttp}`, `--grpc-address=127.0.0.1:${await freePort()}`], join(dir, 'query.log'));
    stops.push((await startUntilReady(query, `http://127.0.0.1:${queryHttp}/-/ready`, join(dir, 'query'))).stop);

    ruler = {
      apiVersion: 'monitoring.coreos.com/v1', kind: 'ThanosRuler', metadata: { namespace: 'monitoring', name: 'stateless', uid: 'u-1' },
      spec: {
        queryEndpoints: [`127.0.0.1:${queryHttp}`], evaluationInterval: '1s', ruleSelector: {}, ruleNamespaceSelector: {}, labels: { cluster: 'test' },
        remoteWrite: [{
          url: `${prometheus.url}/api/v1/write`, name: 'central', remoteTimeout: '5s', queueConfig: { batchSendDeadline: '1s' },
          tlsConfig: { ca: { configMap: { name: 'ca', key: 'ca.crt' } }, cert: { secret: { name: 'client', key: 'tls.crt' } }, keySecret: { name: 'client', key: 'tls.key' } },
        }],
      },
    } as ThanosRuler;
    const secrets: KeyValueSource[] = [{ namespace: 'monitoring', name: 'client', data: { 'tls.crt': readFileSync(client.cert, 'utf8'), 'tls.key': readFileSync(client.key, 'utf8') } }];
    const configMaps: KeyValueSource[] = [{ namespace: 'monitoring', name: 'ca', data: { 'ca.crt': readFileSync(pki.caCert, 'utf8') } }];
    rendered = renderThanosRuler(ruler, { prometheusRules: [RECORDING], namespaces: [{ name: 'monitoring', labels: {} }], secrets, configMaps });
    if (rendered.problems.length > 0 || !rendered.command.ok) throw new Error(JSON.stringify(rendered.problems));

    // The kubelet's part: the rule ConfigMaps, the config Secret and the tls-assets Secret as the pod mounts them.
    const root = join(dir, 'pod');
    const files = thanosRulerFiles(ruler, rendered);
    for (const [path, text] of Object.entries(files)) {
      const target = join(root, path.startsWith('tls-assets/') ? path.replace(/^tls-assets/, THANOS_RULER_TLS_ASSETS_DIR) : path);
      mkdirSync(join(target, '..'), { recursive: true });
      writeFileSync(target, path === REMOTE_WRITE_FILE ? text.replaceAll(THANOS_RULER_TLS_ASSETS_DIR, join(root, THANOS_RULER_TLS_ASSETS_DIR)) : text);
    }
    const webConfig = join(dir, 'web-config.yaml');
    writeFileSync(webConfig, '');
    const rulerHttp = await freePort();
    const args = rendered.command.value.args.map((arg) => arg
      .replace(/^--data-dir=.*/, `--data-dir=${join(dir, 'data')}`)
      .replace(/^--rule-file=.*/, `--rule-file=${join(root, 'rules')}/*/*.yaml`)
      .replace(/^--remote-write\.config-file=.*/, `--remote-write.config-file=${join(root, REMOTE_WRITE_FILE)}`)
      .replace(/^--http\.config=.*/, `--http.config=${webConfig}`)
      .replace('$(POD_NAME)', POD_NAME));
    const process = startProcess('thanos-rule', toolPath('thanos'), [...args, `--http-address=127.0.0.1:${rulerHttp}`, `--grpc-address=127.0.0.1:${await freePort()}`], join(dir, 'rule.log'));
    stops.push((await startUntilReady(process, `http://127.0.0.1:${rulerHttp}/-/ready`, join(dir, 'rule'))).stop);
  }, 90_000);

  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders remote_write with the TLS files under the ruler\'s certificate directory, and passes the file to thanos rule', () => {
    expect(rendered.remoteWrite.text).toMatch(new RegExp(`^remote_write:\\n- url: ${prometheus.url.replaceAll('.', '\\.')}/api/v1/write\\n  remote_timeout: 5s\\n  name: central\\n`));
    expect(rendered.remoteWrite.text).toContain(`  tls_config:\n    ca_file: ${THANOS_RULER_TLS_ASSETS_DIR}/`);
    const assets = Object.keys(rendered.remoteWrite.tlsAssets).sort();
    expect(assets).toHaveLength(3);
    for (const key of ['ca.crt', 'tls.crt', 'tls.key']) expect(assets.some((file) => file.endsWith(key))).toBe(true);
    expect(rendered.command.ok && rendered.command.value.args).toContain('--remote-write.config-file=/etc/thanos/config/remote-write-config/remote-write.yaml');
  });

  it('sends what its rules record to the Prometheus over mutual TLS, with the ruler\'s external labels', async () => {
    type Answer = { result: { metric: Record<string, string>; value: [number, string] }[] };
    const answer = await eventually(() => prometheus.apiGet<Answer>(`/api/v1/query?query=${encodeURIComponent('team:stateless_ruler:one')}`), (data) => data.result.length > 0, 60_000, 1_000);
    expect(answer.result[0]!.metric).toMatchObject({ __name__: 'team:stateless_ruler:one', cluster: 'test', thanos_ruler_replica: POD_NAME });
    expect(answer.result[0]!.value[1]).toBe('1');
  }, 90_000);
});
