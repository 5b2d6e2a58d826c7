/**
 * What writing a large configuration costs the API server (issue 8, first config): 64 Secrets the size of
 * promop's scrape file Secrets at 1,000 two-endpoint ServiceMonitors (60 KB of text, 80 KB base64 each), over
 * one shared keep-alive RawApi as `promop run` makes them: created and then replaced with new content through
 * promop's ChildWriter (what promop does), and for comparison with server-side apply (what promop did before) with
 * 1, 8, 32 and 64 requests in flight, and as small Secrets (600 bytes). Wall time and this process' CPU time are
 * printed, so the share of the client and of the API server (+ etcd) can be told apart.
 *
 * Run: `node bench/config-writes.bench.ts` (a control plane of its own on loopback, about a minute).
 */
import { CoreV1Api, KubeConfig, type V1Secret } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { startTestEnv } from '../e2e/src/test-env.ts';
import { ChildWriter, FIELD_MANAGER, PATCH_TYPE, RawApi, namespacedPath } from '../packages/controller/src/kube/index.ts';
import { forEachBounded } from '../packages/controller/src/reconcile/bounded-parallel.ts';

const SECRETS = 64;
const NAMESPACE = 'config-writes';

const env = await startTestEnv({ controllerManager: false });
try {
  const admin = new KubeConfig();
  admin.loadFromFile(env.kubeconfigPath);
  const core = admin.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: NAMESPACE } } });
  const api = new RawApi(admin);
  const writer = new ChildWriter(api);
  const large = randomBytes(30_000).toString('hex');
  const small = large.slice(0, 600);
  // A scrape file Secret at 10,000 monitors (600 KB of text, 800 KB base64).
  const huge = randomBytes(300_000).toString('hex');
  const sizeOf = (text: string) => (text === huge ? '800 KB' : text === large ? '80 KB' : '0.8 KB');
  console.log(`node ${process.version}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('how                     in flight   wall ms   client CPU ms');
  // `replace` and `apply over` rewrite the Secrets of the last create round with new content: replace over the
  // objects as last stored (what the reconciler passes from its cache), apply over with server-side apply.
  const plans: { how: 'apply' | 'create' | 'replace' | 'apply over'; text: string; inFlight: number }[] = [
    { how: 'apply', text: large, inFlight: 8 }, // warm-up, not printed
    { how: 'create', text: large, inFlight: 8 },
    { how: 'replace', text: large, inFlight: 8 },
    { how: 'apply over', text: large, inFlight: 8 },
    { how: 'apply', text: large, inFlight: 1 },
    { how: 'apply', text: large, inFlight: 8 },
    { how: 'apply', text: large, inFlight: 32 },
    { how: 'apply', text: large, inFlight: 64 },
    { how: 'create', text: small, inFlight: 8 },
    { how: 'replace', text: small, inFlight: 8 },
    { how: 'apply', text: small, inFlight: 8 },
    { how: 'create', text: huge, inFlight: 8 },
    { how: 'replace', text: huge, inFlight: 8 },
    { how: 'apply over', text: huge, inFlight: 8 },
    { how: 'replace', text: huge, inFlight: 1 },
    { how: 'apply over', text: huge, inFlight: 1 },
  ];
  let createRound = 0;
  const lastStored = new Map<string, V1Secret>();
  for (const [round, plan] of plans.entries()) {
    const rewrites = plan.how === 'replace' || plan.how === 'apply over';
    if (!rewrites) createRound = round;
    const secrets = Array.from({ length: SECRETS }, (_, i): V1Secret => ({
      apiVersion: 'v1', kind: 'Secret', type: 'Opaque',
      metadata: { name: `round-${createRound}-slot-${i}`, namespace: NAMESPACE },
      data: { [`scrape-${i}.yaml`]: Buffer.from(`${plan.text}${round}`).toString('base64') },
    }));
    const started = performance.now();
    const cpu = process.cpuUsage();
    await forEachBounded(secrets, plan.inFlight, async (secret) => {
      const name = secret.metadata?.name ?? '';
      if (plan.how === 'apply' || plan.how === 'apply over') {
        lastStored.set(name, await api.patch<V1Secret>(namespacedPath('/api/v1', NAMESPACE, 'secrets', name), secret, PATCH_TYPE.apply, { fieldManager: FIELD_MANAGER, force: true }));
      } else {
        lastStored.set(name, await writer.writeSecret(secret, plan.how === 'replace' ? lastStored.get(name) : undefined));
      }
    });
    const used = process.cpuUsage(cpu);
    if (round === 0) continue;
    const what = `${SECRETS} × ${sizeOf(plan.text)} ${plan.how}`;
    console.log(`${what.padEnd(22)}  ${String(plan.inFlight).padStart(9)}  ${String(Math.round(performance.now() - started)).padStart(8)}  ${String(Math.round((used.user + used.system) / 1000)).padStart(14)}`);
  }
  api.close();
} finally {
  await env.stop();
}
