/**
 * Topology sharding against the real API server (Kubernetes 1.37, which labels pods with their zone), the operator
 * running as the ServiceAccount its ClusterRole rules give: a Prometheus with `shardingStrategy.mode: Topology` and
 * two zones gets four StatefulSets, each in its zone (the zone joins the user's node selector), and four config
 * Secrets, each with its zone in the external labels and the keep rules, the pod's zone label as the source (promop
 * read /version, as prometheus-operator does), and the shard's position in its zone in the hash keep rule.
 * `promop explain` and `promop diff` read /version the same way and render exactly the files the operator wrote.
 */
import { AppsV1Api } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { eventually, sharedTestEnv } from '@promop/testkit';
import { readClusterSnapshot } from './cli/cluster-snapshot.ts';
import { renderFromSnapshot } from './cli/explanation.ts';
import { KubeReader } from './cli/kube-reader.ts';
import { loadClusterConnection } from './kube/kubeconfig.ts';
import { configTextOf, OperatorWorld } from './test-support/operator-world.ts';

const id = randomBytes(3).toString('hex');
const MONITORING = `topo-monitoring-${id}`;
const SHARDS = ['prometheus-main', 'prometheus-main-shard-1', 'prometheus-main-shard-2', 'prometheus-main-shard-3'];

let world: OperatorWorld;
let apps: AppsV1Api;

beforeAll(async () => {
  const labels = { 'promop.test/topo': id };
  world = await OperatorWorld.create({ operatorNamespace: `promop-topo-system-${id}`, identity: `promop-${id}`, namespaces: { [MONITORING]: labels } });
  apps = world.admin.makeApiClient(AppsV1Api);
  await world.createObject('ServiceMonitor', MONITORING, 'api', { selector: { matchLabels: { app: 'api' } }, endpoints: [{ port: 'web' }] });
  await world.createObject('Prometheus', MONITORING, 'main', {
    replicas: 1,
    shards: 4,
    nodeSelector: { disk: 'ssd' },
    serviceMonitorSelector: {},
    shardingStrategy: { mode: 'Topology', topology: { values: ['zone-a', 'zone-b'] } },
  }, { 'promop.test/instance': id });
  await world.startOperator({ prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}` });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

describe('a Prometheus sharded by topology over two zones', () => {
  it('runs each shard in its zone', async () => {
    const selectors = await eventually(
      () => Promise.all(SHARDS.map(async (name) => (await apps.readNamespacedStatefulSet({ namespace: MONITORING, name }).catch(() => undefined))?.spec?.template.spec?.nodeSelector)),
      (found) => found.every((selector) => selector !== undefined),
    );
    expect(selectors).toEqual(['zone-a', 'zone-b', 'zone-a', 'zone-b'].map((zone) => ({ disk: 'ssd', 'topology.kubernetes.io/zone': zone })));
  });

  it('gives each shard a config with its zone and its position in the zone, reading zones from pod labels', async () => {
    const texts = await eventually(
      () => Promise.all(SHARDS.map(async (name) => await world.core.readNamespacedSecret({ namespace: MONITORING, name }).then((secret) => configTextOf(secret), () => ''))),
      (found) => found.every((text) => text.includes(`serviceMonitor/${MONITORING}/api/0`)),
    );
    texts.forEach((text, shard) => {
      const zone = shard % 2 === 0 ? 'zone-a' : 'zone-b';
      expect({ shard, zoneLabel: text.includes(`    zone: ${zone}\n`), keepZone: text.includes(`regex: ${zone};|.+;.+`), keepPosition: text.includes(`regex: ${Math.floor(shard / 2)};|.+;.+`) })
        .toEqual({ shard, zoneLabel: true, keepZone: true, keepPosition: true });
      expect(text).toContain('__meta_kubernetes_pod_label_topology_kubernetes_io_zone');
      expect(text).not.toContain('attach_metadata');
      expect(text).toContain('modulus: 2\n');
    });
  });

  it('is rendered the same by promop explain and diff, which read /version as the operator does', async () => {
    const reader = new KubeReader(await loadClusterConnection({ kubeconfig: sharedTestEnv().kubeconfigPath }));
    const snapshot = await readClusterSnapshot(reader);
    expect(snapshot.podTopologyLabels).toBe(true);
    const prometheus = snapshot.prometheuses.find((item) => item.metadata.namespace === MONITORING && item.metadata.name === 'main');
    const rendered = renderFromSnapshot(snapshot, prometheus!);
    const written = await Promise.all(SHARDS.map(async (name) => configTextOf(await world.core.readNamespacedSecret({ namespace: MONITORING, name }))));
    expect(rendered.configs).toEqual(written);
  });
});
