/**
 * One team's bad rule against a real Prometheus (issue 9): `promop run` as the operator identity against the real API
 * server, one real Prometheus process playing the pod of shard 0, and a fake kubelet (as in
 * shard-reloader.apiserver.test.ts) that copies the config Secret and the rule ConfigMaps into the files that
 * Prometheus reads whenever promop touches the Pod object, never on a timer.
 *
 * team-a's PrometheusRule is loaded; team-b then adds a rule with a PromQL type error (`rate(up)`), which Prometheus
 * would refuse on reload, refusing every team's change from then on. promop rejects team-b's object alone (path and
 * reason in its status binding and in one Warning Event), team-a's rules stay loaded, and a later change by team-a
 * still reaches Prometheus through a successful reload.
 *
 * The rule files must sit at the path promop's config names and its reload check compares with
 * (`/etc/prometheus/rules/<ConfigMap>/<file>`, as mounted in the pod), so the fake kubelet writes them there, under
 * ConfigMap names unique to this run (the Prometheus is named after the run's id), and removes them afterwards; the
 * test needs that directory to be writable (it runs as root here, as CI does) and says so up front otherwise.
 */
import { randomBytes } from 'node:crypto';
import { EventsV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { RULES_DIR } from '@promop/config-generator';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { PrometheusPodsFixture, eventually, untilServed, type PrometheusPod } from '@promop/testkit';
import { pino } from 'pino';
import { OperatorMetrics } from '../observability/index.ts';
import { Operator } from '../operator.ts';
import { OPERATOR_CLUSTER_ROLE_RULES } from '../rbac/index.ts';
import { shardSelectorLabels } from '../workload/index.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `promop-system-${id}`;
const MONITORING = `monitoring-${id}`;
const TEAM_A = `team-a-${id}`;
const TEAM_B = `team-b-${id}`;
/** The Prometheus' name: its rule ConfigMaps (`prometheus-<name>-rulefiles-<n>`) are unique to this run. */
const NAME = `badrule-${id}`;
const POD = 'replica-a';
const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

let fixture: PrometheusPodsFixture;
let pod: PrometheusPod;
const metrics = new OperatorMetrics({ processMetrics: false });

type Condition = { type: string; status: string; reason?: string; message?: string };
type ConfigStatus = { shardID: string; configHash: string; loadedReplicas?: string[] };
type PrometheusObject = { status?: { conditions?: Condition[]; configStatus?: ConfigStatus[] } };
type Bound = { status?: { acceptedBy?: number; rejectedBy?: number; bindings?: { name: string; conditions?: Condition[] }[] } };
type LoadedGroup = { name: string; file: string; rules: { name: string; query: string; health?: string }[] };

const readPrometheus = async () => (await fixture.custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: MONITORING, name: NAME })) as PrometheusObject;
const shard0 = (p: PrometheusObject) => p.status?.configStatus?.find((s) => s.shardID === '0');
const reconciled = (p: PrometheusObject) => p.status?.conditions?.find((c) => c.type === 'Reconciled');
const readRule = async (namespace: string, name: string) => (await fixture.custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURALS.PrometheusRule, namespace, name })) as Bound;
const accepted = (resource: Bound) => resource.status?.bindings?.find((b) => b.name === NAME)?.conditions?.find((c) => c.type === 'Accepted');
const loadedGroups = async () => (await pod.prometheus.apiGet<{ groups: LoadedGroup[] }>('/api/v1/rules')).groups;
const loadedRuleNames = async () => (await loadedGroups()).flatMap((group) => group.rules.map((rule) => rule.name)).sort();
const ruleConfigMapPrefix = `prometheus-${NAME}-rulefiles-`;

/** What Prometheus itself says about its last reload (its own /metrics, not promop's view). */
async function lastReloadSuccessful(): Promise<number> {
  const text = await (await fetch(`${pod.prometheus.url}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
  return Number(text.match(/^prometheus_config_last_reload_successful (\S+)$/m)?.[1] ?? 'NaN');
}

function ruleBody(name: string, rules: Record<string, unknown>[]) {
  return { apiVersion: `${GROUP}/${VERSION}`, kind: 'PrometheusRule', metadata: { name, labels: { 'promop.test/instance': id } }, spec: { groups: [{ name: `${name}-group`, rules }] } };
}

beforeAll(async () => {
  fixture = await PrometheusPodsFixture.start({
    identity: `promop-bad-rule-${id}`, operatorNamespace: OPERATOR_NS, namespaces: [MONITORING, TEAM_A, TEAM_B], operatorRules: OPERATOR_CLUSTER_ROLE_RULES,
  });
  // The fake kubelet writes the rule files where the pod would have them (see the module comment).
  pod = await fixture.startPrometheusPod({
    namespace: MONITORING, name: POD, labels: shardSelectorLabels(NAME, 0), configSecret: `prometheus-${NAME}`,
    ruleFiles: { configMapPrefix: ruleConfigMapPrefix, directory: RULES_DIR },
  });
  await fixture.startOperator(new Operator({
    kubeConfig: fixture.operatorKubeConfig, log: pino({ level: 'silent' }), metrics, prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}`,
    podNetworks: ['127.0.0.1/32'], reloadTimeoutMs: 20_000, prometheusPortOf: fixture.portOf,
  }));
  await untilServed(() => fixture.custom.createNamespacedCustomObject({
    group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: MONITORING,
    body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: NAME, labels: { 'promop.test/instance': id } },
      spec: { replicas: 1, version: 'v3.16.0', ruleSelector: { matchLabels: { 'promop.test/instance': id } }, ruleNamespaceSelector: {} },
    },
  }));
}, 120_000);

afterAll(async () => {
  await fixture?.stop();
}, 30_000);

describe('a PromQL type error in one team\'s PrometheusRule, with a real Prometheus', () => {
  it('loads team-a\'s rules into Prometheus', async () => {
    await fixture.custom.createNamespacedCustomObject({
      group: GROUP, version: VERSION, plural: PLURALS.PrometheusRule, namespace: TEAM_A,
      body: ruleBody('a-rules', [{ record: 'team_a:up:sum', expr: 'sum(up)' }]),
    });
    const names = await eventually(loadedRuleNames, (n) => n.includes('team_a:up:sum'), 60_000);
    expect(names).toEqual(['team_a:up:sum']);
    const status = await eventually(readPrometheus, (p) => shard0(p)?.loadedReplicas?.includes(POD) ?? false);
    expect(reconciled(status)).toMatchObject({ status: 'True' });
    expect(accepted(await readRule(TEAM_A, 'a-rules'))).toMatchObject({ status: 'True' });
    expect(await lastReloadSuccessful()).toBe(1);
  }, 90_000);

  it('rejects team-b\'s rule alone, with its path and reason in the status binding and one Warning Event', async () => {
    await fixture.custom.createNamespacedCustomObject({
      group: GROUP, version: VERSION, plural: PLURALS.PrometheusRule, namespace: TEAM_B,
      body: ruleBody('b-rules', [{ alert: 'TeamBDown', expr: 'rate(up) > 0' }]),
    });
    const rejected = await eventually(() => readRule(TEAM_B, 'b-rules'), (r) => accepted(r)?.status === 'False');
    expect(accepted(rejected)).toMatchObject({ status: 'False', reason: 'InvalidConfiguration' });
    expect(accepted(rejected)?.message).toContain('spec.groups[0].rules[0].expr');
    expect(accepted(rejected)?.message).toContain('rate() expects a range vector as argument 1');
    expect(rejected.status).toMatchObject({ acceptedBy: 0, rejectedBy: 1 });

    const events = fixture.admin.makeApiClient(EventsV1Api);
    const list = async () => (await events.listNamespacedEvent({ namespace: TEAM_B })).items
      .filter((e) => e.regarding?.kind === 'PrometheusRule' && e.regarding.name === 'b-rules');
    const found = await eventually(list, (items) => items.length > 0);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ type: 'Warning', reason: 'InvalidConfiguration', reportingController: 'promop' });
    expect(found[0]?.note).toContain('spec.groups[0].rules[0].expr');

    // team-a is untouched: still accepted, still loaded, and Prometheus' reloads still succeed.
    expect(accepted(await readRule(TEAM_A, 'a-rules'))).toMatchObject({ status: 'True' });
    expect(await loadedRuleNames()).toEqual(['team_a:up:sum']);
    expect((await loadedGroups()).some((group) => group.file.includes(TEAM_B))).toBe(false);
    expect(reconciled(await readPrometheus())).toMatchObject({ status: 'True' });
    expect(await lastReloadSuccessful()).toBe(1);
  }, 60_000);

  it('still brings a later change by team-a into Prometheus (the reload succeeds)', async () => {
    const before = shard0(await readPrometheus())?.configHash;
    await fixture.custom.patchNamespacedCustomObject({
      group: GROUP, version: VERSION, plural: PLURALS.PrometheusRule, namespace: TEAM_A, name: 'a-rules',
      body: { spec: ruleBody('a-rules', [{ record: 'team_a:up:sum', expr: 'sum(up)' }, { record: 'team_a:up:count', expr: 'count(up)' }]).spec },
    }, MERGE_PATCH);
    const names = await eventually(loadedRuleNames, (n) => n.includes('team_a:up:count'), 60_000);
    expect(names).toEqual(['team_a:up:count', 'team_a:up:sum']);
    const status = await eventually(readPrometheus, (p) => {
      const s = shard0(p);
      return s !== undefined && s.configHash !== before && (s.loadedReplicas?.includes(POD) ?? false);
    });
    expect(shard0(status)?.configHash).not.toBe(before);
    expect(reconciled(status)).toMatchObject({ status: 'True' });
    expect(await lastReloadSuccessful()).toBe(1);
    // team-b stays rejected, and its rule never reached Prometheus.
    expect(accepted(await readRule(TEAM_B, 'b-rules'))).toMatchObject({ status: 'False' });
    expect((await loadedGroups()).flatMap((group) => group.rules.map((rule) => rule.query)).join('\n')).not.toContain('rate(up)');
  }, 90_000);
});
