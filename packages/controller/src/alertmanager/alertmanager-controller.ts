/**
 * The Alertmanager controller in sample-controller's shape: what enqueues an Alertmanager (the cache handlers below),
 * its work queue, and the reconciler (reconcile-alertmanager.ts) its workers run. The operator builds it with the
 * caches, writers and reloader it shares with the Prometheus family, registers its handlers before the caches start,
 * and starts its workers only on the leader.
 */
import { alertmanagerConfigSecretName } from '@promop/config-generator';
import type { Logger } from 'pino';
import type { ChildWriter, ClusterCaches, ReferencedObjects } from '../kube/index.ts';
import type { OperatorMetrics } from '../observability/index.ts';
import { objectKey } from '../reconcile/index.ts';
import { WorkloadController } from '../reconcile/workload-controller.ts';
import type { ReconcilerEvents, ReconcilerStatus } from '../reconcile/reconciler-ports.ts';
import { alertmanagerReloadKey, type ShardReloader } from '../reload/index.ts';
import { ALERTMANAGER_SERVICE_NAME } from './alertmanager-children.ts';
import { AlertmanagerReconciler, alertmanagerOwnerOf } from './reconcile-alertmanager.ts';

/** What the Alertmanager controller shares with the rest of the operator. */
export interface AlertmanagerControllerOptions {
  caches: ClusterCaches;
  /** The Secrets the Alertmanagers read (their configSecrets, their AlertmanagerConfigs' references): an instance of their own. */
  referenced: ReferencedObjects;
  children: ChildWriter;
  reloader: ShardReloader;
  status: ReconcilerStatus;
  events: ReconcilerEvents;
  metrics: OperatorMetrics;
  log: Logger;
  /** How soon an Alertmanager whose spec.serviceName governs none of its pods is reconciled again (OperatorOptions). */
  customServiceRecheckMs?: number;
}

/** The Alertmanagers' work queue and reconciler, and what enqueues them; see the file comment. */
export class AlertmanagerController extends WorkloadController {
  readonly #caches: ClusterCaches;
  readonly #referenced: ReferencedObjects;
  readonly #reconciler: AlertmanagerReconciler;

  constructor(options: AlertmanagerControllerOptions) {
    const { caches, referenced, children, reloader, status, events, metrics, log } = options;
    super({ logField: 'alertmanager', objects: () => caches.alertmanagers.list(), metricsKey: alertmanagerReloadKey, metrics, log });
    this.#caches = caches;
    this.#referenced = referenced;
    this.#reconciler = new AlertmanagerReconciler({
      alertmanagers: caches.alertmanagers, alertmanagerConfigs: caches.alertmanagerConfigs, namespaces: caches.namespaces,
      ownedSecrets: caches.ownedSecrets, caches, referenced, children, reloader, status, events,
      requeue: (key, delayMs) => this.queue.addAfter(key, delayMs), log,
      ...(options.customServiceRecheckMs === undefined ? {} : { customServiceRecheckMs: options.customServiceRecheckMs }),
    });
  }

  protected get reconciler(): AlertmanagerReconciler {
    return this.#reconciler;
  }

  /**
   * Registers what enqueues an Alertmanager (before the caches start): a change of it (every Alertmanager of the
   * namespace when one goes, so the shared Service's owners follow), of a child promop made for it (a StatefulSet's
   * replica counts, an edited or deleted configuration Secret, the deleted governing Service), and of the Secret
   * holding its base configuration. Any change of an AlertmanagerConfig, of a Namespace (its labels decide selection)
   * or of a Secret or ConfigMap an AlertmanagerConfig references enqueues every Alertmanager: there are few, and the
   * generator decides which selects what.
   */
  watch(): void {
    const caches = this.#caches;
    this.watchOwned(caches, { objects: caches.alertmanagers, ownerOf: alertmanagerOwnerOf, serviceName: ALERTMANAGER_SERVICE_NAME, podName: 'alertmanager' });
    const enqueue = (key: string) => this.queue.add(key);
    const everyAlertmanager = () => this.enqueueEvery();
    caches.secrets.onChange((secret) => {
      const { namespace, name } = secret.metadata ?? {};
      if (namespace !== undefined && name !== undefined && this.#referenced.isReferenced('Secret', namespace, name)) return everyAlertmanager();
      for (const each of namespace === undefined ? [] : caches.alertmanagers.list(namespace)) {
        if (alertmanagerConfigSecretName(each) === name) enqueue(objectKey(each.metadata.namespace, each.metadata.name));
      }
    });
    // A referenced ConfigMap (a receiver's CA, an OAuth2 client id) changes what is written too.
    caches.configMaps.onChange((configMap) => {
      const { namespace, name } = configMap.metadata ?? {};
      if (namespace !== undefined && name !== undefined && this.#referenced.isReferenced('ConfigMap', namespace, name)) everyAlertmanager();
    });
    caches.alertmanagerConfigs.onChange(everyAlertmanager);
    caches.namespaces.onChange(everyAlertmanager);
  }
}
