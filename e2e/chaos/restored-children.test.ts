/**
 * Chaos scenario 4: someone deletes or edits what promop made — the config Secret, a rule ConfigMap, the
 * StatefulSet, the governing Service — or adds a key to a map promop owns entirely (a rule file, a Secret key, a
 * selector label), and promop puts each back as it was, without a restart, and ends converged
 * (a fresh promop finds nothing to write). Prints the time each restore took.
 */
import { AppsV1Api, PatchStrategy, setHeaderOptions, type CoreV1Api } from '@kubernetes/client-node';
import { MONITORING } from './chaos-cluster.ts';
import { configText, isReconciled, rulesText } from './rendered-state.ts';
import { startScenario, type Scenario } from './scenario.ts';
import { until } from './settle.ts';

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** One thing someone does to promop's objects: `read` gives what must come back, comparable as JSON. */
interface Fault {
  what: string;
  read: () => Promise<unknown>;
  fault: () => Promise<unknown>;
}

function faultsOn(core: CoreV1Api, apps: AppsV1Api, ruleConfigMap: string): Fault[] {
  const namespace = MONITORING;
  const secret = () => core.readNamespacedSecret({ namespace, name: 'prometheus-main' }).then((s) => s.data);
  const configMap = () => core.readNamespacedConfigMap({ namespace, name: ruleConfigMap }).then((c) => c.data);
  const statefulSet = () => apps.readNamespacedStatefulSet({ namespace, name: 'prometheus-main' }).then((s) => s.spec);
  const service = () => core.readNamespacedService({ namespace, name: 'prometheus-operated' }).then((s) => ({ selector: s.spec?.selector, ports: s.spec?.ports, clusterIP: s.spec?.clusterIP }));
  return [
    { what: 'config Secret deleted', read: secret, fault: () => core.deleteNamespacedSecret({ namespace, name: 'prometheus-main' }) },
    { what: 'config Secret edited', read: secret, fault: () => core.patchNamespacedSecret({ namespace, name: 'prometheus-main', body: { stringData: { 'prometheus.yaml': 'global: {}\n' } } }, mergePatch) },
    { what: 'rule ConfigMap deleted', read: configMap, fault: () => core.deleteNamespacedConfigMap({ namespace, name: ruleConfigMap }) },
    { what: 'rule ConfigMap edited', read: configMap, fault: async () => {
      const data = (await configMap()) ?? {};
      const file = Object.keys(data)[0] as string;
      await core.patchNamespacedConfigMap({ namespace, name: ruleConfigMap, body: { data: { [file]: 'groups: []\n' } } }, mergePatch);
    } },
    { what: 'StatefulSet deleted', read: statefulSet, fault: () => apps.deleteNamespacedStatefulSet({ namespace, name: 'prometheus-main' }) },
    { what: 'StatefulSet edited', read: statefulSet, fault: () => apps.patchNamespacedStatefulSet({ namespace, name: 'prometheus-main', body: { spec: { replicas: 3, template: { spec: { containers: [{ name: 'prometheus', image: 'example.invalid/other:1' }] } } } } }, setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch)) },
    { what: 'governing Service deleted', read: service, fault: () => core.deleteNamespacedService({ namespace, name: 'prometheus-operated' }) },
    // A value promop set, changed.
    { what: 'governing Service edited', read: service, fault: async () => {
      const key = Object.keys((await service()).selector ?? {})[0] as string;
      await core.patchNamespacedService({ namespace, name: 'prometheus-operated', body: { spec: { selector: { [key]: 'someone-else' } } } }, mergePatch);
    } },
    // Keys someone adds to maps promop owns entirely: server-side apply alone would keep them (another manager owns
    // them), and Prometheus would load the extra rule file or scrape file; promop removes them (foreign-keys.ts).
    { what: 'rule ConfigMap: a file added', read: configMap, fault: () =>
      core.patchNamespacedConfigMap({ namespace, name: ruleConfigMap, body: { data: { 'someone-else.yaml': 'groups: []\n' } } }, mergePatch) },
    { what: 'config Secret: a key added', read: secret, fault: () =>
      core.patchNamespacedSecret({ namespace, name: 'prometheus-main', body: { stringData: { 'extra.yaml': 'scrape_configs: []\n' } } }, mergePatch) },
    { what: 'governing Service: a selector label added', read: service, fault: () =>
      core.patchNamespacedService({ namespace, name: 'prometheus-operated', body: { spec: { selector: { team: 'someone-else' } } } }, mergePatch) },
  ];
}

describe('chaos 4: someone deletes or edits what promop made', () => {
  let scenario: Scenario;

  beforeAll(async () => {
    scenario = await startScenario({ seed: 4, objects: 6 });
  }, 150_000);

  afterAll(async () => {
    await scenario?.stop();
  });

  it('puts back each deleted or edited child as it was, within seconds', async () => {
    const { cluster, burst } = scenario;
    const apps = cluster.admin.makeApiClient(AppsV1Api);
    const ruleConfigMaps = await cluster.core.listNamespacedConfigMap({ namespace: MONITORING, labelSelector: 'prometheus-name=main' });
    const ruleConfigMap = ruleConfigMaps.items[0]?.metadata?.name as string;
    expect(ruleConfigMap).toBeDefined();
    const figures: string[] = [];
    for (const { what, read, fault } of faultsOn(cluster.core, apps, ruleConfigMap)) {
      const expected = JSON.stringify(await read());
      const writesBefore = scenario.writes().length;
      // No check that the fault is visible: promop may have put the object back before the next read.
      await fault();
      const restoredMs = await until(`${what}: restored`, async () => JSON.stringify(await read()) === expected, 30_000);
      await scenario.settle();
      const writes = scenario.writes().slice(writesBefore);
      figures.push(`${what}: restored in ${restoredMs} ms with ${writes.length} writes (${[...new Set(writes)].join(', ')})`);
      // Putting one object back is a handful of writes, not a loop.
      expect(writes.length).toBeLessThanOrEqual(6);
    }
    process.stdout.write(`chaos 4 (restored children):\n  ${figures.join('\n  ')}\n`);
    expect(burst.differences(await configText(cluster.core), await rulesText(cluster.core))).toEqual([]);
    expect(await isReconciled(cluster.custom)).toBe(true);
  }, 150_000);

  it('ends converged: a fresh promop finds nothing to write', async () => {
    expect((await scenario.freshCheck('chaos 4')).writes).toEqual([]);
  }, 90_000);
});
