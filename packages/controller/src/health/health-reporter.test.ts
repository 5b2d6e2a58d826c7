/**
 * The health reporter with in-memory caches, a fake Prometheus API per pod IP and a recording status writer: which
 * pods it reads, when it writes and what.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { GROUP } from '@promop/crds';
import { pino } from 'pino';
import type { PrometheusClient } from '../prometheus-client/index.ts';
import { shardSelectorLabels } from '../workload/index.ts';
import { HealthReporter } from './health-reporter.ts';
import { readWorkloadsHealth } from './workload-health-reader.ts';
import type { Binding } from './binding-health.ts';

type Listed = { metadata: { namespace: string; name: string; uid?: string; resourceVersion?: string; generation?: number }; spec?: object; status?: object };
const cache = (items: Listed[]) => ({ get: () => undefined, list: (namespace?: string) => items.filter((i) => namespace === undefined || i.metadata.namespace === namespace) });

function pod(name: string, ip: string, shard: number, ready = true): V1Pod {
  return {
    metadata: { name, namespace: 'monitoring', labels: shardSelectorLabels('main', shard) },
    status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

const accepted = (): Binding => ({
  group: GROUP, resource: 'prometheuses', namespace: 'monitoring', name: 'main',
  conditions: [{ type: 'Accepted', status: 'True', reason: 'Accepted', lastTransitionTime: '2026-12-07T07:00:00Z' }],
});
const monitor = (namespace: string, name: string, binding: Binding = accepted()): Listed =>
  ({ metadata: { namespace, name, resourceVersion: '1' }, status: { bindings: [binding], acceptedBy: 1, rejectedBy: 0 } });

interface World {
  reporter: HealthReporter;
  writes: { kind: string; namespace: string; name: string; status: { bindings?: Binding[] } }[];
  events: { type: string; reason: string; regarding: { kind?: string; namespace: string; name: string }; related?: { name?: string; uid?: string }; note: string }[];
  called: string[];
  clock: { now: number };
  monitors: Listed[];
}

interface Discovery {
  /** By scrape pool: what the Prometheus answers for its dropped targets ('error': it fails). */
  dropped?: Record<string, { count: number; labels: Record<string, string>[] } | 'error'>;
  /** The Services of each namespace. */
  services?: Record<string, object[]>;
  namespaces?: string[];
  /** Counts the requests made for the reasons. */
  requests?: string[];
}

function world(options: { shards?: number; pods: V1Pod[]; answers: Record<string, { targets: object[] } | 'error'>; monitors: Listed[]; loaded?: string[][]; discovery?: Discovery }): World {
  const discovery = options.discovery ?? {};
  const clock = { now: Date.parse('2026-12-07T08:00:00Z') };
  const writes: World['writes'] = [];
  const events: World['events'] = [];
  const called: string[] = [];
  const prometheus: Listed = {
    metadata: { namespace: 'monitoring', name: 'main', uid: 'prometheus-uid' },
    spec: { shards: options.shards ?? 1 },
    ...(options.loaded ? { status: { configStatus: options.loaded.map((replicas, shard) => ({ shardID: String(shard), configHash: 'h', loadedReplicas: replicas })) } } : {}),
  };
  const client = (baseUrl: string) => {
    const ip = new URL(baseUrl).hostname;
    called.push(ip);
    const answer = options.answers[ip];
    const failed = { ok: false as const, error: { kind: 'network' as const, code: 'ECONNREFUSED', message: 'refused' } };
    return {
      activeTargets: async () => (answer === undefined || answer === 'error' ? failed : { ok: true as const, value: { activeTargets: answer.targets } }),
      ruleGroups: async () => ({ ok: true as const, value: [] }),
      droppedTargets: async (pool: string) => {
        discovery.requests?.push(`prometheus ${pool}`);
        const dropped = discovery.dropped?.[pool] ?? { count: 0, labels: [] };
        if (dropped === 'error') return failed;
        return { ok: true as const, value: { droppedTargets: dropped.labels.map((labels) => ({ scrapePool: pool, discoveredLabels: labels })), droppedTargetCounts: { [pool]: dropped.count } } };
      },
    } as unknown as PrometheusClient;
  };
  const caches = {
    pods: cache(options.pods as Listed[]), prometheusAgents: cache([]),
    namespaces: { get: () => undefined, list: () => (discovery.namespaces ?? ['team-a', 'team-b']).map((name) => ({ metadata: { name } })) },
    prometheuses: { ...cache([prometheus]), get: (name: string, namespace?: string) => (namespace === 'monitoring' && name === 'main' ? prometheus : undefined) },
    serviceMonitors: cache(options.monitors), podMonitors: cache([]), probes: cache([]), scrapeConfigs: cache([]), prometheusRules: cache([]),
  };
  const reporter = new HealthReporter({
    caches: caches as never, client,
    networks: { allowList: () => { throw new Error('unused'); }, admit: async (ip) => (ip.startsWith('10.') ? { ok: true } : { ok: false, reason: 'outside' }) },
    status: { apply: async (target, status) => { writes.push({ kind: target.kind, namespace: target.namespace, name: target.name, status: status as never }); return { resourceVersion: '2' }; } },
    events: { record: async (event) => { events.push(event); } },
    listObjects: async (resource, namespace, labelSelector) => {
      discovery.requests?.push(`list ${resource} ${namespace} ${labelSelector}`);
      return { items: resource === 'services' ? (discovery.services?.[namespace] ?? []) as never : [], complete: true };
    },
    log: pino({ level: 'silent' }),
    now: () => new Date(clock.now),
  });
  return { reporter, writes, events, called, clock, monitors: options.monitors };
}

const up = (pool: string) => ({ scrapePool: pool, health: 'up', lastError: '' });
const down = (pool: string, lastError: string) => ({ scrapePool: pool, health: 'down', lastError });

/**
 * One monitor team-a/api read from one pod, and a round a minute: `round(targets)` makes the pod answer `targets`,
 * runs the reporter a minute later, and puts what it wrote into the cache as the API server would.
 */
function minuteRounds(): { w: World; round: (targets: object[]) => Promise<void> } {
  const answers: Record<string, { targets: object[] }> = { '10.0.0.1': { targets: [up('serviceMonitor/team-a/api/0')] } };
  const w = world({ pods: [pod('p-0', '10.0.0.1', 0)], answers, monitors: [monitor('team-a', 'api')] });
  const round = async (targets: object[]) => {
    answers['10.0.0.1'] = { targets };
    w.clock.now += 60_000;
    await w.reporter.runOnce();
    const last = w.writes.at(-1);
    if (last) w.monitors[0] = { ...w.monitors[0]!, status: last.status };
  };
  return { w, round };
}

describe('the health reporter', () => {
  it('writes each monitor its own targets, summed over the shards', async () => {
    const w = world({
      shards: 2, pods: [pod('p-0', '10.0.0.1', 0), pod('p-1', '10.0.0.2', 1)],
      answers: {
        '10.0.0.1': { targets: [up('serviceMonitor/team-a/api/0'), down('serviceMonitor/team-b/web/0', 'Get "http://u:p@10.1.1.1:80/m?k=v": EOF')] },
        '10.0.0.2': { targets: [up('serviceMonitor/team-a/api/0')] },
      },
      monitors: [monitor('team-a', 'api'), monitor('team-b', 'web')],
    });
    await w.reporter.runOnce();
    expect(w.writes.map((x) => `${x.namespace}/${x.name}`)).toEqual(['team-a/api', 'team-b/web']);
    expect(w.writes[0]?.status.bindings?.[0]?.targets).toEqual({ active: 2, up: 2, down: 0, unknown: 0 });
    expect(w.writes[1]?.status.bindings?.[0]?.targets).toEqual({ active: 1, up: 0, down: 1, unknown: 0, lastError: 'Get "http://10.1.1.1:80/m?k=<redacted>": EOF', lastErrorCount: 1 });
    expect(JSON.stringify(w.writes[0])).not.toContain('EOF');
  });

  it('skips a Prometheus one of whose shards cannot be read, rather than report half its targets', async () => {
    const w = world({
      shards: 2, pods: [pod('p-0', '10.0.0.1', 0), pod('p-1', '10.0.0.2', 1)],
      answers: { '10.0.0.1': { targets: [up('serviceMonitor/team-a/api/0')] }, '10.0.0.2': 'error' },
      monitors: [monitor('team-a', 'api')],
    });
    await w.reporter.runOnce();
    expect(w.writes).toEqual([]);
  });

  it('reads only a ready replica that runs the written files, inside the pod networks, and tries the next one', async () => {
    const w = world({
      pods: [pod('p-a', '10.0.0.1', 0, false), pod('p-b', '192.168.0.9', 0), pod('p-c', '10.0.0.3', 0), pod('p-d', '10.0.0.4', 0), pod('p-e', '10.0.0.5', 0)],
      answers: { '10.0.0.3': 'error', '10.0.0.4': { targets: [up('serviceMonitor/team-a/api/0')] }, '10.0.0.5': { targets: [] } },
      monitors: [monitor('team-a', 'api')],
      loaded: [['p-a', 'p-b', 'p-c', 'p-d']],
    });
    await w.reporter.runOnce();
    // p-a is not ready, p-b outside the pod networks, p-c fails, p-d answers; p-e has not loaded the files.
    expect(w.called).toEqual(['10.0.0.3', '10.0.0.4']);
    expect(w.writes[0]?.status.bindings?.[0]?.targets).toMatchObject({ up: 1 });
  });

  it('writes an object at most once per minute, and nothing while its class stays', async () => {
    const answers: Record<string, { targets: object[] }> = { '10.0.0.1': { targets: [up('serviceMonitor/team-a/api/0')] } };
    const w = world({ pods: [pod('p-0', '10.0.0.1', 0)], answers, monitors: [monitor('team-a', 'api')] });
    await w.reporter.runOnce();
    expect(w.writes).toHaveLength(1);
    // The cache now holds what was written.
    w.monitors[0] = { ...w.monitors[0]!, status: w.writes[0]!.status };
    w.clock.now += 30_000;
    await w.reporter.runOnce();
    expect(w.writes).toHaveLength(1);
    answers['10.0.0.1'] = { targets: [down('serviceMonitor/team-a/api/0', 'EOF')] };
    w.clock.now += 20_000;
    await w.reporter.runOnce();
    expect(w.writes).toHaveLength(1);
    w.clock.now += 10_000;
    await w.reporter.runOnce();
    expect(w.writes).toHaveLength(2);
    expect(w.writes[1]?.status.bindings?.[0]?.conditions?.find((c) => c.type === 'Healthy')).toMatchObject({ status: 'False', reason: 'TargetsDown' });
  });

  it('warns once, on the team\'s object, when a monitor\'s targets all go down or it finds none; not while it stays so, nor on recovery', async () => {
    const { w, round } = minuteRounds();
    await round([up('serviceMonitor/team-a/api/0')]);
    await round([down('serviceMonitor/team-a/api/0', 'Get "http://10.1.1.1:80/m?token=s3cret": EOF')]);
    await round([down('serviceMonitor/team-a/api/0', 'Get "http://10.1.1.1:80/m?token=s3cret": EOF'), down('serviceMonitor/team-a/api/0', 'EOF')]);
    await round([up('serviceMonitor/team-a/api/0')]);
    await round([]);
    await round([]);
    expect(w.events.map((e) => [e.type, e.reason, `${e.regarding.kind} ${e.regarding.namespace}/${e.regarding.name}`, e.related?.uid])).toEqual([
      ['Warning', 'AllTargetsDown', 'ServiceMonitor team-a/api', 'prometheus-uid'],
      ['Warning', 'NoTargets', 'ServiceMonitor team-a/api', 'prometheus-uid'],
    ]);
    expect(w.events[0]?.note).toBe('Prometheus monitoring/main: all 1 down (0/1 up); 1 with: Get "http://10.1.1.1:80/m?token=<redacted>": EOF');
  });

  it('reports a monitor without targets only once it has found none for 10 s (service discovery takes seconds after a load)', async () => {
    const answers: Record<string, { targets: object[] }> = { '10.0.0.1': { targets: [] } };
    const w = world({ pods: [pod('p-0', '10.0.0.1', 0)], answers, monitors: [monitor('team-a', 'api')] });
    await w.reporter.runOnce();
    w.clock.now += 5_000;
    await w.reporter.runOnce();
    expect(w.writes).toEqual([]);
    // Its targets came: up, at once.
    answers['10.0.0.1'] = { targets: [up('serviceMonitor/team-a/api/0')] };
    w.clock.now += 1_000;
    await w.reporter.runOnce();
    expect(w.writes.map((x) => x.status.bindings?.[0]?.conditions?.find((c) => c.type === 'Healthy')?.reason)).toEqual(['TargetsUp']);
    w.monitors[0] = { ...w.monitors[0]!, status: w.writes[0]!.status };
    // Gone for good: NoTargets once it stayed so for 10 s (and the minute between two writes passed).
    answers['10.0.0.1'] = { targets: [] };
    w.clock.now += 60_000;
    await w.reporter.runOnce();
    expect(w.writes).toHaveLength(1);
    w.clock.now += 10_000;
    await w.reporter.runOnce();
    expect(w.writes.map((x) => x.status.bindings?.[0]?.conditions?.find((c) => c.type === 'Healthy')?.reason)).toEqual(['TargetsUp', 'NoTargets']);
    expect(w.events.map((e) => e.reason)).toEqual(['NoTargets']);
  });

  it('writes nothing while targets are not scraped yet (a Prometheus just started): the binding keeps what it said, and the answer comes at once', async () => {
    const unknown = (pool: string) => ({ scrapePool: pool, health: 'unknown', lastError: '' });
    const answers: Record<string, { targets: object[] }> = { '10.0.0.1': { targets: [unknown('serviceMonitor/team-a/api/0')] } };
    const w = world({ pods: [pod('p-0', '10.0.0.1', 0)], answers, monitors: [monitor('team-a', 'api')] });
    await w.reporter.runOnce();
    expect(w.writes).toEqual([]);
    answers['10.0.0.1'] = { targets: [up('serviceMonitor/team-a/api/0')] };
    w.clock.now += 10_000;
    await w.reporter.runOnce();
    expect(w.writes.map((x) => x.status.bindings?.[0]?.conditions?.find((c) => c.type === 'Healthy')?.reason)).toEqual(['TargetsUp']);
    w.monitors[0] = { ...w.monitors[0]!, status: w.writes[0]!.status };
    // Restarted: its targets are unknown again for a scrape interval; nothing is written for that.
    answers['10.0.0.1'] = { targets: [unknown('serviceMonitor/team-a/api/0')] };
    w.clock.now += 120_000;
    await w.reporter.runOnce();
    expect(w.writes).toHaveLength(1);
  });

  describe('a monitor that finds no target', () => {
    const web = { metadata: { namespace: 'team-b', name: 'web', labels: { app: 'web' } }, spec: { ports: [{ name: 'http', port: 80 }] } };
    const spec = (port: string) => ({ selector: { matchLabels: { app: 'web' } }, endpoints: [{ port }] });
    const healthyOf = (write: World['writes'][number] | undefined) => write?.status.bindings?.[0]?.conditions?.find((c) => c.type === 'Healthy');
    const setUp = (discovery: Discovery) => {
      const answers: Record<string, { targets: object[] }> = { '10.0.0.1': { targets: [] } };
      const smon: Listed = { ...monitor('team-b', 'web'), metadata: { namespace: 'team-b', name: 'web', resourceVersion: '1', generation: 1 }, spec: spec('metricz') };
      const w = world({ pods: [pod('p-0', '10.0.0.1', 0)], answers, monitors: [smon], discovery });
      const round = async (ms: number) => {
        w.clock.now += ms;
        await w.reporter.runOnce();
        const last = w.writes.at(-1);
        if (last) w.monitors[0] = { ...w.monitors[0]!, status: last.status };
      };
      return { w, round };
    };

    it('says why in its condition and its Warning, with the field path, once it is reported so', async () => {
      const requests: string[] = [];
      const { w, round } = setUp({ services: { 'team-b': [web] }, requests });
      await round(0);
      expect(requests).toEqual([]);
      await round(10_000);
      const reason = 'spec.endpoints[0].port: no Service selected by spec.selector in namespace team-b has a port named "metricz"';
      expect(healthyOf(w.writes[0])).toMatchObject({ status: 'False', reason: 'NoTargets', message: `no active target: ${reason}` });
      expect(w.events.map((e) => e.note)).toEqual([`Prometheus monitoring/main: no active target: ${reason}`]);
      expect(requests).toEqual(['list services team-b app=web', 'prometheus serviceMonitor/team-b/web/0']);
    });

    it('writes each monitor newly without targets once, with its reason, however many there are at once', async () => {
      const requests: string[] = [];
      const monitors = Array.from({ length: 25 }, (_, i): Listed => ({ ...monitor('team-b', `web-${i}`), spec: spec('metricz') }));
      const w = world({ pods: [pod('p-0', '10.0.0.1', 0)], answers: { '10.0.0.1': { targets: [] } }, monitors, discovery: { services: { 'team-b': [web] }, requests } });
      const round = async (ms: number) => {
        w.clock.now += ms;
        await w.reporter.runOnce();
        for (const write of w.writes) {
          const index = w.monitors.findIndex((m) => m.metadata.name === write.name);
          w.monitors[index] = { ...w.monitors[index]!, status: write.status };
        }
      };
      await round(0);
      await round(10_000);
      // Twenty look-ups a round: twenty written, five wait for theirs.
      expect(w.writes).toHaveLength(20);
      await round(30_000);
      expect(w.writes).toHaveLength(25);
      expect(new Set(w.writes.map((x) => x.name)).size).toBe(25);
      expect(w.writes.every((x) => healthyOf(x)?.message?.includes('named "metricz"'))).toBe(true);
    });

    it('looks again when the monitor changes or now and then, and writes only when the reason itself changes', async () => {
      const requests: string[] = [];
      const dropped: NonNullable<Discovery['dropped']> = {};
      const { w, round } = setUp({ services: { 'team-b': [web] }, requests, dropped });
      await round(0);
      await round(10_000);
      expect(w.writes).toHaveLength(1);
      requests.length = 0;
      // Nothing changed: not looked up again within five minutes, nothing written.
      await round(60_000);
      expect(requests).toEqual([]);
      // The team fixes the port; what is left is relabeling (two of three discovered targets are its Service's).
      const own = { __meta_kubernetes_namespace: 'team-b', __meta_kubernetes_service_name: 'web' };
      dropped['serviceMonitor/team-b/web/0'] = { count: 3, labels: [own, own, { ...own, __meta_kubernetes_service_name: 'db' }] };
      w.monitors[0] = { ...w.monitors[0]!, metadata: { ...w.monitors[0]!.metadata, generation: 2 }, spec: spec('http') };
      await round(1_000);
      expect(w.writes.map((x) => healthyOf(x)?.message)).toEqual([
        expect.stringContaining('named "metricz"'),
        'no active target: spec.endpoints[0]: Prometheus discovered 2 targets of the selected Services and relabeling dropped them all',
      ]);
      // Five minutes on, more pods: the same reason with another count is not worth a write.
      dropped['serviceMonitor/team-b/web/0'] = { count: 5, labels: [own, own, own, own, own] };
      requests.length = 0;
      await round(300_000);
      expect(requests).toHaveLength(2);
      expect(w.writes).toHaveLength(2);
      // A lookup that fails keeps the reason written.
      dropped['serviceMonitor/team-b/web/0'] = 'error';
      await round(300_000);
      expect(w.writes).toHaveLength(2);
      expect(w.events.map((e) => e.reason)).toEqual(['NoTargets']);
    });
  });

  it('removes what it reported from a binding that is no longer accepted, and leaves other Prometheus\' bindings alone', async () => {
    const rejected: Binding = {
      ...accepted(),
      conditions: [{ type: 'Accepted', status: 'False', reason: 'InvalidConfiguration', lastTransitionTime: '2026-12-07T07:00:00Z' }, { type: 'Healthy', status: 'True', reason: 'TargetsUp', lastTransitionTime: '2026-12-07T07:00:00Z' }],
      targets: { active: 1, up: 1, down: 0, unknown: 0 },
    };
    const other: Binding = { ...accepted(), name: 'other' };
    const object: Listed = { metadata: { namespace: 'team-a', name: 'api' }, status: { bindings: [rejected, other], acceptedBy: 1, rejectedBy: 1 } };
    const w = world({ pods: [pod('p-0', '10.0.0.1', 0)], answers: { '10.0.0.1': { targets: [] } }, monitors: [object] });
    await w.reporter.runOnce();
    expect(w.writes[0]?.status.bindings).toEqual([{ ...accepted(), conditions: [rejected.conditions![0]] }, other]);
  });
  it('writes nothing, and warns no more, while a monitor\'s targets go down and up every minute; writes once it holds', async () => {
    const pool = 'serviceMonitor/team-a/api/0';
    const { w, round } = minuteRounds();
    const said = () => w.writes.map((write) => write.status.bindings?.[0]?.conditions?.find((c) => c.type === 'Healthy')?.reason);
    // Ten minutes of flapping: the first report and three changes are written, then nothing.
    for (let minute = 0; minute < 10; minute += 1) await round(minute % 2 === 0 ? [up(pool)] : [down(pool, 'EOF')]);
    expect(said()).toEqual(['TargetsUp', 'TargetsDown', 'TargetsUp', 'TargetsDown']);
    expect(w.events.map((e) => e.reason)).toEqual(['AllTargetsDown', 'AllTargetsDown']);
    // The last flip was to down (minute 9); it goes up and stays up: written once up for three minutes, no Warning.
    for (let minute = 0; minute < 3; minute += 1) await round([up(pool)]);
    expect(said()).toHaveLength(4);
    await round([up(pool)]);
    expect(said()).toEqual(['TargetsUp', 'TargetsDown', 'TargetsUp', 'TargetsDown', 'TargetsUp']);
    expect(w.events).toHaveLength(2);
  });
});

describe('reading a PrometheusAgent', () => {
  // A pod with the StatefulSet agent's shard labels: the agent's own in StatefulSet mode, one left over from before a
  // switch to DaemonSet mode in the other.
  const agentPod: V1Pod = {
    metadata: { name: 'prom-agent-nodes-0', namespace: 'monitoring', labels: shardSelectorLabels('nodes', 0, 'PrometheusAgent') },
    status: { phase: 'Running', podIP: '10.0.0.9', conditions: [{ type: 'Ready', status: 'True' }] },
  };
  const read = async (mode: string) => {
    const agent = { kind: 'PrometheusAgent', metadata: { namespace: 'monitoring', name: 'nodes' }, spec: { mode } } as unknown as Listed;
    const called: string[] = [];
    const client = (baseUrl: string) => {
      called.push(new URL(baseUrl).hostname);
      return { activeTargets: async () => ({ ok: true as const, value: { activeTargets: [up('podMonitor/team-a/workers/0')] } }) } as unknown as PrometheusClient;
    };
    const health = await readWorkloadsHealth({
      caches: { pods: cache([agentPod as Listed]), prometheuses: cache([]), prometheusAgents: cache([agent]), prometheusRules: cache([]) } as never,
      client,
      networks: { allowList: () => { throw new Error('unused'); }, admit: async () => ({ ok: true }) },
      log: pino({ level: 'silent' }),
    });
    return { called, owners: [...health.keys()] };
  };

  it('reads a StatefulSet agent\'s pod, and no pod of a DaemonSet agent (each sees only its own node\'s targets)', async () => {
    expect(await read('StatefulSet')).toEqual({ called: ['10.0.0.9'], owners: ['prometheusagents/monitoring/nodes'] });
    expect(await read('DaemonSet')).toEqual({ called: [], owners: [] });
  });
});
