/**
 * What 5,000 unrelated Secrets of 50 KiB cost `promop run` (issue 8, P3): on a control plane of its own (etcd,
 * kube-apiserver; no kube-controller-manager, nothing here needs it), with a Prometheus and 20 ServiceMonitors, one
 * of them reading basic-auth credentials from a Secret:
 * 1. promop is started, settles (config written with every monitor, Reconciled=True, then no write for 5 s) and its
 *    RSS is sampled; it is stopped;
 * 2. 5,000 Secrets of 50 KiB are created in another namespace (333 MB of JSON if listed whole);
 * 3. promop is started again, settles, its RSS is sampled, and the referenced Secret is changed: the time until the
 *    new password is in the config Secret is measured.
 *
 * Run: `node bench/secrets.bench.ts` (about 3 minutes on 2 cores; `--secrets N`, `--size-kib K` to vary). Prints a
 * table; RSS is VmRSS of the promop process, the median of 10 samples 1 s apart, 10 s after it settled.
 */
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyCrds, untilServed, freePort, startTestEnv, type TestEnv } from '@promop/testkit';
import { GROUP, PLURALS, VERSION } from '@promop/crds';

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const SECRETS = argument('--secrets', 5_000);
const SECRET_KIB = argument('--size-kib', 50);
const MONITORS = 20;
const CLI = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'packages', 'controller', 'src', 'cli.ts');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await read();
      if (check(value)) return value;
    } catch {
      // Not there yet.
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The config text of the Prometheus, or '' while it is not written. */
async function configText(core: CoreV1Api): Promise<{ text: string; resourceVersion: string }> {
  const secret = await core.readNamespacedSecret({ namespace: 'monitoring', name: 'prometheus-main' });
  return { text: Buffer.from(secret.data?.['prometheus.yaml'] ?? '', 'base64').toString('utf8'), resourceVersion: secret.metadata?.resourceVersion ?? '' };
}

interface Run {
  settleMs: number;
  rssMiB: number;
  cpuSeconds: number;
  promop: ChildProcess;
}

/** Starts `promop run`, waits until it has settled, samples its RSS. */
async function runPromop(env: TestEnv, core: CoreV1Api, custom: CustomObjectsApi, label: string): Promise<Run> {
  const port = await freePort();
  const out = openSync(join(env.dir, `promop-${label}.log`), 'a');
  const started = Date.now();
  const promop = spawn(process.execPath, [CLI, 'run', '--kubeconfig', env.kubeconfigPath, '--metrics-address', `127.0.0.1:${port}`], { stdio: ['ignore', out, out] });
  const pid = promop.pid ?? 0;
  await until(() => fetch(`http://127.0.0.1:${port}/readyz`), (r) => r.ok, 300_000, 'promop ready');
  await until(() => configText(core), (c) => c.text.includes(`serviceMonitor/team-a/app-${MONITORS - 1}/0`), 300_000, 'the config');
  await until(async () => (await custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: 'monitoring', name: 'main' })) as { status?: { conditions?: { type: string; status: string }[] } },
    (p) => p.status?.conditions?.some((c) => c.type === 'Reconciled' && c.status === 'True') ?? false, 300_000, 'Reconciled=True');
  // Settled: its CPU time stopped growing (no list, watch burst or reconcile in progress) for 5 s.
  let cpu = cpuSeconds(pid);
  let quietSince = Date.now();
  while (Date.now() - quietSince < 5_000) {
    await sleep(500);
    const now = cpuSeconds(pid);
    if (now - cpu > 0.05) quietSince = Date.now();
    cpu = now;
  }
  const settleMs = quietSince - started;
  const settleCpu = cpu;
  await sleep(10_000);
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) {
    samples.push(rssMiB(pid));
    await sleep(1_000);
  }
  samples.sort((a, b) => a - b);
  return { settleMs, rssMiB: samples[5] ?? 0, cpuSeconds: settleCpu, promop };
}

async function stop(promop: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => promop.once('exit', resolve));
  promop.kill('SIGTERM');
  await exited;
}

async function createObjects(kc: KubeConfig): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  await applyCrds(kc);
  for (const name of ['monitoring', 'team-a', 'bulk']) await core.createNamespace({ body: { metadata: { name } } });
  await core.createNamespacedSecret({ namespace: 'team-a', body: { metadata: { name: 'api-auth' }, stringData: { user: 'scraper', password: 'first' } } });
  await untilServed(() => custom.createNamespacedCustomObject({
    group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: 'monitoring',
    body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: 'main' }, spec: { replicas: 1, serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: {} } },
  }));
  for (let i = 0; i < MONITORS; i++) {
    const endpoint = i === 0 ? { port: 'web', basicAuth: { username: { name: 'api-auth', key: 'user' }, password: { name: 'api-auth', key: 'password' } } } : { port: 'web' };
    await custom.createNamespacedCustomObject({
      group: GROUP, version: VERSION, plural: PLURALS.ServiceMonitor, namespace: 'team-a',
      body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'ServiceMonitor', metadata: { name: `app-${i}` }, spec: { selector: { matchLabels: { app: `app-${i}` } }, endpoints: [endpoint] } },
    });
  }
}

async function createBulkSecrets(core: CoreV1Api): Promise<number> {
  const value = 'x'.repeat(SECRET_KIB * 1024);
  const started = Date.now();
  let next = 0;
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (next < SECRETS) {
      const i = next++;
      await core.createNamespacedSecret({ namespace: 'bulk', body: { metadata: { name: `bulk-${i}` }, stringData: { blob: value } } });
    }
  }));
  return Date.now() - started;
}

const env = await startTestEnv({ controllerManager: false });
try {
  const kc = env.kubeConfig();
  const core = kc.makeApiClient(CoreV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  await createObjects(kc);

  const without = await runPromop(env, core, custom, 'without');
  await stop(without.promop);
  const createMs = await createBulkSecrets(core);
  const withSecrets = await runPromop(env, core, custom, 'with');

  const before = await configText(core);
  const changed = Date.now();
  await core.replaceNamespacedSecret({ namespace: 'team-a', name: 'api-auth', body: { metadata: { name: 'api-auth' }, stringData: { user: 'scraper', password: 'second' } } });
  await until(() => configText(core), (c) => c.text.includes('password: second') && c.resourceVersion !== before.resourceVersion, 60_000, 'the changed Secret in the config');
  const secretToConfigMs = Date.now() - changed;
  await stop(withSecrets.promop);

  const mib = (n: number) => `${n.toFixed(1)} MiB`;
  console.log(`node ${process.version}; ${SECRETS} Secrets of ${SECRET_KIB} KiB created in ${(createMs / 1000).toFixed(0)} s; ${MONITORS} ServiceMonitors, 1 referenced Secret`);
  console.log('                               RSS (settled)  settle time  CPU to settle');
  console.log(`without the Secrets            ${mib(without.rssMiB).padStart(13)}  ${`${(without.settleMs / 1000).toFixed(1)} s`.padStart(11)}  ${`${without.cpuSeconds.toFixed(1)} s`.padStart(13)}`);
  console.log(`with ${SECRETS} Secrets of ${SECRET_KIB} KiB    ${mib(withSecrets.rssMiB).padStart(13)}  ${`${(withSecrets.settleMs / 1000).toFixed(1)} s`.padStart(11)}  ${`${withSecrets.cpuSeconds.toFixed(1)} s`.padStart(13)}`);
  console.log(`difference                     ${mib(withSecrets.rssMiB - without.rssMiB).padStart(13)}`);
  console.log(`referenced Secret changed → config Secret updated: ${secretToConfigMs} ms`);
} finally {
  await env.stop();
}
