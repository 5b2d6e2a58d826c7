/**
 * `promop run`'s reload path for a Prometheus that serves HTTPS (`spec.web.tlsConfig`, client certificates
 * required), against the real API server and a real Prometheus on 127.0.0.1, the kubelet played by the test as in
 * shard-reloader.apiserver.test.ts. The Prometheus serves HTTPS from the web config Secret promop wrote (its paths
 * moved under a temporary root, where the test puts the Secret's and ConfigMap's files as the kubelet would mount
 * them); promop must reload it over HTTPS, accepting only the certificate of `spec.web.tlsConfig.cert` and
 * presenting its own client certificate (`--prometheus-client-cert/-key`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { API_VERSIONS, GROUP, PLURALS, VERSION } from '@promop/crds';
import { PrometheusPodsFixture, createClientCert, createPki, eventually, mountBelowRoot, untilServed, type PrometheusProcess } from '@promop/testkit';
import { pino } from 'pino';
import { OperatorMetrics } from '../observability/index.ts';
import { Operator } from '../operator.ts';
import { OPERATOR_CLUSTER_ROLE_RULES } from '../rbac/index.ts';
import { WEB_CONFIG_DIR, WEB_CONFIG_FILE_NAME, shardSelectorLabels } from '../workload/index.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `promop-system-${id}`;
const MONITORING = `monitoring-https-${id}`;

let fixture: PrometheusPodsFixture;
let core: CoreV1Api;
let custom: CustomObjectsApi;
let prometheus: PrometheusProcess | undefined;
const logLines: string[] = [];

type ConfigStatus = { shardID: string; loadedReplicas?: string[]; pendingReplicas?: { pod: string; reason: string; message?: string }[] };
type PrometheusObject = { status?: { conditions?: { type: string; status: string; reason?: string }[]; configStatus?: ConfigStatus[] } };
const readPrometheus = async () => (await custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: MONITORING, name: 'main' })) as PrometheusObject;
const shard0 = (p: PrometheusObject) => p.status?.configStatus?.find((s) => s.shardID === '0');

beforeAll(async () => {
  fixture = await PrometheusPodsFixture.start({
    identity: `promop-https-${id}`, operatorNamespace: OPERATOR_NS, namespaces: [MONITORING], operatorRules: OPERATOR_CLUSTER_ROLE_RULES,
  });
  ({ core, custom } = fixture);
  const { dir } = fixture;
  const pki = createPki(dir);
  const promopClient = createClientCert(dir, 'promop', 'promop', []);
  await eventually(() => core.createNamespacedSecret({
    namespace: MONITORING,
    body: { metadata: { name: 'web-tls' }, type: 'kubernetes.io/tls', stringData: { 'tls.crt': readFileSync(pki.servingCert, 'utf8'), 'tls.key': readFileSync(pki.servingKey, 'utf8') } },
  }), () => true);
  await core.createNamespacedConfigMap({ namespace: MONITORING, body: { metadata: { name: 'client-ca' }, data: { 'ca.crt': readFileSync(pki.caCert, 'utf8') } } });

  await fixture.startOperator(new Operator({
    kubeConfig: fixture.operatorKubeConfig, log: pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) }), metrics: new OperatorMetrics({ processMetrics: false }),
    prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}`,
    podNetworks: ['127.0.0.1/32'], reloadTimeoutMs: 20_000,
    prometheusPortOf: fixture.portOf,
    prometheusClientCertificate: () => ({ cert: readFileSync(promopClient.cert, 'utf8'), key: readFileSync(promopClient.key, 'utf8') }),
    // Health is read as reloads are: over HTTPS, with the pinned certificate and promop's client certificate.
    healthIntervalMs: 1000, healthMinWriteIntervalMs: 1000,
  }));
  await untilServed(() => custom.createNamespacedCustomObject({
    group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: MONITORING,
    body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: 'main', labels: { 'promop.test/instance': id } },
      spec: {
        replicas: 1, serviceMonitorSelector: { matchLabels: { 'promop.test/instance': id } }, scrapeConfigSelector: { matchLabels: { 'promop.test/instance': id } },
        web: {
          tlsConfig: {
            cert: { secret: { name: 'web-tls', key: 'tls.crt' } }, keySecret: { name: 'web-tls', key: 'tls.key' },
            client_ca: { configMap: { name: 'client-ca', key: 'ca.crt' } }, clientAuthType: 'RequireAndVerifyClientCert',
          },
        },
      },
    },
  }));

  // A team's target that refuses connections: its health can only come from reading the Prometheus over HTTPS.
  await untilServed(() => custom.createNamespacedCustomObject({
    group: GROUP, version: API_VERSIONS.ScrapeConfig, plural: PLURALS.ScrapeConfig, namespace: MONITORING,
    body: {
      apiVersion: `${GROUP}/${API_VERSIONS.ScrapeConfig}`, kind: 'ScrapeConfig', metadata: { name: 'closed', labels: { 'promop.test/instance': id } },
      spec: { staticConfigs: [{ targets: ['127.0.0.1:1'] }], scrapeInterval: '1s' },
    },
  }));

  // The pod starts once promop has written its web config Secret, with the files the kubelet would mount.
  const webConfigSecret = await eventually(
    () => core.readNamespacedSecret({ namespace: MONITORING, name: 'prometheus-main-web-config' }),
    (secret) => secret.data?.[WEB_CONFIG_FILE_NAME] !== undefined,
  );
  const webConfigFile = join(dir, WEB_CONFIG_FILE_NAME);
  writeFileSync(webConfigFile, mountBelowRoot(join(dir, 'root'), WEB_CONFIG_DIR, Buffer.from(webConfigSecret.data![WEB_CONFIG_FILE_NAME]!, 'base64').toString('utf8'), {
    [`${WEB_CONFIG_DIR}/secret/web-tls-cert/tls.crt`]: pki.servingCert,
    [`${WEB_CONFIG_DIR}/secret/web-tls-key/tls.key`]: pki.servingKey,
    [`${WEB_CONFIG_DIR}/configmap/client-ca-ca/ca.crt`]: pki.caCert,
  }));
  ({ prometheus } = await fixture.startPrometheusPod({
    namespace: MONITORING, name: 'replica-https', labels: shardSelectorLabels('main', 0), configSecret: 'prometheus-main',
    serving: { https: { webConfigFile, caFile: pki.caCert, clientCert: promopClient.cert, clientKey: promopClient.key } },
  }));
}, 120_000);

afterAll(async () => {
  await fixture?.stop();
}, 30_000);

describe('a Prometheus serving HTTPS and requiring client certificates, reloaded by promop run', () => {
  it('is reloaded and verified over HTTPS with promop\'s client certificate, and reported loaded', async () => {
    const status = await eventually(readPrometheus, (p) => shard0(p)?.loadedReplicas?.includes('replica-https') ?? false);
    expect(shard0(status)).toMatchObject({ loadedReplicas: ['replica-https'] });
    expect(status.status?.conditions?.find((c) => c.type === 'Reconciled')).toMatchObject({ status: 'True' });
    const loaded = await prometheus!.apiGet<{ yaml: string }>('/api/v1/status/config');
    expect(loaded.yaml).toContain(`prometheus: ${MONITORING}/main`);
    expect(loaded.yaml).toContain('prometheus_replica: replica-https');
  }, 60_000);

  it('has its targets read over HTTPS for the health in the team\'s ScrapeConfig', async () => {
    type Bound = { status?: { bindings?: { name: string; targets?: { down?: number; lastError?: string }; conditions?: { type: string; reason?: string }[] }[] } };
    const read = async () => (await custom.getNamespacedCustomObject({ group: GROUP, version: API_VERSIONS.ScrapeConfig, plural: PLURALS.ScrapeConfig, namespace: MONITORING, name: 'closed' })) as Bound;
    const binding = (object: Bound) => object.status?.bindings?.find((b) => b.name === 'main');
    const closed = await eventually(read, (object) => binding(object)?.conditions?.some((c) => c.type === 'Healthy' && c.reason === 'TargetsDown') ?? false, 60_000);
    expect(binding(closed)?.targets).toMatchObject({ down: 1 });
    expect(binding(closed)?.targets?.lastError).toContain('connection refused');
  }, 70_000);

  it('never writes a certificate or key into its log', () => {
    const pem = /-----BEGIN/;
    expect(logLines.filter((line) => pem.test(line))).toEqual([]);
  });
});
