/**
 * The scale against the real API server, with the operator running as its least-privilege ServiceAccount:
 * a Prometheus whose selection shrinks under the inline limit gets its jobs back in prometheus.yaml while its
 * scrape Secrets are deleted; a Prometheus selecting 10,000 ServiceMonitors of two endpoints (20,000 jobs) gets a
 * small prometheus.yaml naming its scrape files and one Secret per file, each within
 * what a Secret holds; and a change to one monitor then rewrites exactly one scrape Secret (and prometheus.yaml).
 * There is no kubelet: nothing is reloaded, this is about what is written. Timings are printed. Slow, mostly the
 * 10,000 status writes of the first reconciles. On a control plane of its own:
 * 10,000 monitors and their Secrets in the shared one would slow every other suite, and surprise those that
 * list monitors cluster-wide.
 */
import { CoreV1Api, CustomObjectsApi, type KubeConfig, type V1Secret } from '@kubernetes/client-node';
import { SCRAPE_FILE_SLOTS } from '@promop/config-generator';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, untilServed, startTestEnv, type TestEnv, eventually, sleep } from '@promop/testkit';
import { load } from 'js-yaml';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { Operator } from '../operator.ts';
import { operatorIdentity } from '../test-support/operator-identity.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `promop-system-${id}`;
const MONITORING = `monitoring-${id}`;
const SMALL_TEAM = `small-team-${id}`;
const TEAMS = Array.from({ length: 50 }, (_, index) => `team-${index}-${id}`);
const MONITORS = 10_000;
const SMALL_MONITORS = 150;

let env: TestEnv | undefined;
let core: CoreV1Api;
let custom: CustomObjectsApi;
let operator: Operator | undefined;
let prometheusCreated = 0;
const timings: Record<string, number> = {};

const crd = (plural: string, namespace: string) => ({ group: GROUP, version: VERSION, plural, namespace });
const decoded = (secret: V1Secret, key: string) => Buffer.from(secret.data?.[key] ?? '', 'base64').toString('utf8');
const readConfig = (name: string) => core.readNamespacedSecret({ namespace: MONITORING, name });
const scrapeConfigFiles = (secret: V1Secret) => ((load(decoded(secret, 'prometheus.yaml')) as { scrape_config_files?: string[] } | null)?.scrape_config_files ?? []);
const scrapeSecrets = async (prometheus: string) => (await core.listNamespacedSecret({ namespace: MONITORING, labelSelector: `operator.prometheus.io/name=${prometheus}` })).items
  .filter((secret) => /-scrape-\d+$/.test(secret.metadata?.name ?? ''));

/** Creates `count` items with at most `parallel` requests in flight. */
async function inParallel(count: number, parallel: number, create: (index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < count) await create(next++);
  }));
}

function serviceMonitor(namespace: string, name: string, labels: Record<string, string> = {}, interval = '30s') {
  return {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'ServiceMonitor',
    metadata: { name, labels },
    spec: {
      selector: { matchLabels: { app: name } },
      endpoints: [
        { port: 'web', relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'node_name', action: 'replace' }] },
        { port: 'metrics', path: '/internal/metrics', interval },
      ],
    },
  };
}

const prometheus = (name: string, teamLabel: string) => untilServed(() => custom.createNamespacedCustomObject({
  ...crd(PLURALS.Prometheus, MONITORING),
  body: {
    apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name, labels: { 'promop.test/instance': id } },
    spec: { serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: { matchLabels: { [teamLabel]: id } } },
  },
}));

beforeAll(async () => {
  env = await startTestEnv({ controllerManager: false });
  const admin: KubeConfig = env.kubeConfig();
  core = admin.makeApiClient(CoreV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  await applyCrds(admin);
  for (const name of [OPERATOR_NS, MONITORING]) await core.createNamespace({ body: { metadata: { name } } });
  await core.createNamespace({ body: { metadata: { name: SMALL_TEAM, labels: { 'promop.test/small': id } } } });
  for (const name of TEAMS) await core.createNamespace({ body: { metadata: { name, labels: { 'promop.test/large': id } } } });
  const kc = await operatorIdentity(admin, OPERATOR_NS, `promop-${id}`, env);
  operator = new Operator({ kubeConfig: kc, log: pino({ level: 'warn' }), prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}`, workers: 2 });
  await operator.start();
}, 120_000);

afterAll(async () => {
  await operator?.stop();
  await env?.stop();
  console.log(`10,000 monitors against the API server: ${JSON.stringify(timings)}`);
});

// First, and gone before the 10,000 monitors exist: every Prometheus judges every monitor of the cluster.
describe('a Prometheus whose selection shrinks under the inline limit', () => {
  it('gets its jobs back in prometheus.yaml, and promop deletes its scrape Secrets', async () => {
    await inParallel(SMALL_MONITORS, 8, (index) => custom.createNamespacedCustomObject({
      ...crd(PLURALS.ServiceMonitor, SMALL_TEAM), body: serviceMonitor(SMALL_TEAM, `small-${index}`, index < 5 ? { keep: 'yes' } : {}),
    }));
    await prometheus('small', 'promop.test/small');
    const split = await eventually(() => readConfig('prometheus-small'), (secret) => scrapeConfigFiles(secret).length > 0, 120_000, 500);
    expect(await eventually(() => scrapeSecrets('small'), (secrets) => secrets.length === scrapeConfigFiles(split).length)).toHaveLength(scrapeConfigFiles(split).length);

    await custom.patchNamespacedCustomObject({
      ...crd(PLURALS.Prometheus, MONITORING), name: 'small', body: [{ op: 'replace', path: '/spec/serviceMonitorSelector', value: { matchLabels: { keep: 'yes' } } }],
    });
    const inline = await eventually(() => readConfig('prometheus-small'), (secret) => scrapeConfigFiles(secret).length === 0, 120_000, 500);
    expect(decoded(inline, 'prometheus.yaml')).toContain(`job_name: serviceMonitor/${SMALL_TEAM}/small-4/1\n`);
    expect(await eventually(() => scrapeSecrets('small'), (secrets) => secrets.length === 0, 60_000, 500)).toEqual([]);
    await custom.deleteNamespacedCustomObject({ ...crd(PLURALS.Prometheus, MONITORING), name: 'small' });
  }, 300_000);
});

describe('a Prometheus selecting 10,000 ServiceMonitors of two endpoints', () => {
  beforeAll(async () => {
    const created = performance.now();
    await inParallel(MONITORS, 16, (index) => custom.createNamespacedCustomObject({
      ...crd(PLURALS.ServiceMonitor, TEAMS[index % TEAMS.length]!), body: serviceMonitor(TEAMS[index % TEAMS.length]!, `app-${index}`, { 'promop.test/large': id }),
    }));
    timings.createMonitorsMs = Math.round(performance.now() - created);
    prometheusCreated = performance.now();
    await prometheus('main', 'promop.test/large');
  }, 900_000);

  it('gets a small prometheus.yaml naming its scrape files, and one Secret per file within what a Secret holds', async () => {
    const config = await eventually(() => readConfig('prometheus-main'), (secret) => scrapeConfigFiles(secret).length > 0, 900_000, 1_000);
    // Includes the first reconcile's 10,000 status writes (every monitor's binding), which come before the Secrets.
    timings.prometheusCreatedToConfigWrittenMs = Math.round(performance.now() - prometheusCreated);
    const files = scrapeConfigFiles(config).map((path) => path.slice(path.lastIndexOf('/') + 1));
    expect(Buffer.byteLength(decoded(config, 'prometheus.yaml'))).toBeLessThan(16 * 1024);

    const secrets = await eventually(() => scrapeSecrets('main'), (items) => items.length === files.length);
    expect(secrets).toHaveLength(files.length);
    // The jobs, written with their repeated relabelings shared, fill 64 files (a quarter of SCRAPE_FILE_SLOTS): the
    // smallest count whose files average at most SCRAPE_FILE_TARGET_BYTES.
    expect(files.length).toBe(SCRAPE_FILE_SLOTS / 4);
    let jobs = 0;
    let bytes = 0;
    for (const secret of secrets) {
      const [key, ...others] = Object.keys(secret.data ?? {});
      expect(others).toEqual([]);
      expect(files).toContain(key);
      expect(secret.metadata?.name).toBe(`prometheus-main-scrape-${Number(/^scrape-(\d+)-/.exec(key!)?.[1])}`);
      const text = decoded(secret, key!);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024 * 1024);
      bytes += Buffer.byteLength(text);
      jobs += text.match(/^- job_name: /gm)?.length ?? 0;
    }
    expect(jobs).toBe(2 * MONITORS);
    timings.scrapeFileMiB = Math.round(bytes / 1024 / 1024);
  }, 960_000);

  it('rewrites exactly one scrape Secret, and prometheus.yaml, when one monitor changes', async () => {
    // Settled first: every monitor bound (the first reconciles write 10,000 statuses, each enqueueing the Prometheus).
    const bound = async () => ((await custom.listClusterCustomObject({ group: GROUP, version: VERSION, plural: PLURALS.ServiceMonitor, labelSelector: `promop.test/large=${id}` })) as { items: { status?: { acceptedBy?: number } }[] })
      .items.filter((monitor) => monitor.status?.acceptedBy === 1).length;
    expect(await eventually(bound, (count) => count === MONITORS, 900_000, 5_000)).toBe(MONITORS);
    await sleep(5_000);

    const before = new Map((await scrapeSecrets('main')).map((secret) => [secret.metadata!.name!, secret.metadata!.resourceVersion]));
    const mainBefore = await readConfig('prometheus-main');
    const patched = performance.now();
    await custom.patchNamespacedCustomObject({
      ...crd(PLURALS.ServiceMonitor, TEAMS[7]!), name: 'app-4207', body: [{ op: 'replace', path: '/spec/endpoints/1/interval', value: '15s' }],
    });
    await eventually(() => readConfig('prometheus-main'), (secret) => scrapeConfigFiles(secret).join() !== scrapeConfigFiles(mainBefore).join(), 120_000, 250);
    timings.patchToConfigWrittenMs = Math.round(performance.now() - patched);
    // Let any further (wrong) write land before counting.
    await sleep(5_000);
    const after = await scrapeSecrets('main');
    const changed = after.filter((secret) => before.get(secret.metadata!.name!) !== secret.metadata!.resourceVersion);
    expect(changed.map((secret) => secret.metadata?.name)).toHaveLength(1);
    expect(after).toHaveLength(before.size);
    const text = Object.keys(changed[0]!.data ?? {}).map((key) => decoded(changed[0]!, key)).join('');
    expect(text).toMatch(new RegExp(`job_name: serviceMonitor/${TEAMS[7]}/app-4207/1\\n(?:  .*\\n)*?  scrape_interval: 15s\\n`));
  }, 1_200_000);
});
