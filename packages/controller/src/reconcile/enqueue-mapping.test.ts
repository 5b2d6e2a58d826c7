/**
 * Which changes enqueue a Prometheus: those of promop's pods that decide whether and where it is reloaded, and of
 * every other object only those that are not promop's own writes (status-only updates, applies of children).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ChangeHandler, ClusterCaches } from '../kube/index.ts';
import { shardSelectorLabels, type WorkloadKind } from '../workload/index.ts';
import { enqueueOnChanges } from './enqueue-mapping.ts';

/** Enough of a WatchedCache: handlers to call, and the objects `get` finds. */
class FakeCache<T> {
  readonly handlers: ChangeHandler<T>[] = [];
  readonly objects: { name: string; namespace: string; object: T }[] = [];
  onChange(handler: ChangeHandler<T>): void {
    this.handlers.push(handler);
  }
  get(name: string, namespace?: string): T | undefined {
    return this.objects.find((o) => o.name === name && o.namespace === namespace)?.object;
  }
  list(): T[] {
    return this.objects.map((o) => o.object);
  }
  /** Tells the handlers, with the version before for an update (as WatchedCache does). */
  emit(object: T, change: 'add' | 'update' | 'delete'): void {
    const name = (object as { metadata?: { name?: string } }).metadata?.name;
    const previous = change === 'update' ? this.last.get(name ?? '') : undefined;
    if (change === 'delete') this.last.delete(name ?? '');
    else this.last.set(name ?? '', object);
    for (const handler of this.handlers) handler(object, change, previous);
  }

  readonly last = new Map<string, T>();
}

const CACHES = ['prometheuses', 'prometheusAgents', 'serviceMonitors', 'podMonitors', 'probes', 'scrapeConfigs', 'prometheusRules', 'namespaces', 'secrets', 'configMaps', 'ownedStatefulSets', 'ownedDaemonSets', 'ownedServices', 'ownedSecrets', 'ownedConfigMaps', 'pods'] as const;

function pod(status: { phase?: string; ready?: boolean; ip?: string }, annotations: Record<string, string> = {}, prometheus = 'main', kind: WorkloadKind = 'Prometheus'): V1Pod {
  return {
    metadata: { name: `prometheus-${prometheus}-0`, namespace: 'monitoring', uid: `uid-${prometheus}`, labels: shardSelectorLabels(prometheus, 0, kind), annotations },
    status: {
      ...(status.phase ? { phase: status.phase } : {}),
      ...(status.ip ? { podIP: status.ip } : {}),
      ...(status.ready === undefined ? {} : { conditions: [{ type: 'Ready', status: status.ready ? 'True' : 'False' }] }),
    },
  };
}

/**
 * Fake caches with the handlers registered; `emit` returns the keys one change enqueued, an agent's prefixed
 * `agent:`. With `agent`, a PrometheusAgent of the Prometheus' name and namespace is cached too.
 */
function wired(referenced: (kind: string, namespace: string, name: string) => boolean = () => false, { agent = false } = {}) {
  const caches = Object.fromEntries(CACHES.map((name) => [name, new FakeCache()])) as unknown as Record<(typeof CACHES)[number], FakeCache<unknown>>;
  caches.prometheuses.objects.push({ name: 'main', namespace: 'monitoring', object: { metadata: { name: 'main', namespace: 'monitoring' } } });
  if (agent) caches.prometheusAgents.objects.push({ name: 'main', namespace: 'monitoring', object: { kind: 'PrometheusAgent', metadata: { name: 'main', namespace: 'monitoring' } } });
  const keys: string[] = [];
  const queues = { Prometheus: { add: (key: string) => keys.push(key) }, PrometheusAgent: { add: (key: string) => keys.push(`agent:${key}`) } };
  enqueueOnChanges(caches as unknown as ClusterCaches, queues, { isReferenced: referenced });
  const emitTo = (cache: (typeof CACHES)[number], object: unknown, change: 'add' | 'update' | 'delete') => {
    keys.length = 0;
    caches[cache].emit(object, change);
    return [...new Set(keys)];
  };
  return emitTo;
}

describe('a change of a Prometheus pod', () => {
  const emitTo = wired();
  const emit = (object: V1Pod, change: 'add' | 'update' | 'delete') => emitTo('pods', object, change);

  it('enqueues its Prometheus when the pod appears, becomes Ready, gets a new IP or goes', () => {
    expect(emit(pod({ phase: 'Pending' }), 'add')).toEqual(['monitoring/main']);
    expect(emit(pod({ phase: 'Running', ready: false, ip: '10.244.1.5' }), 'update')).toEqual(['monitoring/main']);
    expect(emit(pod({ phase: 'Running', ready: true, ip: '10.244.1.5' }), 'update')).toEqual(['monitoring/main']);
    expect(emit(pod({ phase: 'Running', ready: true, ip: '10.244.1.6' }), 'update')).toEqual(['monitoring/main']);
    expect(emit(pod({ phase: 'Running', ready: true, ip: '10.244.1.6' }), 'delete')).toEqual(['monitoring/main']);
  });

  it('enqueues nothing for promop\'s own annotation, or a Prometheus this operator does not manage', () => {
    expect(emit(pod({ phase: 'Running', ready: true, ip: '10.244.1.5' }), 'add')).toEqual(['monitoring/main']);
    expect(emit(pod({ phase: 'Running', ready: true, ip: '10.244.1.5' }, { 'promop.prometheus.io/config-hash': 'abc' }), 'update')).toEqual([]);
    expect(emit(pod({ phase: 'Running' }, {}, 'someone-elses'), 'add')).toEqual([]);
  });
});

describe('a change that only reflects promop\'s own write', () => {
  const emitTo = wired();
  const monitor = (generation: number, status?: object) => ({ metadata: { name: 'api', namespace: 'team-a', generation, resourceVersion: String(Math.random()) }, spec: { endpoints: [] }, ...(status ? { status } : {}) });
  const prometheus = (generation: number, status?: object) => ({ metadata: { name: 'main', namespace: 'monitoring', generation, resourceVersion: String(Math.random()) }, spec: {}, ...(status ? { status } : {}) });

  it('enqueues nothing when promop wrote a monitor\'s binding or the Prometheus\' status, and every Prometheus when the spec changed', () => {
    expect(emitTo('serviceMonitors', monitor(1), 'add')).toEqual(['monitoring/main']);
    expect(emitTo('serviceMonitors', monitor(1, { acceptedBy: 1 }), 'update')).toEqual([]);
    expect(emitTo('serviceMonitors', monitor(2, { acceptedBy: 1 }), 'update')).toEqual(['monitoring/main']);
    expect(emitTo('prometheuses', prometheus(1), 'add')).toEqual(['monitoring/main']);
    expect(emitTo('prometheuses', prometheus(1, { shards: 1 }), 'update')).toEqual([]);
    expect(emitTo('prometheuses', prometheus(2, { shards: 1 }), 'update')).toEqual(['monitoring/main']);
  });

  it('enqueues every Prometheus for a Probe change, nothing for promop\'s binding on it, and the Prometheus its binding names when it goes', () => {
    const probe = (generation: number, status?: object) => ({ metadata: { name: 'site', namespace: 'team-a', generation, resourceVersion: String(Math.random()) }, spec: { prober: { url: 'b:9115' } }, ...(status ? { status } : {}) });
    const bound = { bindings: [{ group: 'monitoring.coreos.com', resource: 'prometheuses', namespace: 'elsewhere', name: 'gone' }] };
    expect(emitTo('probes', probe(1), 'add')).toEqual(['monitoring/main']);
    expect(emitTo('probes', probe(1, { acceptedBy: 1 }), 'update')).toEqual([]);
    expect(emitTo('probes', probe(2, bound), 'delete')).toEqual(['monitoring/main', 'elsewhere/gone']);
  });

  it('enqueues a monitor\'s label change (selection depends on labels), which leaves the generation alone', () => {
    const labelled = { ...monitor(2), metadata: { ...monitor(2).metadata, labels: { team: 'a' } } };
    expect(emitTo('serviceMonitors', labelled, 'update')).toEqual(['monitoring/main']);
  });

  it('enqueues nothing for promop\'s write of a Secret or ConfigMap, and its Prometheus for an edit by someone else or a delete (metadata only)', () => {
    // As the metadata-only cache holds them: an edit of the data shows as a new resourceVersion alone.
    const owned = (hash: string) => ({
      metadata: { name: 'prometheus-main', namespace: 'monitoring', resourceVersion: String(Math.random()), annotations: { 'promop.prometheus.io/applied-hash': hash }, ownerReferences: [{ apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', name: 'main', uid: 'u', controller: true }] },
    });
    for (const cache of ['ownedSecrets', 'ownedConfigMaps'] as const) {
      expect(emitTo(cache, owned('h1'), 'add')).toEqual([]);
      expect(emitTo(cache, { metadata: { ...owned('h1').metadata, annotations: {} } }, 'add')).toEqual(['monitoring/main']);
      expect(emitTo(cache, owned('h1'), 'update')).toEqual([]);
      expect(emitTo(cache, owned('h2'), 'update')).toEqual([]);
      expect(emitTo(cache, owned('h2'), 'update')).toEqual(['monitoring/main']);
      // Replaced whole without promop's annotation.
      expect(emitTo(cache, { metadata: { ...owned('h2').metadata, annotations: {} } }, 'update')).toEqual(['monitoring/main']);
      expect(emitTo(cache, owned('h2'), 'delete')).toEqual(['monitoring/main']);
    }
  });

  it('enqueues a StatefulSet\'s Prometheus when its replica counts change, not for its observedGeneration alone', () => {
    const statefulSet = (status: object) => ({
      metadata: { name: 'prometheus-main', namespace: 'monitoring', resourceVersion: String(Math.random()), annotations: { 'promop.prometheus.io/applied-hash': 'h1' }, ownerReferences: [{ apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', name: 'main', uid: 'u', controller: true }] },
      spec: { replicas: 1 },
      status,
    });
    expect(emitTo('ownedStatefulSets', statefulSet({ replicas: 0 }), 'add')).toEqual([]);
    expect(emitTo('ownedStatefulSets', statefulSet({ replicas: 0, observedGeneration: 2 }), 'update')).toEqual([]);
    expect(emitTo('ownedStatefulSets', statefulSet({ replicas: 1, readyReplicas: 1, observedGeneration: 2 }), 'update')).toEqual(['monitoring/main']);
  });
});

describe('a change of a Secret or ConfigMap', () => {
  const emitTo = wired((kind, _namespace, name) => kind === 'Secret' && name === 'api-auth');

  it('enqueues every Prometheus when it is referenced, and nothing otherwise', () => {
    expect(emitTo('secrets', { metadata: { name: 'api-auth', namespace: 'team-a', resourceVersion: '2' } }, 'update')).toEqual(['monitoring/main']);
    expect(emitTo('secrets', { metadata: { name: 'unrelated', namespace: 'team-a', resourceVersion: '3' } }, 'add')).toEqual([]);
    expect(emitTo('configMaps', { metadata: { name: 'api-auth', namespace: 'team-a', resourceVersion: '4' } }, 'add')).toEqual([]);
  });
});

describe('with a PrometheusAgent beside a Prometheus of the same name', () => {
  const emitTo = wired((kind, _namespace, name) => kind === 'Secret' && name === 'remote-write-auth', { agent: true });
  const owned = (kind: string, apiVersion: string) => ({
    metadata: { name: 'x', namespace: 'monitoring', resourceVersion: String(Math.random()), ownerReferences: [{ apiVersion, kind, name: 'main', uid: 'u', controller: true }] },
  });

  it('enqueues both for a monitor or a referenced Secret, each into its own queue', () => {
    expect(emitTo('serviceMonitors', { metadata: { name: 'api', namespace: 'team-a', generation: 1 } }, 'add')).toEqual(['monitoring/main', 'agent:monitoring/main']);
    expect(emitTo('secrets', { metadata: { name: 'remote-write-auth', namespace: 'monitoring', resourceVersion: '2' } }, 'update')).toEqual(['monitoring/main', 'agent:monitoring/main']);
  });

  it('enqueues only the agent for its own spec change, its pods and its children', () => {
    expect(emitTo('prometheusAgents', { kind: 'PrometheusAgent', metadata: { name: 'main', namespace: 'monitoring', generation: 2 } }, 'add')).toEqual(['agent:monitoring/main']);
    expect(emitTo('pods', pod({ phase: 'Pending' }, {}, 'main', 'PrometheusAgent'), 'add')).toEqual(['agent:monitoring/main']);
    expect(emitTo('pods', pod({ phase: 'Pending' }, {}, 'main', 'Prometheus'), 'add')).toEqual(['monitoring/main']);
    expect(emitTo('ownedSecrets', owned('PrometheusAgent', 'monitoring.coreos.com/v1alpha1'), 'delete')).toEqual(['agent:monitoring/main']);
    expect(emitTo('ownedSecrets', owned('Prometheus', 'monitoring.coreos.com/v1'), 'delete')).toEqual(['monitoring/main']);
  });

  it('enqueues the agent when its DaemonSet goes, is edited by someone else or its counts change, not for promop\'s own apply', () => {
    const daemonSet = (hash: string, status: object, spec: object = {}) => ({
      metadata: {
        name: 'prom-agent-main', namespace: 'monitoring', resourceVersion: String(Math.random()), annotations: { 'promop.prometheus.io/applied-hash': hash },
        ownerReferences: [{ apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'PrometheusAgent', name: 'main', uid: 'u', controller: true }],
      },
      spec,
      status,
    });
    expect(emitTo('ownedDaemonSets', daemonSet('h1', {}), 'add')).toEqual([]);
    expect(emitTo('ownedDaemonSets', daemonSet('h1', { desiredNumberScheduled: 2, observedGeneration: 1 }), 'update')).toEqual(['agent:monitoring/main']);
    expect(emitTo('ownedDaemonSets', daemonSet('h1', { desiredNumberScheduled: 2, observedGeneration: 2 }), 'update')).toEqual([]);
    expect(emitTo('ownedDaemonSets', daemonSet('h1', { desiredNumberScheduled: 2, numberReady: 2, numberAvailable: 2, observedGeneration: 2 }), 'update')).toEqual(['agent:monitoring/main']);
    expect(emitTo('ownedDaemonSets', daemonSet('h2', { desiredNumberScheduled: 2, numberReady: 2, numberAvailable: 2 }, { minReadySeconds: 5 }), 'update')).toEqual([]);
    expect(emitTo('ownedDaemonSets', daemonSet('h2', { desiredNumberScheduled: 2, numberReady: 2, numberAvailable: 2 }, { minReadySeconds: 9 }), 'update')).toEqual(['agent:monitoring/main']);
    expect(emitTo('ownedDaemonSets', daemonSet('h2', {}), 'delete')).toEqual(['agent:monitoring/main']);
  });

  it('enqueues the agent a monitor\'s binding names by resource prometheusagents', () => {
    const bound = { bindings: [{ group: 'monitoring.coreos.com', resource: 'prometheusagents', namespace: 'elsewhere', name: 'gone' }] };
    expect(emitTo('podMonitors', { metadata: { name: 'p', namespace: 'team-a', generation: 1 }, status: bound }, 'delete'))
      .toEqual(['monitoring/main', 'agent:monitoring/main', 'agent:elsewhere/gone']);
  });
});
