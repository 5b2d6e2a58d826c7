/**
 * `spec.serviceName` against the real API server: a Prometheus and an Alertmanager naming a Service that does not
 * exist, then one that selects other pods, are Reconciled=False at `spec.serviceName` with nothing written for them
 * (no StatefulSet); once the Service selects their pods, promop's recheck (the Service is the user's, which promop
 * does not watch) reconciles them, governed by that Service. As prometheus-operator's EnsureCustomGoverningService.
 */
import { AppsV1Api, CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { API_VERSIONS, GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, eventually, sharedTestEnv, untilServed } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { Operator } from '../operator.ts';
import { operatorIdentity } from '../test-support/operator-identity.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `promop-svc-${id}`;
const MONITORING = `monitoring-svc-${id}`;
const INSTANCE_LABEL = { 'promop.test/instance': `svc-${id}` };
/** The recheck of a Service promop does not watch, short here so a test waits on the API server, not on a timer. */
const RECHECK_MS = 500;

let admin: KubeConfig;
let apps: AppsV1Api;
let core: CoreV1Api;
let custom: CustomObjectsApi;
let operator: Operator | undefined;

type Condition = { type: string; status: string; reason?: string; message?: string; observedGeneration?: number };
type Owner = { metadata: { generation: number }; status?: { conditions?: Condition[] } };
const apiOf = (kind: 'Prometheus' | 'Alertmanager') => ({ group: GROUP, version: API_VERSIONS[kind], plural: PLURALS[kind], namespace: MONITORING, name: 'main' });
const reconciledOf = async (kind: 'Prometheus' | 'Alertmanager') => {
  const owner = (await custom.getNamespacedCustomObject(apiOf(kind))) as Owner;
  return owner.status?.conditions?.find((c) => c.type === 'Reconciled' && c.observedGeneration === owner.metadata.generation);
};
const statefulSetExists = async (name: string) => apps.readNamespacedStatefulSet({ namespace: MONITORING, name }).then(() => true, () => false);
/** Creates Service `name` with exactly `selector`, replacing the one of that name (a merge patch would keep its other keys). */
const putService = async (name: string, selector: Record<string, string>) => {
  await core.deleteNamespacedService({ namespace: MONITORING, name }).catch(() => undefined);
  await eventually(() => core.readNamespacedService({ namespace: MONITORING, name }).then(() => false, () => true), (gone) => gone);
  await core.createNamespacedService({ namespace: MONITORING, body: { metadata: { name }, spec: { clusterIP: 'None', selector, ports: [{ name: 'web', port: 9090 }] } } });
};

beforeAll(async () => {
  admin = sharedTestEnv().kubeConfig();
  apps = admin.makeApiClient(AppsV1Api);
  core = admin.makeApiClient(CoreV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  await applyCrds(admin);
  for (const name of [OPERATOR_NS, MONITORING]) await core.createNamespace({ body: { metadata: { name } } });
  const kc = await operatorIdentity(admin, OPERATOR_NS, `promop-svc-${id}`);
  for (const [kind, serviceName] of [['Prometheus', 'prometheus-governing'], ['Alertmanager', 'alertmanager-governing']] as const) {
    await untilServed(() => custom.createNamespacedCustomObject({
      ...apiOf(kind),
      body: { apiVersion: `${GROUP}/${kind === 'Prometheus' ? VERSION : API_VERSIONS[kind]}`, kind, metadata: { name: 'main', labels: INSTANCE_LABEL }, spec: { replicas: 1, serviceName } },
    }));
  }
  operator = new Operator({ kubeConfig: kc, log: pino({ level: 'silent' }), prometheusSelector: `promop.test/instance=svc-${id}`, alertmanagerSelector: `promop.test/instance=svc-${id}`, thanosRulerSelector: `promop.test/instance=svc-${id}`, customServiceRecheckMs: RECHECK_MS });
  await operator.start();
}, 60_000);

afterAll(async () => {
  await operator?.stop();
});

describe('a spec.serviceName that governs no pods of its owner', () => {
  it('naming no Service: Reconciled=False at spec.serviceName, and no StatefulSet', async () => {
    const prometheus = await eventually(() => reconciledOf('Prometheus'), (c) => c !== undefined, 60_000);
    expect(prometheus).toMatchObject({ status: 'False', message: `spec.serviceName: Service ${MONITORING}/prometheus-governing does not exist; create the headless Service that governs the pods, or leave spec.serviceName unset` });
    const alertmanager = await eventually(() => reconciledOf('Alertmanager'), (c) => c !== undefined, 60_000);
    expect(alertmanager).toMatchObject({ status: 'False', reason: 'InvalidConfiguration', message: expect.stringContaining(`Service ${MONITORING}/alertmanager-governing does not exist`) });
    expect(await statefulSetExists('prometheus-main')).toBe(false);
    expect(await statefulSetExists('alertmanager-main')).toBe(false);
  }, 90_000);

  it('selecting other pods: the label at fault is named; once it selects the pods, the recheck reconciles them under it', async () => {
    await putService('prometheus-governing', { 'app.kubernetes.io/name': 'prometheus', prometheus: 'other' });
    await putService('alertmanager-governing', { alertmanager: 'main', 'app.kubernetes.io/managed-by': 'prometheus-operator' });
    const notSelecting = await eventually(() => reconciledOf('Prometheus'), (c) => c?.message?.includes('does not select the pods') === true, 30_000);
    expect(notSelecting?.status).toBe('False');
    expect(notSelecting?.message).toMatch(/prometheus is "main" on the pods$/);
    const alertmanager = await eventually(() => reconciledOf('Alertmanager'), (c) => c?.message?.includes('does not select the pods') === true, 30_000);
    expect(alertmanager?.message).toMatch(/app\.kubernetes\.io\/managed-by is "promop" on the pods$/);
    expect(await statefulSetExists('prometheus-main')).toBe(false);

    await putService('prometheus-governing', { 'app.kubernetes.io/name': 'prometheus', prometheus: 'main' });
    await putService('alertmanager-governing', { alertmanager: 'main' });
    expect(await eventually(() => reconciledOf('Prometheus'), (c) => c?.status === 'True', 30_000)).toMatchObject({ status: 'True' });
    expect(await eventually(() => reconciledOf('Alertmanager'), (c) => c?.status === 'True', 30_000)).toMatchObject({ status: 'True' });
    expect((await apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'prometheus-main' })).spec?.serviceName).toBe('prometheus-governing');
    expect((await apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'alertmanager-main' })).spec?.serviceName).toBe('alertmanager-governing');
  }, 90_000);
});
