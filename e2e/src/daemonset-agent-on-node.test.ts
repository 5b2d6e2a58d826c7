/**
 * A PrometheusAgent in DaemonSet mode on the real node (kubelet, containerd, the Prometheus image, the DaemonSet
 * controller): promop applies its DaemonSet and the config Secret with the node's copy of the configuration; the
 * agent pod on the node starts with that copy, discovers the team's example app pod through its PodMonitor (only the
 * node's pods: the field selector names this node), scrapes it and remote-writes the samples to the world's
 * Prometheus, which receives remote writes; the series arrive there with the agent's external labels and the pod's
 * labels. promop verifies the pod runs its node's copy (the agent's status lists the pod as loaded).
 *
 * The harness is the chaos suite's node world (e2e/chaos/node-world.ts), as web-tls-on-node.test.ts.
 */
import { AppsV1Api } from '@kubernetes/client-node';
import { GROUP, PLURALS, API_VERSIONS, VERSION } from '@promop/crds';
import { MONITORING, TEAMS } from '../chaos/chaos-cluster.ts';
import { APP, startNodeWorld, type NodeWorld } from '../chaos/node-world.ts';
import type { PromopProcess } from '../chaos/promop-process.ts';
import { until } from '../chaos/settle.ts';
import { NODE_NAME } from './node/node-cluster.ts';

const TEAM = TEAMS[0];
const AGENT = 'nodes';
const DAEMONSET = `prom-agent-${AGENT}`;
const JOB = `podMonitor/${TEAM}/${APP}/0`;

type Agent = { status?: { conditions?: { type: string; status: string; message?: string }[]; configStatus?: { shardID: string; loadedReplicas?: string[] }[] } };
type Series = { metric: Record<string, string>; value: [number, string] };

let world: NodeWorld;
let promop: PromopProcess;
const figures: string[] = [];

const readAgent = async () => (await world.cluster.custom.getNamespacedCustomObject({
  group: GROUP, version: API_VERSIONS.PrometheusAgent, plural: PLURALS.PrometheusAgent, namespace: MONITORING, name: AGENT,
})) as Agent;

/** The agent pod the DaemonSet runs on the node (its name, IP and readiness), once there is one. */
async function agentPod(): Promise<{ name: string; ip: string; ready: boolean; node: string } | undefined> {
  const pods = await world.cluster.core.listNamespacedPod({ namespace: MONITORING, labelSelector: `operator.prometheus.io/name=${AGENT},app.kubernetes.io/name=prometheus-agent` });
  const pod = pods.items.find((each) => !each.metadata?.deletionTimestamp);
  if (!pod) return undefined;
  return {
    name: pod.metadata?.name ?? '',
    ip: pod.status?.podIP ?? '',
    ready: pod.status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') ?? false,
    node: pod.spec?.nodeName ?? '',
  };
}

beforeAll(async () => {
  // The world's Prometheus receives remote writes: the agent's samples land there.
  world = await startNodeWorld({ prometheusSpec: { enableRemoteWriteReceiver: true } });
  const { custom } = world.cluster;
  const version = (await world.cluster.custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: MONITORING, name: 'main' }) as { spec: { version: string } }).spec.version;
  await custom.createNamespacedCustomObject({
    group: GROUP, version: VERSION, plural: PLURALS.PodMonitor, namespace: TEAM,
    body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'PodMonitor', metadata: { name: APP, labels: { scraped: 'per-node' } },
      spec: { selector: { matchLabels: { app: APP } }, podMetricsEndpoints: [{ port: 'metrics', interval: '5s' }] },
    },
  });
  await custom.createNamespacedCustomObject({
    group: GROUP, version: API_VERSIONS.PrometheusAgent, plural: PLURALS.PrometheusAgent, namespace: MONITORING,
    body: {
      apiVersion: `${GROUP}/${API_VERSIONS.PrometheusAgent}`, kind: 'PrometheusAgent', metadata: { name: AGENT },
      spec: {
        mode: 'DaemonSet', version, serviceAccountName: 'prometheus', scrapeInterval: '5s',
        podMonitorSelector: { matchLabels: { scraped: 'per-node' } }, podMonitorNamespaceSelector: {},
        // The headless governing Service of the world's Prometheus, through the node's cluster DNS.
        remoteWrite: [{ url: `http://prometheus-operated.${MONITORING}.svc:9090/api/v1/write`, queueConfig: { batchSendDeadline: '1s' } }],
      },
    },
  });
  ({ promop } = await world.startPromop('promop'));
  await promop.untilReady();
  const started = Date.now();
  await until(`the ${DAEMONSET} pod Ready on the node`, async () => (await agentPod())?.ready === true, 300_000);
  figures.push(`agent pod Ready ${Date.now() - started} ms after promop was ready`);
  // Up to 10 minutes: the node may first wait for another test's node to finish (one per machine).
}, 600_000);

afterAll(async () => {
  process.stdout.write(`DaemonSet agent on the real node:\n  ${figures.join('\n  ')}\n`);
  await promop?.stop();
  await world?.stop();
}, 120_000);

test('promop runs the agent as a DaemonSet whose pod on the node reads the node\'s copy of the configuration', async () => {
  const apps = world.cluster.admin.makeApiClient(AppsV1Api);
  const daemonSet = await apps.readNamespacedDaemonSet({ namespace: MONITORING, name: DAEMONSET });
  expect(daemonSet.status?.numberReady).toBe(1);
  const pod = await agentPod();
  expect(pod?.node).toBe(NODE_NAME);
  const secret = await world.cluster.core.readNamespacedSecret({ namespace: MONITORING, name: DAEMONSET });
  const copy = Buffer.from(secret.data?.[`node-${NODE_NAME}.yaml`] ?? '', 'base64').toString('utf8');
  expect(copy).toContain(`field: spec.nodeName=${NODE_NAME}`);
  const loaded = await world.prometheusApi<{ yaml: string }>('/api/v1/status/config', pod?.name);
  expect(loaded.yaml).toContain(`field: spec.nodeName=${NODE_NAME}`);
  expect(loaded.yaml).toContain(`job_name: ${JOB}`);
}, 60_000);

test('the agent scrapes the example app pod on its node and remote-writes the series, with the expected labels', async () => {
  const pod = await agentPod();
  let series: Series[] = [];
  const arrivedMs = await until('the app\'s up series remote-written to the receiving Prometheus', async () => {
    series = await world.prometheusApi<{ result: Series[] }>(`/api/v1/query?query=${encodeURIComponent(`up{job="${TEAM}/${APP}"}`)}`).then((data) => data.result);
    return series.some((each) => each.value[1] === '1');
  }, 120_000);
  figures.push(`the app's series at the receiver ${arrivedMs} ms after the agent pod was Ready`);
  expect(series.map((each) => each.metric)).toEqual([expect.objectContaining({
    job: `${TEAM}/${APP}`, namespace: TEAM, pod: APP, container: 'app', endpoint: 'metrics',
    prometheus: `${MONITORING}/${AGENT}`, prometheus_replica: pod?.name,
  })]);
}, 180_000);

test('promop verified that the pod runs its node\'s copy', async () => {
  const pod = await agentPod();
  await until('the agent pod listed as loaded in status.configStatus', async () => {
    const agent = await readAgent();
    return agent.status?.configStatus?.find((shard) => shard.shardID === '0')?.loadedReplicas?.includes(pod?.name ?? '') === true;
  }, 60_000);
  const reconciled = (await readAgent()).status?.conditions?.find((condition) => condition.type === 'Reconciled');
  expect(reconciled?.status).toBe('True');
}, 90_000);
