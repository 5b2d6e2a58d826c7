/**
 * What writing a large configuration costs the API server (issue 8, first config): 64 Secrets the size of
 * promop's scrape file Secrets at 1,000 two-endpoint ServiceMonitors (60 KB of text, 80 KB base64 each), over
 * one shared keep-alive RawApi as `promop run` makes them: created and then replaced with new content through
 * promop's ChildWriter (what promop does), and for comparison with server-side apply (the alternative) with
 * 1, 8, 32 and 64 requests in flight, and as small Secrets (600 bytes). `create` and `replace` are ChildWriter's
 * (protobuf bodies, metadata-only answers); `json create` and `json replace` the same writes as a JSON client sends
 * them (JSON bodies, the whole object answered). Wall time, this process' CPU time and kube-apiserver's CPU time
 * (/proc/<pid>/stat) are printed, so the share of the client and of the API server can be told apart.
 *
 * Run: `node bench/config-writes.bench.ts` (a control plane of its own on loopback, about a minute).
 */
import { CoreV1Api, KubeConfig, type V1Secret } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { startTestEnv } from '@promop/testkit';
import { ChildWriter, FIELD_MANAGER, PATCH_TYPE, RawApi, namespacedPath, replacementOf, type PartialObjectMetadata } from '@promop/controller/kube';
import { withAppliedHash } from '@promop/controller/reconcile/applied-hash';
import { forEachBounded } from '@promop/controller/reconcile/bounded-parallel';

const SECRETS = 64;
const NAMESPACE = 'config-writes';

const env = await startTestEnv({ controllerManager: false });
const apiServerPid = env.pids().find((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'kube-apiserver');
if (apiServerPid === undefined) throw new Error('no kube-apiserver among the processes the test environment started');
/** kube-apiserver's user + system CPU time so far, in ms (clock ticks of 10 ms). */
const apiServerCpuMs = () => {
  const fields = readFileSync(`/proc/${apiServerPid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
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
  console.log('how                          in flight   wall ms   client CPU ms   apiserver CPU ms');
  // `replace` and `apply over` rewrite the Secrets of the last create round with new content: replace over the
  // objects as last stored (what the reconciler passes from its cache), apply over with server-side apply.
  const plans: { how: 'apply' | 'create' | 'replace' | 'apply over' | 'json create' | 'json replace'; text: string; inFlight: number }[] = [
    { how: 'apply', text: large, inFlight: 8 }, // warm-up, not printed
    { how: 'create', text: large, inFlight: 8 },
    { how: 'replace', text: large, inFlight: 8 },
    { how: 'json create', text: large, inFlight: 8 },
    { how: 'json replace', text: large, inFlight: 8 },
    { how: 'apply over', text: large, inFlight: 8 },
    { how: 'apply', text: large, inFlight: 1 },
    { how: 'apply', text: large, inFlight: 8 },
    { how: 'apply', text: large, inFlight: 32 },
    { how: 'apply', text: large, inFlight: 64 },
    { how: 'create', text: small, inFlight: 8 },
    { how: 'replace', text: small, inFlight: 8 },
    { how: 'apply', text: small, inFlight: 8 },
    // JSON and protobuf alternately, twice: the machine's load changes during a run.
    ...[1, 2].flatMap(() => (['json ', ''] as const).flatMap((encoding) => [
      { how: `${encoding}create` as const, text: huge, inFlight: 8 },
      { how: `${encoding}replace` as const, text: huge, inFlight: 8 },
      { how: `${encoding}replace` as const, text: huge, inFlight: 1 },
    ])),
    { how: 'apply over', text: huge, inFlight: 8 },
    { how: 'apply over', text: huge, inFlight: 1 },
  ];
  let createRound = 0;
  const lastStored = new Map<string, PartialObjectMetadata>();
  for (const [round, plan] of plans.entries()) {
    const rewrites = plan.how === 'replace' || plan.how === 'apply over' || plan.how === 'json replace';
    if (!rewrites) {
      // The previous round's Secrets go first, so that every round meets the same number of stored objects.
      if (round > 0) await core.deleteCollectionNamespacedSecret({ namespace: NAMESPACE });
      createRound = round;
    }
    // With the applied-hash annotation promop's writes carry. It matters to a replace's cost: the API server compares
    // the new object with the old one (fieldmanager's IgnoreManagedFieldsTimestampsTransformer, a reflective
    // DeepEqual, byte by byte over `data`) and stops at the first difference, which the annotation, in metadata
    // before data, is; without it the large replaces below (new content only at the end) cost it a full comparison
    // each (docs/performance.md, "Writing").
    const secrets = Array.from({ length: SECRETS }, (_, i): V1Secret => withAppliedHash<V1Secret>({
      apiVersion: 'v1', kind: 'Secret', type: 'Opaque',
      metadata: { name: `round-${createRound}-slot-${i}`, namespace: NAMESPACE },
      data: { [`scrape-${i}.yaml`]: Buffer.from(`${plan.text}${round}`).toString('base64') },
    }));
    const started = performance.now();
    const cpu = process.cpuUsage();
    const apiServerCpu = apiServerCpuMs();
    await forEachBounded(secrets, plan.inFlight, async (secret) => {
      const name = secret.metadata?.name ?? '';
      if (plan.how === 'json create') {
        lastStored.set(name, await api.create<V1Secret>(namespacedPath('/api/v1', NAMESPACE, 'secrets'), secret, { fieldManager: FIELD_MANAGER }));
      } else if (plan.how === 'json replace') {
        const current = lastStored.get(name);
        if (!current) throw new Error(`bug: ${name} was not created`);
        lastStored.set(name, await api.replace<V1Secret>(namespacedPath('/api/v1', NAMESPACE, 'secrets', name), replacementOf(secret, current), { fieldManager: FIELD_MANAGER }));
      } else if (plan.how === 'apply' || plan.how === 'apply over') {
        lastStored.set(name, await api.patch<V1Secret>(namespacedPath('/api/v1', NAMESPACE, 'secrets', name), secret, PATCH_TYPE.apply, { fieldManager: FIELD_MANAGER, force: true }));
      } else {
        lastStored.set(name, await writer.writeSecret(secret, plan.how === 'replace' ? lastStored.get(name) : undefined));
      }
    });
    const used = process.cpuUsage(cpu);
    if (round === 0) continue;
    const what = `${SECRETS} × ${sizeOf(plan.text)} ${plan.how}`;
    const wall = Math.round(performance.now() - started);
    console.log(`${what.padEnd(27)}  ${String(plan.inFlight).padStart(9)}  ${String(wall).padStart(8)}  ${String(Math.round((used.user + used.system) / 1000)).padStart(14)}  ${String(apiServerCpuMs() - apiServerCpu).padStart(17)}`);
  }
  api.close();
} finally {
  await env.stop();
}
