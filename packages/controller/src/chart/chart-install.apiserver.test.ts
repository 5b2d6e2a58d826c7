/**
 * charts/promop installed with the real helm into the shared real API server (no kubelet: the pod never runs, so
 * no --wait). One release, in order: install, what the ServiceAccount may and may not do, upgrade, uninstall.
 *
 * The CRDs are cluster-scoped and other suites of the same jest run install the same ones with applyCrds (plain
 * creates and PUTs, no Helm ownership metadata). Helm refuses to put an existing object without its ownership
 * metadata into a release; that is exactly the situation of a user who ran `kubectl apply -f crds/` before
 * installing the chart. So this suite makes that situation deterministic (applyCrds first, which also resets any
 * Helm metadata), checks that a plain install is refused, then installs with `--take-ownership`, the documented way
 * to adopt them. The chart's CRDs are the committed ones plus an annotation, so adopting them changes no schema
 * other suites rely on; their later PUTs may strip Helm's annotations again, so the assertions below read only what
 * such a PUT leaves alone (Established, helm's field manager entry, existence after uninstall).
 */
import {
  ApiException, ApiextensionsV1Api, AppsV1Api, AuthorizationV1Api, CoreV1Api, CustomObjectsApi, RbacAuthorizationV1Api,
  VersionApi, type KubeConfig, type V1ResourceAttributes,
} from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, sharedTestEnv, helm } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { CRD_MANAGER_RULES, OPERATOR_CLUSTER_ROLE_RULES } from '../rbac/index.ts';
import { CHART_DIR } from './chart-files.ts';

const id = randomBytes(3).toString('hex');
const NS = `promop-chart-${id}`;
const RELEASE = `promop-${id}`; // contains the chart name, so every resource is named just `${RELEASE}`
const CRD_NAMES = Object.values(PLURALS).map((plural) => `${plural}.${GROUP}`);

let admin: KubeConfig;
let kubeconfigArgs: string[];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 404 → undefined; anything else is returned or thrown. */
async function orMissing<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiException && error.code === 404) return undefined;
    throw error;
  }
}

/** Polls until `read` gives undefined (the object is gone), at most timeoutMs. */
async function untilGone(read: () => Promise<unknown>, timeoutMs = 20_000): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(200)) if ((await orMissing(read)) === undefined) return true;
  return false;
}

/**
 * Runs `request`, retrying (≤ 5 s) while the API server answers 429 "storage is (re)initializing": every change to
 * a CRD (helm's apply, another suite's PUT) rebuilds its REST storage, and requests in that moment are refused.
 */
async function retryingTooManyRequests<T>(request: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof ApiException) || error.code !== 429 || attempt >= 25) throw error;
      await sleep(200);
    }
  }
}

/** What the API server answers when the chart's ServiceAccount asks whether it may do `attributes`. */
async function allowed(attributes: V1ResourceAttributes): Promise<boolean> {
  // kubeConfigFor impersonates the ServiceAccount user; the API server adds its groups, as for the real pod token.
  const asOperator = sharedTestEnv().kubeConfigFor({ namespace: NS, name: RELEASE }).makeApiClient(AuthorizationV1Api);
  const review = await asOperator.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: attributes } } });
  return review.status?.allowed === true;
}

beforeAll(async () => {
  admin = sharedTestEnv().kubeConfig();
  kubeconfigArgs = ['--kubeconfig', sharedTestEnv().kubeconfigPath];
  await applyCrds(admin);
  // The release namespace enforces the restricted Pod Security Standard, so the pod the Deployment describes is
  // checked by the API server's own PodSecurity admission (see the dry-run below).
  await admin.makeApiClient(CoreV1Api).createNamespace({
    body: { metadata: { name: NS, labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } },
  });
}, 60_000);

afterAll(async () => {
  // Only if a test failed half-way; after a passing run the release is already gone.
  await helm(['uninstall', RELEASE, '-n', NS, '--ignore-not-found', ...kubeconfigArgs]);
  await orMissing(() => admin.makeApiClient(CoreV1Api).deleteNamespace({ name: NS }));
}, 60_000);

describe('helm install charts/promop into a real API server', () => {
  it('the API server is one the chart supports (kubeVersion >=1.30.0-0 is checked by helm install below)', async () => {
    const version = await admin.makeApiClient(VersionApi).getCode();
    expect(version.gitVersion).toMatch(/^v1\.(3\d|[4-9]\d)\./);
  });

  it('refuses to take over CRDs that were applied without Helm (the kubectl-apply user), naming the conflict', async () => {
    const result = await helm(['install', RELEASE, CHART_DIR, '-n', NS, ...kubeconfigArgs]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: expect.stringMatching(/CustomResourceDefinition "[a-z]+\.monitoring\.coreos\.com".*exists and cannot be imported into the current release/) });
    // A failed install leaves a release record behind in Helm 3/4; remove it so the real install starts clean.
    await helm(['uninstall', RELEASE, '-n', NS, '--ignore-not-found', ...kubeconfigArgs]);
  }, 90_000);

  it('installs with --take-ownership: CRDs applied by helm and Established, ServiceAccount, RBAC and Deployment exist', async () => {
    const result = await helm(['install', RELEASE, CHART_DIR, '-n', NS, '--create-namespace', '--take-ownership', ...kubeconfigArgs], 120_000);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });

    const extensions = admin.makeApiClient(ApiextensionsV1Api);
    for (const name of CRD_NAMES) {
      const crd = await extensions.readCustomResourceDefinition({ name });
      expect([name, crd.status?.conditions?.find((c) => c.type === 'Established')?.status]).toEqual([name, 'True']);
      // Helm itself wrote them (installing the chart installs and upgrades the resource types).
      expect(crd.metadata?.managedFields?.map((f) => f.manager)).toContain('helm');
    }
    const manifest = await helm(['get', 'manifest', RELEASE, '-n', NS, ...kubeconfigArgs]);
    expect(manifest.stdout.match(/^kind: CustomResourceDefinition$/gm)).toHaveLength(CRD_NAMES.length);

    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    await admin.makeApiClient(CoreV1Api).readNamespacedServiceAccount({ namespace: NS, name: RELEASE });
    expect((await rbac.readClusterRole({ name: RELEASE })).rules).toEqual([...OPERATOR_CLUSTER_ROLE_RULES, ...CRD_MANAGER_RULES]);
    expect((await rbac.readClusterRoleBinding({ name: RELEASE })).subjects).toEqual([{ kind: 'ServiceAccount', name: RELEASE, namespace: NS }]);
    const deployment = await admin.makeApiClient(AppsV1Api).readNamespacedDeployment({ namespace: NS, name: RELEASE });
    expect(deployment.spec?.replicas).toBe(1);
    expect(deployment.spec?.template.spec?.containers.map((c) => [c.name, c.args])).toEqual([['promop', ['run', '--metrics-address=:8080']]]);
  }, 150_000);

  it('describes a pod the restricted Pod Security admission accepts', async () => {
    const deployment = await admin.makeApiClient(AppsV1Api).readNamespacedDeployment({ namespace: NS, name: RELEASE });
    // There is no ReplicaSet controller here to create the pod; a server-side dry run of the same pod goes through
    // the same admission (PodSecurity enforce=restricted on this namespace) without creating anything.
    const pod = await admin.makeApiClient(CoreV1Api).createNamespacedPod({
      namespace: NS,
      dryRun: 'All',
      body: { metadata: { name: `${RELEASE}-dry-run`, labels: deployment.spec?.template.metadata?.labels }, spec: deployment.spec?.template.spec },
    });
    expect(pod.spec?.serviceAccountName).toBe(RELEASE);
  }, 30_000);

  it('its ServiceAccount can do what the operator needs and no more', async () => {
    const cases: [V1ResourceAttributes, boolean][] = [
      [{ group: GROUP, resource: PLURALS.Prometheus, verb: 'list' }, true], // cluster-wide: no namespace
      [{ group: GROUP, resource: PLURALS.ServiceMonitor, verb: 'watch' }, true],
      [{ group: GROUP, resource: PLURALS.Prometheus, subresource: 'status', verb: 'patch', namespace: 'team-a' }, true],
      [{ group: 'apps', resource: 'statefulsets', verb: 'patch', namespace: 'monitoring' }, true],
      [{ group: '', resource: 'secrets', verb: 'list' }, true],
      [{ group: '', resource: 'namespaces', verb: 'delete', name: 'kube-system' }, false],
      // Pods: read and annotated for the reload, never deleted, exec'd into or given a status; Nodes: listed only.
      [{ group: '', resource: 'pods', verb: 'patch', namespace: NS }, true],
      [{ group: '', resource: 'pods', verb: 'delete', namespace: NS }, false],
      [{ group: '', resource: 'pods', subresource: 'status', verb: 'patch', namespace: NS }, false],
      [{ group: '', resource: 'nodes', verb: 'list' }, true],
      [{ group: '', resource: 'nodes', verb: 'patch', name: 'node-1' }, false],
      [{ group: '', resource: 'pods', subresource: 'exec', verb: 'create', namespace: NS }, false],
      [{ group: GROUP, resource: PLURALS.Prometheus, verb: 'delete', namespace: 'team-a' }, false],
      [{ group: 'rbac.authorization.k8s.io', resource: 'clusterroles', verb: 'escalate' }, false],
      [{ group: 'apps', resource: 'deployments', verb: 'patch', namespace: NS }, false],
      // Leader election: the Lease is read, created and updated (acquire, renew, release), never deleted.
      [{ group: 'coordination.k8s.io', resource: 'leases', verb: 'update', namespace: NS, name: 'promop' }, true],
      [{ group: 'coordination.k8s.io', resource: 'leases', verb: 'delete', namespace: NS, name: 'promop' }, false],
    ];
    const answers = await Promise.all(cases.map(async ([attributes]) => [attributes, await allowed(attributes)] as const));
    expect(answers).toEqual(cases);

    // And real calls, not only reviews: the list works; the delete is refused by authorization (a dry run, so a
    // broken ClusterRole could not delete the namespace even if it allowed it).
    const operator = sharedTestEnv().kubeConfigFor({ namespace: NS, name: RELEASE });
    const list = await retryingTooManyRequests(() => operator.makeApiClient(CustomObjectsApi).listClusterCustomObject({ group: GROUP, version: VERSION, plural: PLURALS.Prometheus }));
    expect(list).toHaveProperty('items');
    const refused = await operator.makeApiClient(CoreV1Api).deleteNamespace({ name: NS, dryRun: 'All' }).then(() => 0, (error: unknown) => (error instanceof ApiException ? error.code : -1));
    expect(refused).toBe(403);
  }, 30_000);

  // That helm upgrade rewrites changed CRDs follows from their being templates of the release (asserted via the
  // release manifest); showing a changed CRD being rewritten here would race other suites' PUTs of the same CRDs.
  it('helm upgrade applies a changed value to the Deployment and keeps the CRDs in the release', async () => {
    const result = await helm(['upgrade', RELEASE, CHART_DIR, '-n', NS, '--set', 'extraArgs[0]=--example', '--set-string', 'podAnnotations.promop\\.test/rev=2', ...kubeconfigArgs], 120_000);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const deployment = await admin.makeApiClient(AppsV1Api).readNamespacedDeployment({ namespace: NS, name: RELEASE });
    expect(deployment.spec?.template.spec?.containers[0]?.args).toEqual(['run', '--metrics-address=:8080', '--example']);
    expect(deployment.spec?.template.metadata?.annotations).toEqual({ 'promop.test/rev': '2' });
    const history = await helm(['history', RELEASE, '-n', NS, '-o', 'json', ...kubeconfigArgs]);
    expect((JSON.parse(history.stdout) as { revision: number; status: string }[]).map((r) => [r.revision, r.status])).toEqual([[1, 'superseded'], [2, 'deployed']]);
    const manifest = await helm(['get', 'manifest', RELEASE, '-n', NS, ...kubeconfigArgs]);
    expect(manifest.stdout.match(/^kind: CustomResourceDefinition$/gm)).toHaveLength(CRD_NAMES.length);
  }, 150_000);

  it('helm uninstall removes the operator but keeps the CRDs (helm.sh/resource-policy: keep)', async () => {
    const result = await helm(['uninstall', RELEASE, '-n', NS, ...kubeconfigArgs], 120_000);
    expect(result.code).toBe(0);
    const apps = admin.makeApiClient(AppsV1Api);
    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    const core = admin.makeApiClient(CoreV1Api);
    expect(await untilGone(() => apps.readNamespacedDeployment({ namespace: NS, name: RELEASE }))).toBe(true);
    expect(await untilGone(() => core.readNamespacedServiceAccount({ namespace: NS, name: RELEASE }))).toBe(true);
    expect(await untilGone(() => rbac.readClusterRole({ name: RELEASE }))).toBe(true);
    expect(await untilGone(() => rbac.readClusterRoleBinding({ name: RELEASE }))).toBe(true);
    const extensions = admin.makeApiClient(ApiextensionsV1Api);
    for (const name of CRD_NAMES) {
      const crd = await orMissing(() => extensions.readCustomResourceDefinition({ name }));
      expect([name, crd?.metadata?.deletionTimestamp ?? 'present']).toEqual([name, 'present']);
    }
  }, 150_000);
});
