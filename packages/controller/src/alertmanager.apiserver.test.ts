/**
 * Alertmanager objects against the real API server, with the operator running as the ServiceAccount its ClusterRole
 * rules give: kube-prometheus' Alertmanager is stored as written, and promop, which does not run Alertmanager yet,
 * says so in the object's status (Reconciled and Available False, NotSupported) and in one Warning Event, and
 * creates nothing for it.
 */
import { AppsV1Api } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { REPO_ROOT, eventually } from '@promop/testkit';
import { load } from 'js-yaml';
import { NOT_SUPPORTED_REASON } from './alertmanager/reconcile-alertmanager.ts';
import { OperatorWorld } from './test-support/operator-world.ts';

const id = randomBytes(3).toString('hex');
const MONITORING = `am-monitoring-${id}`;

let world: OperatorWorld;

interface AlertmanagerStatus { status?: { conditions?: { type: string; status: string; reason?: string; observedGeneration?: number }[]; replicas?: number } }

beforeAll(async () => {
  world = await OperatorWorld.create({ operatorNamespace: `promop-am-system-${id}`, identity: `promop-am-${id}`, namespaces: { [MONITORING]: {} } });
  // kube-prometheus' own Alertmanager, as the corpus has it (only its namespace is this test's).
  const corpus = load(readFileSync(join(REPO_ROOT, '..', 'shared', 'corpus', 'kube-prometheus', 'alertmanager-alertmanager.yaml'), 'utf8')) as { metadata: { name: string; labels: Record<string, string> }; spec: object };
  await world.createObject('Alertmanager', MONITORING, corpus.metadata.name, corpus.spec, corpus.metadata.labels);
  await world.startOperator();
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

test('kube-prometheus\' Alertmanager is stored, and its status says promop does not run it yet', async () => {
  const stored = await eventually(
    () => world.readObject<AlertmanagerStatus & { metadata: { generation: number } }>('Alertmanager', MONITORING, 'main'),
    (alertmanager) => alertmanager.status?.conditions?.find((condition) => condition.type === 'Reconciled')?.reason === NOT_SUPPORTED_REASON,
  );
  expect(stored.status?.conditions?.map(({ type, status, reason, observedGeneration }) => ({ type, status, reason, observedGeneration }))).toEqual([
    { type: 'Available', status: 'False', reason: NOT_SUPPORTED_REASON, observedGeneration: stored.metadata.generation },
    { type: 'Reconciled', status: 'False', reason: NOT_SUPPORTED_REASON, observedGeneration: stored.metadata.generation },
  ]);
  expect(stored.status?.replicas).toBe(0);
  const events = await eventually(() => world.warningEvents(MONITORING, 'Alertmanager', 'main'), (found) => found.length > 0);
  expect(events.map((event) => event.reason)).toEqual([NOT_SUPPORTED_REASON]);
  // Nothing is created for it: no StatefulSet, and no Secret or Service promop owns.
  const apps = world.admin.makeApiClient(AppsV1Api);
  expect((await apps.listNamespacedStatefulSet({ namespace: MONITORING })).items).toEqual([]);
  expect((await world.core.listNamespacedService({ namespace: MONITORING })).items).toEqual([]);
}, 60_000);
