/** Which changes of promop's pods enqueue their Prometheus: those that decide whether and where it is reloaded. */
import type { V1Pod } from '@kubernetes/client-node';
import type { ChangeHandler, ClusterCaches } from '../kube/index.ts';
import { shardSelectorLabels } from '../workload/index.ts';
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
  emit(object: T, change: 'add' | 'update' | 'delete'): void {
    for (const handler of this.handlers) handler(object, change);
  }
}

const CACHES = ['prometheuses', 'serviceMonitors', 'podMonitors', 'prometheusRules', 'namespaces', 'secrets', 'configMaps', 'ownedStatefulSets', 'ownedServices', 'ownedSecrets', 'ownedConfigMaps', 'pods'] as const;

function pod(status: { phase?: string; ready?: boolean; ip?: string }, annotations: Record<string, string> = {}, prometheus = 'main'): V1Pod {
  return {
    metadata: { name: `prometheus-${prometheus}-0`, namespace: 'monitoring', uid: `uid-${prometheus}`, labels: shardSelectorLabels(prometheus, 0), annotations },
    status: {
      ...(status.phase ? { phase: status.phase } : {}),
      ...(status.ip ? { podIP: status.ip } : {}),
      ...(status.ready === undefined ? {} : { conditions: [{ type: 'Ready', status: status.ready ? 'True' : 'False' }] }),
    },
  };
}

describe('a change of a Prometheus pod', () => {
  const caches = Object.fromEntries(CACHES.map((name) => [name, new FakeCache()])) as unknown as Record<(typeof CACHES)[number], FakeCache<unknown>>;
  caches.prometheuses.objects.push({ name: 'main', namespace: 'monitoring', object: { metadata: { name: 'main', namespace: 'monitoring' } } });
  const keys: string[] = [];
  enqueueOnChanges(caches as unknown as ClusterCaches, { add: (key) => keys.push(key) }, { isReferenced: () => false });
  const emit = (object: V1Pod, change: 'add' | 'update' | 'delete') => {
    keys.length = 0;
    caches.pods.emit(object, change);
    return [...keys];
  };

  it('enqueues its Prometheus when the pod appears, becomes Ready, gets a new IP or goes', () => {
    expect(emit(pod({ phase: 'Pending' }), 'add')).toEqual(['monitoring/main']);
    expect(emit(pod({ phase: 'Running', ready: false, ip: '10.244.1.5' }), 'update')).toEqual(['monitoring/main']);
    expect(emit(pod({ phase: 'Running', ready: true, ip: '10.244.1.5' }), 'update')).toEqual(['monitoring/main']);
    expect(emit(pod({ phase: 'Running', ready: true, ip: '10.244.1.6' }), 'update')).toEqual(['monitoring/main']);
    expect(emit(pod({ phase: 'Running', ready: true, ip: '10.244.1.6' }), 'delete')).toEqual(['monitoring/main']);
  });

  it('enqueues nothing for promop\'s own annotation, a relist of the same pod, or a Prometheus this operator does not manage', () => {
    expect(emit(pod({ phase: 'Running', ready: true, ip: '10.244.1.5' }), 'add')).toEqual(['monitoring/main']);
    expect(emit(pod({ phase: 'Running', ready: true, ip: '10.244.1.5' }, { 'promop.prometheus.io/config-hash': 'abc' }), 'update')).toEqual([]);
    expect(emit(pod({ phase: 'Running', ready: true, ip: '10.244.1.5' }), 'add')).toEqual([]);
    expect(emit(pod({ phase: 'Running' }, {}, 'someone-elses'), 'add')).toEqual([]);
  });
});
