/**
 * What users see through the real API server: `kubectl get` columns (served by the Table API from the CRD's
 * additionalPrinterColumns) with values read from spec and status, and the scale subresource, which in
 * prometheus-operator (and promop) scales shards, not replicas.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { sharedTestEnv, toolPath, applyCrds, untilServed, ensureNamespace } from '@promop/testkit';
import { GROUP, VERSION } from './group.ts';
import { PLURALS, type Kind } from './kinds.ts';

const NAMESPACE = 'crd-columns';
const API_VERSION = `${GROUP}/${VERSION}`;

let api: CustomObjectsApi;

/** Runs the bundled kubectl against the shared control plane. */
async function kubectl(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(toolPath('kubectl'), ['--kubeconfig', sharedTestEnv().kubeconfigPath, ...args]);
  return stdout;
}

/** `kubectl get` output as header and rows of cells (columns are separated by at least two spaces). */
function table(text: string): string[][] {
  return text.trimEnd().split('\n').map((line) => line.trim().split(/\s{2,}/));
}

/** Creates an object and sets its status through the status subresource, as promop's controller will. */
async function createWithStatus(kind: Kind, name: string, spec: object, status: object): Promise<void> {
  const target = { group: GROUP, version: VERSION, namespace: NAMESPACE, plural: PLURALS[kind] };
  await untilServed(() => api.createNamespacedCustomObject({ ...target, body: { apiVersion: API_VERSION, kind, metadata: { name }, spec } }));
  const current = (await api.getNamespacedCustomObject({ ...target, name })) as Record<string, unknown>;
  await api.replaceNamespacedCustomObjectStatus({ ...target, name, body: { ...current, status } });
}

beforeAll(async () => {
  const kc = sharedTestEnv().kubeConfig();
  await applyCrds(kc);
  await ensureNamespace(kc, NAMESPACE);
  api = kc.makeApiClient(CustomObjectsApi);
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  await createWithStatus('Prometheus', 'main', { version: 'v3.5.0', replicas: 2, serviceMonitorSelector: {} }, {
    paused: true,
    replicas: 2,
    updatedReplicas: 2,
    availableReplicas: 1,
    unavailableReplicas: 1,
    shards: 1,
    selector: 'app.kubernetes.io/instance=main,app.kubernetes.io/name=prometheus',
    conditions: [
      { type: 'Available', status: 'Degraded', lastTransitionTime: now, reason: 'SomePodsNotReady' },
      { type: 'Reconciled', status: 'True', lastTransitionTime: now },
    ],
  });
  const binding = (name: string, status: 'True' | 'False') => ({
    group: GROUP, resource: 'prometheuses', namespace: NAMESPACE, name,
    conditions: [{ type: 'Accepted', status, lastTransitionTime: now }],
  });
  const healthy = (reason: string) => ({ type: 'Healthy', status: reason === 'TargetsUp' ? 'True' : 'False', reason, lastTransitionTime: now });
  const monitorBinding = (name: string, up: number, active: number, reason: string) =>
    ({ ...binding(name, 'True'), conditions: [...binding(name, 'True').conditions, healthy(reason)], targets: { active, up, down: active - up, unknown: 0 } });
  const configStatus = { bindings: [monitorBinding('a', 2, 3, 'TargetsDown'), monitorBinding('b', 3, 3, 'TargetsUp'), binding('c', 'False')], acceptedBy: 2, rejectedBy: 1 };
  await createWithStatus('ServiceMonitor', 'web', { selector: {}, endpoints: [{ port: 'web' }] }, configStatus);
  await createWithStatus('PodMonitor', 'web', { selector: {}, podMetricsEndpoints: [{ port: 'web' }] }, configStatus);
  await createWithStatus('PrometheusRule', 'web', { groups: [{ name: 'g', rules: [{ alert: 'A', expr: 'up == 0' }] }] }, configStatus);
});

describe('kubectl get prometheus', () => {
  it('shows version, desired pods (spec.replicas), ready pods, the two conditions and age', async () => {
    const [header, row, ...rest] = table(await kubectl('get', 'prometheus', '-n', NAMESPACE));
    expect(header).toEqual(['NAME', 'VERSION', 'DESIRED', 'READY', 'RECONCILED', 'AVAILABLE', 'AGE']);
    expect(rest).toEqual([]);
    expect(row?.slice(0, 6)).toEqual(['main', 'v3.5.0', '2', '1', 'True', 'Degraded']);
    expect(row?.[6]).toMatch(/^\d+s$/);
  });

  it('adds Paused with -o wide', async () => {
    const [header, row] = table(await kubectl('get', 'prom', '-n', NAMESPACE, '-o', 'wide'));
    expect(header).toEqual(['NAME', 'VERSION', 'DESIRED', 'READY', 'RECONCILED', 'AVAILABLE', 'AGE', 'PAUSED']);
    expect(row?.[7]).toBe('true');
  });
});

describe.each([['servicemonitors', 'smon'], ['podmonitors', 'pmon'], ['prometheusrules', 'promrule']])('kubectl get %s', (plural, shortName) => {
  it(`shows how many Prometheus objects accepted and rejected it, also by the short name ${shortName}`, async () => {
    for (const resource of [plural, shortName]) {
      const [header, row, ...rest] = table(await kubectl('get', resource, '-n', NAMESPACE));
      expect(header).toEqual(['NAME', 'ACCEPTED', 'REJECTED', 'AGE']);
      expect(rest).toEqual([]);
      expect(row?.slice(0, 3)).toEqual(['web', '2', '1']);
      expect(row?.[3]).toMatch(/^\d+s$/);
    }
  });
});

describe.each([['servicemonitors'], ['podmonitors']])('kubectl get %s -o wide', (plural) => {
  it('adds the first binding\'s targets up, active targets and Healthy reason', async () => {
    const [header, row] = table(await kubectl('get', plural, '-n', NAMESPACE, '-o', 'wide'));
    expect(header).toEqual(['NAME', 'ACCEPTED', 'REJECTED', 'AGE', 'UP', 'TARGETS', 'HEALTH']);
    expect(row?.slice(4)).toEqual(['2', '3', 'TargetsDown']);
  });
});

describe('kubectl get prometheus-operator (the category)', () => {
  it('lists all four kinds', async () => {
    const names = (await kubectl('get', 'prometheus-operator', '-n', NAMESPACE, '-o', 'name')).trim().split('\n').sort();
    expect(names).toEqual([
      'podmonitor.monitoring.coreos.com/web',
      'prometheus.monitoring.coreos.com/main',
      'prometheusrule.monitoring.coreos.com/web',
      'servicemonitor.monitoring.coreos.com/web',
    ]);
  });
});

describe('the Prometheus scale subresource', () => {
  const target = { group: GROUP, version: VERSION, namespace: NAMESPACE, plural: PLURALS.Prometheus, name: 'main' };
  const spec = async () => ((await api.getNamespacedCustomObject(target)) as { spec: { shards?: number; replicas?: number } }).spec;

  it('reads spec.shards, status.shards and status.selector', async () => {
    const scale = (await api.getNamespacedCustomObjectScale(target)) as Record<string, unknown>;
    expect(scale).toMatchObject({
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      spec: { replicas: 1 },
      status: { replicas: 1, selector: 'app.kubernetes.io/instance=main,app.kubernetes.io/name=prometheus' },
    });
  });

  it('writes spec.shards, leaving spec.replicas alone (PUT /scale, then kubectl scale)', async () => {
    const scale = (await api.getNamespacedCustomObjectScale(target)) as { spec: { replicas: number } };
    await api.replaceNamespacedCustomObjectScale({ ...target, body: { ...scale, spec: { replicas: 3 } } });
    expect(await spec()).toMatchObject({ shards: 3, replicas: 2 });

    await kubectl('scale', 'prometheus/main', '-n', NAMESPACE, '--replicas=4');
    expect(await spec()).toMatchObject({ shards: 4, replicas: 2 });
    expect(((await api.getNamespacedCustomObjectScale(target)) as { spec: { replicas: number } }).spec.replicas).toBe(4);
  });
});
