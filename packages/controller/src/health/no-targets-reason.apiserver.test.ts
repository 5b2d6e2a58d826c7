/**
 * A team's monitor that finds no target says why, in its own status and Warning (issue 27): `promop run`'s Operator
 * as the operator identity (exactly the chart's ClusterRole rules) against the real API server, and one real
 * Prometheus process playing the pod of shard 0.
 *
 * The test's Prometheus has no in-cluster Kubernetes settings, so its kubernetes_sd_configs discover nothing: the
 * ServiceMonitors here find no target whatever they select, and what promop says of each comes from what it reads of
 * the cluster: a namespace that does not exist, a selector no Service matches, a port no selected Service has. The
 * ScrapeConfig's static target is discovered and dropped by its own relabeling: that reason is Prometheus' own answer
 * (GET /api/v1/targets?state=dropped&scrapePool=…).
 */
import { randomBytes } from 'node:crypto';
import { EventsV1Api, type CoreV1Api, type CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { API_VERSIONS, GROUP, PLURALS, type Kind } from '@promop/crds';
import { PrometheusPodsFixture, eventually, sleep, untilServed } from '@promop/testkit';
import { pino } from 'pino';
import { Operator } from '../operator.ts';
import { OPERATOR_CLUSTER_ROLE_RULES } from '../rbac/index.ts';
import { shardSelectorLabels } from '../workload/index.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `promop-system-${id}`;
const MONITORING = `monitoring-${id}`;
const TEAM_A = `team-a-${id}`;
const TEAM_B = `team-b-${id}`;
const NAME = `why-${id}`;
const INSTANCE = { 'promop.test/instance': id };
const APP = { app: `web-${id}` };

let fixture: PrometheusPodsFixture;
let admin: KubeConfig;
let core: CoreV1Api;
let custom: CustomObjectsApi;

type Condition = { type: string; status: string; reason?: string; message?: string };
type Bound = { metadata: { resourceVersion: string }; status?: { bindings?: { name: string; conditions?: Condition[] }[] } };

const read = async (kind: Kind, namespace: string, name: string) =>
  (await custom.getNamespacedCustomObject({ group: GROUP, version: API_VERSIONS[kind], plural: PLURALS[kind], namespace, name })) as Bound;
const healthy = (object: Bound) => object.status?.bindings?.find((b) => b.name === NAME)?.conditions?.find((c) => c.type === 'Healthy');
const create = (kind: Kind, namespace: string, name: string, spec: object) => custom.createNamespacedCustomObject({
  group: GROUP, version: API_VERSIONS[kind], plural: PLURALS[kind], namespace,
  body: { apiVersion: `${GROUP}/${API_VERSIONS[kind]}`, kind, metadata: { name, labels: INSTANCE }, spec },
});
const noTargets = (kind: Kind, name: string) => eventually(() => read(kind, TEAM_B, name), (o) => healthy(o)?.reason === 'NoTargets', 60_000);
const warnings = async (name: string) => (await admin.makeApiClient(EventsV1Api).listNamespacedEvent({ namespace: TEAM_B })).items
  .filter((event) => event.reportingController === 'promop' && event.regarding?.name === name);

beforeAll(async () => {
  fixture = await PrometheusPodsFixture.start({
    identity: `promop-why-${id}`, operatorNamespace: OPERATOR_NS, namespaces: [MONITORING, TEAM_A, TEAM_B], operatorRules: OPERATOR_CLUSTER_ROLE_RULES,
  });
  ({ admin, core, custom } = fixture);
  await fixture.startPrometheusPod({ namespace: MONITORING, name: 'replica-a', labels: shardSelectorLabels(NAME, 0), configSecret: `prometheus-${NAME}` });
  await fixture.startOperator(new Operator({
    kubeConfig: fixture.operatorKubeConfig, log: pino({ level: 'silent' }), prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}`,
    podNetworks: ['127.0.0.1/32'], reloadTimeoutMs: 20_000, healthIntervalMs: 1000, healthMinWriteIntervalMs: 1000,
    prometheusPortOf: fixture.portOf,
  }));
  // team-b's application: one Service, its only port named http.
  await core.createNamespacedService({ namespace: TEAM_B, body: { metadata: { name: 'web', labels: APP }, spec: { selector: APP, ports: [{ name: 'http', port: 80 }] } } });
  await untilServed(() => create('Prometheus', MONITORING, NAME, {
    replicas: 1, version: 'v3.16.0',
    serviceMonitorSelector: { matchLabels: INSTANCE }, serviceMonitorNamespaceSelector: {},
    scrapeConfigSelector: { matchLabels: INSTANCE }, scrapeConfigNamespaceSelector: {},
  }));
  await untilServed(() => create('ServiceMonitor', TEAM_B, 'wrong-port', { selector: { matchLabels: APP }, endpoints: [{ port: 'metricz', interval: '1s' }] }));
  await create('ServiceMonitor', TEAM_B, 'no-service', { selector: { matchLabels: { app: `absent-${id}` } }, endpoints: [{ port: 'http', interval: '1s' }] });
  await create('ServiceMonitor', TEAM_B, 'elsewhere', { selector: { matchLabels: APP }, namespaceSelector: { matchNames: [`gone-${id}`] }, endpoints: [{ port: 'http', interval: '1s' }] });
  await create('ScrapeConfig', TEAM_B, 'dropped', {
    scrapeInterval: '1s', staticConfigs: [{ targets: ['127.0.0.1:9'] }],
    relabelings: [{ action: 'drop', sourceLabels: ['__address__'], regex: '127\\.0\\.0\\.1:9' }],
  });
}, 120_000);

afterAll(async () => {
  await fixture?.stop();
}, 30_000);

describe('a team\'s monitor without targets says why, in its own status', () => {
  it('names the endpoint port no selected Service has, in the condition and the one Warning', async () => {
    const reason = `spec.endpoints[0].port: no Service selected by spec.selector in namespace ${TEAM_B} has a port named "metricz"`;
    const monitor = await noTargets('ServiceMonitor', 'wrong-port');
    expect(healthy(monitor)).toMatchObject({ status: 'False', reason: 'NoTargets', message: `no active target: ${reason}` });
    const events = await eventually(() => warnings('wrong-port'), (list) => list.length > 0, 10_000);
    expect(events.map((event) => [event.type, event.reason, event.note])).toEqual([['Warning', 'NoTargets', `Prometheus ${MONITORING}/${NAME}: no active target: ${reason}`]]);
  }, 70_000);

  it('names the selector that matches no Service', async () => {
    expect(healthy(await noTargets('ServiceMonitor', 'no-service'))?.message)
      .toBe(`no active target: spec.selector (matchLabels app=absent-${id}): no Service in namespace ${TEAM_B} matches it`);
  }, 70_000);

  it('names the namespace selector that lists no namespace that exists', async () => {
    expect(healthy(await noTargets('ServiceMonitor', 'elsewhere'))?.message)
      .toBe(`no active target: spec.namespaceSelector.matchNames: namespace "gone-${id}" does not exist`);
  }, 70_000);

  it('says Prometheus dropped what it discovered, from Prometheus\' own count', async () => {
    expect(healthy(await noTargets('ScrapeConfig', 'dropped'))?.message)
      .toBe('no active target: Prometheus discovered 1 target and relabeling dropped them all');
  }, 70_000);

  it('says the next thing to fix once the team fixes one, and writes nothing more while nothing changes', async () => {
    await custom.patchNamespacedCustomObject({
      group: GROUP, version: API_VERSIONS.ServiceMonitor, plural: PLURALS.ServiceMonitor, namespace: TEAM_B, name: 'wrong-port',
      body: [{ op: 'replace', path: '/spec/endpoints/0/port', value: 'http' }],
    });
    // The port is right now; this Prometheus discovers nothing at all (no in-cluster settings), and says so.
    const fixed = await eventually(() => read('ServiceMonitor', TEAM_B, 'wrong-port'), (o) => !healthy(o)?.message?.includes('metricz'), 60_000);
    expect(healthy(fixed)).toMatchObject({ reason: 'NoTargets', message: `no active target: spec.endpoints[0]: Prometheus discovered no target in namespace ${TEAM_B}` });
    const before = fixed.metadata.resourceVersion;
    await sleep(5000);
    expect((await read('ServiceMonitor', TEAM_B, 'wrong-port')).metadata.resourceVersion).toBe(before);
    // Still one Warning: the reason changed, the monitor did not newly lose its targets.
    expect(await warnings('wrong-port')).toHaveLength(1);
  }, 80_000);

  it('gives team-a nothing of it', async () => {
    expect((await admin.makeApiClient(EventsV1Api).listNamespacedEvent({ namespace: TEAM_A })).items.filter((event) => event.reportingController === 'promop')).toEqual([]);
  });
});
