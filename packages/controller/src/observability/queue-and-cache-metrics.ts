/**
 * The metrics of the reconcile work queues (as client-go's `workqueue_*`, without the name label) and of the caches'
 * list and watch requests, on the operator's registry (operator-metrics.ts creates them).
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** What the work queue records (reconcile/work-queue.ts); client-go's workqueue metrics without the name label. */
export interface WorkQueueMetrics {
  /** A key became waiting (an add that was not folded into one already waiting). */
  added(): void;
  /** A failed key was scheduled again after its backoff. */
  retried(): void;
  /** Keys waiting now. */
  depth(keys: number): void;
  /** A key waited `seconds` from its add to a worker taking it. */
  queued(seconds: number): void;
  /** A worker spent `seconds` on one key. */
  worked(seconds: number): void;
  /** A worker took a key (+1) or finished it (-1). */
  processing(change: 1 | -1): void;
  /** A key was put aside until its retry time (+1), or left it: queued, replaced or dropped at shutdown (-1). */
  delayed(change: 1 | -1): void;
}

/** What a cache records about its requests (kube/watched-cache.ts), by resource (`prometheuses`, `owned secrets`, ...). */
export interface CacheRequestMetrics {
  listStarted(resource: string): void;
  listFailed(resource: string): void;
  watchStarted(resource: string): void;
  watchFailed(resource: string): void;
}

/** Records {@link WorkQueueMetrics} as `promop_workqueue_*`. */
export class WorkQueueRecorder implements WorkQueueMetrics {
  readonly #depth: Gauge;
  readonly #processing: Gauge;
  readonly #delayed: Gauge;
  readonly #adds: Counter;
  readonly #retries: Counter;
  readonly #queueDuration: Histogram;
  readonly #workDuration: Histogram;

  constructor(registry: Registry) {
    const registers = [registry];
    this.#depth = new Gauge({ name: 'promop_workqueue_depth', help: 'Keys waiting in the reconcile work queues (not counting those being reconciled or waiting for a retry backoff).', registers });
    this.#processing = new Gauge({ name: 'promop_workqueue_processing', help: 'Keys being reconciled now (a reconcile may wait a minute for the kubelet to update a pod\'s files).', registers });
    this.#delayed = new Gauge({ name: 'promop_workqueue_delayed', help: 'Keys waiting for a retry time (a failed reconcile\'s backoff, or a binding write\'s).', registers });
    this.#adds = new Counter({ name: 'promop_workqueue_adds_total', help: 'Keys added to the work queue (adds of a key already waiting are folded and not counted).', registers });
    this.#retries = new Counter({ name: 'promop_workqueue_retries_total', help: 'Keys scheduled again after a failed reconcile, with backoff.', registers });
    const queueBuckets = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120, 300];
    this.#queueDuration = new Histogram({ name: 'promop_workqueue_queue_duration_seconds', help: 'Time a key waited in the work queue from its add to a worker taking it.', buckets: queueBuckets, registers });
    this.#workDuration = new Histogram({ name: 'promop_workqueue_work_duration_seconds', help: 'Time a worker spent on one key.', buckets: queueBuckets, registers });
    this.#depth.set(0);
  }

  added(): void {
    this.#adds.inc();
  }

  retried(): void {
    this.#retries.inc();
  }

  depth(keys: number): void {
    this.#depth.set(keys);
  }

  queued(seconds: number): void {
    this.#queueDuration.observe(seconds);
  }

  worked(seconds: number): void {
    this.#workDuration.observe(seconds);
  }

  processing(change: 1 | -1): void {
    this.#processing.inc(change);
  }

  delayed(change: 1 | -1): void {
    this.#delayed.inc(change);
  }
}

/** Records {@link CacheRequestMetrics} as `promop_list_operations_*` and `promop_watch_operations_*`. */
export class CacheRequestRecorder implements CacheRequestMetrics {
  readonly #lists: Counter<'resource'>;
  readonly #listFailures: Counter<'resource'>;
  readonly #watches: Counter<'resource'>;
  readonly #watchFailures: Counter<'resource'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.#lists = new Counter({ name: 'promop_list_operations_total', help: 'Full lists (all pages) the caches started, by resource: the first list, the periodic relist and relists after 410 Gone.', labelNames: ['resource'], registers });
    this.#listFailures = new Counter({ name: 'promop_list_operations_failed_total', help: 'Lists that failed (and were retried with backoff), by resource.', labelNames: ['resource'], registers });
    this.#watches = new Counter({ name: 'promop_watch_operations_total', help: 'Watch requests the caches started, by resource (one per resource every 5 to 10 minutes when healthy).', labelNames: ['resource'], registers });
    this.#watchFailures = new Counter({ name: 'promop_watch_operations_failed_total', help: 'Watches that ended in an error or 410 Gone and were restarted, by resource.', labelNames: ['resource'], registers });
  }

  listStarted(resource: string): void {
    this.#lists.labels(resource).inc();
    this.#listFailures.labels(resource).inc(0);
  }

  listFailed(resource: string): void {
    this.#listFailures.labels(resource).inc();
  }

  watchStarted(resource: string): void {
    this.#watches.labels(resource).inc();
    this.#watchFailures.labels(resource).inc(0);
  }

  watchFailed(resource: string): void {
    this.#watchFailures.labels(resource).inc();
  }
}
