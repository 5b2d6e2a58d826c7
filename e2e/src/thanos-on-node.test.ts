/**
 * Past one Prometheus, on the real node (issue 28): a Prometheus with two shards and `spec.thanos`, so every shard's
 * pod runs the Thanos sidecar promop renders (the Thanos image built here from the Go module, named as promop names
 * the default version), uploading blocks to a bucket; a Thanos Query pod the test deploys, as a platform would, finds
 * both sidecars through the governing Service's DNS SRV record (thanos-query.ts); a ThanosRuler (promop's) evaluates a
 * team-0 rule through Query that holds only where both shards' series are seen together, so its alert fires at the
 * ruler and stays inactive in each shard.
 *
 * The bucket is Thanos' FILESYSTEM object store on one hostPath directory that both shards' pods mount: on one node
 * a host directory is one bucket, and it needs no other program (an S3-compatible server would be one more thing
 * to build and run, and would prove nothing more about what promop renders). The test reads the bucket from the
 * host, and `thanos tools bucket ls` reads it as any Thanos component would.
 *
 * A block is cut in minutes instead of hours with the fields upstream offers for it: `spec.disableCompaction`
 * (compaction mode "disabled") makes promop set Prometheus' min and max block durations to `spec.thanos.blockSize`;
 * in the default "delayed" mode (Prometheus 3.9+ with Thanos 0.41+) blockSize is not used, as upstream. Prometheus
 * writes the head's oldest block once the head spans 1.5 block durations, and the sidecar's shipper looks for new
 * blocks every 30 s.
 *
 * team-0's targets are several pods of the example app behind one ServiceMonitor: the test adds pods until the
 * shards' hashmod of their addresses (computed here as Prometheus computes it) puts at least one on each shard, so
 * "team-0's series from both shards" is known to be possible before it is asked.
 *
 * The harness is the chaos suite's node world (e2e/chaos/node-world.ts): promop runs as a process in the node's
 * network namespace, the test reaches pods through the node's bridge. Figures are printed at the end.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { V1Pod } from '@kubernetes/client-node';
import { THANOS_HTTP_PORT, THANOS_SIDECAR_CONTAINER_NAME, statefulSetName } from '@promop/controller/workload';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { toolPath } from '@promop/testkit';
import { MONITORING, PROMETHEUS, TEAMS } from '../chaos/chaos-cluster.ts';
import { APP, startNodeWorld, type NodeWorld } from '../chaos/node-world.ts';
import type { PromopProcess } from '../chaos/promop-process.ts';
import { until } from '../chaos/settle.ts';
import { DEFAULT_IMAGES_DIR, imageRecipes } from './images/index.ts';
import { buildCachedImage } from './images/image-cache.ts';
import { EXAMPLE_APP_IMAGE } from './images/image-names.ts';
import { THANOS_QUERY, THANOS_QUERY_HTTP_PORT, thanosQueryAddress, thanosQueryPod, thanosQueryService } from './thanos-query.ts';

const TEAM = TEAMS[0];
const SHARDS = 2;
/** The shards' pods: `prometheus-main-0` and `prometheus-main-shard-1-0`, which are also their `prometheus_replica`. */
const SHARD_PODS = Array.from({ length: SHARDS }, (_, shard) => `${statefulSetName(PROMETHEUS, shard)}-0`);
/**
 * `spec.thanos.blockSize`: Prometheus sets no floor on its block duration (the sidecar only warns that 2h is the
 * recommended one), so the block is cut ~45 s after the first sample and the shipper's 30 s cycle dominates.
 */
const BLOCK_SIZE = '30s';
const BLOCK_MS = 30_000;
const OBJSTORE_SECRET = 'thanos-objstore';
const BUCKET_VOLUME = 'thanos-bucket';
const BUCKET_IN_POD = '/bucket';
/** The ThanosRuler, its pod and the team's alert it evaluates through Query (it fires only when Query sees both shards). */
const RULER = 'global';
const RULER_POD = `thanos-ruler-${RULER}-0`;
const ALERT = 'CheckoutSeenOnEveryShard';
/** At most this many app pods in team-0 while looking for one on each shard (each new pod lands on a shard with even odds). */
const MAX_APP_PODS = 12;

let world: NodeWorld;
let promop: PromopProcess;
let bucketDir: string;
/** team-0's app pods by name, with the shard Prometheus' hashmod gives their address. */
const appPods = new Map<string, { ip: string; shard: number }>();
const figures: string[] = [];
let promopReadyAt = 0;

/**
 * The shard a target address lands on: Prometheus' `hashmod` is the md5 of the source value, its last 8 bytes read
 * as a big-endian integer, modulo the shards; promop's sharding rule hashes `__address__`.
 */
function shardOf(address: string): number {
  return Number(createHash('md5').update(address).digest().readBigUInt64BE(8) % BigInt(SHARDS));
}

/** GET `path` of the Query pod's HTTP API; the `data` of its JSON answer. */
async function queryApi<T>(path: string): Promise<T> {
  const pod = await world.cluster.core.readNamespacedPod({ namespace: MONITORING, name: THANOS_QUERY });
  if (!pod.status?.podIP) throw new Error(`${THANOS_QUERY} has no IP yet`);
  const response = await world.node.bridge.request(`http://${pod.status.podIP}:${THANOS_QUERY_HTTP_PORT}${path}`, { timeoutMs: 15_000 });
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${response.body.slice(0, 300)}`);
  return (JSON.parse(response.body) as { data: T }).data;
}

type Vector = { metric: Record<string, string>; value: [number, string] }[];

/** An instant query at Thanos Query. */
function thanosQuery(promql: string): Promise<Vector> {
  return queryApi<{ result: Vector }>(`/api/v1/query?query=${encodeURIComponent(promql)}`).then((data) => data.result);
}

/** A pod of the example app in team-0, labelled as the ServiceMonitor's Service selects; resolves with its IP once Ready. */
async function runAppPod(name: string): Promise<string> {
  const pod: V1Pod = {
    metadata: { name, labels: { app: APP } },
    spec: {
      automountServiceAccountToken: false,
      containers: [{ name: 'app', image: EXAMPLE_APP_IMAGE, imagePullPolicy: 'Never', ports: [{ name: 'metrics', containerPort: 8080 }], readinessProbe: { httpGet: { path: '/healthz', port: 'metrics' }, periodSeconds: 2 } }],
    },
  };
  await world.cluster.core.createNamespacedPod({ namespace: TEAM, body: pod });
  let ip = '';
  await until(`${TEAM}/${name} Ready`, async () => {
    const status = (await world.cluster.core.readNamespacedPod({ namespace: TEAM, name })).status;
    ip = status?.podIP ?? '';
    return ip !== '' && (status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false);
  }, 60_000);
  return ip;
}

/** When the sidecar container of `pod` started (ms since the epoch, whole seconds as the kubelet reports it). */
async function sidecarStartedAt(pod: string): Promise<number | undefined> {
  const status = (await world.cluster.core.readNamespacedPod({ namespace: MONITORING, name: pod })).status;
  const sidecar = status?.containerStatuses?.find((c) => c.name === THANOS_SIDECAR_CONTAINER_NAME);
  const startedAt = sidecar?.state?.running?.startedAt;
  return startedAt ? new Date(startedAt).getTime() : undefined;
}

/** A block's meta.json in the bucket, as the shipper writes it. */
interface BlockMeta {
  ulid: string;
  minTime: number;
  maxTime: number;
  compaction: { level: number };
  thanos: { labels: Record<string, string>; source: string };
}

/** The blocks in the bucket: every `<ULID>/meta.json`, with the time the file appeared. */
function bucketBlocks(): { meta: BlockMeta; writtenAt: number }[] {
  return readdirSync(bucketDir)
    .map((entry) => join(bucketDir, entry, 'meta.json'))
    .filter((file) => existsSync(file))
    .map((file) => ({ meta: JSON.parse(readFileSync(file, 'utf8')) as BlockMeta, writtenAt: statSync(file).mtimeMs }));
}

beforeAll(async () => {
  // The Thanos image first, so its (rare) build does not hold the machine's node lock.
  const thanosImage = await buildCachedImage(imageRecipes().thanos, DEFAULT_IMAGES_DIR);
  bucketDir = mkdtempSync(join(tmpdir(), 'promop-thanos-bucket-'));
  // The pods' user (promop's default, uid 1000) writes the blocks; the directory is the test's own.
  chmodSync(bucketDir, 0o777);
  world = await startNodeWorld({
    prometheusSpec: {
      shards: SHARDS,
      disableCompaction: true,
      volumes: [{ name: BUCKET_VOLUME, hostPath: { path: bucketDir, type: 'Directory' } }],
      thanos: {
        blockSize: BLOCK_SIZE,
        objectStorageConfig: { name: OBJSTORE_SECRET, key: 'objstore.yaml' },
        volumeMounts: [{ name: BUCKET_VOLUME, mountPath: BUCKET_IN_POD }],
      },
    },
  });
  world.node.importImage(thanosImage.archive);
  const { core, custom } = world.cluster;
  await core.createNamespacedSecret({
    namespace: MONITORING,
    body: { metadata: { name: OBJSTORE_SECRET }, stringData: { 'objstore.yaml': `type: FILESYSTEM\nconfig:\n  directory: ${BUCKET_IN_POD}\n` } },
  });
  await custom.createNamespacedCustomObject({
    group: GROUP, version: VERSION, plural: PLURALS.ServiceMonitor, namespace: TEAM,
    body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'ServiceMonitor', metadata: { name: 'checkout' }, spec: { selector: { matchLabels: { app: APP } }, endpoints: [{ port: 'metrics', interval: '5s' }] } },
  });

  // The node world's app pod, then more until each shard has one of team-0's targets.
  const first = await core.readNamespacedPod({ namespace: TEAM, name: APP });
  appPods.set(APP, { ip: first.status!.podIP!, shard: shardOf(`${first.status!.podIP}:8080`) });
  for (let n = 1; new Set([...appPods.values()].map((pod) => pod.shard)).size < SHARDS; n += 1) {
    if (appPods.size >= MAX_APP_PODS) throw new Error(`${MAX_APP_PODS} app pods in ${TEAM}, all on one shard: ${JSON.stringify([...appPods])}`);
    const ip = await runAppPod(`${APP}-${n}`);
    appPods.set(`${APP}-${n}`, { ip, shard: shardOf(`${ip}:8080`) });
  }
  figures.push(`${TEAM}'s targets: ${[...appPods].map(([name, pod]) => `${name} ${pod.ip}:8080 → shard ${pod.shard}`).join(', ')}`);

  await core.createNamespacedPod({ namespace: MONITORING, body: thanosQueryPod({ namespace: MONITORING, image: thanosImage.name }) });
  await core.createNamespacedService({ namespace: MONITORING, body: thanosQueryService(MONITORING) });
  // team-0's rule for the ruler: true only where the team's series of both shards are seen together, as at Query.
  // (The node world's Prometheus selects every rule too; each shard sees its own series only, so it never fires there.)
  await custom.createNamespacedCustomObject({
    group: GROUP, version: VERSION, plural: PLURALS.PrometheusRule, namespace: TEAM,
    body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'PrometheusRule', metadata: { name: 'global-view', labels: { 'evaluated-by': 'thanos-ruler' } },
      spec: { groups: [{ name: 'global-view', rules: [{ alert: ALERT, expr: `count(count by (prometheus_replica) (checkout_build_info{namespace="${TEAM}"})) >= ${SHARDS}`, labels: { severity: 'info' } }] }] },
    },
  });
  await custom.createNamespacedCustomObject({
    group: GROUP, version: VERSION, plural: PLURALS.ThanosRuler, namespace: MONITORING,
    body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'ThanosRuler', metadata: { name: RULER },
      spec: {
        queryEndpoints: [thanosQueryAddress(MONITORING)], evaluationInterval: '5s',
        ruleSelector: { matchLabels: { 'evaluated-by': 'thanos-ruler' } }, ruleNamespaceSelector: {},
      },
    },
  });
  ({ promop } = await world.startPromop('promop'));
  await promop.untilReady();
  const started = Date.now();
  await until('both shards\' pods Ready with their sidecars running', async () => {
    for (const name of SHARD_PODS) {
      if (!(await world.prometheusPod(name)).ready || (await sidecarStartedAt(name)) === undefined) return false;
    }
    return true;
  }, 240_000);
  figures.push(`both shards' pods Ready, sidecars running, ${Date.now() - started} ms after promop was ready`);
  promopReadyAt = started;
  // Up to 10 minutes: the node may first wait for another test's node to finish (one per machine).
}, 600_000);

afterAll(async () => {
  process.stdout.write(`Thanos on the real node:\n  ${figures.join('\n  ')}\n`);
  await promop?.stop();
  await world?.stop();
  if (bucketDir) rmSync(bucketDir, { recursive: true, force: true });
}, 120_000);

test('one query at Thanos Query answers team-0\'s series from both shards, each from the shard its address hashes to', async () => {
  const promql = `checkout_build_info{namespace="${TEAM}"}`;
  let answer: Vector = [];
  const ms = await until(`${promql} from every app pod through Thanos Query`, async () => {
    answer = await thanosQuery(promql);
    return answer.length === appPods.size;
  }, 120_000);
  figures.push(`Thanos Query answered ${promql} with every target's series ${ms} ms after the sidecars ran:\n    ${answer.map((series) => `pod=${series.metric.pod} prometheus_replica=${series.metric.prometheus_replica} value=${series.value[1]}`).join('\n    ')}`);
  // Each series carries the external labels of the shard that scraped it (prometheus_replica names the shard's pod).
  const byPod = Object.fromEntries(answer.map((series) => [series.metric.pod, series.metric.prometheus_replica]));
  expect(byPod).toEqual(Object.fromEntries([...appPods].map(([name, pod]) => [name, SHARD_PODS[pod.shard]])));
  expect(new Set(answer.map((series) => series.metric.prometheus_replica))).toEqual(new Set(SHARD_PODS));
  expect(answer.every((series) => series.metric.prometheus === `${MONITORING}/${PROMETHEUS}`)).toBe(true);
}, 180_000);

test('a ThanosRuler evaluates team-0\'s rule through Thanos Query, and its alert fires', async () => {
  type Alert = { labels: Record<string, string>; state: string; value: string };
  let firing: Alert | undefined;
  await until(`${ALERT} firing at ${RULER_POD}`, async () => {
    const pod = await world.cluster.core.readNamespacedPod({ namespace: MONITORING, name: RULER_POD });
    if (!pod.status?.podIP) return false;
    const response = await world.node.bridge.request(`http://${pod.status.podIP}:${THANOS_HTTP_PORT}/api/v1/alerts`, { timeoutMs: 15_000 });
    // thanos rule answers `Alerts` where Prometheus' API says `alerts`.
    const alerts = (JSON.parse(response.body) as { data: { Alerts: Alert[] } }).data.Alerts;
    firing = alerts.find((alert) => alert.labels.alertname === ALERT && alert.state === 'firing');
    return firing !== undefined;
  }, 180_000);
  figures.push(`ThanosRuler ${RULER}: ${ALERT} firing ${Date.now() - promopReadyAt} ms after promop was ready, value ${firing!.value} (shards seen through Query)`);
  expect(firing!.labels).toMatchObject({ alertname: ALERT, severity: 'info' });
  expect(Number(firing!.value)).toBe(SHARDS);
  // Neither shard fires it alone: each Prometheus evaluates the same rule on its own series, and it stays inactive.
  for (const pod of SHARD_PODS) {
    const states = async () => (await world.prometheusApi<{ groups: { rules: { name: string; state: string; lastEvaluation: string }[] }[] }>('/api/v1/rules?type=alert', pod))
      .groups.flatMap((group) => group.rules).filter((rule) => rule.name === ALERT && !rule.lastEvaluation.startsWith('0001'));
    await until(`${ALERT} evaluated in ${pod}`, async () => (await states()).length === 1, 60_000);
    expect((await states()).map((rule) => rule.state)).toEqual(['inactive']);
  }
}, 240_000);

test('each shard\'s sidecar uploads a block to the bucket within minutes of starting, which Thanos reads back', async () => {
  const startedAt = Object.fromEntries(await Promise.all(SHARD_PODS.map(async (pod) => [pod, (await sidecarStartedAt(pod))!] as const)));
  await until('a block of each shard in the bucket', () => SHARD_PODS.every((pod) => bucketBlocks().some((block) => block.meta.thanos.labels.prometheus_replica === pod)), 420_000);
  const blocks = bucketBlocks();
  for (const pod of SHARD_PODS) {
    const first = blocks.filter((block) => block.meta.thanos.labels.prometheus_replica === pod).sort((a, b) => a.writtenAt - b.writtenAt)[0]!;
    figures.push(`${pod}: sidecar start → first block ${first.meta.ulid} in the bucket ${((first.writtenAt - startedAt[pod]!) / 1000).toFixed(1)} s (block of ${(first.meta.maxTime - first.meta.minTime) / 1000} s)`);
    expect(first.meta.thanos.source).toBe('sidecar');
    expect(first.meta.thanos.labels).toEqual({ prometheus: `${MONITORING}/${PROMETHEUS}`, prometheus_replica: pod });
    // blockSize set both block durations: the block is level 1 (never compacted), at most blockSize long.
    expect(first.meta.compaction.level).toBe(1);
    expect(first.meta.maxTime - first.meta.minTime).toBeLessThanOrEqual(BLOCK_MS);
  }
  // Thanos itself lists the blocks, reading the same directory as a FILESYSTEM bucket.
  const objstore = `type: FILESYSTEM\nconfig:\n  directory: ${bucketDir}\n`;
  const { stdout } = await promisify(execFile)(toolPath('thanos'), ['tools', 'bucket', 'ls', `--objstore.config=${objstore}`], { timeout: 30_000 });
  expect(stdout.trim().split('\n')).toEqual(expect.arrayContaining(blocks.map((block) => block.meta.ulid)));
}, 480_000);
