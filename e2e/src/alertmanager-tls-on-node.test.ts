/**
 * An Alertmanager serving HTTPS (`spec.web.tlsConfig`) whose two replicas gossip over mutual TLS (`spec.clusterTLS`),
 * on the real node (kubelet, containerd, the Alertmanager image), with promop installed by Helm and given a client
 * certificate (`prometheusClientCertificate.secretName`): the pods start with the files promop writes and turn Ready
 * through the kubelet's HTTPS probes, find each other over TLS (two peers), and a team's AlertmanagerConfig is
 * reloaded and verified by promop over HTTPS in both pods — the Alertmanager's status lists both as running the new
 * configuration, and each pod, asked through the API server's pod proxy over HTTPS, runs it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { createClientCert, createPki } from '@promop/testkit';
import { ClusterCli, waitFor } from './cluster-cli.ts';
import { buildImages } from './images/index.ts';
import { rawGet } from './kube-raw.ts';
import { startNodeCluster, type NodeCluster } from './node/node-cluster.ts';
import { MONITORING, PROMOP_NS, installPromop } from './story.ts';

const ALERTMANAGER = 'secure';
const PODS = [`alertmanager-${ALERTMANAGER}-0`, `alertmanager-${ALERTMANAGER}-1`];
const TLS_SECRET = 'alertmanager-tls';
const MESH_SECRET = 'alertmanager-mesh';

let node: NodeCluster | undefined;
let cli: ClusterCli;
let kc: KubeConfig;
let dir: string;
const figures: string[] = [];

interface AlertmanagerStatus { config: { original: string }; cluster: { status: string; peers: { name: string; address: string }[] } }
type StoredAlertmanager = { status?: { conditions?: { type: string; status: string; message?: string }[]; configStatus?: { configHash: string; loadedReplicas?: string[] } } };

/** GET /api/v2/status of a pod over HTTPS through the API server's pod proxy; undefined while it does not answer. */
async function alertmanagerStatus(pod: string): Promise<AlertmanagerStatus | undefined> {
  const response = await rawGet(kc, `/api/v1/namespaces/${MONITORING}/pods/https:${pod}:9093/proxy/api/v2/status`).catch(() => undefined);
  return response?.status === 200 ? JSON.parse(response.body) as AlertmanagerStatus : undefined;
}

const readAlertmanager = () => cli.getJson<StoredAlertmanager>(['alertmanager', ALERTMANAGER, '-n', MONITORING]);
const manifest = (objects: Record<string, unknown>[]): string => objects.map((object) => JSON.stringify(object)).join('\n---\n');
const tlsSecret = (namespace: string, name: string, data: Record<string, string>) => ({
  apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, stringData: data,
});

beforeAll(async () => {
  const started = Date.now();
  const images = await buildImages();
  node = await startNodeCluster({
    sandboxImage: images.pause.name,
    images: [images.pause.archive, images.promop.archive, images.alertmanager.archive],
    keepDir: process.env.PROMOP_E2E_KEEP_LOGS === '1',
    log: (line) => process.stderr.write(`[node] ${line}\n`),
  });
  figures.push(`node Ready in ${Date.now() - started} ms`);
  cli = new ClusterCli(node.kubeconfigPath);
  kc = new KubeConfig();
  kc.loadFromFile(cli.kubeconfigPath);

  dir = mkdtempSync(join(tmpdir(), 'promop-am-tls-node-'));
  const pki = createPki(dir);
  const promopClient = createClientCert(dir, 'promop', 'promop', []);
  const peerClient = createClientCert(dir, 'peer', 'alertmanager-peer', []);
  const read = (file: string) => readFileSync(file, 'utf8');
  await cli.kubectlOk(['apply', '-f', '-'], manifest([
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: MONITORING } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: PROMOP_NS } },
  ]));
  await cli.kubectlOk(['apply', '-f', '-'], manifest([
    { ...tlsSecret(PROMOP_NS, 'promop-client', { 'tls.crt': read(promopClient.cert), 'tls.key': read(promopClient.key) }), type: 'kubernetes.io/tls' },
    tlsSecret(MONITORING, TLS_SECRET, { 'tls.crt': read(pki.servingCert), 'tls.key': read(pki.servingKey), 'ca.crt': read(pki.caCert) }),
    tlsSecret(MONITORING, MESH_SECRET, { 'client.crt': read(peerClient.cert), 'client.key': read(peerClient.key) }),
  ]));
  await installPromop(cli, images.promop.name, ['--set', 'prometheusClientCertificate.secretName=promop-client']);
}, 900_000);

afterAll(async () => {
  process.stderr.write(`\n[alertmanager-tls] figures:\n${figures.map((line) => `  ${line}`).join('\n')}\n`);
  await node?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 120_000);

test('two replicas serve HTTPS, mesh over mutual TLS, and a team\'s change is reloaded and verified by promop over HTTPS in both', async () => {
  const applied = Date.now();
  await cli.kubectlOk(['apply', '-f', '-'], manifest([{
    apiVersion: 'monitoring.coreos.com/v1', kind: 'Alertmanager', metadata: { name: ALERTMANAGER, namespace: MONITORING },
    spec: {
      replicas: 2,
      clusterPeerTimeout: '5s',
      alertmanagerConfigSelector: { matchLabels: { team: 'a' } },
      // The kubelet's probes and the pod proxy present no client certificate; promop presents its own, which the CA verifies.
      web: {
        tlsConfig: {
          cert: { secret: { name: TLS_SECRET, key: 'tls.crt' } }, keySecret: { name: TLS_SECRET, key: 'tls.key' },
          client_ca: { secret: { name: TLS_SECRET, key: 'ca.crt' } }, clientAuthType: 'VerifyClientCertIfGiven',
        },
      },
      clusterTLS: {
        server: {
          cert: { secret: { name: TLS_SECRET, key: 'tls.crt' } }, keySecret: { name: TLS_SECRET, key: 'tls.key' },
          client_ca: { secret: { name: TLS_SECRET, key: 'ca.crt' } }, clientAuthType: 'RequireAndVerifyClientCert',
        },
        client: {
          cert: { secret: { name: MESH_SECRET, key: 'client.crt' } }, keySecret: { name: MESH_SECRET, key: 'client.key' },
          ca: { secret: { name: TLS_SECRET, key: 'ca.crt' } }, serverName: 'localhost',
        },
      },
    },
  }]));
  for (const pod of PODS) {
    await waitFor(`${pod} Ready (HTTPS probes) in a mesh of ${PODS.length} over TLS`, async () => {
      const status = await alertmanagerStatus(pod);
      return status?.cluster.status === 'ready' && status.cluster.peers.length === PODS.length ? status : undefined;
    }, 240_000);
  }
  figures.push(`Alertmanager applied → both pods Ready through HTTPS probes and meshed over TLS: ${Date.now() - applied} ms`);
  const statefulSet = await cli.getJson<{ spec: { template: { spec: { containers: { name: string; args: string[] }[] } } } }>(['statefulset', `alertmanager-${ALERTMANAGER}`, '-n', MONITORING]);
  const args = statefulSet.spec.template.spec.containers.find((container) => container.name === 'alertmanager')?.args ?? [];
  expect(args).toEqual(expect.arrayContaining([
    '--web.config.file=/etc/alertmanager/web_config/web-config.yaml', '--cluster.tls-config=/etc/alertmanager/cluster_tls_config/cluster-tls-config.yaml',
  ]));
  const first = await waitFor('both pods verified by promop over HTTPS', async () => {
    const stored = await readAlertmanager();
    return PODS.every((pod) => stored.status?.configStatus?.loadedReplicas?.includes(pod)) ? stored : undefined;
  }, 120_000);

  const changed = Date.now();
  await cli.kubectlOk(['apply', '-f', '-'], manifest([{
    apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'AlertmanagerConfig', metadata: { name: 'paging', namespace: MONITORING, labels: { team: 'a' } },
    spec: { route: { receiver: 'pager' }, receivers: [{ name: 'pager' }] },
  }]));
  const verified = await waitFor('the team\'s change verified in both pods over HTTPS', async () => {
    const stored = await readAlertmanager();
    const config = stored.status?.configStatus;
    return config?.configHash !== first.status?.configStatus?.configHash && PODS.every((pod) => config?.loadedReplicas?.includes(pod)) ? stored : undefined;
  }, 120_000);
  figures.push(`a team's AlertmanagerConfig → verified by promop over HTTPS in both pods: ${Date.now() - changed} ms`);
  expect(verified.status?.conditions?.find((condition) => condition.type === 'Reconciled')).toMatchObject({ status: 'True' });
  for (const pod of PODS) expect((await alertmanagerStatus(pod))?.config.original).toContain(`${MONITORING}/paging/pager`);
}, 600_000);
