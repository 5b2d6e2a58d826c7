/**
 * A Prometheus that serves HTTPS (`spec.web.tlsConfig`), on the real node (kubelet, containerd, the Prometheus
 * image): its pod starts with the web config promop writes and turns Ready through the kubelet's HTTPS probes; a
 * team's ServiceMonitor change is reloaded and verified by promop over HTTPS — the Prometheus' status lists the pod
 * as running the new config hash — and Prometheus itself, asked over HTTPS with the serving certificate's CA, runs the
 * change and scrapes the team's target, while the same port refuses plain HTTP.
 *
 * The harness is the chaos suite's node world (e2e/chaos/node-world.ts): promop runs as a process in the node's
 * network namespace, the test reaches the pod through the node's bridge.
 */
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { createPki } from '@promop/testkit';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MONITORING, TEAMS } from '../chaos/chaos-cluster.ts';
import { APP, PROMETHEUS_POD, startNodeWorld, type ActiveTarget, type NodeWorld } from '../chaos/node-world.ts';
import type { PromopProcess } from '../chaos/promop-process.ts';
import { readPrometheus } from '../chaos/rendered-state.ts';
import { until } from '../chaos/settle.ts';

const TLS_SECRET = 'prometheus-web-tls';
const TEAM = TEAMS[0];
const MONITOR = 'app';
const JOB = `serviceMonitor/${TEAM}/${MONITOR}/0`;
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

type ShardStatus = { shardID: string; configHash: string; loadedReplicas?: string[] };
type PrometheusStatus = { status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[]; configStatus?: ShardStatus[] } };

let world: NodeWorld;
let promop: PromopProcess;
let dir: string;
let caCert: string;
let forwarded: { port: number; close: () => Promise<void> };
const figures: string[] = [];

/** GET `path` of the Prometheus pod over HTTPS, the chain checked against the test's CA (the pod IP is not in its names). */
function httpsGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest({
      host: '127.0.0.1', port: forwarded.port, path, ca: caCert, servername: 'localhost', timeout: 15_000,
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer to ${path} in time`)));
    request.on('error', reject);
    request.end();
  });
}

async function httpsApi<T>(path: string): Promise<T> {
  const { status, body } = await httpsGet(path);
  if (status !== 200) throw new Error(`GET ${path}: ${status} ${body.slice(0, 200)}`);
  return (JSON.parse(body) as { data: T }).data;
}

/** The shard's config hash promop verified in the pod, or undefined while it is not verified there. */
async function verifiedHash(): Promise<string | undefined> {
  const prometheus = (await readPrometheus(world.cluster.custom)) as PrometheusStatus;
  const shard = prometheus.status?.configStatus?.find((s) => s.shardID === '0');
  const reconciled = prometheus.status?.conditions?.some((c) => c.type === 'Reconciled' && c.status === 'True') ?? false;
  return reconciled && (shard?.loadedReplicas ?? []).includes(PROMETHEUS_POD) ? shard?.configHash : undefined;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'promop-web-tls-'));
  const pki = createPki(dir);
  caCert = readFileSync(pki.caCert, 'utf8');
  world = await startNodeWorld({
    prometheusSpec: { web: { tlsConfig: { cert: { secret: { name: TLS_SECRET, key: 'tls.crt' } }, keySecret: { name: TLS_SECRET, key: 'tls.key' } } } },
  });
  const { core, custom } = world.cluster;
  await core.createNamespacedSecret({
    namespace: MONITORING,
    body: { metadata: { name: TLS_SECRET }, type: 'kubernetes.io/tls', stringData: { 'tls.crt': readFileSync(pki.servingCert, 'utf8'), 'tls.key': readFileSync(pki.servingKey, 'utf8') } },
  });
  await custom.createNamespacedCustomObject({
    group: GROUP, version: VERSION, plural: PLURALS.ServiceMonitor, namespace: TEAM,
    body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'ServiceMonitor', metadata: { name: MONITOR }, spec: { selector: { matchLabels: { app: APP } }, endpoints: [{ port: 'metrics', interval: '5s' }] } },
  });
  forwarded = await world.node.bridge.forward(async () => ({ host: (await world.prometheusPod()).ip, port: 9090 }));
  ({ promop } = await world.startPromop('promop'));
  await promop.untilReady();
  const started = Date.now();
  await until(`${PROMETHEUS_POD} Ready (HTTPS probes) and verified by promop over HTTPS`, async () => (await world.prometheusPod()).ready && (await verifiedHash()) !== undefined, 240_000);
  figures.push(`pod Ready through HTTPS probes and its config verified by promop over HTTPS ${Date.now() - started} ms after promop was ready`);
  // Up to 10 minutes: the node may first wait for another test's node to finish (one per machine).
}, 600_000);

afterAll(async () => {
  process.stdout.write(`web TLS on the real node:\n  ${figures.join('\n  ')}\n`);
  await forwarded?.close();
  await promop?.stop();
  await world?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 120_000);

test('the pod serves HTTPS only: the API answers over TLS with the configured certificate, plain HTTP is refused', async () => {
  const { body } = await httpsGet('/-/ready');
  expect(body).toMatch(/ready/i);
  const plain = await world.node.bridge.request(`http://${(await world.prometheusPod()).ip}:9090/-/ready`).catch((error: Error) => ({ status: 0, body: error.message }));
  // Go's TLS server answers a plain HTTP request with 400 "Client sent an HTTP request to an HTTPS server".
  expect(plain.status).toBe(400);
  expect(plain.body).toMatch(/HTTPS server/);
}, 60_000);

test('a team\'s change is reloaded and verified over HTTPS, and Prometheus runs it and scrapes the team', async () => {
  const before = await verifiedHash();
  const changedAt = Date.now();
  await world.cluster.custom.patchNamespacedCustomObject({
    group: GROUP, version: VERSION, plural: PLURALS.ServiceMonitor, namespace: TEAM, name: MONITOR,
    body: { spec: { endpoints: [{ port: 'metrics', interval: '5s', relabelings: [{ action: 'replace', targetLabel: 'served_over', replacement: 'https-reload' }] }] } },
  }, mergePatch);
  const loadedMs = await until('Prometheus runs the change (asked over HTTPS)', async () => (await httpsApi<{ yaml: string }>('/api/v1/status/config')).yaml.includes('https-reload'), 60_000);
  await until('promop verified the new config in the pod over HTTPS', async () => {
    const hash = await verifiedHash();
    return hash !== undefined && hash !== before;
  }, 60_000);
  figures.push(`a team's change running in Prometheus ${loadedMs} ms after the PATCH, verified by promop ${Date.now() - changedAt} ms after it`);
  await until(`${JOB} up with the new label`, async () => {
    const { activeTargets } = await httpsApi<{ activeTargets: ActiveTarget[] }>('/api/v1/targets?state=active');
    return activeTargets.some((target) => target.scrapePool === JOB && target.health === 'up' && target.labels.served_over === 'https-reload');
  }, 60_000);
  // promop's reload went over HTTPS: it logged no failed reload or verification.
  expect(promop.logTail(400)).not.toMatch(/"msg":"reload failed"/);
}, 180_000);
