/**
 * Writes the status of the Prometheus objects of one kind (prometheus-status.ts computes it): only when it differs
 * from the cached one, and with one log line per change of the Reconciled condition, remembered per Prometheus
 * because the cache may not show this process' previous write yet.
 */
import type { V1StatefulSet } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { statefulSetName, type PrometheusWorkload, type WorkloadNaming } from '../workload/index.ts';
import type { ShardConfigStatus } from './config-reloader.ts';
import { describeError } from '../kube/index.ts';
import { sameJson } from './json-equality.ts';
import { objectKey } from './key.ts';
import { prometheusStatus, shardCount, type ReconciledVerdict } from './prometheus-status.ts';
import type { ReconcilerCaches, ReconcilerEvents, ReconcilerStatus } from './reconciler-ports.ts';

export interface PrometheusStatusWriterDependencies {
  naming: WorkloadNaming;
  caches: Pick<ReconcilerCaches, 'ownedStatefulSets'>;
  status: ReconcilerStatus;
  /** The clock for condition times. */
  now: () => Date;
  /** Where the Warning Event of a new failure goes (none without). */
  events?: ReconcilerEvents;
}

export class PrometheusStatusWriter {
  readonly #deps: PrometheusStatusWriterDependencies;
  /** The Reconciled condition last written per Prometheus key (status, reason, message), to log changes once. */
  readonly #lastReconciled = new Map<string, string>();

  constructor(deps: PrometheusStatusWriterDependencies) {
    this.#deps = deps;
  }

  /** Forgets what was written for Prometheus `key` (it is gone). */
  forget(key: string): void {
    this.#lastReconciled.delete(key);
  }

  /** The status from the cached StatefulSets with Reconciled as it was (a paused Prometheus: nothing was applied). */
  async writeUnreconciled(prometheus: PrometheusWorkload, log: Logger): Promise<void> {
    await this.write(prometheus, this.#cachedStatefulSets(prometheus), undefined, log);
  }

  /**
   * Reconciled=False with `message`; nothing else is written, so the running configuration stays. A failure that
   * differs from the last one Reconciled said also gets a Warning Event on the Prometheus (`kubectl describe` shows
   * it), as an Alertmanager's does; the same failure again writes none.
   */
  async fail(prometheus: PrometheusWorkload, message: string, log: Logger): Promise<void> {
    const changed = await this.write(prometheus, this.#cachedStatefulSets(prometheus), { status: 'False', reason: 'ReconciliationFailed', message }, log);
    const { events, naming } = this.#deps;
    if (!changed || !events) return;
    const { namespace, name, uid } = prometheus.metadata;
    try {
      await events.record({
        type: 'Warning', reason: 'ReconciliationFailed', action: 'Reconciling', note: message,
        regarding: { apiVersion: naming.apiVersion, kind: naming.kind, namespace, name, uid: uid ?? '' },
      });
    } catch (error) {
      // The status already says it; an Event that cannot be written is not worth failing the reconcile.
      log.error({ err: describeError(error) }, 'could not write the Warning event');
    }
  }

  /**
   * Applies the status; `configStatus` undefined keeps the one in status (nothing was reloaded). True when the
   * Reconciled condition now says something else than before.
   */
  async write(prometheus: PrometheusWorkload, statefulSets: (V1StatefulSet | undefined)[], reconciled: ReconciledVerdict | undefined, log: Logger, configStatus?: ShardConfigStatus[]): Promise<boolean> {
    const { naming } = this.#deps;
    const status = prometheusStatus(prometheus, { statefulSets, reconciled, now: this.#deps.now(), ...(configStatus ? { configStatus } : {}) });
    const { name, namespace } = prometheus.metadata;
    // The cache has exactly this status already (conditions keep their time while unchanged): nothing to write.
    if (!sameJson(status, prometheus.status)) await this.#deps.status.apply({ kind: naming.kind, namespace, name }, status);
    const after = status.conditions?.find((c) => c.type === 'Reconciled');
    // Compared with what this process wrote last, not with the cache: the cache may not have our previous
    // write yet, and a second identical line would claim a change that did not happen.
    const key = objectKey(namespace, name);
    const said = reconciledText(after);
    const before = this.#lastReconciled.get(key) ?? reconciledText(prometheus.status?.conditions?.find((c) => c.type === 'Reconciled'));
    this.#lastReconciled.set(key, said);
    if (after && said !== before) {
      const line = { reconciled: after.status, reason: after.reason, message: after.message };
      if (after.status === 'True') log.info(line, `${naming.kind} reconciled`);
      else log.warn(line, `${naming.kind} not reconciled`);
      return true;
    }
    return false;
  }

  #cachedStatefulSets(prometheus: PrometheusWorkload): (V1StatefulSet | undefined)[] {
    const { name, namespace } = prometheus.metadata;
    return Array.from({ length: shardCount(prometheus) }, (_, shard) => this.#deps.caches.ownedStatefulSets.get(statefulSetName(name, shard, this.#deps.naming.kind), namespace));
  }
}

function reconciledText(condition: { status: string; reason?: string; message?: string } | undefined): string {
  return condition ? `${condition.status}\n${condition.reason ?? ''}\n${condition.message ?? ''}` : '';
}
