/**
 * `reconcile(key)` for one Prometheus, or one PrometheusAgent (one reconciler per kind, `ReconcilerDependencies.kind`:
 * the same steps, with the kind's names and labels from workload/workload-kind.ts; an agent's generator output
 * has no rule ConfigMaps), level-based in the shape of sample-controller's syncHandler: it receives a
 * `namespace/name` key, reads the current state from the caches and makes the cluster match, so running it twice
 * is harmless. Order follows prometheus-operator's `sync` (§10) but for the bindings: render; rule ConfigMaps, TLS
 * assets, scrape and config Secrets, governing Service, StatefulSets; then every monitor's and rule's verdict in
 * its status (also when the Prometheus itself is broken), handed to the binding writer (binding-writer.ts), which
 * writes them beside the work queue: the reconcile does not wait for them; delete what removed shards, emptied
 * scrape file slots and fewer rule ConfigMaps left behind; reload; status. (prometheus-operator writes the bindings
 * first; with hundreds of monitors that delays a new Prometheus' first config by seconds. And a reconcile that
 * waited for thousands of binding writes held back the next one, whose config had the monitors created meanwhile.)
 *
 * User errors are values: a broken Prometheus spec (from the generator or a builder) and a 4xx from the API
 * server about what the user wrote (a 422 on the StatefulSet for an invalid toleration) end as Reconciled=False
 * with the path in the message, and are not retried in a loop: the next change to any input enqueues the key
 * again. When the Prometheus is broken the config Secret is not touched: Prometheus keeps running the last good
 * configuration. Anything else (API unavailable, a 409 from a stale cache) throws or returns `retry`, and the work
 * queue retries with backoff; a binding write that fails makes the binding writer requeue the key with a backoff
 * of its own.
 *
 * The reconciler keeps the flow, the key handling and the per-Prometheus memos of the render; the steps are its
 * collaborators': desired-children.ts builds the children, children-applier.ts writes them and deletes leftovers,
 * verdict-recorder.ts records the verdicts (bindings, Events), shard-reload.ts reloads the shards and
 * prometheus-status-writer.ts writes the Prometheus' status.
 */
import { RenderMemo, generate, isDaemonSetAgent, type FieldProblem, type GeneratorOutput } from '@promop/config-generator';
import { KINDS } from '@promop/crds';
import type { Logger } from 'pino';
import { apiErrorOf, isUserCaused } from '../kube/index.ts';
import { kindListsOf } from '../kube/cluster-caches.ts';
import { WORKLOADS, agentNodesOf, type PrometheusWorkload, type ScrapeSecretMemo, type WorkloadKind, type WorkloadNaming } from '../workload/index.ts';
import { ChildrenApplier, type AppliedChildren } from './children-applier.ts';
import { buildChildren } from './desired-children.ts';
import { generatorInput } from './generator-input.ts';
import { splitKey, workloadKey } from './key.ts';
import { PrometheusStatusWriter } from './prometheus-status-writer.ts';
import type { ReconciledVerdict } from './prometheus-status.ts';
import { ReferencesMemo, referencedObjects } from './references.ts';
import type { CacheReader, ReconcilerCaches, ReconcilerChildren, ReconcilerEvents, ReconcilerReferenced, ReconcilerReloader, ReconcilerStatus } from './reconciler-ports.ts';
import { reloadShards } from './shard-reload.ts';
import { podTlsOf } from './pod-tls-of.ts';
import type { PodTls } from '../prometheus-client/pod-tls.ts';
import { CUSTOM_SERVICE_RECHECK_MS, customGoverningServiceProblem, serviceNameProblem } from '../workload/governing-service.ts';
import { SHARD_LABEL, shardSelectorLabels } from '../workload/labels.ts';
import { VerdictRecorder } from './verdict-recorder.ts';
import type { ProcessOutcome } from './work-queue.ts';

/** What the reconciler reads and writes through: the narrow interfaces of reconciler-ports.ts. */
export interface ReconcilerDependencies {
  /** The kind this reconciler reconciles (default Prometheus); the operator runs one reconciler per kind. */
  kind?: WorkloadKind;
  caches: ReconcilerCaches;
  /** The data of the Secrets and ConfigMaps that Prometheus objects and monitors reference. */
  referenced: ReconcilerReferenced;
  children: ReconcilerChildren;
  status: ReconcilerStatus;
  events: ReconcilerEvents;
  reloader: ReconcilerReloader;
  /**
   * Whether the Prometheus (of `kind`) exists in the API server. Asked before removing the bindings of a Prometheus missing
   * from the cache: with a Prometheus selector, "not in the cache" may mean "another operator's", whose bindings
   * are not promop's to remove.
   */
  prometheusExists: (namespace: string, name: string) => Promise<boolean>;
  /**
   * Reconciles the key again after `delayMs`: asked by the binding writer when a binding write failed or met a
   * newer version (the operator: the kind's work queue).
   */
  requeue: (key: string, delayMs: number) => void;
  /**
   * Whether the cluster labels pods with their zone (Kubernetes 1.35+), which topology sharding reads instead of
   * node labels (kube/pod-topology-labels.ts). Absent: node labels.
   */
  podTopologyLabels?: () => Promise<boolean>;
  log: Logger;
  /** Where each render's selected/rejected counts and config sizes are recorded (OperatorMetrics; default nowhere). */
  metrics?: { recordGenerated(prometheusKey: string, output: GeneratorOutput): void; forgetPrometheus(prometheusKey: string): void };
  /** The clock for condition times (tests fix it). */
  now?: () => Date;
  /** How soon a Prometheus whose spec.serviceName governs none of its pods is reconciled again (default CUSTOM_SERVICE_RECHECK_MS). */
  customServiceRecheckMs?: number;
}

/** Reconciles the Prometheus objects (or PrometheusAgents) of one kind; one instance per kind per operator. */
export class PrometheusReconciler {
  readonly #deps: ReconcilerDependencies;
  readonly #naming: WorkloadNaming;
  /**
   * Per Prometheus key, the renderings of its monitors and rules kept between reconciles (render-memo.ts in the
   * generator) and its built scrape Secrets: a change renders what changed, not all 20,000 jobs of 10,000 monitors.
   */
  readonly #memos = new Map<string, { render: RenderMemo; scrapeSecrets: ScrapeSecretMemo }>();
  /** Each monitor's Secret and ConfigMap references by position, kept from the previous reconcile (references.ts). */
  readonly #references = new ReferencesMemo();
  readonly #children: ChildrenApplier;
  readonly #verdicts: VerdictRecorder;
  readonly #status: PrometheusStatusWriter;
  /** The keys whose last reconcile wrote changed files for some shard (see wroteFiles). */
  readonly #wroteFiles = new Set<string>();
  /** Per key, how its pods were last called when they serve HTTPS (pod-tls-of.ts); absent: plain HTTP. */
  readonly #podTls = new Map<string, PodTls>();

  constructor(deps: ReconcilerDependencies) {
    this.#deps = deps;
    const now = deps.now ?? (() => new Date());
    const naming = (this.#naming = WORKLOADS[deps.kind ?? 'Prometheus']);
    this.#children = new ChildrenApplier({ caches: deps.caches, children: deps.children, now });
    this.#verdicts = new VerdictRecorder({ naming, caches: deps.caches, status: deps.status, events: deps.events, requeue: deps.requeue, log: deps.log, now });
    this.#status = new PrometheusStatusWriter({ naming, caches: deps.caches, status: deps.status, now, events: deps.events });
  }

  /**
   * Resolves once the bindings handed so far for `key` (without a key: for every Prometheus of this kind) are
   * written, or their failure is logged and the key requeued. A reconcile returns before its bindings are written.
   */
  bindingsSettled(key?: string): Promise<void> {
    return this.#verdicts.settled(key);
  }

  /**
   * Stops writing bindings for good (the operator stops, or lost its leadership): no binding write starts after
   * this call; resolves once the writes in flight ended. Call it after the work queue stopped.
   */
  stopBindingWrites(): Promise<void> {
    return this.#verdicts.stop();
  }

  /**
   * Whether the last reconcile of `key` wrote changed files (a config, scrape or rule file) for some shard: the
   * operator keeps such a reconcile and the next apart (the work queue's minIntervalMs), so that a stream of
   * changes is written a window at a time; a reconcile that wrote nothing (a status update after a reload) does not
   * hold back the next change.
   */
  wroteFiles(key: string): boolean {
    return this.#wroteFiles.has(key);
  }

  /**
   * How to call the pods of `key` as its last reconcile did: the serving certificate to pin and whether they want a
   * client certificate when they serve HTTPS, undefined for plain HTTP (the health reporter calls them the same way).
   */
  podTls(key: string): PodTls | undefined {
    return this.#podTls.get(key);
  }

  /**
   * Why the Service `spec.serviceName` names cannot govern the pods (missing, or selecting other pods), checked as
   * prometheus-operator checks it before the StatefulSets are written; undefined without `spec.serviceName`, and for
   * an agent in DaemonSet mode: a DaemonSet has no governing Service, so upstream neither checks nor uses the one named.
   */
  async #customServiceProblem(prometheus: PrometheusWorkload): Promise<FieldProblem | undefined> {
    const serviceName = prometheus.spec?.serviceName;
    if (!serviceName || isDaemonSetAgent(prometheus)) return undefined;
    const { namespace, name } = prometheus.metadata;
    const { [SHARD_LABEL]: _shard, ...podLabels } = shardSelectorLabels(name, 0, this.#naming.kind);
    const invalid = serviceNameProblem(serviceName);
    if (invalid) return invalid;
    return customGoverningServiceProblem(namespace ?? '', serviceName, await this.#deps.children.readService(namespace ?? '', serviceName), podLabels);
  }

  /** The cache of this reconciler's kind. */
  #workloads(): CacheReader<PrometheusWorkload> {
    const { caches } = this.#deps;
    return this.#naming.kind === 'Prometheus' ? caches.prometheuses : caches.prometheusAgents;
  }

  /** Makes the cluster match the Prometheus (or agent) `key` (`namespace/name`). */
  async reconcile(key: string): Promise<ProcessOutcome> {
    this.#wroteFiles.delete(key);
    const { namespace, name } = splitKey(key);
    const { caches } = this.#deps;
    const kind = this.#naming.kind;
    const log = this.#deps.log.child({ prometheus: key, namespace, name, kind });
    const prometheus = this.#workloads().get(name, namespace);
    const sharedKey = workloadKey(kind, namespace, name);
    if (!prometheus || prometheus.metadata.deletionTimestamp) {
      // Gone (or going): the garbage collector deletes the children through their ownerReferences. What it
      // cannot know about are the bindings this Prometheus left in monitors' and rules' status.
      this.#deps.reloader.forget(sharedKey);
      // Again after the delete event's: a reconcile under way then (this key's last) may have set its shards'
      // series since, when its reload round ended.
      this.#deps.metrics?.forgetPrometheus(sharedKey);
      this.#status.forget(key);
      this.#memos.delete(key);
      this.#podTls.delete(key);
      this.#children.forget(key);
      // Removed through the binding writer like any other change, so the removal runs after a pass still writing
      // this Prometheus' bindings, never beside it; and also when the cache shows none yet but such a pass runs
      // (its writes may not be cached yet): the removal pass removes what the cache shows by then.
      const bound = this.#verdicts.mayHaveBindings(key);
      if (!bound || (!prometheus && await this.#deps.prometheusExists(namespace, name))) return 'done';
      this.#verdicts.hand(key, [], log);
      return 'done';
    }
    if (prometheus.spec?.paused === true) {
      // Paused: nothing is rendered or applied; status still tells the truth about the pods.
      await this.#status.writeUnreconciled(prometheus, log);
      return 'done';
    }

    const referenced = await this.#deps.referenced.resolve(referencedObjects(kindListsOf(caches), this.#references));
    let memo = this.#memos.get(key);
    if (!memo) this.#memos.set(key, (memo = { render: new RenderMemo(), scrapeSecrets: new WeakMap() }));
    const podTopologyLabels = prometheus.spec?.shardingStrategy?.mode === 'Topology' && await this.#deps.podTopologyLabels?.() === true;
    const output = generate({ ...generatorInput(prometheus, caches, referenced), ...(podTopologyLabels ? { podTopologyLabels } : {}), memo: memo.render });
    this.#deps.metrics?.recordGenerated(sharedKey, output);
    // The verdicts are looked up by resource when the binding writer runs the pass, after the config is written
    // (10,000 entries are not worth delaying the write for), and not at all for a pass a newer one replaced.
    const handVerdicts = (): ProcessOutcome => {
      this.#verdicts.hand(key, output.verdicts, log, prometheus);
      return 'done';
    };

    if (!output.ok) {
      await this.#status.fail(prometheus, problemsMessage(output.prometheusProblems), log);
      return handVerdicts();
    }
    const agentNodes = isDaemonSetAgent(prometheus) ? agentNodesOf(caches.pods.list(namespace), name) : [];
    const built = buildChildren(prometheus, output, this.#workloads().list(namespace), memo.scrapeSecrets, agentNodes);
    if (!built.ok) {
      await this.#status.fail(prometheus, problemsMessage(built.problems), log);
      return handVerdicts();
    }
    const serviceProblem = await this.#customServiceProblem(prometheus);
    if (serviceProblem) {
      await this.#status.fail(prometheus, problemsMessage([serviceProblem]), log);
      // The Service is the user's, which promop does not watch: looked at again until it governs the pods.
      this.#deps.requeue(key, this.#deps.customServiceRecheckMs ?? CUSTOM_SERVICE_RECHECK_MS);
      return handVerdicts();
    }

    let applied: AppliedChildren;
    try {
      applied = await this.#children.apply(key, prometheus, built.value, log);
    } catch (error) {
      const api = apiErrorOf(error);
      if (!api || !isUserCaused(api)) throw error;
      const what = (error as { child?: string }).child;
      await this.#status.fail(prometheus, `${what ? `${what}: ` : ''}${api.message}`, log);
      return handVerdicts();
    }
    if (applied.writtenAt.size > 0) this.#wroteFiles.add(key);
    // The bindings (one status write per selected monitor and rule whose verdict changed: a thousand on a first
    // reconcile) go after the config, to the binding writer, which writes them alongside the reload and the
    // reconciles after this one: writing them first made a new Prometheus wait for all of them before it had any
    // config, and waiting for them held back the next reconcile.
    handVerdicts();
    await this.#children.deleteLeftovers(key, prometheus, built.value, log);
    const orphanCheckMs = await this.#children.replaceGoneOrphans(key, log);
    if (orphanCheckMs !== undefined) this.#deps.requeue(key, orphanCheckMs);

    const tls = podTlsOf(prometheus, output.version, referenced);
    if (tls) this.#podTls.set(key, tls);
    else this.#podTls.delete(key);
    const reload = await reloadShards(this.#deps.reloader, prometheus, output, applied, log, () => this.#deps.requeue(key, 0), tls);
    // A failed reload is retried by the reloader, with a backoff of its own, not by the work queue.
    const reconciled: ReconciledVerdict | undefined = reload.reconciled?.status === 'True'
      ? { status: 'True', ...successReason(output), message: output.prometheusWarnings.join('; ') }
      : reload.reconciled;
    await this.#status.write(prometheus, applied.statefulSets, reconciled, log, reload.configStatus);
    return 'done';
  }
}

/** Reconciled=True's reason: NoSelectedResources when the Prometheus selects nothing, as upstream. */
function successReason(output: GeneratorOutput): { reason: string } {
  const selected = output.verdicts.some((v) => KINDS[v.resource.kind].role !== 'workload' && v.selected);
  return { reason: selected ? '' : 'NoSelectedResources' };
}

function problemsMessage(problems: { path: string; message: string }[]): string {
  return problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ');
}
