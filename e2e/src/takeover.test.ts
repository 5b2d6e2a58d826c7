/**
 * The switch from prometheus-operator to promop, end to end, on the real node, following docs/migrating.md:
 * prometheus-operator v0.93.1 (its operator and config-reloader built here from its Go module) runs a
 * kube-prometheus-style Prometheus whose TSDB lives on a PersistentVolumeClaim, with a team's ServiceMonitor and
 * PrometheusRule; then the platform removes prometheus-operator, hands the CRDs to promop and installs promop with
 * Helm; then goes back to prometheus-operator; then runs both side by side, each with its own instance selector.
 * The steps share one cluster and run in order; each says what it proves. Figures are printed to stderr
 * (`[takeover]` lines) and docs/migrating.md quotes them.
 *
 * kube-prometheus' Alertmanager `main` runs beside it (e2e/src/takeover/alertmanager-main.yaml: three meshed replicas
 * without a volume), the Prometheus sends to it, and its configuration sends every alert to a webhook receiver pod;
 * the switch replaces its pods one at a time too, and the steps check that a silence made before the switch and the
 * notification log come through it, and that a new alert is delivered after it.
 *
 * The Prometheus has two replicas, as kube-prometheus runs it. The volumes: the node has no storage provisioner, so
 * the test creates a hostPath PersistentVolume (a directory of the node's own) pre-bound to each claim the
 * StatefulSet's volumeClaimTemplate makes; the PersistentVolume binder runs in the node's kube-controller-manager.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { KubeConfig } from '@kubernetes/client-node';
import { diffConfigs, normalisePrometheusOperatorConfig, parsePromopConfig } from '@promop/testkit';
import { ClusterCli, waitFor } from './cluster-cli.ts';
import { podProxyPath, rawGet, rawPost } from './kube-raw.ts';
import { buildImages, type BuiltImages } from './images/index.ts';
import { buildPrometheusOperatorImages, type PrometheusOperatorImages } from './images/prometheus-operator-images.ts';
import { startNodeCluster, type NodeCluster } from './node/node-cluster.ts';
import { prometheusOperatorCrdDirectory } from './prometheus-operator.ts';
import { EXAMPLES, PROMOP_NS, WEBHOOK_RECEIVER, installPromop, webhookReceiverObjects } from './story.ts';
import { REPO_ROOT } from '@promop/testkit';

const NS = 'monitoring';
const PROMETHEUS = 'k8s';
/** kube-prometheus runs two replicas; the switch replaces their pods one at a time. */
const PODS = [`prometheus-${PROMETHEUS}-0`, `prometheus-${PROMETHEUS}-1`] as const;
const POD = PODS[0];
const claimOf = (pod: string): string => `prometheus-${PROMETHEUS}-db-${pod}`;
const FIXTURES = join(REPO_ROOT, 'e2e', 'src', 'takeover');
/** team-a's ServiceMonitor scrapes every 10 s (examples/team-monitoring/team-a.yaml). */
const SCRAPE_INTERVAL_S = 10;
const TEAM_A_UP = 'up{namespace="team-a"}';
const ALERTMANAGER = 'main';
/** kube-prometheus runs three meshed replicas; the switch replaces their pods one at a time, as the Prometheus'. */
const ALERTMANAGER_PODS = [0, 1, 2].map((replica) => `alertmanager-${ALERTMANAGER}-${replica}`);
/** Where alertmanager-main.yaml's configuration sends every alert (tools/webhook-receiver). */
const RECEIVER_POD = WEBHOOK_RECEIVER;
/** The alert the silence made before the switch holds back; it fires only after the switch. */
const SILENCED_ALERT = 'TakeoverSilenced';

let node: NodeCluster | undefined;
let images: BuiltImages;
let operatorImages: PrometheusOperatorImages;
let cli: ClusterCli;
let kc: KubeConfig;
const figures: string[] = [];

function report(line: string): void {
  figures.push(line);
  process.stderr.write(`[takeover] ${line}\n`);
}

/** What prometheus-operator left running, recorded before the switch. */
const before = {
  identities: {} as Record<string, string>,
  configText: '',
  /** The raw samples of team-a's `up` over the minute before `at`, as prometheus-operator's Prometheus stored them. */
  samples: [] as [number, string][],
  at: 0,
  /** The uid of each Alertmanager pod under prometheus-operator. */
  alertmanagerPods: {} as Record<string, string>,
  /** The silence made through prometheus-operator's Alertmanager. */
  silenceId: '',
  /** How many notifications of the Watchdog prometheus-operator's Alertmanager sent. */
  watchdogNotifications: 0,
};
let switchStartedAt = 0;

beforeAll(async () => {
  const started = Date.now();
  [images, operatorImages] = await Promise.all([buildImages(), buildPrometheusOperatorImages()]);
  report(`images ready in ${Date.now() - started} ms`);
  node = await startNodeCluster({
    sandboxImage: images.pause.name,
    images: [...Object.values(images), ...Object.values(operatorImages)].map((image) => image.archive),
    keepDir: process.env.PROMOP_E2E_KEEP_LOGS === '1',
    log: (line) => process.stderr.write(`[node] ${line}\n`),
    // The used-by story may hold the machine's node for its whole run.
    lockWaitMs: 25 * 60_000,
  });
  report(`node Ready in ${Date.now() - started} ms (KUBECONFIG=${node.kubeconfigPath})`);
  cli = new ClusterCli(node.kubeconfigPath);
  kc = new KubeConfig();
  kc.loadFromFile(cli.kubeconfigPath);
}, 30 * 60_000);

afterAll(async () => {
  process.stderr.write(`\n[takeover] figures:\n${figures.map((line) => `  ${line}`).join('\n')}\n`);
  await node?.stop();
}, 120_000);

/** A Prometheus query in `pod`, at `time` (seconds) or now: the result, or undefined when it failed. */
async function query<T = { metric: Record<string, string>; value?: [number, string]; values?: [number, string][] }>(pod: string, promql: string, time?: number): Promise<T[] | undefined> {
  const params = new URLSearchParams({ query: promql, ...(time === undefined ? {} : { time: String(time) }) });
  const response = await rawGet(kc, podProxyPath(NS, pod, 9090, `api/v1/query?${params.toString()}`));
  if (response.status !== 200) return undefined;
  const parsed = JSON.parse(response.body) as { status: string; data?: { result?: T[] } };
  return parsed.status === 'success' ? parsed.data?.result ?? [] : undefined;
}

/** The names of the rules `pod` has loaded. */
async function loadedRules(pod: string): Promise<string[]> {
  const response = await rawGet(kc, podProxyPath(NS, pod, 9090, 'api/v1/rules'));
  if (response.status !== 200) return [];
  const parsed = JSON.parse(response.body) as { data: { groups: { rules: { name: string }[] }[] } };
  return parsed.data.groups.flatMap((group) => group.rules.map((rule) => rule.name));
}

interface PodJson {
  metadata: { uid: string; labels?: Record<string, string>; deletionTimestamp?: string };
  spec: { containers: { name: string; image?: string }[]; initContainers?: { name: string }[]; volumes?: { name: string; emptyDir?: object }[] };
  status?: { podIP?: string; conditions?: { type: string; status: string }[] };
}

/** The pod `name` of the monitoring namespace (a Prometheus' or an Alertmanager's), undefined while there is none. */
async function monitoringPod(name: string = POD): Promise<PodJson | undefined> {
  const result = await cli.kubectl(['get', 'pod', name, '-n', NS, '-o', 'json']);
  return result.code === 0 ? JSON.parse(result.stdout) as PodJson : undefined;
}

const isReady = (pod: PodJson | undefined): boolean => pod?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

interface AlertmanagerStatus { config: { original: string }; cluster: { status: string; peers: { name: string; address: string }[] } }

/** GET /api/v2/status of one Alertmanager pod, through the pod proxy; undefined while it does not answer. */
async function alertmanagerStatus(pod: string): Promise<AlertmanagerStatus | undefined> {
  const response = await rawGet(kc, podProxyPath(NS, pod, 9093, 'api/v2/status')).catch(() => undefined);
  return response?.status === 200 ? JSON.parse(response.body) as AlertmanagerStatus : undefined;
}

/** The ids of the active silences one Alertmanager pod holds; undefined while it does not answer. */
async function activeSilences(pod: string): Promise<string[] | undefined> {
  const response = await rawGet(kc, podProxyPath(NS, pod, 9093, 'api/v2/silences')).catch(() => undefined);
  if (response?.status !== 200) return undefined;
  return (JSON.parse(response.body) as { id: string; status: { state: string } }[]).filter((each) => each.status.state === 'active').map((each) => each.id);
}

/** The alerts named `alertname` one Alertmanager pod holds, with their state. */
async function alertmanagerAlerts(pod: string, alertname: string): Promise<{ status: { state: string; silencedBy: string[] } }[]> {
  const response = await rawGet(kc, podProxyPath(NS, pod, 9093, `api/v2/alerts?filter=${encodeURIComponent(`alertname="${alertname}"`)}`));
  return response.status === 200 ? JSON.parse(response.body) as { status: { state: string; silencedBy: string[] } }[] : [];
}

/** The Alertmanager URLs a Prometheus pod sends to. */
async function activeAlertmanagers(pod: string): Promise<string[] | undefined> {
  const response = await rawGet(kc, podProxyPath(NS, pod, 9090, 'api/v1/alertmanagers'));
  if (response.status !== 200) return undefined;
  return (JSON.parse(response.body) as { data: { activeAlertmanagers: { url: string }[] } }).data.activeAlertmanagers.map((each) => each.url);
}

interface Delivery { receivedAt: string; body: { status: string; alerts: { status: string; labels: Record<string, string> }[] } }

/** What the webhook receiver got, in arrival order. */
async function deliveries(): Promise<Delivery[]> {
  const response = await rawGet(kc, podProxyPath(NS, RECEIVER_POD, 8080, 'received'));
  if (response.status !== 200) throw new Error(`webhook receiver answered ${response.status}: ${response.body.slice(0, 200)}`);
  return JSON.parse(response.body) as Delivery[];
}

const deliveriesOf = async (alertname: string): Promise<Delivery[]> => (await deliveries()).filter((d) => d.body.alerts.some((a) => a.labels.alertname === alertname));

/** The webhook receiver alertmanager-main.yaml's configuration names by DNS: a Pod and its Service. */
function webhookReceiver(): string {
  return webhookReceiverObjects(NS).map((object) => JSON.stringify(object)).join('\n---\n');
}

/** `pod` Ready, and in a mesh of as many peers as the Alertmanager has replicas. */
async function meshedAlertmanager(pod: string): Promise<{ pod: PodJson; status: AlertmanagerStatus } | undefined> {
  const found = await monitoringPod(pod);
  if (!isReady(found)) return undefined;
  const status = await alertmanagerStatus(pod);
  return status?.cluster.status === 'ready' && status.cluster.peers.length === ALERTMANAGER_PODS.length ? { pod: found!, status } : undefined;
}

/**
 * prometheus-operator's Alertmanager: its pods Ready (with the config-reloader sidecar) and meshed, both Prometheus
 * replicas sending to all three, the Watchdog delivered; then a silence made through one replica's API, which the
 * mesh gives the others.
 */
async function alertmanagerBeforeTheSwitch(applied: number): Promise<void> {
  for (const name of ALERTMANAGER_PODS) {
    const { pod, status } = await waitFor(`${name} Ready under prometheus-operator, in a mesh of ${ALERTMANAGER_PODS.length}`, async () => meshedAlertmanager(name), 180_000, 1000);
    expect(pod.metadata.labels?.['app.kubernetes.io/managed-by']).toBe('prometheus-operator');
    expect(pod.spec.containers.map((c) => c.name).sort()).toEqual(['alertmanager', 'config-reloader']);
    expect(pod.spec.containers.find((c) => c.name === 'alertmanager')?.image).toBe(images.alertmanager.name);
    expect(status.config.original).toContain('receiver: webhook');
    before.alertmanagerPods[name] = pod.metadata.uid;
  }
  for (const pod of PODS) {
    await waitFor(`${pod} sends to the ${ALERTMANAGER_PODS.length} Alertmanager replicas`, async () => ((await activeAlertmanagers(pod))?.length === ALERTMANAGER_PODS.length ? true : undefined), 120_000, 500);
  }
  await waitFor('Watchdog delivered to the webhook receiver', async () => ((await deliveriesOf('Watchdog')).length > 0 ? true : undefined), 120_000, 500);
  report(`prometheus-operator: Alertmanager (${ALERTMANAGER_PODS.length} replicas) applied → Ready and meshed, both Prometheus replicas sending to all, Watchdog delivered in ${Date.now() - applied} ms`);

  // A maintenance window, made through one replica's API, for an alert that fires only after the switch.
  const silence = await rawPost(kc, podProxyPath(NS, ALERTMANAGER_PODS[0]!, 9093, 'api/v2/silences'), {
    matchers: [{ name: 'alertname', value: SILENCED_ALERT, isRegex: false, isEqual: true }],
    startsAt: new Date().toISOString(), endsAt: new Date(Date.now() + 2 * 3_600_000).toISOString(), createdBy: 'platform', comment: 'made before the switch',
  });
  expect(silence.status).toBe(200);
  before.silenceId = (JSON.parse(silence.body) as { silenceID: string }).silenceID;
  for (const name of ALERTMANAGER_PODS) {
    await waitFor(`the silence gossiped to ${name}`, async () => ((await activeSilences(name))?.includes(before.silenceId) ? true : undefined), 60_000, 500);
  }
  before.watchdogNotifications = (await deliveriesOf('Watchdog')).length;
}

/**
 * docs/migrating.md step 4 for the Alertmanager: promop's StatefulSet `alertmanager-main`, then each old pod deleted
 * once the previous one's replacement is Ready, meshed again and holding the silence. The volume is an emptyDir, so
 * a new pod starts empty: the silence can only come from the replicas still running, through the mesh.
 */
async function switchAlertmanager(): Promise<void> {
  await waitFor('promop\'s StatefulSet alertmanager-main', async () => {
    const statefulSet = await cli.getJson<{ metadata: { labels?: Record<string, string> } }>(['statefulset', `alertmanager-${ALERTMANAGER}`, '-n', NS]);
    return statefulSet.metadata.labels?.['app.kubernetes.io/managed-by'] === 'promop' ? statefulSet : undefined;
  }, 120_000, 1000);
  for (const name of ALERTMANAGER_PODS) {
    const orphan = await monitoringPod(name);
    expect(orphan?.metadata.uid).toBe(before.alertmanagerPods[name]);
    expect(orphan?.metadata.labels?.['app.kubernetes.io/managed-by']).toBe('prometheus-operator');
    expect(isReady(orphan)).toBe(true);
    const deletedAt = Date.now();
    await cli.kubectlOk(['delete', 'pod', name, '-n', NS, '--wait=true'], undefined, 180_000);
    const goneAt = Date.now();
    const pod = await waitFor(`${name} Ready under promop`, async () => {
      const found = await monitoringPod(name);
      return isReady(found) && found?.metadata.labels?.['app.kubernetes.io/managed-by'] === 'promop' ? found : undefined;
    }, 240_000, 500);
    const readyAt = Date.now();
    // promop reloads Alertmanager itself: no config-reloader sidecar, no init container.
    expect(pod.spec.containers.map((c) => c.name)).toEqual(['alertmanager']);
    expect(pod.spec.initContainers ?? []).toEqual([]);
    expect(pod.spec.containers[0]?.image).toBe(images.alertmanager.name);
    expect(pod.spec.volumes?.find((v) => v.name === `alertmanager-${ALERTMANAGER}-db`)?.emptyDir).toBeDefined();
    await waitFor(`${name} in a mesh of ${ALERTMANAGER_PODS.length} under promop`, async () => meshedAlertmanager(name), 120_000, 500);
    const meshedAt = Date.now();
    await waitFor(`the silence of before the switch in the new ${name}`, async () => ((await activeSilences(name))?.includes(before.silenceId) ? true : undefined), 60_000, 500);
    report(`old pod ${name} deleted in ${goneAt - deletedAt} ms → new pod Ready under promop ${readyAt - goneAt} ms later, meshed with ${ALERTMANAGER_PODS.length} peers ${meshedAt - goneAt} ms, the silence of before the switch in it (gossiped: its volume is an emptyDir) ${Date.now() - goneAt} ms (${Date.now() - switchStartedAt} ms after the switch began)`);
  }
}

/** The uid of each object the Prometheus' data and identity hang on (absent objects are left out). */
async function identities(): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  const objects: [string, string][] = [
    ['statefulset', `prometheus-${PROMETHEUS}`], ['service', 'prometheus-operated'], ['secret', `prometheus-${PROMETHEUS}`],
    ...PODS.flatMap((pod): [string, string][] => [['pvc', claimOf(pod)], ['pod', pod]]),
  ];
  for (const [kind, name] of objects) {
    const result = await cli.kubectl(['get', kind, name, '-n', NS, '-o', 'jsonpath={.metadata.uid}']);
    if (result.code === 0) found[`${kind}/${name}`] = result.stdout;
  }
  for (const pod of PODS) {
    const volume = await cli.kubectl(['get', 'pvc', claimOf(pod), '-n', NS, '-o', 'jsonpath={.spec.volumeName}']);
    if (volume.code === 0) found[`volume of ${claimOf(pod)}`] = volume.stdout;
  }
  return found;
}

/** The hostPath volume `pod`'s claim binds to: a directory of the node's, writable by the Prometheus user. */
function persistentVolume(path: string, pod: string): string {
  for (const dir of [path, join(path, 'prometheus-db')]) {
    mkdirSync(dir, { recursive: true });
    // hostPath volumes get no fsGroup ownership; Prometheus runs as 1000 under both operators.
    chmodSync(dir, 0o777);
  }
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: `takeover-${pod}` },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      persistentVolumeReclaimPolicy: 'Retain',
      storageClassName: '',
      hostPath: { path, type: 'Directory' },
      claimRef: { namespace: NS, name: claimOf(pod) },
    },
  });
}

test('prometheus-operator v0.93.1 runs a kube-prometheus-style Prometheus on a PersistentVolumeClaim and Alertmanager main; team-a\'s target is up and its rule loaded, the Watchdog delivered, a silence made', async () => {
  const started = Date.now();
  // kube-prometheus' order: the CRDs (server-side: they are too big for the last-applied annotation), then the rest.
  await cli.kubectlOk(['apply', '--server-side', '-f', prometheusOperatorCrdDirectory()]);
  await cli.kubectlOk(['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s'], undefined, 70_000);
  await cli.kubectlOk(['apply', '-f', join(EXAMPLES, 'namespaces.yaml')]);
  await cli.kubectlOk(['apply', '-f', join(FIXTURES, 'prometheus-operator.yaml')]);
  await cli.kubectlOk(['rollout', 'status', 'deployment/prometheus-operator', '-n', NS, '--timeout=120s'], undefined, 130_000);
  for (const pod of PODS) await cli.kubectlOk(['apply', '-f', '-'], persistentVolume(join(node!.dir, 'volumes', pod), pod));
  await cli.kubectlOk(['apply', '-f', join(FIXTURES, 'prometheus-k8s.yaml')]);
  await cli.kubectlOk(['apply', '-f', join(EXAMPLES, 'team-a.yaml')]);
  const alertmanagerApplied = Date.now();
  await cli.kubectlOk(['apply', '-f', '-'], webhookReceiver());
  await cli.kubectlOk(['apply', '-f', join(FIXTURES, 'alertmanager-main.yaml')]);

  for (const name of PODS) {
    const pod = await waitFor(`${name} Ready under prometheus-operator`, async () => {
      const found = await monitoringPod(name);
      return isReady(found) ? found : undefined;
    }, 180_000);
    expect(pod.metadata.labels?.['app.kubernetes.io/managed-by']).toBe('prometheus-operator');
    expect(pod.spec.containers.map((c) => c.name).sort()).toEqual(['config-reloader', 'prometheus']);
    await waitFor(`team-a target up in ${name}`, async () => (((await query(name, `${TEAM_A_UP} == 1`))?.length ?? 0) > 0 ? true : undefined), 120_000);
    await waitFor(`team-a rule loaded in ${name}`, async () => ((await loadedRules(name)).includes('CheckoutErrorsHigh') ? true : undefined), 120_000);
    const claim = await cli.getJson<{ status: { phase: string } }>(['pvc', claimOf(name), '-n', NS]);
    expect(claim.status.phase).toBe('Bound');
  }
  report(`prometheus-operator: Prometheus (${PODS.length} replicas) applied → team-a up and rule loaded in each in ${Date.now() - started} ms`);

  // A few scrapes on record before the switch; the Alertmanager's checks and its silence meanwhile.
  await Promise.all([new Promise((resolve) => setTimeout(resolve, 4 * SCRAPE_INTERVAL_S * 1000)), alertmanagerBeforeTheSwitch(alertmanagerApplied)]);
  before.at = Math.floor(Date.now() / 1000);
  const samples = await query<{ values: [number, string][] }>(POD, `${TEAM_A_UP}[1m]`, before.at);
  before.samples = samples?.[0]?.values ?? [];
  expect(before.samples.length).toBeGreaterThanOrEqual(3);
  const secret = await cli.getJson<{ data: Record<string, string> }>(['secret', `prometheus-${PROMETHEUS}`, '-n', NS]);
  before.configText = gunzipSync(Buffer.from(secret.data['prometheus.yaml.gz'] ?? '', 'base64')).toString('utf8');
  expect(before.configText).toContain('serviceMonitor/team-a/checkout/0');
  before.identities = await identities();
}, 600_000);

test('the switch as docs/migrating.md says: prometheus-operator removed, the CRDs handed to promop, promop installed with Helm; promop runs the same Prometheus on the same claim and the same Alertmanager, their pods replaced one at a time', async () => {
  switchStartedAt = Date.now();
  await cli.kubectlOk(['delete', '-f', join(FIXTURES, 'prometheus-operator.yaml'), '--wait=true'], undefined, 120_000);
  await cli.kubectlOk(['apply', '--server-side', '--force-conflicts', '-f', join(REPO_ROOT, 'crds')]);
  await installPromop(cli, images.promop.name, ['--set', 'crds.install=false']);
  report(`switch: prometheus-operator removed, CRDs handed over, promop Ready in ${Date.now() - switchStartedAt} ms`);

  // The StatefulSet's pod selector carries the managed-by label and cannot change: promop deletes it without its
  // pods and creates its own. The running pod keeps serving, but it no longer matches, so nothing adopts it.
  await waitFor('promop\'s StatefulSet', async () => {
    const statefulSet = await cli.getJson<{ metadata: { uid: string; labels?: Record<string, string> } }>(['statefulset', `prometheus-${PROMETHEUS}`, '-n', NS]);
    return statefulSet.metadata.labels?.['app.kubernetes.io/managed-by'] === 'promop' ? statefulSet : undefined;
  }, 120_000, 1000);
  // docs/migrating.md step 4: the old pods go one at a time, each once the previous one's replacement is Ready and
  // scraping, so one replica scrapes throughout. The Alertmanager's pods are replaced meanwhile, one at a time too.
  const prometheusSwitch = async (): Promise<void> => {
    for (const name of PODS) {
      const orphan = await monitoringPod(name);
      expect(orphan?.metadata.uid).toBe(before.identities[`pod/${name}`]);
      expect(orphan?.metadata.labels?.['app.kubernetes.io/managed-by']).toBe('prometheus-operator');
      expect(isReady(orphan)).toBe(true);
      const deletedAt = Date.now();
      await cli.kubectlOk(['delete', 'pod', name, '-n', NS, '--wait=true'], undefined, 180_000);
      report(`old pod ${name} deleted in ${Date.now() - deletedAt} ms (${Date.now() - switchStartedAt} ms after the switch began)`);
      const pod = await waitFor(`${name} Ready under promop`, async () => {
        const found = await monitoringPod(name);
        return isReady(found) && found?.metadata.labels?.['app.kubernetes.io/managed-by'] === 'promop' ? found : undefined;
      }, 240_000, 1000);
      // promop reloads Prometheus itself: no config-reloader sidecar, no init container.
      expect(pod.spec.containers.map((c) => c.name)).toEqual(['prometheus']);
      expect(pod.spec.initContainers ?? []).toEqual([]);
      await waitFor(`team-a target up in ${name} under promop`, async () => (((await query(name, `${TEAM_A_UP} == 1`))?.length ?? 0) > 0 ? true : undefined), 120_000);
      await waitFor(`team-a rule loaded in ${name} under promop`, async () => ((await loadedRules(name)).includes('CheckoutErrorsHigh') ? true : undefined), 120_000);
      report(`switch: started → ${name} Ready under promop with team-a up and its rule loaded in ${Date.now() - switchStartedAt} ms`);
    }
  };
  await Promise.all([prometheusSwitch(), switchAlertmanager()]);

  const after = await identities();
  const kept = Object.keys(before.identities).filter((key) => after[key] === before.identities[key]);
  const recreated = Object.keys(before.identities).filter((key) => after[key] !== undefined && after[key] !== before.identities[key]);
  report(`objects kept (same uid): ${kept.join(', ')}`);
  report(`objects recreated (new uid): ${recreated.join(', ') || 'none'}`);
  // The data's identity: the same claims on the same volumes.
  for (const pod of PODS) {
    expect(after[`pvc/${claimOf(pod)}`]).toBe(before.identities[`pvc/${claimOf(pod)}`]);
    expect(after[`volume of ${claimOf(pod)}`]).toBe(before.identities[`volume of ${claimOf(pod)}`]);
  }
}, 600_000);

test('a series prometheus-operator\'s Prometheus stored before the switch is still there, sample for sample', async () => {
  const samples = await query<{ values: [number, string][] }>(POD, `${TEAM_A_UP}[1m]`, before.at);
  expect(samples?.[0]?.values).toEqual(before.samples);
  report(`surviving series: ${TEAM_A_UP} over the minute before the switch, ${before.samples.length} samples, identical after it`);
});

test('the longest scrape gap of team-a during the switch, from Prometheus\' own samples: each replica has its restart, together they have none', async () => {
  // One more scrape after the last wait, so the gap is closed on both sides.
  await new Promise((resolve) => setTimeout(resolve, SCRAPE_INTERVAL_S * 1000));
  const window = Math.ceil((Date.now() - switchStartedAt) / 1000) + 60;
  const longestGap = (times: number[]): number => {
    let longest = 0;
    for (let index = 1; index < times.length; index += 1) longest = Math.max(longest, times[index]! - times[index - 1]!);
    return longest;
  };
  const allTimes: number[] = [];
  for (const pod of PODS) {
    // Every series of team-a's target in this replica (a label the new config set differently would start a new one).
    const series = (await query<{ values: [number, string][] }>(pod, `${TEAM_A_UP}[${window}s]`)) ?? [];
    const times = [...new Set(series.flatMap((one) => one.values.map(([time]) => Number(time))))].sort((a, b) => a - b);
    expect(times.length).toBeGreaterThan(3);
    report(`longest gap between team-a's samples in ${pod} during the switch: ${longestGap(times).toFixed(1)} s (its own restart; ${times.length} samples over ${window} s)`);
    // The pod restarts once (promop's pod template has no sidecar): the gap is that restart, not minutes.
    expect(longestGap(times)).toBeLessThan(120);
    allTimes.push(...times);
  }
  const together = longestGap([...new Set(allTimes)].sort((a, b) => a - b));
  report(`longest gap between team-a's samples of both replicas together: ${together.toFixed(1)} s (scrape interval ${SCRAPE_INTERVAL_S} s)`);
  // One replica scraped while the other restarted: no gap longer than one interval (and the jitter of its timing).
  expect(together).toBeLessThanOrEqual(SCRAPE_INTERVAL_S + 1);
}, 60_000);

test('the configuration promop writes is prometheus-operator\'s, but for the documented differences', async () => {
  const secret = await cli.getJson<{ data: Record<string, string> }>(['secret', `prometheus-${PROMETHEUS}`, '-n', NS]);
  const promopText = Buffer.from(secret.data['prometheus.yaml'] ?? '', 'base64').toString('utf8');
  expect(promopText).toContain('serviceMonitor/team-a/checkout/0');
  // The texts as written, line by line: what a platform engineer comparing the two Secrets sees.
  const scratch = mkdtempSync(join(tmpdir(), 'promop-takeover-'));
  writeFileSync(join(scratch, 'prometheus-operator.yaml'), before.configText);
  writeFileSync(join(scratch, 'promop.yaml'), promopText);
  const textDiff = spawnSync('diff', ['-u', '--label', 'prometheus-operator', '--label', 'promop', 'prometheus-operator.yaml', 'promop.yaml'], { cwd: scratch, encoding: 'utf8' }).stdout;
  rmSync(scratch, { recursive: true, force: true });
  report(`config text diff (prometheus-operator's prometheus.yaml.gz → promop's prometheus.yaml):\n${textDiff.trimEnd() || '(identical)'}`);
  // Parsed, with the differences docs/compatibility.md documents taken out (bench/compat-diff/config-diff.ts).
  const differences = diffConfigs(normalisePrometheusOperatorConfig(before.configText), parsePromopConfig(promopText));
  report(`config differences beyond the documented ones: ${differences.length}`);
  for (const difference of differences) {
    report(`  ${difference.path}: ${JSON.stringify(difference.prometheusOperator)} → ${JSON.stringify(difference.promop)}`);
  }
  expect(differences).toEqual([]);
});

test('every team object keeps working: team-a\'s ServiceMonitor and PrometheusRule are accepted by promop, its target up, its rule loaded', async () => {
  for (const [kind, name] of [['servicemonitor', 'checkout'], ['prometheusrule', 'checkout-alerts']] as const) {
    const accepted = await waitFor(`${kind} ${name} accepted by promop`, async () => {
      const object = await cli.getJson<{ status?: { bindings?: { name: string; conditions?: { type: string; status: string }[] }[] } }>([kind, name, '-n', 'team-a']);
      const condition = object.status?.bindings?.find((b) => b.name === PROMETHEUS)?.conditions?.find((c) => c.type === 'Accepted');
      return condition?.status === 'True' ? condition : undefined;
    }, 60_000);
    expect(accepted.status).toBe('True');
  }
  expect(((await query(POD, `${TEAM_A_UP} == 1`))?.length ?? 0)).toBeGreaterThan(0);
  expect(await loadedRules(POD)).toContain('CheckoutErrorsHigh');
  const prometheus = await cli.getJson<{ status?: { conditions?: { type: string; status: string }[] } }>(['prometheus', PROMETHEUS, '-n', NS]);
  expect(prometheus.status?.conditions?.find((c) => c.type === 'Reconciled')?.status).toBe('True');
  const operatorPods = await cli.getJson<{ items: unknown[] }>(['pods', '-n', PROMOP_NS, '-l', 'app.kubernetes.io/name=promop']);
  expect(operatorPods.items).toHaveLength(1);
}, 120_000);

test('kube-prometheus\' Alertmanager under promop: its three new replicas mesh with each other, the Prometheus replicas send to them, a new alert is delivered, and the silence and the notification log of before the switch hold', async () => {
  const started = Date.now();
  const alertmanager = await waitFor('Alertmanager main Reconciled by promop', async () => {
    const object = await cli.getJson<{ status?: { conditions?: { type: string; status: string }[] } }>(['alertmanager', ALERTMANAGER, '-n', NS]);
    return object.status?.conditions?.find((c) => c.type === 'Reconciled')?.status === 'True' ? object : undefined;
  }, 60_000);
  expect(alertmanager.status?.conditions?.find((c) => c.type === 'Reconciled')?.status).toBe('True');
  // One mesh of the three pods now running: each one's peers are exactly their addresses.
  const podIps = (await Promise.all(ALERTMANAGER_PODS.map(async (name) => (await monitoringPod(name))?.status?.podIP ?? ''))).sort();
  for (const name of ALERTMANAGER_PODS) {
    const { status } = await waitFor(`${name} meshed with the new pods only`, async () => {
      const meshed = await meshedAlertmanager(name);
      return meshed && JSON.stringify(meshed.status.cluster.peers.map((peer) => peer.address.replace(/:\d+$/, '')).sort()) === JSON.stringify(podIps) ? meshed : undefined;
    }, 60_000, 500);
    expect(status.config.original).toContain('receiver: webhook');
  }
  // Both Prometheus replicas (promop's too) send to the three new pods, through the Service alertmanager-main.
  for (const pod of PODS) {
    await waitFor(`${pod} sends to the new Alertmanager pods`, async () => {
      const urls = await activeAlertmanagers(pod);
      return urls && JSON.stringify(urls.map((url) => new URL(url).hostname).sort()) === JSON.stringify(podIps) ? urls : undefined;
    }, 60_000, 500);
  }
  // A new rule with two alerts: one to deliver, one the silence of before the switch holds back.
  const ruleCreated = Date.now();
  await cli.kubectlOk(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { name: 'takeover-after-switch', namespace: NS },
    spec: { groups: [{ name: 'takeover-after-switch', rules: ['TakeoverAfterSwitch', SILENCED_ALERT].map((alert) => ({ alert, expr: 'vector(1)', labels: { severity: 'warning' } })) }] },
  }));
  const delivered = await waitFor('TakeoverAfterSwitch delivered to the webhook receiver', async () => (await deliveriesOf('TakeoverAfterSwitch'))[0], 180_000, 500);
  report(`after the switch: PrometheusRule created → its alert delivered by promop's Alertmanager to the webhook receiver in ${Date.parse(delivered.receivedAt) - ruleCreated} ms`);
  expect(delivered.body.alerts[0]).toMatchObject({ status: 'firing', labels: { alertname: 'TakeoverAfterSwitch', severity: 'warning' } });
  // Every replica got the silenced alert and holds it back with the silence made through prometheus-operator's.
  for (const name of ALERTMANAGER_PODS) {
    const alerts = await waitFor(`${SILENCED_ALERT} in ${name}`, async () => {
      const found = await alertmanagerAlerts(name, SILENCED_ALERT);
      return found.length > 0 ? found : undefined;
    }, 60_000, 500);
    expect({ name, status: alerts[0]?.status }).toEqual({ name, status: expect.objectContaining({ state: 'suppressed', silencedBy: [before.silenceId] }) });
  }
  // The Watchdog fired throughout and every new pod has it; it was delivered before the switch, and the new pods know
  // it was (their notification log came through the mesh), or one would have sent it again within its group wait.
  for (const name of ALERTMANAGER_PODS) {
    await waitFor(`Watchdog in the new ${name}`, async () => ((await alertmanagerAlerts(name, 'Watchdog')).length > 0 ? true : undefined), 90_000, 1000);
  }
  // Past the route's group wait and interval since the last new pod got the Watchdog, and since the delivered alert:
  // the silenced alert reached no receiver, nor a second Watchdog.
  await new Promise((resolve) => setTimeout(resolve, Math.max(5_000, Date.parse(delivered.receivedAt) + 7_000 - Date.now())));
  expect(await deliveriesOf(SILENCED_ALERT)).toEqual([]);
  const watchdogs = await deliveriesOf('Watchdog');
  report(`Watchdog notifications: ${before.watchdogNotifications} before the switch, ${watchdogs.length - before.watchdogNotifications} after it (at ${watchdogs.map((d) => d.receivedAt).join(', ')}); the silence of before the switch holds ${SILENCED_ALERT} back in all ${ALERTMANAGER_PODS.length} new pods; checks took ${Date.now() - started} ms`);
  expect(watchdogs).toHaveLength(before.watchdogNotifications);
}, 300_000);

test('the way back, as docs/migrating.md says: promop uninstalled, prometheus-operator\'s CRDs and operator applied again; it runs the same Prometheus on the same claim, with the data', async () => {
  const started = Date.now();
  const uninstall = await cli.helm(['uninstall', 'promop', '--namespace', PROMOP_NS, '--wait', '--timeout', '2m']);
  expect({ code: uninstall.code, stderr: uninstall.stderr.trim() }).toEqual({ code: 0, stderr: '' });
  await cli.kubectlOk(['apply', '--server-side', '--force-conflicts', '-f', prometheusOperatorCrdDirectory()]);
  await cli.kubectlOk(['apply', '-f', join(FIXTURES, 'prometheus-operator.yaml')]);
  await waitFor('prometheus-operator\'s StatefulSet', async () => {
    const statefulSet = await cli.getJson<{ metadata: { labels?: Record<string, string> } }>(['statefulset', `prometheus-${PROMETHEUS}`, '-n', NS]);
    return statefulSet.metadata.labels?.['app.kubernetes.io/managed-by'] === 'prometheus-operator' ? true : undefined;
  }, 180_000, 1000);
  // The same in reverse: promop's pods do not match prometheus-operator's selector, so they are deleted by hand,
  // unless the garbage collector is already deleting them with promop's StatefulSet (prometheus-operator deletes a
  // StatefulSet it cannot update in the foreground, so that race is normal). Either way each old pod's end is
  // awaited below with the new pod's readiness, not by `kubectl delete --wait`: how long the old pod takes to stop
  // is measured and reported, and a slow stop is not a failed command.
  for (const name of PODS) {
    // The pod of that name may already be prometheus-operator's (the garbage collector was quicker): nothing to wait for.
    const current = await monitoringPod(name);
    const promopPod = current?.metadata.labels?.['app.kubernetes.io/managed-by'] === 'promop' ? current : undefined;
    const promopPodState = promopPod ? (promopPod.metadata.deletionTimestamp ? 'terminating' : 'running') : current ? 'replaced by prometheus-operator\'s' : 'gone';
    report(`promop's pod ${name} when it was its turn: ${promopPodState}`);
    const deletedByHand = promopPodState === 'running';
    if (deletedByHand) await cli.kubectlOk(['delete', 'pod', name, '-n', NS, '--wait=false', '--ignore-not-found']);
    const oldPodGoneAt = promopPod ? await waitFor(`promop's pod ${name} gone`, async () => ((await monitoringPod(name))?.metadata.uid === promopPod.metadata.uid ? undefined : Date.now()), 420_000, 1000) : Date.now();
    report(`promop's pod ${name} ${deletedByHand ? 'deleted by hand' : promopPod ? 'deleted with its StatefulSet' : 'already gone'}; gone ${Math.round((oldPodGoneAt - started) / 1000)} s after the uninstall began`);
    const pod = await waitFor(`${name} Ready under prometheus-operator again`, async () => {
      const found = await monitoringPod(name);
      return isReady(found) && found?.metadata.labels?.['app.kubernetes.io/managed-by'] === 'prometheus-operator' ? found : undefined;
    }, 240_000, 1000);
    expect(pod.spec.containers.map((c) => c.name).sort()).toEqual(['config-reloader', 'prometheus']);
    await waitFor(`team-a target up in ${name} under prometheus-operator again`, async () => (((await query(name, `${TEAM_A_UP} == 1`))?.length ?? 0) > 0 ? true : undefined), 120_000);
    await waitFor(`team-a rule loaded in ${name} under prometheus-operator again`, async () => ((await loadedRules(name)).includes('CheckoutErrorsHigh') ? true : undefined), 120_000);
  }
  const samples = await query<{ values: [number, string][] }>(POD, `${TEAM_A_UP}[1m]`, before.at);
  expect(samples?.[0]?.values).toEqual(before.samples);
  const afterWayBack = await identities();
  for (const pod of PODS) expect(afterWayBack[`pvc/${claimOf(pod)}`]).toBe(before.identities[`pvc/${claimOf(pod)}`]);
  report(`way back: promop uninstalled → both pods Ready under prometheus-operator with team-a up, its rule loaded and the data of before the first switch in ${Date.now() - started} ms`);
}, 900_000);

test('side by side: prometheus-operator and promop each own the Prometheus objects their instance selectors give them', async () => {
  const started = Date.now();
  const k8sBefore = await cli.getJson<{ metadata: { uid: string; labels?: Record<string, string> } }>(['statefulset', `prometheus-${PROMETHEUS}`, '-n', NS]);
  expect(k8sBefore.metadata.labels?.['app.kubernetes.io/managed-by']).toBe('prometheus-operator');
  const args = ['--prometheus-instance-selector=operated-by!=promop', '--alertmanager-instance-selector=operated-by!=promop']
    .map((value) => ({ op: 'add', path: '/spec/template/spec/containers/0/args/-', value }));
  await cli.kubectlOk(['patch', 'deployment', 'prometheus-operator', '-n', NS, '--type=json', '-p', JSON.stringify(args)]);
  await cli.kubectlOk(['rollout', 'status', 'deployment/prometheus-operator', '-n', NS, '--timeout=120s'], undefined, 130_000);
  await installPromop(cli, images.promop.name, ['--set', 'crds.install=false', '--set', 'prometheusInstanceSelector=operated-by=promop', '--set', 'alertmanagerInstanceSelector=operated-by=promop']);
  await cli.kubectlOk(['apply', '-f', join(FIXTURES, 'prometheus-side.yaml')]);

  const sideNs = 'monitoring-promop';
  const sidePod = 'prometheus-side-0';
  const pod = await waitFor(`${sidePod} Ready under promop`, async () => {
    const result = await cli.kubectl(['get', 'pod', sidePod, '-n', sideNs, '-o', 'json']);
    const found = result.code === 0 ? JSON.parse(result.stdout) as PodJson : undefined;
    return isReady(found) ? found : undefined;
  }, 180_000, 1000);
  expect(pod.metadata.labels?.['app.kubernetes.io/managed-by']).toBe('promop');
  expect(pod.spec.containers.map((c) => c.name)).toEqual(['prometheus']);
  await waitFor(`${sidePod} scrapes team-a`, async () => {
    const response = await rawGet(kc, podProxyPath(sideNs, sidePod, 9090, `api/v1/query?query=${encodeURIComponent(`${TEAM_A_UP} == 1`)}`));
    return response.status === 200 && (JSON.parse(response.body) as { data: { result: unknown[] } }).data.result.length > 0 ? true : undefined;
  }, 120_000);
  // promop's status writes land on prometheus-operator's CRDs too (without the fields those do not declare).
  await waitFor('side Reconciled', async () => {
    const side = await cli.getJson<{ status?: { conditions?: { type: string; status: string }[] } }>(['prometheus', 'side', '-n', sideNs]);
    return side.status?.conditions?.find((c) => c.type === 'Reconciled')?.status === 'True' ? true : undefined;
  }, 60_000);
  await waitFor('team-a\'s ServiceMonitor accepted by side', async () => {
    const monitor = await cli.getJson<{ status?: { bindings?: { name: string; namespace?: string; conditions?: { type: string; status: string }[] }[] } }>(['servicemonitor', 'checkout', '-n', 'team-a']);
    const binding = monitor.status?.bindings?.find((b) => b.name === 'side' && b.namespace === sideNs);
    return binding?.conditions?.find((c) => c.type === 'Accepted')?.status === 'True' ? true : undefined;
  }, 60_000);

  // prometheus-operator's Prometheus is untouched: same StatefulSet, its pod with the sidecar, still scraping.
  const k8sAfter = await cli.getJson<{ metadata: { uid: string; labels?: Record<string, string> } }>(['statefulset', `prometheus-${PROMETHEUS}`, '-n', NS]);
  expect(k8sAfter.metadata.uid).toBe(k8sBefore.metadata.uid);
  expect(k8sAfter.metadata.labels?.['app.kubernetes.io/managed-by']).toBe('prometheus-operator');
  const k8sPod = await monitoringPod();
  expect(k8sPod?.spec.containers.map((c) => c.name).sort()).toEqual(['config-reloader', 'prometheus']);
  expect(((await query(POD, `${TEAM_A_UP} == 1`))?.length ?? 0)).toBeGreaterThan(0);
  // promop never reconciled it: not a line of its log names monitoring/k8s.
  const promopLog = await cli.kubectlOk(['logs', '-n', PROMOP_NS, 'deployment/promop']);
  expect(promopLog).toContain('monitoring-promop/side');
  expect(promopLog).not.toContain(`"${NS}/${PROMETHEUS}"`);
  // Nor does prometheus-operator's log name promop's.
  const operatorLog = await cli.kubectlOk(['logs', '-n', NS, 'deployment/prometheus-operator']);
  expect(operatorLog).not.toContain('monitoring-promop');
  report(`side by side: ${sidePod} Ready under promop and scraping team-a, prometheus-k8s untouched under prometheus-operator, in ${Date.now() - started} ms`);
}, 600_000);
