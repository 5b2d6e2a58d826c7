/**
 * Each team sees its targets' and rules' health in its own objects (issue 27): `promop run`'s Operator as the operator
 * identity against the real API server, one real Prometheus process playing the pod of shard 0 (a fake kubelet copies
 * the config Secret and rule ConfigMaps into its files, as in bad-rule.apiserver.test.ts), and the health reporter
 * reading its /api/v1/targets and /api/v1/rules every second.
 *
 * team-a's ScrapeConfig scrapes the Prometheus itself on 127.0.0.1 (up); team-b's scrapes a closed port on 127.0.0.1
 * with a secret query parameter (down, connection refused). Each object's binding says what its own targets do, team-b's
 * error without the secret, and team-a's object never carries anything of team-b's. team-a's PrometheusRule evaluates;
 * team-b's fails at every evaluation (valid PromQL whose output has duplicate series), and says so in its own status.
 */
import { randomBytes } from 'node:crypto';
import { EventsV1Api, type CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { RULES_DIR } from '@promop/config-generator';
import { API_VERSIONS, GROUP, PLURALS, type Kind } from '@promop/crds';
import { PrometheusPodsFixture, eventually, freePort, sleep, untilServed, type PrometheusProcess } from '@promop/testkit';
import { pino } from 'pino';
import { Operator } from '../operator.ts';
import { OPERATOR_CLUSTER_ROLE_RULES } from '../rbac/index.ts';
import { shardSelectorLabels } from '../workload/index.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `promop-system-${id}`;
const MONITORING = `monitoring-${id}`;
const TEAM_A = `team-a-${id}`;
const TEAM_B = `team-b-${id}`;
const NAME = `health-${id}`;
const POD = 'replica-a';
const SECRET = `s3cret-${id}`;
const INSTANCE = { 'promop.test/instance': id };

let fixture: PrometheusPodsFixture;
let admin: KubeConfig;
let custom: CustomObjectsApi;
let prometheus: PrometheusProcess | undefined;
let closedPort: number;
const ruleConfigMapPrefix = `prometheus-${NAME}-rulefiles-`;

type Condition = { type: string; status: string; reason?: string; message?: string };
type Binding = { name: string; conditions?: Condition[]; targets?: Record<string, unknown>; rules?: Record<string, unknown> };
type Bound = { metadata: { resourceVersion: string }; status?: { bindings?: Binding[] } };

const read = async (kind: Kind, namespace: string, name: string) =>
  (await custom.getNamespacedCustomObject({ group: GROUP, version: API_VERSIONS[kind], plural: PLURALS[kind], namespace, name })) as Bound;
const bindingOf = (object: Bound) => object.status?.bindings?.find((b) => b.name === NAME);
const healthy = (object: Bound) => bindingOf(object)?.conditions?.find((c) => c.type === 'Healthy');
const create = (kind: Kind, namespace: string, name: string, spec: object) => custom.createNamespacedCustomObject({
  group: GROUP, version: API_VERSIONS[kind], plural: PLURALS[kind], namespace,
  body: { apiVersion: `${GROUP}/${API_VERSIONS[kind]}`, kind, metadata: { name, labels: INSTANCE }, spec },
});

beforeAll(async () => {
  fixture = await PrometheusPodsFixture.start({
    identity: `promop-health-${id}`, operatorNamespace: OPERATOR_NS, namespaces: [MONITORING, TEAM_A, TEAM_B], operatorRules: OPERATOR_CLUSTER_ROLE_RULES,
  });
  ({ admin, custom } = fixture);
  // The fake kubelet writes the rule files where the pod would have them (bad-rule.apiserver.test.ts).
  const pod = await fixture.startPrometheusPod({
    namespace: MONITORING, name: POD, labels: shardSelectorLabels(NAME, 0), configSecret: `prometheus-${NAME}`,
    ruleFiles: { configMapPrefix: ruleConfigMapPrefix, directory: RULES_DIR },
  });
  prometheus = pod.prometheus;
  // Nothing listens there: team-b's target is down.
  closedPort = await freePort();

  await fixture.startOperator(new Operator({
    kubeConfig: fixture.operatorKubeConfig, log: pino({ level: 'silent' }), prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}`,
    podNetworks: ['127.0.0.1/32'], reloadTimeoutMs: 20_000, healthIntervalMs: 1000, healthMinWriteIntervalMs: 1000,
    prometheusPortOf: fixture.portOf,
  }));
  await untilServed(() => create('Prometheus', MONITORING, NAME, {
    replicas: 1, version: 'v3.16.0',
    scrapeConfigSelector: { matchLabels: INSTANCE }, scrapeConfigNamespaceSelector: {},
    ruleSelector: { matchLabels: INSTANCE }, ruleNamespaceSelector: {},
  }));
  await untilServed(() => create('ScrapeConfig', TEAM_A, 'self', { scrapeInterval: '1s', scrapeTimeout: '1s', staticConfigs: [{ targets: [`127.0.0.1:${pod.port}`] }] }));
  await create('ScrapeConfig', TEAM_B, 'closed', {
    scrapeInterval: '1s', scrapeTimeout: '1s', params: { token: [SECRET] }, staticConfigs: [{ targets: [`127.0.0.1:${closedPort}`] }],
  });
  await create('PrometheusRule', TEAM_A, 'rules', { groups: [{ name: 'team-a', interval: '1s', rules: [{ record: 'team_a:up:sum', expr: 'sum(up)' }] }] });
  // Valid PromQL that fails at every evaluation once both targets exist: the two `up` series lose every label but
  // their name, and a recording rule cannot output two series with the same labels.
  await create('PrometheusRule', TEAM_B, 'rules', { groups: [{ name: 'team-b', interval: '1s', rules: [
    { record: 'team_b:up:bare', expr: 'label_replace(label_replace(up, "instance", "", "", ""), "job", "", "", "")' },
  ] }] });
}, 120_000);

afterAll(async () => {
  await fixture?.stop();
}, 30_000);

describe('the health of each team\'s targets and rules, in its own objects', () => {
  it('shows team-a\'s ScrapeConfig 1/1 up', async () => {
    const self = await eventually(() => read('ScrapeConfig', TEAM_A, 'self'), (o) => healthy(o)?.reason === 'TargetsUp' && bindingOf(o)?.targets?.up === 1, 90_000);
    expect(bindingOf(self)?.targets).toEqual({ active: 1, up: 1, down: 0, unknown: 0 });
    expect(healthy(self)).toMatchObject({ status: 'True', reason: 'TargetsUp', message: '1/1 up' });
    expect(bindingOf(self)?.conditions?.find((c) => c.type === 'Accepted')).toMatchObject({ status: 'True' });
  }, 100_000);

  it('shows team-b\'s ScrapeConfig TargetsDown with its scrape error, without the secret query value', async () => {
    const closed = await eventually(() => read('ScrapeConfig', TEAM_B, 'closed'), (o) => healthy(o)?.reason === 'TargetsDown', 60_000);
    const targets = bindingOf(closed)?.targets;
    expect(targets).toMatchObject({ active: 1, up: 0, down: 1, unknown: 0, lastErrorCount: 1 });
    expect(targets?.lastError).toContain('connection refused');
    expect(targets?.lastError).toContain('token=<redacted>');
    expect(healthy(closed)).toMatchObject({ status: 'False', reason: 'TargetsDown' });
    expect(healthy(closed)?.message).toContain('all 1 down');
    // Prometheus itself has the secret in the scrape URL it reports; no status does.
    const answer = await prometheus!.apiGet<{ activeTargets: { scrapeUrl: string }[] }>('/api/v1/targets?state=active');
    expect(answer.activeTargets.map((t) => t.scrapeUrl).join(' ')).toContain(SECRET);
    expect(JSON.stringify(closed.status)).not.toContain(SECRET);
    // One Warning on team-b's object (written with the health, so it is there by now), redacted as the status is.
    const warnings = (await admin.makeApiClient(EventsV1Api).listNamespacedEvent({ namespace: TEAM_B })).items
      .filter((event) => event.reportingController === 'promop' && event.regarding?.name === 'closed');
    expect(warnings.map((event) => [event.type, event.reason, event.regarding?.kind, event.related?.name])).toEqual([['Warning', 'AllTargetsDown', 'ScrapeConfig', NAME]]);
    expect(warnings[0]?.note).toContain('token=<redacted>');
    expect(JSON.stringify(warnings)).not.toContain(SECRET);
  }, 70_000);

  it('never gives team-a\'s object anything of team-b\'s targets', async () => {
    const self = await read('ScrapeConfig', TEAM_A, 'self');
    const text = JSON.stringify(self.status);
    for (const foreign of [String(closedPort), 'refused', SECRET, TEAM_B]) expect(text).not.toContain(foreign);
  });

  it('shows team-a\'s PrometheusRule evaluated', async () => {
    const rules = await eventually(() => read('PrometheusRule', TEAM_A, 'rules'), (o) => healthy(o)?.reason === 'RulesEvaluated', 90_000);
    expect(bindingOf(rules)?.rules).toMatchObject({ groups: 1, rules: 1, failing: 0, pending: 0, firingAlerts: 0 });
    expect(healthy(rules)).toMatchObject({ status: 'True', message: '1 group, 1 rule evaluated' });
  }, 100_000);

  it('shows team-b\'s PrometheusRule RulesFailing with its evaluation error, and none of it in team-a\'s', async () => {
    const rules = await eventually(() => read('PrometheusRule', TEAM_B, 'rules'), (o) => healthy(o)?.reason === 'RulesFailing', 90_000);
    expect(bindingOf(rules)?.rules).toMatchObject({ groups: 1, rules: 1, failing: 1 });
    expect(bindingOf(rules)?.rules?.lastError).toContain('same labelset');
    expect(healthy(rules)).toMatchObject({ status: 'False' });
    expect(healthy(rules)?.message).toContain('1 of 1 rule failed');
    const teamA = JSON.stringify((await read('PrometheusRule', TEAM_A, 'rules')).status);
    expect(teamA).not.toContain('labelset');
    expect(teamA).not.toContain(TEAM_B);
    const warnings = (await admin.makeApiClient(EventsV1Api).listNamespacedEvent({ namespace: TEAM_B })).items.filter((event) => event.regarding?.kind === 'PrometheusRule');
    expect(warnings.map((event) => [event.type, event.reason])).toEqual([['Warning', 'RulesFailing']]);
    // team-a hears nothing: its target is up and its rule evaluates.
    expect((await admin.makeApiClient(EventsV1Api).listNamespacedEvent({ namespace: TEAM_A })).items.filter((event) => event.reportingController === 'promop')).toEqual([]);
  }, 100_000);

  it('writes nothing more while nothing changes class', async () => {
    const before = (await read('ScrapeConfig', TEAM_A, 'self')).metadata.resourceVersion;
    const closedBefore = (await read('ScrapeConfig', TEAM_B, 'closed')).metadata.resourceVersion;
    // Several periods of the reporter (1 s) and of its write limit (1 s).
    await sleep(5000);
    expect((await read('ScrapeConfig', TEAM_A, 'self')).metadata.resourceVersion).toBe(before);
    expect((await read('ScrapeConfig', TEAM_B, 'closed')).metadata.resourceVersion).toBe(closedBefore);
  }, 20_000);
});
