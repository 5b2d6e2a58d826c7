/**
 * The ThanosRuler controller in sample-controller's shape: what enqueues a ThanosRuler (the cache handlers below),
 * its work queue, and the reconciler (reconcile-thanos-ruler.ts) its workers run. The operator builds it with the
 * caches, writers and reloader it shares with the other workloads, registers its handlers before the caches start,
 * and starts its workers only on the leader.
 */
import type { Logger } from 'pino';
import type { ChildWriter, ClusterCaches, ReferencedObjects } from '../kube/index.ts';
import type { OperatorMetrics } from '../observability/index.ts';
import { WorkloadController } from '../reconcile/workload-controller.ts';
import type { ReconcilerEvents, ReconcilerStatus } from '../reconcile/reconciler-ports.ts';
import { thanosRulerReloadKey, type ShardReloader } from '../reload/index.ts';
import { THANOS_RULER_SERVICE_NAME } from './thanos-ruler-children.ts';
import { ThanosRulerReconciler, thanosRulerOwnerOf } from './reconcile-thanos-ruler.ts';

/** What the ThanosRuler controller shares with the rest of the operator. */
export interface ThanosRulerControllerOptions {
  caches: ClusterCaches;
  /** The Secrets and ConfigMaps the rulers' remote write endpoints reference: an instance of their own. */
  referenced: ReferencedObjects;
  children: ChildWriter;
  reloader: ShardReloader;
  status: ReconcilerStatus;
  events: ReconcilerEvents;
  metrics: OperatorMetrics;
  log: Logger;
}

/** The ThanosRulers' work queue and reconciler, and what enqueues them; see the file comment. */
export class ThanosRulerController extends WorkloadController {
  readonly #caches: ClusterCaches;
  readonly #reconciler: ThanosRulerReconciler;
  readonly #referenced: ReferencedObjects;

  constructor(options: ThanosRulerControllerOptions) {
    const { caches, referenced, children, reloader, status, events, metrics, log } = options;
    super({ logField: 'thanosRuler', objects: () => caches.thanosRulers.list(), metricsKey: thanosRulerReloadKey, metrics, log });
    this.#caches = caches;
    this.#referenced = referenced;
    this.#reconciler = new ThanosRulerReconciler({
      thanosRulers: caches.thanosRulers, prometheusRules: caches.prometheusRules, namespaces: caches.namespaces, referenced,
      ownedConfigMaps: caches.ownedConfigMaps, ownedSecrets: caches.ownedSecrets, caches, children, reloader, status, events,
      requeue: (key, delayMs) => this.queue.addAfter(key, delayMs), log,
    });
  }

  protected get reconciler(): ThanosRulerReconciler {
    return this.#reconciler;
  }

  /**
   * Registers what enqueues a ThanosRuler (before the caches start): a change of it (every ThanosRuler of the
   * namespace when one goes, so the shared Service's owners follow), of a child promop made for it (a StatefulSet's
   * replica counts, an edited or deleted ConfigMap or Secret, the deleted governing Service), and of one of its
   * pods. Any change of a PrometheusRule or of a Namespace (its labels decide selection), or of a Secret or ConfigMap
   * a remote write endpoint references, enqueues every ThanosRuler: there are few, and the generator decides which
   * selects what.
   */
  watch(): void {
    const caches = this.#caches;
    this.watchOwned(caches, { objects: caches.thanosRulers, ownerOf: thanosRulerOwnerOf, serviceName: THANOS_RULER_SERVICE_NAME, podName: 'thanos-ruler', configMaps: true });
    const everyThanosRuler = () => this.enqueueEvery();
    caches.prometheusRules.onChange(everyThanosRuler);
    caches.namespaces.onChange(everyThanosRuler);
    for (const [kind, cache] of [['Secret', caches.secrets], ['ConfigMap', caches.configMaps]] as const) {
      cache.onChange((object) => {
        const { namespace, name } = object.metadata ?? {};
        if (namespace !== undefined && name !== undefined && this.#referenced.isReferenced(kind, namespace, name)) everyThanosRuler();
      });
    }
  }

  /** Resolves once the bindings handed so far are written (tests). */
  bindingsSettled(key?: string): Promise<void> {
    return this.#reconciler.bindingsSettled(key);
  }
}
