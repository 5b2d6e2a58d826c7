/**
 * What the controllers of a workload of another program (Alertmanager, ThanosRuler) share, in sample-controller's
 * shape: one work queue of `namespace/name` keys with one worker, its reconciles recorded in the operator's reconcile
 * and queue metrics, every object queued at start and at each resync, and a stop that waits for the reconcile and
 * binding writes in progress. Each controller adds what enqueues its kind (`watch()`) and builds its reconciler.
 */
import type { V1ObjectMeta } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { describeError, type ClusterCaches, type ObjectCache } from '../kube/index.ts';
import { recordedReconcile, type OperatorMetrics } from '../observability/index.ts';
import { objectKey, splitKey } from './key.ts';
import { podReloadState } from './enqueue-mapping.ts';
import { WorkQueue, type ProcessOutcome } from './work-queue.ts';

/** The reconciler a workload controller runs. */
export interface WorkloadReconciler {
  reconcile(key: string): Promise<ProcessOutcome>;
  stopBindingWrites(): Promise<void>;
}

/** What a workload controller is built with. */
export interface WorkloadControllerParts {
  /** The log field naming a key (`alertmanager`, `thanosRuler`). */
  logField: string;
  /** Every object of the kind this operator manages (the cache). */
  objects: () => readonly { metadata: { namespace: string; name: string } }[];
  /** The key its reconciles are recorded under in the metrics (the reloader's key of the object). */
  metricsKey: (namespace: string, name: string) => string;
  metrics: OperatorMetrics;
  log: Logger;
}

/** The objects of a workload kind and the children promop makes for them, as {@link WorkloadController.watchOwned} reads them. */
export interface OwnedWorkloadObjects {
  /** The kind's cache. */
  objects: ObjectCache<{ metadata: { namespace: string; name: string } }>;
  /** `namespace/name` of the object owning a child (its controller owner reference), or undefined. */
  ownerOf(metadata: V1ObjectMeta | undefined): string | undefined;
  /** The governing Service the kind's objects of a namespace share. */
  serviceName: string;
  /** The pods' `app.kubernetes.io/name`, which is also the label holding the owning object's name. */
  podName: string;
  /** Whether an edited or deleted owned ConfigMap enqueues its owner (the kind writes ConfigMaps). */
  configMaps?: boolean;
}

/** A workload kind's queue and worker; see the file comment. */
export abstract class WorkloadController {
  protected readonly queue: WorkQueue;
  readonly #parts: WorkloadControllerParts;

  constructor(parts: WorkloadControllerParts) {
    this.#parts = parts;
    const { logField, metrics, log } = parts;
    this.queue = new WorkQueue({
      workers: 1,
      onError: (key, error, failures) => log.error({ [logField]: key, failures, err: describeError(error) }, 'reconcile failed; retrying with backoff'),
      metrics: metrics.workQueue,
    });
  }

  /** The reconciler the workers run (built by the subclass, after the queue it requeues into). */
  protected abstract get reconciler(): WorkloadReconciler;

  /** Registers what enqueues an object of the kind (before the caches start). */
  abstract watch(): void;

  /**
   * Registers what every such kind is enqueued by: a change of one of its objects (every object of the namespace
   * when one goes, so the shared Service's owners follow), of a child promop made for it (a StatefulSet's replica
   * counts, an edited or deleted Secret or ConfigMap, the deleted governing Service), and of one of its pods that
   * became ready, got an IP, restarted or went (reload it, recount the loaded replicas).
   */
  protected watchOwned(caches: ClusterCaches, owned: OwnedWorkloadObjects): void {
    const enqueue = (key: string | undefined) => { if (key) this.queue.add(key); };
    const everyIn = (namespace: string | undefined) => {
      for (const each of namespace === undefined ? [] : owned.objects.list(namespace)) enqueue(objectKey(each.metadata.namespace, each.metadata.name));
    };
    owned.objects.onChange((object, change) => {
      if (change === 'delete') everyIn(object.metadata.namespace);
      else enqueue(objectKey(object.metadata.namespace, object.metadata.name));
    });
    caches.ownedStatefulSets.onChange((statefulSet) => enqueue(owned.ownerOf(statefulSet.metadata)));
    caches.ownedSecrets.onChange((secret, change) => { if (change !== 'add') enqueue(owned.ownerOf(secret.metadata)); });
    if (owned.configMaps) caches.ownedConfigMaps.onChange((configMap, change) => { if (change !== 'add') enqueue(owned.ownerOf(configMap.metadata)); });
    caches.ownedServices.onChange((service, change) => {
      if (change === 'delete' && service.metadata?.name === owned.serviceName) everyIn(service.metadata.namespace);
    });
    caches.pods.onChange((pod, change, previous) => {
      if (change === 'update' && previous && podReloadState(previous) === podReloadState(pod)) return;
      const labels = pod.metadata?.labels ?? {};
      const owner = labels[owned.podName];
      if (labels['app.kubernetes.io/name'] === owned.podName && owner) enqueue(objectKey(pod.metadata?.namespace ?? '', owner));
    });
  }

  /** Queues every object (a new leader's start, the periodic resync). */
  enqueueEvery(): void {
    for (const each of this.#parts.objects()) this.queue.add(objectKey(each.metadata.namespace, each.metadata.name));
  }

  /** Starts the workers, with everything queued once. Recorded in the same reconcile and queue metrics as the Prometheus family's. */
  start(): void {
    const { logField, metrics, metricsKey, log } = this.#parts;
    this.enqueueEvery();
    this.queue.start(recordedReconcile(metrics, (key) => this.reconciler.reconcile(key), {
      onReconciled: (key, outcome, ms) => log.debug({ [logField]: key, outcome, ms: Math.round(ms) }, 'reconciled'),
      metricsKey: (key) => {
        const { namespace, name } = splitKey(key);
        return metricsKey(namespace, name);
      },
    }));
  }

  /** Stops the workers and the binding writes; resolves once those in progress ended. */
  async stop(): Promise<void> {
    await Promise.all([this.queue.shutdown(), this.reconciler.stopBindingWrites()]);
  }
}
