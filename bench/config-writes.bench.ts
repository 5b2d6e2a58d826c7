/**
 * What writing a large configuration costs the API server (issue 8, first config): 64 Secrets the size of
 * promop's scrape file Secrets at 1,000 two-endpoint ServiceMonitors (60 KB of text, 80 KB base64 each), written
 * through promop's ChildWriter (server-side apply, shared keep-alive connections) with 1, 8, 32 and 64 requests in
 * flight, and for comparison as plain creates (POST) and as small Secrets (600 bytes). Wall time and this
 * process' CPU time are printed, so the share of the client and of the API server (+ etcd) can be told apart.
 *
 * Run: `node bench/config-writes.bench.ts` (a control plane of its own on loopback, about a minute).
 */
import { CoreV1Api, KubeConfig, type V1Secret } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { startTestEnv } from '../e2e/src/test-env.ts';
import { ChildWriter, sharedConnectionsKubeConfig } from '../packages/controller/src/kube/index.ts';
import { forEachBounded } from '../packages/controller/src/reconcile/bounded-parallel.ts';

const SECRETS = 64;
const NAMESPACE = 'config-writes';

const env = await startTestEnv({ controllerManager: false });
try {
  const admin = new KubeConfig();
  admin.loadFromFile(env.kubeconfigPath);
  const kc = sharedConnectionsKubeConfig(admin);
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: NAMESPACE } } });
  const writer = new ChildWriter(kc);
  const large = randomBytes(30_000).toString('hex');
  const small = large.slice(0, 600);
  console.log(`node ${process.version}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('how                     in flight   wall ms   client CPU ms');
  const plans: { how: 'apply' | 'create'; text: string; inFlight: number }[] = [
    { how: 'apply', text: large, inFlight: 8 }, // warm-up, not printed
    { how: 'apply', text: large, inFlight: 1 },
    { how: 'apply', text: large, inFlight: 8 },
    { how: 'apply', text: large, inFlight: 32 },
    { how: 'apply', text: large, inFlight: 64 },
    { how: 'create', text: large, inFlight: 8 },
    { how: 'apply', text: small, inFlight: 8 },
    { how: 'create', text: small, inFlight: 8 },
  ];
  for (const [round, plan] of plans.entries()) {
    const secrets = Array.from({ length: SECRETS }, (_, i): V1Secret => ({
      apiVersion: 'v1', kind: 'Secret', type: 'Opaque',
      metadata: { name: `round-${round}-slot-${i}`, namespace: NAMESPACE },
      data: { [`scrape-${i}.yaml`]: Buffer.from(`${plan.text}${round}`).toString('base64') },
    }));
    const started = performance.now();
    const cpu = process.cpuUsage();
    await forEachBounded(secrets, plan.inFlight, async (secret) => {
      if (plan.how === 'apply') await writer.applySecret(secret);
      else await core.createNamespacedSecret({ namespace: NAMESPACE, body: secret });
    });
    const used = process.cpuUsage(cpu);
    if (round === 0) continue;
    const what = `${SECRETS} × ${plan.text === large ? '80 KB' : '0.8 KB'} ${plan.how}`;
    console.log(`${what.padEnd(22)}  ${String(plan.inFlight).padStart(9)}  ${String(Math.round(performance.now() - started)).padStart(8)}  ${String(Math.round((used.user + used.system) / 1000)).padStart(14)}`);
  }
} finally {
  await env.stop();
}
