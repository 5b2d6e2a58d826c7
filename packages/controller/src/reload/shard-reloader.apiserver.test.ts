/**
 * The reload path of `promop run` against the real API server and real Prometheus servers, without a kubelet.
 * The test plays the kubelet's part: it creates the Pod objects of shard 0 itself (names without an ordinal, so the
 * StatefulSet controller does not adopt them), gives them status (Running, Ready, podIP 127.0.0.1), runs one real
 * Prometheus per pod on 127.0.0.1, and copies the config Secret into that Prometheus' config file exactly when the
 * Pod object changes, as the kubelet's pod sync does, and never on a timer. So a config change reaches the files only
 * through promop's config-hash annotation on the pod; without it the reload would wait in vain (stale).
 *
 * The operator runs as a ServiceAccount bound to OPERATOR_CLUSTER_ROLE_RULES, with `--pod-network 127.0.0.1/32` and
 * the test-only port override (each fake pod's Prometheus has a port of its own).
 */
import { createServer, type Server } from 'node:net';
import { randomBytes } from 'node:crypto';
import { AppsV1Api, CoreV1Api, type CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { PrometheusPodsFixture, eventually, untilServed, type PrometheusPod } from '@promop/testkit';
import { pino } from 'pino';
import { OperatorMetrics } from '../observability/index.ts';
import { Operator } from '../operator.ts';
import { OPERATOR_CLUSTER_ROLE_RULES } from '../rbac/index.ts';
import { shardSelectorLabels } from '../workload/index.ts';
import { NodePodNetworks } from './pod-networks.ts';
import { CONFIG_HASH_ANNOTATION } from './shard-pods.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `promop-system-${id}`;
const MONITORING = `monitoring-${id}`;

let fixture: PrometheusPodsFixture;
let admin: KubeConfig;
let operatorKc: KubeConfig;
let core: CoreV1Api;
let custom: CustomObjectsApi;
const metrics = new OperatorMetrics({ processMetrics: false });
const logLines: string[] = [];
const traps: ConnectionTrap[] = [];

type ConfigStatus = { shardID: string; configHash: string; loadedReplicas?: string[]; pendingReplicas?: { pod: string; reason: string; message?: string }[] };
type PrometheusObject = { metadata: { generation: number }; status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[]; configStatus?: ConfigStatus[] } };
const readPrometheus = async () => (await custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: MONITORING, name: 'main' })) as PrometheusObject;
const shard0 = (p: PrometheusObject) => p.status?.configStatus?.find((s) => s.shardID === '0');
const reconciled = (p: PrometheusObject) => p.status?.conditions?.find((c) => c.type === 'Reconciled');
const configText = async () => Buffer.from((await core.readNamespacedSecret({ namespace: MONITORING, name: 'prometheus-main' })).data?.['prometheus.yaml'] ?? '', 'base64').toString('utf8');
const metric = async (pattern: RegExp) => Number((await metrics.metricsText()).match(pattern)?.[1] ?? 'NaN');

/** A TCP listener that only counts connections: a pod address promop must never dial. */
interface ConnectionTrap {
  port: number;
  connections: () => number;
  server: Server;
}

async function connectionTrap(host: string): Promise<ConnectionTrap> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const trap = { port: (server.address() as { port: number }).port, connections: () => connections, server };
  traps.push(trap);
  return trap;
}

/** A pod of shard 0 of `main`, run by a real Prometheus. */
function shardPodPrometheus(name: string, ready: boolean): Promise<PrometheusPod> {
  return fixture.startPrometheusPod({ namespace: MONITORING, name, labels: shardSelectorLabels('main', 0), configSecret: 'prometheus-main', ready });
}

let a: PrometheusPod;
let b: PrometheusPod;
let notReadyTrap: ConnectionTrap;

beforeAll(async () => {
  fixture = await PrometheusPodsFixture.start({
    identity: `promop-reload-${id}`, operatorNamespace: OPERATOR_NS, namespaces: [MONITORING], operatorRules: OPERATOR_CLUSTER_ROLE_RULES,
  });
  ({ admin, core, custom, operatorKubeConfig: operatorKc } = fixture);

  [a, b] = await Promise.all([shardPodPrometheus('replica-a', true), shardPodPrometheus('replica-b', false)]);
  notReadyTrap = await connectionTrap('127.0.0.1');
  // replica-b's Prometheus "starts" when the pod becomes Ready; until then its address only counts connections.
  fixture.setPort('replica-b', notReadyTrap.port);

  const log = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });
  await fixture.startOperator(new Operator({
    kubeConfig: operatorKc, log, metrics, prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}`,
    podNetworks: ['127.0.0.1/32'],
    // Long enough for a fake kubelet that syncs on pod updates; far too short for one that never syncs.
    reloadTimeoutMs: 20_000,
    prometheusPortOf: fixture.portOf,
  }));
  await untilServed(() => custom.createNamespacedCustomObject({
    group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: MONITORING,
    body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: 'main', labels: { 'promop.test/instance': id } },
      spec: { replicas: 1, serviceMonitorSelector: { matchLabels: { 'promop.test/instance': id } } },
    },
  }));
}, 120_000);

afterAll(async () => {
  await fixture?.stop();
  await Promise.all(traps.map((trap) => new Promise((resolve) => trap.server.close(resolve))));
}, 30_000);

describe('promop reloading the pods of a shard, as the operator identity, with the kubelet played by the test', () => {
  it('writes the config, annotates the pod, reloads and verifies it, and reports the replica as loaded', async () => {
    const prometheus = await eventually(readPrometheus, (p) => shard0(p)?.loadedReplicas?.includes('replica-a') ?? false);
    const status = shard0(prometheus);
    expect(status?.loadedReplicas).toEqual(['replica-a']);
    expect(reconciled(prometheus)).toMatchObject({ status: 'True' });
    const pod = await core.readNamespacedPod({ namespace: MONITORING, name: 'replica-a' });
    expect(pod.metadata?.annotations?.[CONFIG_HASH_ANNOTATION]).toBe(status?.configHash);
    // The running Prometheus has promop's config (its external labels), not the placeholder it started with.
    const loaded = await a.prometheus.apiGet<{ yaml: string }>('/api/v1/status/config');
    expect(loaded.yaml).toContain(`prometheus: ${MONITORING}/main`);
    expect(loaded.yaml).toContain('prometheus_replica: replica-a');
    expect(await metric(/^promop_reload_total\{outcome="verified"\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
  });

  it('reports a pod that is not ready as pending, calls it never, and stays Reconciled', async () => {
    const prometheus = await readPrometheus();
    expect(shard0(prometheus)?.pendingReplicas).toContainEqual({ pod: 'replica-b', reason: 'NotReady', message: expect.stringContaining('not ready') });
    // The StatefulSet's own pod exists but no kubelet runs it: pending too.
    expect(reconciled(prometheus)).toMatchObject({ status: 'True' });
    expect(notReadyTrap.connections()).toBe(0);
    // It was annotated all the same, so its files are current when it starts.
    const pod = await core.readNamespacedPod({ namespace: MONITORING, name: 'replica-b' });
    expect(pod.metadata?.annotations?.[CONFIG_HASH_ANNOTATION]).toBe(shard0(prometheus)?.configHash);
  });

  it('verifies a pod as soon as it becomes Ready', async () => {
    fixture.setPort('replica-b', b.port);
    await fixture.setPodStatus(MONITORING, 'replica-b', { ready: true, ip: '127.0.0.1' });
    const prometheus = await eventually(readPrometheus, (p) => shard0(p)?.loadedReplicas?.includes('replica-b') ?? false);
    expect(shard0(prometheus)?.loadedReplicas).toEqual(['replica-a', 'replica-b']);
    expect((await b.prometheus.apiGet<{ yaml: string }>('/api/v1/status/config')).yaml).toContain('prometheus_replica: replica-b');
    expect(notReadyTrap.connections()).toBe(0);
  });

  it('brings a config change into every ready replica through the pod annotation, without touching the StatefulSet', async () => {
    const apps = admin.makeApiClient(AppsV1Api);
    const statefulSetBefore = await apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'prometheus-main' });
    const before = shard0(await readPrometheus())?.configHash;
    const countBefore = await metric(/^promop_config_apply_to_loaded_seconds_count (\d+)$/m);
    const sumBefore = await metric(/^promop_config_apply_to_loaded_seconds_sum ([\d.e+-]+)$/m);
    const kubeletSumBefore = await metric(/^promop_config_kubelet_wait_seconds_sum ([\d.e+-]+)$/m);
    const changeCountBefore = await metric(/^promop_config_change_to_loaded_seconds_count (\d+)$/m);
    const changeSumBefore = await metric(/^promop_config_change_to_loaded_seconds_sum ([\d.e+-]+)$/m);
    const syncsBefore = a.kubelet.syncs;

    const applied = Date.now();
    await custom.createNamespacedCustomObject({
      group: GROUP, version: VERSION, plural: PLURALS.ServiceMonitor, namespace: MONITORING,
      body: {
        apiVersion: `${GROUP}/${VERSION}`, kind: 'ServiceMonitor', metadata: { name: 'api', labels: { 'promop.test/instance': id } },
        spec: { selector: { matchLabels: { app: 'api' } }, endpoints: [{ port: 'web' }] },
      },
    });
    const prometheus = await eventually(readPrometheus, (p) => {
      const s = shard0(p);
      return s !== undefined && s.configHash !== before && s.loadedReplicas?.length === 2;
    }, 30_000, 100);
    const appliedToVerified = Date.now() - applied;
    expect(shard0(prometheus)?.loadedReplicas).toEqual(['replica-a', 'replica-b']);
    expect(await configText()).toContain(`job_name: serviceMonitor/${MONITORING}/api/0`);
    for (const replica of [a, b]) {
      expect((await replica.prometheus.apiGet<{ yaml: string }>('/api/v1/status/config')).yaml).toContain(`job_name: serviceMonitor/${MONITORING}/api/0`);
    }
    expect(a.kubelet.syncs).toBeGreaterThan(syncsBefore);
    for (const name of ['replica-a', 'replica-b']) {
      expect((await core.readNamespacedPod({ namespace: MONITORING, name })).metadata?.annotations?.[CONFIG_HASH_ANNOTATION]).toBe(shard0(prometheus)?.configHash);
    }
    // The pods were nudged, not rolled: the StatefulSet (and its pod template) did not change.
    const statefulSetAfter = await apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'prometheus-main' });
    expect(statefulSetAfter.metadata?.generation).toBe(statefulSetBefore.metadata?.generation);
    expect(statefulSetAfter.spec?.template.metadata?.annotations?.[CONFIG_HASH_ANNOTATION]).toBeUndefined();

    expect(await metric(/^promop_config_apply_to_loaded_seconds_count (\d+)$/m)).toBe(countBefore + 1);
    const applyToLoaded = (await metric(/^promop_config_apply_to_loaded_seconds_sum ([\d.e+-]+)$/m)) - sumBefore;
    const kubeletWait = (await metric(/^promop_config_kubelet_wait_seconds_sum ([\d.e+-]+)$/m)) - kubeletSumBefore;
    console.log(`ServiceMonitor applied → verified in both replicas: ${appliedToVerified} ms (seen by the test, polling status every 100 ms); ` +
      `config written → verified: ${Math.round(applyToLoaded * 1000)} ms, of which waiting for the (fake, sync-on-update) kubelet: ${Math.round(kubeletWait * 1000)} ms`);
    expect(applyToLoaded).toBeGreaterThan(0);
    expect(kubeletWait).toBeLessThanOrEqual(applyToLoaded);
    // From the ServiceMonitor's watch event (queued) to loaded: after the test created it, before the test saw the
    // status, and never shorter than its write → loaded part.
    expect(await metric(/^promop_config_change_to_loaded_seconds_count (\d+)$/m)).toBe(changeCountBefore + 1);
    const changeToLoaded = (await metric(/^promop_config_change_to_loaded_seconds_sum ([\d.e+-]+)$/m)) - changeSumBefore;
    expect(changeToLoaded).toBeGreaterThanOrEqual(applyToLoaded);
    expect(changeToLoaded).toBeLessThanOrEqual(appliedToVerified / 1000);
    // Every reload of a pod is timed, by outcome.
    expect(await metric(/^promop_reload_duration_seconds_count\{outcome="verified"\} (\d+)$/m)).toBe(await metric(/^promop_reload_total\{outcome="verified"\} (\d+)$/m));
    expect(await metric(/^promop_shard_config_loaded\{prometheus="[^"]+\/main",shard="0"\} (\d+)$/m)).toBe(1);
    // The fake kubelet polls every 100 ms; without the annotation it would never sync and this would take the
    // whole 20 s reload timeout and fail.
    expect(applyToLoaded).toBeLessThan(5);
  }, 40_000);

  it('refuses a pod whose IP is outside the pod networks without connecting, and recovers when it is gone', async () => {
    const outside = await connectionTrap('127.0.0.2');
    fixture.setPort('replica-c', outside.port);
    await fixture.createPod({ namespace: MONITORING, name: 'replica-c', labels: shardSelectorLabels('main', 0), ip: '127.0.0.2' });
    const failed = await eventually(readPrometheus, (p) => reconciled(p)?.reason === 'ReloadFailed');
    expect(reconciled(failed)).toMatchObject({ status: 'False', reason: 'ReloadFailed' });
    expect(reconciled(failed)?.message).toContain('shard 0: pod replica-c: not called: 127.0.0.2 is outside the pod networks given with --pod-network (127.0.0.1/32)');
    expect(shard0(failed)?.pendingReplicas).toContainEqual({ pod: 'replica-c', reason: 'Refused', message: expect.stringContaining('127.0.0.2 is outside') });
    expect(shard0(failed)?.loadedReplicas).toEqual(['replica-a', 'replica-b']);
    expect(await metric(/^promop_reload_total\{outcome="refused"\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
    expect(await metric(/^promop_shard_config_loaded\{prometheus="[^"]+\/main",shard="0"\} (\d+)$/m)).toBe(0);
    expect(outside.connections()).toBe(0);

    await core.deleteNamespacedPod({ namespace: MONITORING, name: 'replica-c', gracePeriodSeconds: 0 });
    // While being deleted the pod is pending (Terminating), which is no failure; then it is gone from status.
    const gone = (p: PrometheusObject) => !(shard0(p)?.pendingReplicas?.some((r) => r.pod === 'replica-c') ?? true);
    const recovered = await eventually(readPrometheus, (p) => reconciled(p)?.status === 'True' && gone(p));
    expect(reconciled(recovered)).toMatchObject({ status: 'True' });
    expect(await metric(/^promop_shard_config_loaded\{prometheus="[^"]+\/main",shard="0"\} (\d+)$/m)).toBe(1);
    expect(shard0(recovered)?.pendingReplicas ?? []).not.toContainEqual(expect.objectContaining({ pod: 'replica-c' }));
    expect(outside.connections()).toBe(0);
  }, 40_000);

  it('never logged a config text', () => {
    expect(logLines.some((line) => line.includes('written config loaded by every ready replica'))).toBe(true);
    expect(logLines.filter((line) => line.includes('job_name'))).toEqual([]);
  });
});

describe('pod networks read from the Nodes, as the operator identity', () => {
  const nodeName = `promop-test-node-${id}`;
  const cidr = `10.${200 + (parseInt(id.slice(0, 2), 16) % 50)}.${parseInt(id.slice(2, 4), 16)}.0/24`;

  afterAll(async () => {
    await core.deleteNode({ name: nodeName }).catch(() => undefined);
  });

  it('admit an address of a Node\'s spec.podCIDRs once the Node exists', async () => {
    const networks = new NodePodNetworks({
      listNodes: async () => (await operatorKc.makeApiClient(CoreV1Api).listNode()).items,
      log: pino({ level: 'silent' }), minRefreshIntervalMs: 0,
    });
    const address = cidr.replace(/0\/24$/, '7');
    expect(await networks.admit(address)).toMatchObject({ ok: false });
    await core.createNode({ body: { metadata: { name: nodeName }, spec: { podCIDR: cidr, podCIDRs: [cidr] } } });
    expect(await networks.admit(address)).toEqual({ ok: true });
    expect(networks.allowList().check(address, 'ipv4')).toBe(true);
  });
});
