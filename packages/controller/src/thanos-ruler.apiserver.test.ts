/**
 * ThanosRuler objects against the real API server, with the operator running as the ServiceAccount its ClusterRole
 * rules give (so a missing rule fails here): a ThanosRuler selecting the teams' PrometheusRules gets its rule
 * ConfigMap (partial_response_strategy kept, the namespace label enforced), the three Secrets its pods mount, the
 * thanos-ruler-operated Service and a StatefulSet of `thanos rule` pods with upstream's args, all owned by it; each
 * PrometheusRule gets a binding (a broken one rejected alone, with its path in its status and a Warning Event); the
 * ThanosRuler's own status says Reconciled, and Available False while no pod runs (no kubelet here). A ThanosRuler
 * with no query endpoint is refused with the reason in its status and an Event, and nothing is created for it.
 */
import { AppsV1Api } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { eventually } from '@promop/testkit';
import { bindingCondition, OperatorWorld } from './test-support/operator-world.ts';
import { INVALID_CONFIGURATION_REASON } from './thanos-ruler/reconcile-thanos-ruler.ts';

const id = randomBytes(3).toString('hex');
const MONITORING = `tr-monitoring-${id}`;
const TEAM = `tr-team-${id}`;
const TEAM_LABEL = { 'promop.test/thanos-rules': id };

interface StoredRuler {
  status?: { paused?: boolean; replicas?: number; conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}
const condition = (ruler: StoredRuler, type: string) => ruler.status?.conditions?.find((each) => each.type === type);

let world: OperatorWorld;
let apps: AppsV1Api;

beforeAll(async () => {
  world = await OperatorWorld.create({
    operatorNamespace: `promop-tr-system-${id}`, identity: `promop-tr-${id}`,
    namespaces: { [MONITORING]: {}, [TEAM]: TEAM_LABEL },
  });
  apps = world.admin.makeApiClient(AppsV1Api);
  await world.createObject('PrometheusRule', TEAM, 'slo', {
    groups: [{ name: 'slo', partial_response_strategy: 'warn', rules: [{ alert: 'HighErrorRate', expr: 'rate(errors_total[5m]) > 1', for: '5m' }] }],
  });
  await world.createObject('PrometheusRule', TEAM, 'broken', { groups: [{ name: 'broken', rules: [{ record: 'x:y', expr: 'sum(' }] }] });
  await world.createObject('ThanosRuler', MONITORING, 'main', {
    queryEndpoints: [`dnssrv+_http._tcp.thanos-query.${MONITORING}.svc`],
    alertmanagersUrl: [`dnssrv+http://_web._tcp.alertmanager-operated.${MONITORING}.svc`],
    objectStorageConfig: { name: 'thanos-objstore', key: 'objstore.yaml' },
    ruleSelector: {}, ruleNamespaceSelector: { matchLabels: TEAM_LABEL }, enforcedNamespaceLabel: 'namespace',
    labels: { cluster: 'test' }, replicas: 2,
  });
  await world.createObject('ThanosRuler', MONITORING, 'noquery', { ruleSelector: {} });
  await world.startOperator({ podNetworks: ['127.0.0.1/32'], reloadTimeoutMs: 5_000 });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

test('a ThanosRuler gets its rule files, Secrets, Service and StatefulSet, and says Reconciled', async () => {
  const stored = await eventually(() => world.readObject<StoredRuler>('ThanosRuler', MONITORING, 'main'), (ruler) => condition(ruler, 'Reconciled')?.status === 'True');
  expect(condition(stored, 'Available')).toMatchObject({ status: 'False', reason: 'NoReplicasAvailable' });

  const configMap = await world.core.readNamespacedConfigMap({ namespace: MONITORING, name: 'thanos-ruler-main-rulefiles-0' });
  expect(configMap.metadata?.labels?.['thanos-ruler-name']).toBe('main');
  const files = Object.entries(configMap.data ?? {});
  expect(files).toHaveLength(1);
  expect(files[0]![0]).toMatch(new RegExp(`^${TEAM}-slo-`));
  expect(files[0]![1]).toContain('partial_response_strategy: warn');
  expect(files[0]![1]).toContain(`rate(errors_total{namespace="${TEAM}"}[5m]) > 1`);

  for (const name of ['thanos-ruler-main-config', 'thanos-ruler-main-tls-assets-0', 'thanos-ruler-main-web-config']) {
    const secret = await world.core.readNamespacedSecret({ namespace: MONITORING, name });
    expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ThanosRuler', name: 'main', controller: true });
  }

  const statefulSet = await apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'thanos-ruler-main' });
  expect(statefulSet.spec?.replicas).toBe(2);
  expect(statefulSet.spec?.serviceName).toBe('thanos-ruler-operated');
  const container = statefulSet.spec?.template.spec?.containers[0];
  expect(container?.image).toBe('quay.io/thanos/thanos:v0.42.2');
  expect(container?.args).toEqual(expect.arrayContaining([
    'rule', `--query=dnssrv+_http._tcp.thanos-query.${MONITORING}.svc`, `--alertmanagers.url=dnssrv+http://_web._tcp.alertmanager-operated.${MONITORING}.svc`,
    '--objstore.config-file=/etc/thanos/config/objstorage-config/objstore.yaml', '--label=cluster="test"', '--rule-file=/etc/thanos/rules/*/*.yaml',
  ]));
  const service = await world.core.readNamespacedService({ namespace: MONITORING, name: 'thanos-ruler-operated' });
  expect(service.spec?.ports?.map((port) => `${port.name}:${port.port}`)).toEqual(['web:10902', 'grpc:10901']);
  // Every ThanosRuler of the namespace that uses the shared Service owns it (the refused one too, as upstream, which
  // writes the Service before it builds the StatefulSet): it goes with the last of them.
  expect(service.metadata?.ownerReferences?.map((owner) => owner.name)).toEqual(['main', 'noquery']);
}, 60_000);

test('each selected PrometheusRule gets a binding; a broken one is rejected alone, with its path and an Event', async () => {
  const owner = { namespace: MONITORING, name: 'main', resource: 'thanosrulers' };
  const good = await eventually(() => world.readObject('PrometheusRule', TEAM, 'slo'), (rule) => bindingCondition(rule, owner)?.status === 'True');
  expect(bindingCondition(good, owner)).toMatchObject({ status: 'True' });
  const bad = await eventually(() => world.readObject('PrometheusRule', TEAM, 'broken'), (rule) => bindingCondition(rule, owner)?.status === 'False');
  expect(bindingCondition(bad, owner)).toMatchObject({ status: 'False', reason: 'InvalidConfiguration', message: expect.stringContaining('spec.groups[0].rules[0].expr') });
  const events = await eventually(() => world.warningEvents(TEAM, 'PrometheusRule', 'broken'), (found) => found.length > 0);
  expect(events[0]?.related?.kind).toBe('ThanosRuler');
}, 60_000);

test('a ThanosRuler without a query endpoint is refused with the reason and an Event, and nothing is created for it', async () => {
  const stored = await eventually(() => world.readObject<StoredRuler>('ThanosRuler', MONITORING, 'noquery'), (ruler) => condition(ruler, 'Reconciled')?.status === 'False');
  expect(condition(stored, 'Reconciled')).toMatchObject({ reason: INVALID_CONFIGURATION_REASON, message: expect.stringContaining('spec.queryEndpoints: thanos rule needs an API') });
  const events = await eventually(() => world.warningEvents(MONITORING, 'ThanosRuler', 'noquery'), (found) => found.length > 0);
  expect(events[0]?.reason).toBe(INVALID_CONFIGURATION_REASON);
  await expect(apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'thanos-ruler-noquery' })).rejects.toMatchObject({ code: 404 });
}, 60_000);
