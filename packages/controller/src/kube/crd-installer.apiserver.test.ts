/**
 * promop installs and upgrades its own CRDs at start (`promop run --manage-crds`, kube/crd-installer.ts), on a
 * control plane of its own: the tests create, downgrade and hand over CRDs every other suite relies on.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import {
  ApiextensionsV1Api, CoreV1Api, CustomObjectsApi, RbacAuthorizationV1Api, loadYaml, type KubeConfig, type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { CRD_REVISION, CRD_REVISION_ANNOTATION, GROUP, PLURALS, VERSION, revisionedCrdManifests } from '@promop/crds';
import { freePort, REPO_ROOT, startTestEnv, type TestEnv, eventually } from '@promop/testkit';
import { pino } from 'pino';
import { CRD_MANAGER_RULES } from '../rbac/index.ts';
import { ensureCrds } from './crd-installer.ts';

const PROMETHEUS_CRD = `${PLURALS.Prometheus}.${GROUP}`;
const log = pino({ level: 'silent' });

/** Promop's Prometheus CRD as an older promop would have written it: revision 0 and no `spec.serviceName`. */
function olderPrometheusCrd(): V1CustomResourceDefinition {
  const own = revisionedCrdManifests().find((crd) => crd.metadata.name === PROMETHEUS_CRD)!;
  const older = structuredClone(own);
  const spec = (older.spec.versions[0]!.schema.openAPIV3Schema.properties as Record<string, { properties: Record<string, unknown> }>).spec!;
  expect(spec.properties.serviceName).toBeDefined();
  delete spec.properties.serviceName;
  older.metadata.annotations[CRD_REVISION_ANNOTATION] = '0';
  return loadYaml<V1CustomResourceDefinition>(JSON.stringify(older));
}

describe('promop manages its own CRDs', () => {
  let env: TestEnv;
  let admin: KubeConfig;
  let crds: ApiextensionsV1Api;
  /** A ServiceAccount holding only CRD_MANAGER_RULES: what the chart adds with crds.managedByOperator. */
  let manager: KubeConfig;

  beforeAll(async () => {
    env = await startTestEnv({ controllerManager: false });
    admin = env.kubeConfig();
    crds = admin.makeApiClient(ApiextensionsV1Api);
    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    await admin.makeApiClient(CoreV1Api).createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'crd-manager' } } });
    await rbac.createClusterRole({ body: { metadata: { name: 'crd-manager' }, rules: [...CRD_MANAGER_RULES] } });
    await rbac.createClusterRoleBinding({
      body: {
        metadata: { name: 'crd-manager' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'crd-manager' },
        subjects: [{ kind: 'ServiceAccount', name: 'crd-manager', namespace: 'default' }],
      },
    });
    manager = env.kubeConfigFor({ namespace: 'default', name: 'crd-manager' });
  }, 60_000);

  afterAll(async () => {
    await env?.stop();
  });

  const resourceVersions = async () => Object.fromEntries(await Promise.all(revisionedCrdManifests().map(async (crd) =>
    [crd.metadata.name, (await crds.readCustomResourceDefinition({ name: crd.metadata.name })).metadata?.resourceVersion] as const)));

  it('creates the absent CRDs as a ServiceAccount with only CRD_MANAGER_RULES, and returns once they are Established', async () => {
    const outcomes = await ensureCrds(manager, { log });
    expect(outcomes.map((o) => [o.name, o.action])).toEqual(revisionedCrdManifests().map((crd) => [crd.metadata.name, { apply: true, reason: 'absent' }]));
    for (const { name } of outcomes) {
      const stored = await crds.readCustomResourceDefinition({ name });
      expect(stored.status?.conditions?.find((c) => c.type === 'Established')?.status).toBe('True');
      expect(stored.metadata?.annotations?.[CRD_REVISION_ANNOTATION]).toBe(String(CRD_REVISION));
      // Written by promop's apply (the API server itself owns status.conditions).
      expect(stored.metadata?.managedFields?.filter((f) => f.subresource !== 'status').map((f) => [f.manager, f.operation])).toEqual([['promop', 'Apply']]);
    }
    // Current CRDs: nothing is written on the next start.
    const before = await resourceVersions();
    expect((await ensureCrds(manager, { log })).map((o) => o.action.reason)).toEqual(outcomes.map(() => 'current'));
    expect(await resourceVersions()).toEqual(before);
  }, 60_000);

  it('upgrades a CRD an older promop wrote, so a field the older schema lacked is kept', async () => {
    const existing = await crds.readCustomResourceDefinition({ name: PROMETHEUS_CRD });
    const older = olderPrometheusCrd();
    await crds.replaceCustomResourceDefinition({ name: PROMETHEUS_CRD, body: { ...older, metadata: { ...older.metadata, resourceVersion: existing.metadata?.resourceVersion } } });
    const custom = admin.makeApiClient(CustomObjectsApi);
    let attempt = 0;
    const createWithServiceName = async () => {
      const name = `older-${(attempt += 1)}`;
      const body = { apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name }, spec: { serviceName: 'my-governing-service' } };
      return (await custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: 'default', body })) as { spec?: { serviceName?: string } };
    };
    // The older schema is served (the API server switches asynchronously): serviceName is pruned.
    const pruned = await eventually(createWithServiceName, (created) => created.spec?.serviceName === undefined);
    expect(pruned.spec?.serviceName).toBeUndefined();

    const outcomes = await ensureCrds(manager, { log });
    expect(outcomes.find((o) => o.name === PROMETHEUS_CRD)?.action).toEqual({ apply: true, reason: 'older revision' });
    expect(outcomes.filter((o) => o.name !== PROMETHEUS_CRD).map((o) => o.action.reason)).toEqual(outcomes.slice(1).map(() => 'current'));
    const upgraded = await crds.readCustomResourceDefinition({ name: PROMETHEUS_CRD });
    expect(upgraded.metadata?.annotations?.[CRD_REVISION_ANNOTATION]).toBe(String(CRD_REVISION));
    const kept = await eventually(createWithServiceName, (created) => created.spec?.serviceName === 'my-governing-service');
    expect(kept.spec?.serviceName).toBe('my-governing-service');
  }, 90_000);

  it('leaves a CRD of a newer promop and a CRD promop did not write (prometheus-operator\'s) as they are', async () => {
    const rules = `${PLURALS.PrometheusRule}.${GROUP}`;
    const monitors = `${PLURALS.ServiceMonitor}.${GROUP}`;
    const newer = await crds.readCustomResourceDefinition({ name: rules });
    newer.metadata!.annotations = { ...newer.metadata?.annotations, [CRD_REVISION_ANNOTATION]: String(CRD_REVISION + 1) };
    await crds.replaceCustomResourceDefinition({ name: rules, body: newer });
    // As prometheus-operator ships its CRDs: its own annotations, none of promop's, no part-of label.
    const foreign = await crds.readCustomResourceDefinition({ name: monitors });
    foreign.metadata!.annotations = { 'operator.prometheus.io/version': '0.93.1' };
    foreign.metadata!.labels = {};
    await crds.replaceCustomResourceDefinition({ name: monitors, body: foreign });
    const before = await resourceVersions();

    const outcomes = Object.fromEntries((await ensureCrds(manager, { log })).map((o) => [o.name, o.action]));
    expect(outcomes[rules]).toEqual({ apply: false, reason: 'newer revision' });
    expect(outcomes[monitors]).toEqual({ apply: false, reason: 'not promop\'s' });
    expect(await resourceVersions()).toEqual(before);
  }, 60_000);

  it('without permission on CRDs (a chart from before CRD_MANAGER_RULES) warns and leaves them, instead of failing', async () => {
    await admin.makeApiClient(CoreV1Api).createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'no-crd-rules' } } });
    const lines: string[] = [];
    const warnings = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const before = await resourceVersions();
    expect(await ensureCrds(env.kubeConfigFor({ namespace: 'default', name: 'no-crd-rules' }), { log: warnings })).toEqual([]);
    expect(lines.join('')).toMatch(/API 403 Forbidden.*CRDs not managed/);
    expect(await resourceVersions()).toEqual(before);
  }, 60_000);

  describe('promop run', () => {
    async function runUntilReady(args: string[]): Promise<{ output: () => string; stop: () => Promise<number | null> }> {
      const port = await freePort();
      const child = spawn(process.execPath, [join(REPO_ROOT, 'packages/controller/src/cli.ts'), 'run', '--kubeconfig', env.kubeconfigPath, '--metrics-address', `127.0.0.1:${port}`, '--leader-elect=false', ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const stop = async () => {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        const code = await exited;
        clearTimeout(timer);
        return code;
      };
      const ready = await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) })).status, (status) => status === 200, 60_000);
      if (ready !== 200) {
        await stop();
        throw new Error(`promop run ${args.join(' ')} never became ready:\n${output}`);
      }
      return { output: () => output, stop };
    }

    const makeOlder = async () => {
      const existing = await crds.readCustomResourceDefinition({ name: PROMETHEUS_CRD });
      const older = olderPrometheusCrd();
      await crds.replaceCustomResourceDefinition({ name: PROMETHEUS_CRD, body: { ...older, metadata: { ...older.metadata, resourceVersion: existing.metadata?.resourceVersion } } });
    };

    it('with --manage-crds=false leaves an older CRD untouched', async () => {
      await makeOlder();
      const before = await resourceVersions();
      const run = await runUntilReady(['--manage-crds=false']);
      try {
        expect(await resourceVersions()).toEqual(before);
        expect((await crds.readCustomResourceDefinition({ name: PROMETHEUS_CRD })).metadata?.annotations?.[CRD_REVISION_ANNOTATION]).toBe('0');
      } finally {
        expect(await run.stop()).toBe(0);
      }
    }, 90_000);

    it('by default upgrades the older CRD before its caches list (it is ready only after)', async () => {
      await makeOlder();
      const run = await runUntilReady([]);
      try {
        expect((await crds.readCustomResourceDefinition({ name: PROMETHEUS_CRD })).metadata?.annotations?.[CRD_REVISION_ANNOTATION]).toBe(String(CRD_REVISION));
        expect(run.output()).toMatch(/"crd":"prometheuses.monitoring.coreos.com".*"msg":"CRD upgraded"/);
        expect(run.output()).toMatch(/"msg":"CRD not written by promop/);
        expect(run.output().indexOf('CRD upgraded')).toBeLessThan(run.output().indexOf('caches synced'));
      } finally {
        expect(await run.stop()).toBe(0);
      }
    }, 90_000);
  });
});
