/**
 * The chart's self-monitoring objects (`serviceMonitor.enabled`, `prometheusRule.enabled`) in the real API server
 * and through a running promop: `helm template` renders them, the API server accepts them against the CRD schemas,
 * and a Prometheus managed by promop that selects them accepts both (its own rule checks) and writes the alerts
 * into its rule files and the ServiceMonitor's job into its config.
 */
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, untilServed, sharedTestEnv, eventually, helm } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { loadAll } from 'js-yaml';
import { pino } from 'pino';
import { Operator } from '../operator.ts';
import { operatorIdentity } from '../test-support/operator-identity.ts';
import { CHART_DIR } from './chart-files.ts';

const id = randomBytes(3).toString('hex');
const NS = `promop-self-${id}`;
const OPERATOR_NS = `promop-system-${id}`;
const INSTANCE_LABEL = { 'promop.test/instance': id };

let admin: KubeConfig;
let core: CoreV1Api;
let custom: CustomObjectsApi;
let operator: Operator | undefined;

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  spec?: { groups?: { rules: { alert?: string }[] }[] };
}
type Bound = { status?: { bindings?: { namespace: string; name: string; conditions?: { type: string; status: string; message?: string }[] }[] } };

const accepted = (resource: Bound) => resource.status?.bindings?.find((b) => b.namespace === NS && b.name === 'self')?.conditions?.find((c) => c.type === 'Accepted');

beforeAll(async () => {
  admin = sharedTestEnv().kubeConfig();
  core = admin.makeApiClient(CoreV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  await applyCrds(admin);
  for (const name of [NS, OPERATOR_NS]) await core.createNamespace({ body: { metadata: { name } } });

  const rendered = await helm(['template', 'rel', CHART_DIR, '--namespace', NS, '--set', 'serviceMonitor.enabled=true', '--set', 'prometheusRule.enabled=true']);
  expect(rendered.code).toBe(0);
  const manifests = (loadAll(rendered.stdout) as (Manifest | null)[]).filter((m): m is Manifest => m !== null);
  for (const kind of ['ServiceMonitor', 'PrometheusRule'] as const) {
    const manifest = manifests.find((m) => m.kind === kind);
    expect(manifest).toBeDefined();
    // The API server validates them against promop's CRD schemas.
    await untilServed(() => custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURALS[kind], namespace: NS, body: manifest as object }));
  }
  await custom.createNamespacedCustomObject({
    group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: NS,
    body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: 'self', labels: INSTANCE_LABEL }, spec: { replicas: 1, serviceMonitorSelector: {}, ruleSelector: {} } },
  });
  const kc = await operatorIdentity(admin, OPERATOR_NS, `promop-${id}`);
  operator = new Operator({ kubeConfig: kc, log: pino({ level: 'silent' }), prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}` });
  await operator.start();
}, 60_000);

afterAll(async () => {
  await operator?.stop();
});

describe('the chart\'s ServiceMonitor and PrometheusRule for promop itself, selected by a Prometheus promop manages', () => {
  it('are both accepted', async () => {
    const read = (plural: string) => async () => (await custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, plural, namespace: NS, name: 'rel-promop' })) as Bound;
    const monitor = await eventually(read(PLURALS.ServiceMonitor), (m) => accepted(m) !== undefined);
    const rule = await eventually(read(PLURALS.PrometheusRule), (r) => accepted(r) !== undefined);
    expect(accepted(monitor)).toMatchObject({ status: 'True' });
    expect(accepted(rule)).toMatchObject({ status: 'True' });
  });

  it('put all eight alerts into the rule files and the ServiceMonitor\'s job into the config', async () => {
    const configMap = await eventually(
      () => core.readNamespacedConfigMap({ namespace: NS, name: 'prometheus-self-rulefiles-0' }),
      (c) => Object.keys(c.data ?? {}).some((file) => file.includes('rel-promop')),
    );
    const ruleFile = Object.entries(configMap.data ?? {}).find(([file]) => file.includes('rel-promop'))?.[1] ?? '';
    for (const alert of ['PromopRejectedResources', 'PromopPrometheusNotReconciled', 'PromopReconcileErrors', 'PromopReloadFailures', 'PromopConfigNotLoaded', 'PromopWatchRestartStorm', 'PromopNoLeader', 'PromopMultipleLeaders']) {
      expect([alert, ruleFile.includes(`alert: ${alert}`)]).toEqual([alert, true]);
    }
    const secret = await eventually(() => core.readNamespacedSecret({ namespace: NS, name: 'prometheus-self' }), () => true);
    expect(Buffer.from(secret.data?.['prometheus.yaml'] ?? '', 'base64').toString('utf8')).toContain(`job_name: serviceMonitor/${NS}/rel-promop/0`);
  });
});
