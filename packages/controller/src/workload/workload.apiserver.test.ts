/**
 * The built objects against the real API server: it accepts every one of them, it rejects an invalid embedded
 * field of the Prometheus spec with a 422 naming the field (what promop will report in status), the StatefulSet
 * controller creates the pods, and the garbage collector removes everything once the Prometheus is deleted.
 */
import { ApiException, AppsV1Api, CoreV1Api, CustomObjectsApi, type KubeConfig, type V1StatefulSet } from '@kubernetes/client-node';
import { SCRAPE_FILE_MAX_BYTES, SCRAPE_FILE_SLOTS, generate, parsePrometheusVersion, type GeneratorOutput } from '@promop/config-generator';
import { GROUP, PLURALS, VERSION, type Prometheus } from '@promop/crds';
import { applyCrds, ensureNamespace, untilServed, sharedTestEnv } from '@promop/testkit';
import { buildConfigSecrets } from './config-secret.ts';
import { buildGoverningService } from './governing-service.ts';
import { buildRuleConfigMaps } from './rule-configmaps.ts';
import { buildScrapeSecrets } from './scrape-secrets.ts';
import { buildStatefulSets } from './statefulset.ts';
import { buildTlsAssetsSecret } from './tls-assets-secret.ts';
import { buildWebConfigSecret, webConfigOf } from './web-config.ts';

const NAMESPACE = 'workload-builders';
const target = { group: GROUP, version: VERSION, namespace: NAMESPACE, plural: PLURALS.Prometheus };

let kc: KubeConfig;
let core: CoreV1Api;
let apps: AppsV1Api;
let custom: CustomObjectsApi;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns true or `timeoutMs` passes; returns whether it became true. */
async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(250);
  }
}

/** Creates a Prometheus through the API (so it has a uid and the CRD defaults) and returns it as stored. */
async function createPrometheus(name: string, spec: object): Promise<Prometheus> {
  await untilServed(() => custom.createNamespacedCustomObject({ ...target, body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name }, spec } }));
  return (await custom.getNamespacedCustomObject({ ...target, name })) as Prometheus;
}

/** The generator's output for a Prometheus with nothing selected. */
function render(prometheus: Prometheus): GeneratorOutput {
  const output = generate({ prometheus, serviceMonitors: [], podMonitors: [], prometheusRules: [], namespaces: [{ name: NAMESPACE, labels: {} }], secrets: [], configMaps: [] });
  if (!output.ok) throw new Error(JSON.stringify(output.prometheusProblems));
  return output;
}

function unwrap<T>(result: { ok: true; value: T } | { ok: false; problems: unknown[] }): T {
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.value;
}

/** Creates every object built for `prometheus`; `dryRun` makes the API server validate and admit without storing. */
async function createAll(prometheus: Prometheus, output: GeneratorOutput, dryRun?: 'All'): Promise<V1StatefulSet[]> {
  const namespace = NAMESPACE;
  for (const body of unwrap(buildConfigSecrets(prometheus, output))) await core.createNamespacedSecret({ namespace, body, dryRun });
  await core.createNamespacedSecret({ namespace, body: unwrap(buildTlsAssetsSecret(prometheus, output)), dryRun });
  for (const body of buildRuleConfigMaps(prometheus, output)) await core.createNamespacedConfigMap({ namespace, body, dryRun });
  await core.createNamespacedService({ namespace, body: buildGoverningService(namespace, [prometheus]), dryRun });
  const statefulSets = unwrap(buildStatefulSets(prometheus, output));
  return Promise.all(statefulSets.map((body) => apps.createNamespacedStatefulSet({ namespace, body, dryRun })));
}

/** The error of a promise expected to fail. */
async function failure(promise: Promise<unknown>): Promise<ApiException<string>> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiException) return error as ApiException<string>;
    throw error;
  }
  throw new Error('the API server accepted it');
}

beforeAll(async () => {
  kc = sharedTestEnv().kubeConfig();
  await applyCrds(kc);
  await ensureNamespace(kc, NAMESPACE);
  core = kc.makeApiClient(CoreV1Api);
  apps = kc.makeApiClient(AppsV1Api);
  custom = kc.makeApiClient(CustomObjectsApi);
});

describe('a Prometheus with two shards, as the API server sees what promop builds for it', () => {
  let prometheus: Prometheus;
  let output: GeneratorOutput;

  beforeAll(async () => {
    prometheus = await createPrometheus('main', {
      shards: 2, replicas: 1, serviceMonitorSelector: {},
      storage: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '1Gi' } } } } },
      podMetadata: { labels: { team: 'observability' } },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'monitoring', effect: 'NoSchedule' }],
      resources: { requests: { memory: '400Mi', cpu: '100m' } },
      additionalArgs: [{ name: 'storage.tsdb.no-lockfile' }],
    });
    output = render(prometheus);
    expect(output.configs).toHaveLength(2);
  });

  it('accepts every object in a server-side dry run', async () => {
    const statefulSets = await createAll(prometheus, output, 'All');
    expect(statefulSets.map((s) => s.metadata?.name)).toEqual(['prometheus-main', 'prometheus-main-shard-1']);
    // Nothing was stored.
    expect((await apps.listNamespacedStatefulSet({ namespace: NAMESPACE })).items).toEqual([]);
  });

  it('accepts scrape Secrets of the largest file the generator writes (900 KiB)', async () => {
    const text = `scrape_configs:\n${'#'.repeat(SCRAPE_FILE_MAX_BYTES - 17)}\n`;
    const secret = buildScrapeSecrets(prometheus, { scrapeFiles: [[{ slot: 63, name: 'scrape-63-0123456789abcdef.yaml', text, jobNames: [] }]] })[0]![0]!;
    const created = await core.createNamespacedSecret({ namespace: NAMESPACE, body: secret, dryRun: 'All' });
    expect(created.metadata?.name).toBe('prometheus-main-scrape-63');
  });

  it('rejects an invalid toleration from the Prometheus spec with a 422 naming the field', async () => {
    const invalid = { ...prometheus, spec: { ...prometheus.spec, tolerations: [{ operator: 'Sometimes' }] } } as Prometheus;
    const [statefulSet] = unwrap(buildStatefulSets(invalid, output));
    const error = await failure(apps.createNamespacedStatefulSet({ namespace: NAMESPACE, body: statefulSet!, dryRun: 'All' }));
    expect(error.code).toBe(422);
    expect(JSON.parse(error.body).message).toMatch(/spec\.template\.spec\.tolerations\[0\]\.operator: Unsupported value: "Sometimes"/);
  });

  it('rejects a resource requirement whose request exceeds its limit, naming the field', async () => {
    const invalid = { ...prometheus, spec: { ...prometheus.spec, resources: { requests: { memory: '2Gi' }, limits: { memory: '1Gi' } } } } as Prometheus;
    const [statefulSet] = unwrap(buildStatefulSets(invalid, output));
    const error = await failure(apps.createNamespacedStatefulSet({ namespace: NAMESPACE, body: statefulSet!, dryRun: 'All' }));
    expect(error.code).toBe(422);
    expect(JSON.parse(error.body).message).toMatch(/spec\.template\.spec\.containers\[0\]\.resources\.requests: Invalid value: "2Gi": must be less than or equal to memory limit/);
  });

  it('gets pods from the StatefulSet controller, and loses every child to the garbage collector when deleted', async () => {
    await createAll(prometheus, output);
    const podNames = async () => (await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: 'operator.prometheus.io/name=main' })).items
      .map((pod) => pod.metadata?.name).sort();
    expect(await eventually(async () => (await podNames()).length === 2, 30_000)).toBe(true);
    expect(await podNames()).toEqual(['prometheus-main-0', 'prometheus-main-shard-1-0']);
    const pod = await core.readNamespacedPod({ namespace: NAMESPACE, name: 'prometheus-main-shard-1-0' });
    expect(pod.metadata?.labels).toMatchObject({ team: 'observability', 'operator.prometheus.io/shard': '1' });
    const configSources = pod.spec?.volumes?.find((volume) => volume.name === 'config')?.projected?.sources ?? [];
    expect(configSources.map((source) => source.secret?.name)).toEqual(['prometheus-main-shard-1', ...Array.from({ length: SCRAPE_FILE_SLOTS }, (_, slot) => `prometheus-main-shard-1-scrape-${slot}`)]);
    expect(pod.spec?.containers[0]?.args).toContain('--storage.tsdb.no-lockfile');
    // Pending forever: this control plane has no scheduler or kubelet.
    expect(pod.status?.phase).toBe('Pending');

    await custom.deleteNamespacedCustomObject({ ...target, name: 'main' });
    const remaining = async () => [
      ...(await apps.listNamespacedStatefulSet({ namespace: NAMESPACE })).items,
      ...(await core.listNamespacedSecret({ namespace: NAMESPACE, labelSelector: 'app.kubernetes.io/managed-by=promop' })).items,
      ...(await core.listNamespacedConfigMap({ namespace: NAMESPACE, labelSelector: 'prometheus-name=main' })).items,
      ...(await core.listNamespacedService({ namespace: NAMESPACE })).items,
      ...(await core.listNamespacedPod({ namespace: NAMESPACE })).items,
    ].map((object) => `${object.kind ?? ''}/${object.metadata?.name}`);
    const gone = await eventually(async () => (await remaining()).length === 0, 80_000);
    expect(gone ? [] : await remaining()).toEqual([]);
  }, 120_000);
});

describe('a Prometheus serving HTTPS (spec.web.tlsConfig), as the API server sees it and what promop builds for it', () => {
  it('keeps every web field, and accepts the web config Secret and the StatefulSet mounting it, probing over HTTPS', async () => {
    const web = {
      tlsConfig: {
        cert: { secret: { name: 'web-tls', key: 'tls.crt' } }, keySecret: { name: 'web-tls', key: 'tls.key' },
        client_ca: { configMap: { name: 'clients-with-a-long-name-for-a-configmap-holding-the-ca', key: 'ca.crt' } },
        clientAuthType: 'RequireAndVerifyClientCert', minVersion: 'TLS12', cipherSuites: ['TLS_AES_128_GCM_SHA256'], preferServerCipherSuites: true,
        curvePreferences: ['X25519'],
      },
      httpConfig: { http2: true, headers: { xFrameOptions: 'SameOrigin', contentSecurityPolicy: "default-src 'self'" } },
    };
    const prometheus = await createPrometheus('https', { serviceMonitorSelector: {}, web });
    expect(prometheus.spec?.web).toEqual(web);
    const built = webConfigOf(prometheus, parsePrometheusVersion(prometheus.spec?.version ?? undefined)!);
    if (!built.ok || !built.value) throw new Error(JSON.stringify(built));
    const secret = await core.createNamespacedSecret({ namespace: NAMESPACE, body: buildWebConfigSecret(prometheus, built.value), dryRun: 'All' });
    expect(secret.metadata?.name).toBe('prometheus-https-web-config');
    const [statefulSet] = await createAll(prometheus, render(prometheus), 'All');
    const pod = statefulSet!.spec!.template.spec!;
    expect(pod.containers[0]?.readinessProbe?.httpGet?.scheme).toBe('HTTPS');
    expect(pod.volumes?.filter((volume) => volume.name.startsWith('web-config')).map((volume) => volume.name)).toEqual([
      'web-config', 'web-config-tls-secret-key-web-tls', 'web-config-tls-secret-cert-web-tls', expect.stringMatching(/^web-config-tls-configmap-client-ca-clients-with-a-long-[0-9a-f]{8}$/),
    ]);
    await custom.deleteNamespacedCustomObject({ ...target, name: 'https' });
  });
});
