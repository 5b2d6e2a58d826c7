/**
 * The ShardReloader's decisions, with the pods, the API server and Prometheus played by fakes: whom it annotates,
 * whom it calls and at which URL, what it reports as loaded, pending or failed, what it remembers between
 * reconciles, and what it records as metrics. The same path against a real API server and a real Prometheus is in
 * shard-reloader.apiserver.test.ts.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Prometheus } from '@promop/crds';
import { pino } from 'pino';
import type { PodAnnotator } from '../kube/index.ts';
import type { AlertmanagerReloadRequest, PodConfigVerifier, ReloadOutcome, ReloadOutcomeKind, ReloadRequest, ThanosRulerReloadRequest } from '../prometheus-client/index.ts';
import type { ExpectedShardFiles } from '../reconcile/index.ts';
import { shardSelectorLabels } from '../workload/index.ts';
import { FixedPodNetworks } from './pod-networks.ts';
import { CONFIG_HASH_ANNOTATION } from './shard-pods.ts';
import { configTiming } from './pod-set.ts';
import { ShardReloader } from './shard-reloader.ts';

const log = pino({ level: 'silent' });
const prometheus = (spec: Prometheus['spec'] = {}): Prometheus => ({
  apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { name: 'main', namespace: 'monitoring', uid: 'p-1' }, spec,
}) as Prometheus;
const files = (hash: string): ExpectedShardFiles => ({ configText: `global: {}\n# ${hash}\n`, ruleFiles: { '/etc/prometheus/rules/prometheus-main-rulefiles-0/a.yaml': 'groups: []\n' }, hash });

function pod(name: string, options: { ip?: string; ready?: boolean; uid?: string; hash?: string; shard?: number } = {}): V1Pod {
  const ready = options.ready ?? true;
  return {
    metadata: {
      name, namespace: 'monitoring', uid: options.uid ?? `uid-${name}`,
      labels: shardSelectorLabels('main', options.shard ?? 0),
      ...(options.hash ? { annotations: { [CONFIG_HASH_ANNOTATION]: options.hash } } : {}),
    },
    status: { phase: 'Running', ...(options.ip ? { podIP: options.ip } : {}), conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

/** Fakes around one ShardReloader; `answer` decides what each pod's Prometheus answers. */
function setup(pods: V1Pod[], answer: (request: ReloadRequest | AlertmanagerReloadRequest | ThanosRulerReloadRequest) => ReloadOutcome | Promise<ReloadOutcome> = () => ({ outcome: 'verified', attempts: 1, elapsedMs: 40, verifyMs: 10 })) {
  let now = 10_000;
  const annotated: string[] = [];
  const calls: (ReloadRequest | AlertmanagerReloadRequest | ThanosRulerReloadRequest)[] = [];
  const reloads: ReloadOutcomeKind[] = [];
  const reloadSeconds: number[] = [];
  const timings: [number, number][] = [];
  const shardLoaded: string[] = [];
  const rounds: string[] = [];
  /** The backoffs the jobs waited (ms), and how to end the waits under way. */
  const waited: number[] = [];
  const waits: (() => void)[] = [];
  const annotator: PodAnnotator = {
    annotate: async (namespace, name, key, value) => {
      annotated.push(`${namespace}/${name} ${key}=${value}`);
      return true;
    },
  };
  const verifier: PodConfigVerifier = {
    reloadAndVerify: async (request) => {
      calls.push(request);
      const outcome = await answer(request);
      now += outcome.elapsedMs;
      return outcome;
    },
  };
  const reloader = new ShardReloader({
    pods: { list: (namespace) => pods.filter((p) => p.metadata?.namespace === namespace) },
    annotator,
    verifier,
    networks: new FixedPodNetworks(['10.244.0.0/16']),
    metrics: {
      recordReload: (outcome, seconds) => { reloads.push(outcome); reloadSeconds.push(seconds); },
      changeSeenAt: () => undefined,
      recordConfigLoaded: (a, k) => timings.push([a, k]),
      setShardConfigLoaded: (key, shard, loaded) => shardLoaded.push(`${key}/${shard} ${loaded}`),
    },
    now: () => now,
    wait: (ms, signal) => new Promise((resolve) => {
      waited.push(ms);
      waits.push(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
    }),
  });
  /** What a reconcile's call answers at once. */
  const reloadNow = (hash: string, writtenAt?: Date, spec?: Prometheus['spec']) =>
    reloader.reload(prometheus(spec), 0, files(hash), { log, onRoundEnd: () => rounds.push(hash), ...(writtenAt ? { writtenAt } : {}) });
  return {
    reloader, annotated, calls, reloads, reloadSeconds, timings, shardLoaded, rounds, waited,
    advance: (ms: number) => { now += ms; },
    at: () => new Date(now),
    reloadNow,
    /** A reconcile's call, then what the next reconcile's call answers once the job's rounds ended. */
    reload: async (hash: string, writtenAt?: Date, spec?: Prometheus['spec']) => {
      await reloadNow(hash, writtenAt, spec);
      await reloader.settled();
      return reloadNow(hash, undefined, spec);
    },
    /** Ends the backoffs under way, and waits for the rounds they start. */
    retry: async () => {
      for (const resolve of waits.splice(0)) resolve();
      await new Promise((resolve) => setImmediate(resolve));
      await reloader.settled();
    },
  };
}

describe('reloading the pods of a shard', () => {
  it('annotates every pod, calls the ready ones with the written files, and reports the others as pending', async () => {
    const t = setup([pod('prometheus-main-0', { ip: '10.244.1.5' }), pod('prometheus-main-1', { ip: '10.244.2.5', ready: false }), pod('prometheus-main-shard-1-0', { ip: '10.244.3.5', shard: 1 })]);
    const result = await t.reload('h1', t.at());
    expect(t.annotated.sort()).toEqual([
      `monitoring/prometheus-main-0 ${CONFIG_HASH_ANNOTATION}=h1`,
      `monitoring/prometheus-main-1 ${CONFIG_HASH_ANNOTATION}=h1`,
    ]);
    expect(t.calls).toEqual([{ baseUrl: 'http://10.244.1.5:9090', expectedConfigText: files('h1').configText, expectedRuleFiles: files('h1').ruleFiles, signal: expect.any(AbortSignal) }]);
    expect(result).toEqual({
      state: 'loaded',
      status: {
        shardID: '0', configHash: 'h1', loadedReplicas: ['prometheus-main-0'],
        pendingReplicas: [{ pod: 'prometheus-main-1', reason: 'NotReady', message: 'Prometheus is not ready; it reads the current files when it starts' }],
      },
    });
    expect(t.reloads).toEqual(['verified']);
  });

  it('annotates a pod created after the files were written at the next call, even one that is not ready (level-based)', async () => {
    const pods: V1Pod[] = [];
    const t = setup(pods);
    await t.reload('h1', t.at());
    expect(t.annotated).toEqual([]);
    pods.push(pod('prometheus-main-0', { ip: '10.244.1.5', ready: false }));
    await t.reload('h1');
    expect(t.annotated).toEqual([`monitoring/prometheus-main-0 ${CONFIG_HASH_ANNOTATION}=h1`]);
    // Annotated once: the cache may not show the annotation yet, and the pod is not annotated again meanwhile.
    await t.reload('h1');
    expect(t.annotated).toHaveLength(1);
  });

  it('does not annotate a pod that carries the hash already', async () => {
    const t = setup([pod('prometheus-main-0', { ip: '10.244.1.5', hash: 'h1' })]);
    await t.reload('h1');
    expect(t.annotated).toEqual([]);
    expect(t.calls).toHaveLength(1);
  });

  it('calls a pod once per set of files, and again when it restarted (new uid), moved (new IP) or the files changed', async () => {
    const pods = [pod('prometheus-main-0', { ip: '10.244.1.5' })];
    const t = setup(pods);
    await t.reload('h1');
    await t.reload('h1');
    expect(t.calls).toHaveLength(1);
    pods[0] = pod('prometheus-main-0', { ip: '10.244.1.5', uid: 'restarted' });
    await t.reload('h1');
    expect(t.calls).toHaveLength(2);
    pods[0] = pod('prometheus-main-0', { ip: '10.244.1.9', uid: 'restarted' });
    await t.reload('h1');
    expect(t.calls.map((c) => c.baseUrl)).toEqual(['http://10.244.1.5:9090', 'http://10.244.1.5:9090', 'http://10.244.1.9:9090']);
    await t.reload('h2');
    expect(t.calls).toHaveLength(4);
    t.reloader.forget('monitoring/main');
    await t.reload('h2');
    expect(t.calls).toHaveLength(5);
  });

  it('refuses a pod IP outside the pod networks without calling it: a failure, counted as refused', async () => {
    const t = setup([pod('prometheus-main-0', { ip: '10.244.1.5' }), pod('prometheus-main-1', { ip: '192.168.7.7' })]);
    const result = await t.reload('h1');
    expect(t.calls.map((c) => c.baseUrl)).toEqual(['http://10.244.1.5:9090']);
    expect(result.state).toBe('failed');
    expect(result.state === 'failed' && result.message).toBe('pod prometheus-main-1: not called: 192.168.7.7 is outside the pod networks given with --pod-network (10.244.0.0/16)');
    expect(result.status.pendingReplicas).toEqual([{ pod: 'prometheus-main-1', reason: 'Refused', message: expect.stringContaining('192.168.7.7 is outside') }]);
    expect(result.status.loadedReplicas).toEqual(['prometheus-main-0']);
    expect(t.reloads.sort()).toEqual(['refused', 'verified']);
  });

  it('reports a config Prometheus refuses as a failure with its reason, and tries the pod again after a backoff that doubles', async () => {
    let answer: ReloadOutcome = { outcome: 'rejected', attempts: 1, elapsedMs: 5, reason: 'parsing YAML file /etc/prometheus/config/prometheus.yaml: unknown unit "x"' };
    const t = setup([pod('prometheus-main-0', { ip: '10.244.1.5' })], () => answer);
    const failed = await t.reload('h1', t.at());
    expect(failed).toMatchObject({ state: 'failed', message: 'pod prometheus-main-0: Prometheus refused the configuration: parsing YAML file /etc/prometheus/config/prometheus.yaml: unknown unit "x"' });
    expect(failed.status.pendingReplicas).toEqual([{ pod: 'prometheus-main-0', reason: 'Rejected', message: expect.stringContaining('unknown unit') }]);
    // A reconcile does not retry it (each round's end requeues the key: retrying then would loop); the job's backoff does.
    await t.reload('h1');
    expect(t.calls).toHaveLength(1);
    answer = { outcome: 'stale', attempts: 9, elapsedMs: 90_000, difference: 'the loaded config differs at scrape_configs' };
    await t.retry();
    const stale = await t.reloadNow('h1');
    expect(stale.state === 'failed' && stale.message).toBe('pod prometheus-main-0: the files were not loaded within 90 s (9 reloads): the loaded config differs at scrape_configs');
    expect(stale.status.pendingReplicas?.[0]?.reason).toBe('Stale');
    answer = { outcome: 'verified', attempts: 1, elapsedMs: 20, verifyMs: 20 };
    await t.retry();
    const verified = await t.reloadNow('h1');
    expect(verified).toMatchObject({ state: 'loaded', status: { loadedReplicas: ['prometheus-main-0'] } });
    // No pending pod: the list is left out, not empty (server-side apply would drop an empty one; see the schema).
    expect(verified.status).not.toHaveProperty('pendingReplicas');
    expect(t.reloads).toEqual(['rejected', 'stale', 'verified']);
    expect(t.reloadSeconds).toEqual([0.005, 90, 0.02]);
    expect(t.waited).toEqual([1_000, 2_000]);
    expect(t.rounds).toEqual(['h1', 'h1', 'h1']);
    // promop_shard_config_loaded: 0 while the pod fails, 1 once it runs the files.
    // Set at every answer and at the end of every round: false through the rejected and stale rounds, true after.
    expect(t.shardLoaded).toEqual([...Array<string>(7).fill('monitoring/main/0 false'), 'monitoring/main/0 true', 'monitoring/main/0 true']);
  });

  it('answers at once that a ready pod is being reloaded, and says so again at the end of the round', async () => {
    let release: (outcome: ReloadOutcome) => void = () => undefined;
    const t = setup([pod('prometheus-main-0', { ip: '10.244.1.5' })], () => new Promise((resolve) => { release = resolve; }));
    const first = await t.reloadNow('h1', t.at());
    expect(first).toEqual({ state: 'reloading', status: { shardID: '0', configHash: 'h1', pendingReplicas: [{ pod: 'prometheus-main-0', reason: 'Reloading', message: 'promop is reloading it with config h1' }] } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.calls).toHaveLength(1);
    // A reconcile meanwhile starts nothing more.
    expect((await t.reloadNow('h1')).state).toBe('reloading');
    expect(t.rounds).toEqual([]);
    release({ outcome: 'verified', attempts: 2, elapsedMs: 900, verifyMs: 40 });
    await t.reloader.settled();
    expect(t.rounds).toEqual(['h1']);
    expect(t.calls).toHaveLength(1);
    expect((await t.reloadNow('h1')).state).toBe('loaded');
  });

  it('newer files supersede a reload in flight: its outcome is dropped, and the newer files are called once it ended', async () => {
    const releases: ((outcome: ReloadOutcome) => void)[] = [];
    const t = setup([pod('prometheus-main-0', { ip: '10.244.1.5' })], () => new Promise((resolve) => releases.push(resolve)));
    await t.reloadNow('h1', t.at());
    await new Promise((resolve) => setImmediate(resolve));
    expect(await t.reloadNow('h2', t.at())).toMatchObject({ state: 'reloading', status: { configHash: 'h2' } });
    await new Promise((resolve) => setImmediate(resolve));
    // One reload in flight per pod: h2 waits for h1's attempt, which is told to start no other.
    expect(t.calls.map((c) => (c as ReloadRequest).expectedConfigText)).toEqual([files('h1').configText]);
    // But the kubelet is nudged for h2 meanwhile, a quarter second after the nudge for h1 (not at once: a stream of
    // writes makes at most four pod writes a second), so the files are in the pod when h2's reload starts.
    expect(t.annotated).toEqual([`monitoring/prometheus-main-0 ${CONFIG_HASH_ANNOTATION}=h1`]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(t.annotated).toEqual([`monitoring/prometheus-main-0 ${CONFIG_HASH_ANNOTATION}=h1`, `monitoring/prometheus-main-0 ${CONFIG_HASH_ANNOTATION}=h2`]);
    expect(t.calls).toHaveLength(1);
    const firstSignal = (t.calls[0] as ReloadRequest).signal;
    expect(firstSignal?.aborted).toBe(true);
    releases[0]!({ outcome: 'stale', attempts: 3, elapsedMs: 2_000, difference: 'superseded by newer files' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.calls.map((c) => (c as ReloadRequest).expectedConfigText)).toEqual([files('h1').configText, files('h2').configText]);
    releases[1]!({ outcome: 'verified', attempts: 1, elapsedMs: 30, verifyMs: 30 });
    await t.reloader.settled();
    // h1's outcome was neither reported nor counted, and its round never ended.
    expect(t.reloads).toEqual(['verified']);
    expect(t.rounds).toEqual(['h2']);
    expect(await t.reloadNow('h2')).toMatchObject({ state: 'loaded', status: { configHash: 'h2', loadedReplicas: ['prometheus-main-0'] } });
    expect(t.timings).toHaveLength(1);
  });

  it('a pod that becomes ready while the job waits to retry a failed one is called without waiting; stop ends every job', async () => {
    const pods = [pod('prometheus-main-0', { ip: '10.244.1.5' }), pod('prometheus-main-1', { ip: '10.244.2.5', ready: false })];
    const t = setup(pods, (request) => (request.baseUrl.includes('10.244.1.5')
      ? { outcome: 'unreachable', attempts: 1, elapsedMs: 5, reason: 'connect ECONNREFUSED' }
      : { outcome: 'verified', attempts: 1, elapsedMs: 5, verifyMs: 5 }));
    expect((await t.reload('h1')).state).toBe('failed');
    expect(t.waited).toEqual([1_000]);
    pods[1] = pod('prometheus-main-1', { ip: '10.244.2.5' });
    await t.reloadNow('h1');
    await new Promise((resolve) => setImmediate(resolve));
    await t.reloader.settled();
    expect(t.calls.map((c) => c.baseUrl)).toEqual(['http://10.244.1.5:9090', 'http://10.244.1.5:9090', 'http://10.244.2.5:9090']);
    expect(await t.reloadNow('h1')).toMatchObject({ state: 'failed', status: { loadedReplicas: ['prometheus-main-1'] } });
    await t.reloader.stop();
    await t.reloadNow('h2');
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.calls).toHaveLength(3);
  });

  it('does not call pods of a Prometheus listening on 127.0.0.1 only, and says why', async () => {
    const t = setup([pod('prometheus-main-0', { ip: '10.244.1.5' })]);
    const result = await t.reload('h1', undefined, { listenLocal: true });
    expect(t.calls).toEqual([]);
    // Nudged all the same: the files are there when Prometheus restarts.
    expect(t.annotated).toEqual([`monitoring/prometheus-main-0 ${CONFIG_HASH_ANNOTATION}=h1`]);
    expect(result).toMatchObject({ state: 'loaded', status: { pendingReplicas: [{ pod: 'prometheus-main-0', reason: 'ListenLocal' }] } });
    expect(result.status).not.toHaveProperty('loadedReplicas');
  });

  it('does not ask an agent for rules: it loads none, and its API has no rules endpoint', async () => {
    const agentPod: V1Pod = { ...pod('prom-agent-main-0', { ip: '10.244.1.6' }), metadata: { name: 'prom-agent-main-0', namespace: 'monitoring', uid: 'uid-agent', labels: shardSelectorLabels('main', 0, 'PrometheusAgent') } };
    const t = setup([agentPod]);
    const agent = { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'PrometheusAgent', metadata: { name: 'main', namespace: 'monitoring', uid: 'a-1' }, spec: {} } as unknown as Prometheus;
    await t.reloader.reload(agent, 0, { configText: 'global: {}\n', ruleFiles: {}, hash: 'h1' }, { log });
    await t.reloader.settled();
    expect(t.calls).toEqual([{ baseUrl: 'http://10.244.1.6:9090', expectedConfigText: 'global: {}\n', signal: expect.any(AbortSignal) }]);
    expect(await t.reloader.reload(agent, 0, { configText: 'global: {}\n', ruleFiles: {}, hash: 'h1' }, { log })).toMatchObject({ state: 'loaded', status: { loadedReplicas: ['prom-agent-main-0'] } });
  });

  it('calls Prometheus below its route prefix', async () => {
    const t = setup([pod('prometheus-main-0', { ip: '10.244.1.5' })]);
    await t.reload('h1', undefined, { routePrefix: '/prom/' });
    expect(t.calls[0]?.baseUrl).toBe('http://10.244.1.5:9090/prom');
  });

  it('records, once per write, the time until every ready pod ran the files and the kubelet\'s share of it', async () => {
    // The files arrive after 3 s of reloads (elapsed 3.05 s); the last, successful attempt took 50 ms.
    const t = setup([pod('prometheus-main-0', { ip: '10.244.1.5' })], () => ({ outcome: 'verified', attempts: 4, elapsedMs: 3_050, verifyMs: 50 }));
    const writtenAt = t.at();
    t.advance(200); // the rest of the apply, and the annotation
    await t.reload('h1', writtenAt);
    expect(t.timings).toHaveLength(1);
    const [applyToLoaded, kubeletWait] = t.timings[0]!;
    expect(applyToLoaded).toBeCloseTo(3.25, 3);
    expect(kubeletWait).toBeCloseTo(3.2, 3);
    await t.reload('h1', writtenAt);
    expect(t.timings).toHaveLength(1);
  });

  it('records no timing for files it did not write (promop restarted) or while a ready pod fails', async () => {
    let answer: ReloadOutcome = { outcome: 'unreachable', attempts: 1, elapsedMs: 5, reason: 'connect ECONNREFUSED' };
    const t = setup([pod('prometheus-main-0', { ip: '10.244.1.5' })], () => answer);
    await t.reload('h1');
    answer = { outcome: 'verified', attempts: 1, elapsedMs: 5, verifyMs: 5 };
    await t.retry();
    expect(t.timings).toEqual([]);
    answer = { outcome: 'unreachable', attempts: 1, elapsedMs: 5, reason: 'connect ECONNREFUSED' };
    await t.reload('h2', t.at());
    expect(t.timings).toEqual([]);
    answer = { outcome: 'verified', attempts: 1, elapsedMs: 5, verifyMs: 5 };
    await t.retry();
    expect(t.timings).toHaveLength(1);
  });
});

describe('reloading the pods of an Alertmanager', () => {
  const selectorLabels = { 'app.kubernetes.io/name': 'alertmanager', alertmanager: 'main' };
  const alertmanagerPod = (name: string, options: { ip: string; ready?: boolean; namespace?: string; labels?: Record<string, string> }): V1Pod => ({
    metadata: { name, namespace: options.namespace ?? 'monitoring', uid: `uid-${name}`, labels: options.labels ?? selectorLabels },
    status: { phase: 'Running', podIP: options.ip, conditions: [{ type: 'Ready', status: options.ready === false ? 'False' : 'True' }] },
  });
  const alertmanager = (spec: { listenLocal?: boolean; routePrefix?: string } = {}) => ({ metadata: { namespace: 'monitoring', name: 'main' }, spec, selectorLabels });

  it('nudges, reloads and verifies its own pods on port 9093 with the configuration text, below the route prefix', async () => {
    const t = setup([
      alertmanagerPod('alertmanager-main-0', { ip: '10.244.1.7' }),
      alertmanagerPod('alertmanager-main-1', { ip: '10.244.2.7', ready: false }),
      alertmanagerPod('alertmanager-other-0', { ip: '10.244.1.8', labels: { 'app.kubernetes.io/name': 'alertmanager', alertmanager: 'other' } }),
      alertmanagerPod('alertmanager-main-0', { ip: '10.244.3.7', namespace: 'elsewhere' }),
    ]);
    const result = await t.reloader.reloadAlertmanager(alertmanager({ routePrefix: '/am' }), 'route: {receiver: x}\n', 'a1', { log, writtenAt: t.at() });
    expect(t.annotated.sort()).toEqual([`monitoring/alertmanager-main-0 ${CONFIG_HASH_ANNOTATION}=a1`, `monitoring/alertmanager-main-1 ${CONFIG_HASH_ANNOTATION}=a1`]);
    expect(t.calls).toEqual([{ program: 'alertmanager', baseUrl: 'http://10.244.1.7:9093/am', expectedConfigText: 'route: {receiver: x}\n', signal: expect.any(AbortSignal) }]);
    expect(result).toEqual({
      state: 'loaded',
      status: {
        configHash: 'a1', loadedReplicas: ['alertmanager-main-0'],
        pendingReplicas: [{ pod: 'alertmanager-main-1', reason: 'NotReady', message: 'Alertmanager is not ready; it reads the current files when it starts' }],
      },
    });
    expect(t.timings).toHaveLength(1);
    // Alertmanagers have no shards: no promop_shard_config_loaded series.
    expect(t.shardLoaded).toEqual([]);
    await t.reloader.reloadAlertmanager(alertmanager({ routePrefix: '/am' }), 'route: {receiver: x}\n', 'a1', { log });
    expect(t.calls).toHaveLength(1);
  });

  it('reports a configuration Alertmanager refuses with its reason, and never calls a listenLocal one', async () => {
    const t = setup([alertmanagerPod('alertmanager-main-0', { ip: '10.244.1.7' })], () => ({ outcome: 'rejected', attempts: 1, elapsedMs: 3, reason: 'undefined receiver "x" used in route' }));
    const rejected = await t.reloader.reloadAlertmanager(alertmanager(), 'route: {receiver: x}\n', 'a1', { log });
    expect(rejected).toMatchObject({ state: 'failed', message: 'pod alertmanager-main-0: Alertmanager refused the configuration: undefined receiver "x" used in route' });
    const local = await t.reloader.reloadAlertmanager(alertmanager({ listenLocal: true }), 'route: {receiver: y}\n', 'a2', { log });
    expect(t.calls).toHaveLength(1);
    expect(local).toMatchObject({ state: 'loaded', status: { pendingReplicas: [{ pod: 'alertmanager-main-0', reason: 'ListenLocal' }] } });
  });
});

describe('reloading the pods of a ThanosRuler', () => {
  const selectorLabels = { 'app.kubernetes.io/name': 'thanos-ruler', 'thanos-ruler': 'r' };
  const rulerPod = (name: string, ip: string): V1Pod => ({
    metadata: { name, namespace: 'monitoring', uid: `uid-${name}`, labels: selectorLabels },
    status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: 'True' }] },
  });
  const ruler = (spec: { listenLocal?: boolean; routePrefix?: string; labels?: Record<string, string> } = {}) => ({ metadata: { namespace: 'monitoring', name: 'r' }, spec, selectorLabels });
  const ruleFiles = { '/etc/thanos/rules/thanos-ruler-r-rulefiles-0/team-a-slo-u.yaml': 'groups: []\n' };

  it('reloads thanos rule on port 10902 below the route prefix, expecting the written files and leaving its external labels out', async () => {
    const t = setup([rulerPod('thanos-ruler-r-0', '10.244.1.9')]);
    const result = await t.reloader.reloadThanosRuler(ruler({ routePrefix: '/ruler', labels: { region: 'eu' } }), ruleFiles, { log });
    expect(t.calls).toEqual([{
      program: 'thanos-ruler', baseUrl: 'http://10.244.1.9:10902/ruler', expectedRuleFiles: ruleFiles, externalLabels: ['thanos_ruler_replica', 'region'], signal: expect.any(AbortSignal),
    }]);
    expect(result).toMatchObject({ state: 'loaded', status: { loadedReplicas: ['thanos-ruler-r-0'] } });
    expect(t.annotated).toEqual([expect.stringMatching(new RegExp(`^monitoring/thanos-ruler-r-0 ${CONFIG_HASH_ANNOTATION}=[0-9a-f]{16}$`))]);
  });

  it('reports rule files thanos rule refuses, and never calls a listenLocal one', async () => {
    const t = setup([rulerPod('thanos-ruler-r-0', '10.244.1.9')], () => ({ outcome: 'rejected', attempts: 1, elapsedMs: 3, reason: 'error loading rules, previous rule set restored' }));
    const rejected = await t.reloader.reloadThanosRuler(ruler(), ruleFiles, { log });
    expect(rejected).toMatchObject({ state: 'failed', message: 'pod thanos-ruler-r-0: Thanos Ruler refused the configuration: error loading rules, previous rule set restored' });
    const local = await t.reloader.reloadThanosRuler(ruler({ listenLocal: true }), { ...ruleFiles, '/etc/thanos/rules/x/y.yaml': 'groups: []\n' }, { log });
    expect(t.calls).toHaveLength(1);
    expect(local).toMatchObject({ state: 'loaded', status: { pendingReplicas: [{ pod: 'thanos-ruler-r-0', reason: 'ListenLocal' }] } });
  });
});

describe('the timing of a written config', () => {
  it('runs to the last pod verified, and its kubelet part to the start of the last successful attempt', () => {
    expect(configTiming(1_000, [{ filesSeenAt: 1_500, verifiedAt: 1_520 }, { filesSeenAt: 2_900, verifiedAt: 3_000 }])).toEqual({ applyToLoadedMs: 2_000, kubeletWaitMs: 1_900, reloadMs: 100 });
  });
});
