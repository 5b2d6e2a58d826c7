/**
 * An Alertmanager serving HTTPS (`spec.web.tlsConfig`, client certificates required), against the real API server
 * with the operator running as its ServiceAccount, and a real Alertmanager on 127.0.0.1 (the kubelet played by the
 * test). The Alertmanager serves HTTPS from the web config Secret promop wrote (its paths moved under a temporary
 * root, where the test puts the Secret's and ConfigMap's files as the kubelet would mount them); promop must reload
 * it over HTTPS after an AlertmanagerConfig change, accepting only the certificate of `spec.web.tlsConfig.cert` and
 * presenting its own client certificate, and verify it by Alertmanager's own hash of the file. A web TLS Secret
 * that does not exist is refused at its field path, in the status and an Event, until it is created.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AppsV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { DEFAULT_ALERTMANAGER_CONFIG } from '@promop/config-generator';
import { FakeKubelet, createClientCert, createPki, eventually, mountBelowRoot, startAlertmanager, type AlertmanagerProcess } from '@promop/testkit';
import { alertmanagerConfigHash, configMetrics } from '../prometheus-client/index.ts';
import { OperatorWorld } from '../test-support/operator-world.ts';
import { alertmanagerSelectorLabels } from './alertmanager-children.ts';
import { ALERTMANAGER_WEB_CONFIG_DIR, TLS_FILES_HASH_ANNOTATION } from './alertmanager-tls.ts';

const id = randomBytes(3).toString('hex');
const MONITORING = `am-https-${id}`;
const INSTANCE = { 'promop.test/instance': id };
const POD = `secure-replica-${id}`;
const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

interface StoredAlertmanager {
  status?: {
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    configStatus?: { configHash: string; loadedReplicas?: string[] };
  };
}

let world: OperatorWorld;
let dir: string;
let alertmanager: AlertmanagerProcess;
let kubelet: FakeKubelet;
let pki: ReturnType<typeof createPki>;
let testClient: { cert: string; key: string };
const ports = new Map<string, number>();

const readAlertmanager = (name: string) => world.readObject<StoredAlertmanager>('Alertmanager', MONITORING, name);
const reconciled = (stored: StoredAlertmanager) => stored.status?.conditions?.find((condition) => condition.type === 'Reconciled');
const generatedConfig = async () => {
  const secret = await world.core.readNamespacedSecret({ namespace: MONITORING, name: 'alertmanager-secure-generated' });
  return Buffer.from(secret.data?.['alertmanager.yaml'] ?? '', 'base64').toString('utf8');
};
const loadedHash = async () => configMetrics((await alertmanager.get('/metrics')).body).hash;

const webTlsConfig = (secret: string) => ({
  cert: { secret: { name: secret, key: 'tls.crt' } }, keySecret: { name: secret, key: 'tls.key' },
  client_ca: { configMap: { name: 'client-ca', key: 'ca.crt' } }, clientAuthType: 'RequireAndVerifyClientCert',
});

/** A GET trusting the test CA but presenting no client certificate: the handshake must fail. */
const withoutClientCertificate = (url: string) => new Promise<number>((resolve, reject) => {
  const request = httpsRequest(url, { ca: readFileSync(pki.caCert), timeout: 5000 }, (response) => {
    response.resume();
    resolve(response.statusCode ?? 0);
  });
  request.on('timeout', () => request.destroy(new Error('timeout')));
  request.on('error', reject);
  request.end();
});

beforeAll(async () => {
  world = await OperatorWorld.create({ operatorNamespace: `promop-am-https-system-${id}`, identity: `promop-am-https-${id}`, namespaces: { [MONITORING]: {} } });
  dir = mkdtempSync(join(tmpdir(), 'promop-am-https-'));
  pki = createPki(dir);
  const promopClient = createClientCert(dir, 'promop', 'promop', []);
  testClient = createClientCert(dir, 'test', 'test', []);
  await world.createSecret(MONITORING, 'web-tls', { 'tls.crt': readFileSync(pki.servingCert, 'utf8'), 'tls.key': readFileSync(pki.servingKey, 'utf8') });
  await world.core.createNamespacedConfigMap({ namespace: MONITORING, body: { metadata: { name: 'client-ca' }, data: { 'ca.crt': readFileSync(pki.caCert, 'utf8') } } });
  await world.createSecret(MONITORING, 'alertmanager-secure', { 'alertmanager.yaml': 'route:\n  receiver: platform\nreceivers:\n- name: platform\n' });
  await world.startOperator({
    alertmanagerSelector: `promop.test/instance=${id}`, prometheusSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}`,
    podNetworks: ['127.0.0.1/32'], reloadTimeoutMs: 20_000, alertmanagerPortOf: (pod) => ports.get(pod.metadata?.name ?? '') ?? 9093,
    prometheusClientCertificate: () => ({ cert: readFileSync(promopClient.cert, 'utf8'), key: readFileSync(promopClient.key, 'utf8') }),
  });
  await world.createObject('Alertmanager', MONITORING, 'secure', {
    replicas: 1, web: { tlsConfig: webTlsConfig('web-tls') }, alertmanagerConfigSelector: { matchLabels: { team: 'a' } },
  }, INSTANCE);

  // The pod starts once promop has written its web config Secret, with the files the kubelet would mount.
  const webConfigSecret = await eventually(
    () => world.core.readNamespacedSecret({ namespace: MONITORING, name: 'alertmanager-secure-web-config' }),
    (secret) => secret.data?.['web-config.yaml'] !== undefined,
  );
  const webConfigFile = join(dir, 'web-config.yaml');
  writeFileSync(webConfigFile, mountBelowRoot(join(dir, 'root'), ALERTMANAGER_WEB_CONFIG_DIR, Buffer.from(webConfigSecret.data!['web-config.yaml']!, 'base64').toString('utf8'), {
    [`${ALERTMANAGER_WEB_CONFIG_DIR}/secret/web-tls-cert/tls.crt`]: pki.servingCert,
    [`${ALERTMANAGER_WEB_CONFIG_DIR}/secret/web-tls-key/tls.key`]: pki.servingKey,
    [`${ALERTMANAGER_WEB_CONFIG_DIR}/configmap/client-ca-ca/ca.crt`]: pki.caCert,
  }));
  const configFile = join(dir, 'alertmanager.yaml');
  writeFileSync(configFile, DEFAULT_ALERTMANAGER_CONFIG);
  alertmanager = await startAlertmanager(configFile, { https: { webConfigFile, caFile: pki.caCert, clientCert: testClient.cert, clientKey: testClient.key } });
  ports.set(POD, Number(new URL(alertmanager.url).port));
  // A pod of the Alertmanager's (its labels), named without an ordinal so the StatefulSet does not adopt it.
  await eventually(() => world.core.createNamespacedPod({
    namespace: MONITORING,
    body: { metadata: { name: POD, labels: alertmanagerSelectorLabels('secure') }, spec: { automountServiceAccountToken: false, containers: [{ name: 'alertmanager', image: 'quay.io/prometheus/alertmanager:v0.35.0' }] } },
  }), () => true);
  await world.core.patchNamespacedPodStatus({
    namespace: MONITORING, name: POD,
    body: { status: { phase: 'Running', podIP: '127.0.0.1', podIPs: [{ ip: '127.0.0.1' }], conditions: [{ type: 'Ready', status: 'True' }] } },
  }, MERGE_PATCH);
  kubelet = new FakeKubelet({
    core: world.core, namespace: MONITORING, pod: POD, configSecret: 'alertmanager-secure-generated', configKey: 'alertmanager.yaml', configFile, initialConfig: DEFAULT_ALERTMANAGER_CONFIG,
  });
  kubelet.start();
}, 120_000);

afterAll(async () => {
  kubelet?.stop();
  await alertmanager?.stop();
  await world?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe('an Alertmanager serving HTTPS and requiring client certificates', () => {
  it('gets upstream\'s flag, HTTPS probes and its TLS Secret and ConfigMap mounted, and really serves HTTPS only to clients with a certificate', async () => {
    const apps = world.admin.makeApiClient(AppsV1Api);
    const statefulSet = await eventually(() => apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'alertmanager-secure' }), () => true);
    const container = statefulSet.spec!.template.spec!.containers[0]!;
    expect(container.args).toContain(`--web.config.file=${ALERTMANAGER_WEB_CONFIG_DIR}/web-config.yaml`);
    expect(container.readinessProbe?.httpGet?.scheme).toBe('HTTPS');
    expect(statefulSet.spec!.template.metadata?.annotations?.[TLS_FILES_HASH_ANNOTATION]).toMatch(/^[0-9a-f]{16}$/);
    expect(statefulSet.spec!.template.spec!.volumes).toEqual(expect.arrayContaining([
      { name: 'web-config', secret: { secretName: 'alertmanager-secure-web-config', defaultMode: 420 } },
      { name: 'web-config-tls-configmap-client-ca-client-ca', configMap: { name: 'client-ca', defaultMode: 420 } },
    ]));
    // The real process: no answer over plain HTTP, none over HTTPS without a client certificate.
    expect((await fetch(alertmanager.url.replace('https:', 'http:') + '/-/ready')).status).toBe(400);
    expect((await alertmanager.get('/-/ready')).status).toBe(200);
    await expect(withoutClientCertificate(`${alertmanager.url}/-/ready`)).rejects.toThrow();
  }, 60_000);

  it('is reloaded and verified over HTTPS, with promop\'s client certificate, after an AlertmanagerConfig change', async () => {
    const loaded = await eventually(() => readAlertmanager('secure'), (stored) => stored.status?.configStatus?.loadedReplicas?.includes(POD) ?? false);
    expect(reconciled(loaded)).toMatchObject({ status: 'True' });
    expect(await loadedHash()).toBe(alertmanagerConfigHash(await generatedConfig()));
    const before = loaded.status?.configStatus?.configHash;
    await world.createObject('AlertmanagerConfig', MONITORING, 'team-a', { route: { receiver: 'pager' }, receivers: [{ name: 'pager' }] }, { team: 'a' });
    const reloaded = await eventually(() => readAlertmanager('secure'), (stored) => stored.status?.configStatus?.configHash !== before && (stored.status?.configStatus?.loadedReplicas?.includes(POD) ?? false));
    expect(reconciled(reloaded)).toMatchObject({ status: 'True' });
    const config = await generatedConfig();
    expect(config).toContain(`${MONITORING}/team-a/pager`);
    expect(await loadedHash()).toBe(alertmanagerConfigHash(config));
  }, 60_000);

  it('refuses a web TLS Secret that does not exist at its field path, in the status and an Event, until it exists', async () => {
    await world.createObject('Alertmanager', MONITORING, 'missing', { replicas: 1, web: { tlsConfig: webTlsConfig('no-such-tls') } }, INSTANCE);
    const refused = await eventually(() => readAlertmanager('missing'), (stored) => reconciled(stored)?.status === 'False');
    expect(reconciled(refused)).toMatchObject({
      reason: 'InvalidConfiguration', message: `spec.web.tlsConfig.keySecret: Secret no-such-tls does not exist in namespace ${MONITORING}`,
    });
    const events = await eventually(() => world.warningEvents(MONITORING, 'Alertmanager', 'missing'), (list) => list.some((event) => event.reason === 'InvalidConfiguration'));
    expect(events.find((event) => event.reason === 'InvalidConfiguration')?.note).toContain('spec.web.tlsConfig.keySecret');
    await expect(world.core.readNamespacedSecret({ namespace: MONITORING, name: 'alertmanager-missing-web-config' })).rejects.toMatchObject({ code: 404 });
    // The Secret it names is watched: once it exists, the Alertmanager is reconciled again and its file written.
    await world.createSecret(MONITORING, 'no-such-tls', { 'tls.crt': readFileSync(pki.servingCert, 'utf8'), 'tls.key': readFileSync(pki.servingKey, 'utf8') });
    expect(reconciled(await eventually(() => readAlertmanager('missing'), (stored) => reconciled(stored)?.status === 'True'))).toMatchObject({ status: 'True' });
    const written = await world.core.readNamespacedSecret({ namespace: MONITORING, name: 'alertmanager-missing-web-config' });
    expect(Buffer.from(written.data?.['web-config.yaml'] ?? '', 'base64').toString('utf8')).toContain(`${ALERTMANAGER_WEB_CONFIG_DIR}/secret/no-such-tls-key/tls.key`);
  }, 60_000);

  it('never writes a certificate or key into its log', () => {
    expect(world.logLines.filter((line) => line.includes('-----BEGIN'))).toEqual([]);
  });
});
