/**
 * What the controllers of a workload of another program (Alertmanager, ThanosRuler) share, in sample-controller's
 * shape: one work queue of `namespace/name` keys with one worker, its reconciles recorded in the operator's reconcile
 * and queue metrics, every object queued at start and at each resync, and a stop that waits for the reconcile and
 * binding writes in progress. Each controller adds what enqueues its kind (`watch()`) and builds its reconciler.
 */
import type { Logger } from 'pino';
import { describeError } from '../kube/index.ts';
import { recordedReconcile, type OperatorMetrics } from '../observability/index.ts';
import { objectKey, splitKey } from './key.ts';
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
