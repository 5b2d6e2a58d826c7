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
 */
import { RenderMemo, generate, oncePerObject, type GeneratorOutput, type ResourceKind, type Verdict } from '@promop/config-generator';
import { API_VERSIONS, GROUP, KINDS, SELECTED_KINDS, type Kind, type PodMonitor, type Probe, type PrometheusRule, type ScrapeConfig, type ServiceMonitor } from '@promop/crds';
import type { V1ConfigMap, V1ObjectMeta, V1Secret, V1Service, V1StatefulSet } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import {
  apiErrorOf, describeError, isUserCaused, INVALID_CONFIGURATION_REASON, SELECTING_ACTION,
  type ChildKind, type ChildOf, type ChildWriter, type ClusterCaches, type PartialObjectMetadata, type EventRecorder, type ReferencedObjects, type StatusWriter,
} from '../kube/index.ts';
import {
  buildConfigSecrets, buildGoverningService, buildRuleConfigMaps, buildScrapeSecrets, buildStatefulSets, buildTlsAssetsSecret,
  MANAGED_BY, PROMETHEUS_NAME_LABEL, RULE_CONFIGMAP_PROMETHEUS_LABEL, SHARD_LABEL, WORKLOADS, statefulSetName, workloadKind,
  type PrometheusWorkload, type ScrapeSecretMemo, type WorkloadKind, type WorkloadNaming,
} from '../workload/index.ts';
import { appliedHashOf, isUpToDate, withAppliedHash } from './applied-hash.ts';
import { KnownContents, type DataChildKind } from './known-contents.ts';
import { describeForeignKeys, foreignKeysOf, removalPatch, type ForeignKeys } from './foreign-keys.ts';
import { bindResource, bindingDecision, hasBindingOf, type BindingChange, type BindingOwner } from './bindings.ts';
import { BindingWriter, type BindingPass } from './binding-writer.ts';
import { forEachBounded } from './bounded-parallel.ts';
import type { ConfigReloader, ShardConfigStatus } from './config-reloader.ts';
import { expectedShardFiles } from './expected-shard-files.ts';
import { generatorInput } from './generator-input.ts';
import { sameJson } from './json-equality.ts';
import { ReferencesMemo, referencedObjects } from './references.ts';
import { objectKey, splitKey, workloadKey } from './key.ts';
import { prometheusStatus, shardCount, type ReconciledVerdict } from './prometheus-status.ts';
import type { ProcessOutcome } from './work-queue.ts';
import { isImmutableStatefulSetChange } from '../kube/child-writer.ts';
import { kindListsOf } from '../kube/cluster-caches.ts';
import { DELETION_DEADLINE_ANNOTATION, removedShardAction, shardRetentionProblems } from './shard-retention.ts';
import type { CacheReader, ReconcilerCaches, ReconcilerChildren, ReconcilerEvents, ReconcilerReferenced, ReconcilerReloader, ReconcilerStatus } from './reconciler-ports.ts';

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
  log: Logger;
  /** Where each render's selected/rejected counts and config sizes are recorded (OperatorMetrics; default nowhere). */
  metrics?: { recordGenerated(prometheusKey: string, output: GeneratorOutput): void };
  /** The clock for condition times (tests fix it). */
  now?: () => Date;
}

type ConfigResource = ServiceMonitor | PodMonitor | Probe | ScrapeConfig | PrometheusRule;

/**
 * Binding writes in flight at once: enough to hide the round trip (1,000 bindings in about a second instead of
 * 30), few enough to stay a modest share of the API server's default max-mutating-requests-inflight (200).
 */
const STATUS_WRITES_IN_FLIGHT = 16;
/** Status writes whose resulting version is remembered (#writtenBindings); past it the map starts again. */
const MAX_WRITTEN_BINDINGS = 200_000;
/** Applies of independent children (rule ConfigMaps, scrape file Secrets) in flight at once. */
const CHILD_APPLIES_IN_FLIGHT = 8;

/** What #apply stored. */
interface AppliedChildren {
  /** As stored, one per shard. */
  statefulSets: V1StatefulSet[];
  /** Shards whose files (config Secret, rule ConfigMaps, TLS assets) this reconcile changed, and when it first did. */
  writtenAt: Map<number, Date>;
  /** The uid of each shard's config Secret: the key of its files' hash (expected-shard-files.ts). */
  configSecretUids: string[];
}

/** The objects built for one Prometheus, in the order they are applied. */
interface DesiredChildren {
  ruleConfigMaps: V1ConfigMap[];
  tlsAssets: V1Secret;
  /** Per shard, the Secrets of its scrape files (empty when its jobs are inline). */
  scrapeSecrets: V1Secret[][];
  configSecrets: V1Secret[];
  /** `prometheus-operated` (`prometheus-agent-operated`); undefined when no Prometheus of the namespace uses it (all name a `spec.serviceName`). */
  service: V1Service | undefined;
  statefulSets: V1StatefulSet[];
}

/** Reconciles the Prometheus objects (or PrometheusAgents) of one kind; one instance per kind per operator. */
export class PrometheusReconciler {
  readonly #deps: ReconcilerDependencies;
  readonly #now: () => Date;
  readonly #naming: WorkloadNaming;
  /** The Reconciled condition last written per Prometheus key (status, reason, message), to log changes once. */
  readonly #lastReconciled = new Map<string, string>();
  /**
   * Per Prometheus key, the renderings of its monitors and rules kept between reconciles (render-memo.ts in the
   * generator): a change renders what changed, not all 20,000 jobs of 10,000 monitors.
   */
  readonly #memos = new Map<string, { render: RenderMemo; scrapeSecrets: ScrapeSecretMemo; contents: KnownContents }>();
  /** Bodies already given their applied-hash annotation, by body object: an unchanged scrape Secret is hashed once. */
  readonly #hashed = new WeakMap<object, object>();
  /**
   * Cached children found up to date with a body (by cached object, then body object): the 255 unchanged scrape
   * Secrets of a Prometheus are compared field by field once, not on every change of one monitor.
   */
  readonly #upToDate = new WeakMap<object, WeakSet<object>>();
  /**
   * Per monitor or rule object, per Prometheus key, the binding decision (bindings.ts) its status was found to
   * match: while the object and the decision stay the same there is nothing to write, and the other 999 monitors
   * of a change cost a lookup instead of a status computation each. A new object (any change, our own status
   * write included) is a miss.
   */
  readonly #boundAlready = new WeakMap<object, Map<string, string>>();
  /**
   * Strings computed once per object: each monitor's and rule's `<kind>/<namespace>/<name>`, each verdict's, and each
   * verdict's binding decision. With the render memo a kept rendering keeps its verdict object, and the caches keep
   * unchanged monitors, so a change among 10,000 builds a handful of these instead of 30,000.
   */
  readonly #objectStrings = new WeakMap<object, string>();
  /**
   * The binding decisions per owner that promop's own status writes left, by `<uid>@<resourceVersion>` of the
   * object they produced: the cache hands out the written object as a new one, and without this the first change
   * after a new Prometheus' 10,000 binding writes would recompute all 10,000 bindings, several times the cost of
   * any other change.
   * Bounded like the render memo's maps.
   */
  readonly #writtenBindings = new Map<string, Map<string, string>>();
  readonly #decisions = new WeakMap<Verdict, string>();
  /** Each monitor's Secret and ConfigMap references by position, kept from the previous reconcile (references.ts). */
  readonly #references = new ReferencesMemo();
  /**
   * Per Prometheus (owner key), what its last binding pass saw by position: the resources as the caches listed them,
   * the verdicts handed, each resource's verdict key, and whether it needed no write (1). The next pass skips a
   * resource that is the same object at the same position, needed no write, and whose verdict is the same object:
   * a change among 10,000 monitors looks at a handful instead of 10,000 (each a few map lookups, which add up to a
   * large share of a change's cost).
   */
  readonly #passes = new Map<string, { resources: readonly ConfigResource[]; verdicts: readonly Verdict[]; keys: readonly string[]; settled: Uint8Array }>();
  /** Writes the bindings of each Prometheus of this kind beside the work queue, newest verdicts first (binding-writer.ts). */
  readonly #bindings: BindingWriter;

  constructor(deps: ReconcilerDependencies) {
    this.#deps = deps;
    this.#now = deps.now ?? (() => new Date());
    this.#naming = WORKLOADS[deps.kind ?? 'Prometheus'];
    this.#bindings = new BindingWriter({ requeue: deps.requeue, log: deps.log.child({ kind: this.#naming.kind }) });
  }

  /**
   * Resolves once the bindings handed so far for `key` (without a key: for every Prometheus of this kind) are
   * written, or their failure is logged and the key requeued. A reconcile returns before its bindings are written.
   */
  bindingsSettled(key?: string): Promise<void> {
    return this.#bindings.settled(key);
  }

  /**
   * Stops writing bindings for good (the operator stops, or lost its leadership): no binding write starts after
   * this call; resolves once the writes in flight ended. Call it after the work queue stopped.
   */
  stopBindingWrites(): Promise<void> {
    return this.#bindings.stop();
  }

  /** The cache of this reconciler's kind. */
  #workloads(): CacheReader<PrometheusWorkload> {
    const { caches } = this.#deps;
    return this.#naming.kind === 'Prometheus' ? caches.prometheuses : caches.prometheusAgents;
  }

  /** Who the bindings this reconciler writes belong to. */
  #owner(namespace: string, name: string): Required<BindingOwner> {
    return { namespace, name, resource: this.#naming.resource };
  }

  /** Makes the cluster match the Prometheus (or agent) `key` (`namespace/name`). */
  async reconcile(key: string): Promise<ProcessOutcome> {
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
      this.#lastReconciled.delete(key);
      this.#memos.delete(key);
      // Removed through the binding writer like any other change, so the removal runs after a pass still writing
      // this Prometheus' bindings, never beside it; and also when the cache shows none yet but such a pass runs
      // (its writes may not be cached yet): the removal pass removes what the cache shows by then.
      const bound = this.#hasBindingsOf(namespace, name) || this.#bindings.busy(key);
      // What its binding passes saw by position: gone with it (a removal pass, handed below, forgets it too).
      if (!this.#bindings.busy(key)) this.#passes.delete(key);
      if (!bound || (!prometheus && await this.#deps.prometheusExists(namespace, name))) return 'done';
      this.#handBindings(key, [], log);
      return 'done';
    }
    if (prometheus.spec?.paused === true) {
      // Paused: nothing is rendered or applied; status still tells the truth about the pods.
      await this.#writeStatus(prometheus, this.#cachedStatefulSets(prometheus), undefined, log);
      return 'done';
    }

    const referenced = await this.#deps.referenced.resolve(referencedObjects(kindListsOf(caches), this.#references));
    let memo = this.#memos.get(key);
    if (!memo) this.#memos.set(key, (memo = { render: new RenderMemo(), scrapeSecrets: new WeakMap(), contents: new KnownContents() }));
    const output = generate({ ...generatorInput(prometheus, caches, referenced), memo: memo.render });
    this.#deps.metrics?.recordGenerated(sharedKey, output);
    // The verdicts are looked up by resource when the binding writer runs the pass, after the config is written
    // (10,000 entries are not worth delaying the write for), and not at all for a pass a newer one replaced.
    const handVerdicts = (): ProcessOutcome => {
      this.#handBindings(key, output.verdicts, log, prometheus);
      return 'done';
    };

    if (!output.ok) {
      await this.#fail(prometheus, problemsMessage(output.prometheusProblems), log);
      return handVerdicts();
    }
    const built = buildChildren(prometheus, output, this.#workloads().list(namespace), memo.scrapeSecrets);
    if (!built.ok) {
      await this.#fail(prometheus, problemsMessage(built.problems), log);
      return handVerdicts();
    }

    let applied: AppliedChildren;
    try {
      applied = await this.#apply(prometheus, built.value, memo.contents, log);
    } catch (error) {
      const api = apiErrorOf(error);
      if (!api || !isUserCaused(api)) throw error;
      const what = (error as { child?: string }).child;
      await this.#fail(prometheus, `${what ? `${what}: ` : ''}${api.message}`, log);
      return handVerdicts();
    }
    // The bindings (one status write per selected monitor and rule whose verdict changed: a thousand on a first
    // reconcile) go after the config, to the binding writer, which writes them alongside the reload and the
    // reconciles after this one: writing them first made a new Prometheus wait for all of them before it had any
    // config, and waiting for them held back the next reconcile.
    handVerdicts();
    await this.#deleteLeftovers(prometheus, built.value, memo.contents, log);

    const reload = await this.#reload(prometheus, output, applied, log);
    const reconciled: ReconciledVerdict = reload.failures.length > 0
      ? { status: 'False', reason: 'ReloadFailed', message: reload.failures.join('; ') }
      : { status: 'True', ...successReason(output), message: output.prometheusWarnings.join('; ') };
    await this.#writeStatus(prometheus, applied.statefulSets, reconciled, log, reload.configStatus);
    return reload.failures.length > 0 ? 'retry' : 'done';
  }

  /**
   * Hands the binding writer the newest desired verdicts of Prometheus `key` (built when its pass starts) and
   * `prometheus` for the Events (none when it is gone); does not wait for the writes.
   */
  #handBindings(key: string, verdicts: readonly Verdict[], log: Logger, prometheus?: PrometheusWorkload): void {
    const { namespace, name } = splitKey(key);
    const pass: BindingPass = (superseded) => this.#recordVerdicts(this.#owner(namespace, name), verdicts, log, superseded, prometheus);
    this.#bindings.hand(key, pass);
  }

  #hasBindingsOf(namespace: string, name: string): boolean {
    return this.#configResources().some(([, resource]) => hasBindingOf(resource, this.#owner(namespace, name)));
  }

  /** A string derived from `object` alone, built once per object (see #objectStrings). */
  #stringOf(object: object, build: () => string): string {
    return oncePerObject(this.#objectStrings, object, build);
  }

  /** Every cached monitor and rule with its kind: the objects that may carry a Prometheus' binding. */
  #configResources(): [Kind, ConfigResource][] {
    const { caches } = this.#deps;
    return SELECTED_KINDS.flatMap((kind) => caches[KINDS[kind].list].list().map((r): [Kind, ConfigResource] => [kind, r]));
  }

  /** Reconciled=False with `message`; nothing else is written, so the running configuration stays. */
  async #fail(prometheus: PrometheusWorkload, message: string, log: Logger): Promise<void> {
    await this.#writeStatus(prometheus, this.#cachedStatefulSets(prometheus), { status: 'False', reason: 'ReconciliationFailed', message }, log);
  }

  #cachedStatefulSets(prometheus: PrometheusWorkload): (V1StatefulSet | undefined)[] {
    const { name, namespace } = prometheus.metadata;
    return Array.from({ length: shardCount(prometheus) }, (_, shard) => this.#deps.caches.ownedStatefulSets.get(statefulSetName(name, shard, this.#naming.kind), namespace));
  }

  /** Applies the status; `configStatus` undefined keeps the one in status (nothing was reloaded). */
  async #writeStatus(prometheus: PrometheusWorkload, statefulSets: (V1StatefulSet | undefined)[], reconciled: ReconciledVerdict | undefined, log: Logger, configStatus?: ShardConfigStatus[]): Promise<void> {
    const status = prometheusStatus(prometheus, { statefulSets, reconciled, now: this.#now(), ...(configStatus ? { configStatus } : {}) });
    const { name, namespace } = prometheus.metadata;
    // The cache has exactly this status already (conditions keep their time while unchanged): nothing to write.
    if (!sameJson(status, prometheus.status)) await this.#deps.status.apply({ kind: this.#naming.kind, namespace, name }, status);
    const after = status.conditions?.find((c) => c.type === 'Reconciled');
    // Compared with what this process wrote last, not with the cache: the cache may not have our previous
    // write yet, and a second identical line would claim a change that did not happen.
    const key = objectKey(namespace, name);
    const said = reconciledText(after);
    const before = this.#lastReconciled.get(key) ?? reconciledText(prometheus.status?.conditions?.find((c) => c.type === 'Reconciled'));
    this.#lastReconciled.set(key, said);
    if (after && said !== before) {
      const line = { reconciled: after.status, reason: after.reason, message: after.message };
      if (after.status === 'True') log.info(line, `${this.#naming.kind} reconciled`);
      else log.warn(line, `${this.#naming.kind} not reconciled`);
    }
  }

  /**
   * One pass of the binding writer: writes this Prometheus' binding into the status of every monitor and rule that
   * has a verdict, and removes it from those that no longer do; one Warning Event per newly rejected resource. Starts
   * no write once `superseded()` (newer verdicts wait, or the operator stops); those in flight finish. A 409 (the
   * cache was behind another write to the same status) asks for a retry.
   */
  async #recordVerdicts(owner: Required<BindingOwner>, verdictList: readonly Verdict[], log: Logger, superseded: () => boolean, prometheus?: PrometheusWorkload): Promise<ProcessOutcome> {
    const { status, events } = this.#deps;
    let outcome: ProcessOutcome = 'done';
    const now = this.#now();
    const ownerKey = objectKey(owner.namespace, owner.name);
    const verdictKeyOf = (verdict: Verdict) => this.#stringOf(verdict, () => verdictKey(verdict.resource));
    // The resources whose verdict may differ from the previous pass': those at a position where the list holds
    // another verdict object (a monitor changed, added or removed). Without a previous pass of the same length,
    // every resource is looked at.
    const previous = this.#passes.get(ownerKey);
    let changedKeys: Set<string> | undefined;
    if (previous && previous.verdicts.length === verdictList.length) {
      changedKeys = new Set();
      for (let index = 0; index < verdictList.length; index += 1) {
        if (verdictList[index] === previous.verdicts[index]) continue;
        changedKeys.add(verdictKeyOf(verdictList[index]!));
        changedKeys.add(verdictKeyOf(previous.verdicts[index]!));
      }
    }
    // By resource key, built only when a resource is looked at.
    let byKey: Map<string, Verdict> | undefined;
    const verdictFor = (key: string) => (byKey ??= new Map(verdictList.filter((v) => v.resource.kind !== this.#naming.kind).map((v) => [verdictKeyOf(v), v]))).get(key);
    const listed = this.#configResources();
    const keys = new Array<string>(listed.length);
    const settled = new Uint8Array(listed.length);
    const changes: { kind: Kind; resource: ConfigResource; verdict: Verdict | undefined; change: BindingChange; decision: string }[] = [];
    for (let index = 0; index < listed.length; index += 1) {
      const [kind, resource] = listed[index]!;
      // The very object the previous pass found bound as its verdict says, with the same verdict: nothing to do,
      // known with one comparison (10,000 monitors, one changed: 9,999 of these).
      if (changedKeys && previous!.resources[index] === resource && previous!.settled[index] === 1 && !changedKeys.has(previous!.keys[index]!)) {
        keys[index] = previous!.keys[index]!;
        settled[index] = 1;
        continue;
      }
      const key = this.#stringOf(resource, () => verdictKey({ kind, namespace: resource.metadata.namespace, name: resource.metadata.name }));
      keys[index] = key;
      const verdict = verdictFor(key);
      if (!verdict && !hasBindingOf(resource, owner)) {
        settled[index] = 1;
        continue;
      }
      const decision = verdict ? oncePerObject(this.#decisions, verdict, () => bindingDecision(verdict)) : bindingDecision(undefined);
      let bound = this.#boundAlready.get(resource);
      if (!bound) {
        bound = this.#writtenBindings.get(`${resource.metadata.uid ?? ''}@${resource.metadata.resourceVersion ?? ''}`);
        if (bound) this.#boundAlready.set(resource, bound);
      }
      if (bound?.get(ownerKey) !== decision) {
        const change = bindResource(resource, owner, verdict, now);
        if (change.changed) {
          changes.push({ kind, resource, verdict, change, decision });
          continue;
        }
        if (!bound) this.#boundAlready.set(resource, (bound = new Map()));
        bound.set(ownerKey, decision);
      }
      settled[index] = 1;
    }
    // A removal pass (the Prometheus is gone) is the last: nothing to remember.
    if (verdictList.length > 0) this.#passes.set(ownerKey, { resources: listed.map(([, resource]) => resource), verdicts: verdictList, keys, settled });
    else this.#passes.delete(ownerKey);
    await forEachBounded(changes, STATUS_WRITES_IN_FLIGHT, async ({ kind, resource, verdict, change, decision }) => {
      // The newer pass recomputes from the caches whatever this one leaves unwritten.
      if (superseded()) return;
      const { namespace, name, resourceVersion, uid } = resource.metadata;
      const resourceLog = log.child({ kind, namespace, name });
      try {
        const written = await status.apply({ kind, namespace, name, ...(resourceVersion ? { resourceVersion } : {}) }, change.status);
        if (!written) return;
        // Other owners' bindings in this version are as they were before the write.
        if (uid && written.resourceVersion) {
          if (this.#writtenBindings.size >= MAX_WRITTEN_BINDINGS) this.#writtenBindings.clear();
          const before = this.#boundAlready.get(resource);
          this.#writtenBindings.set(`${uid}@${written.resourceVersion}`, new Map([...(before ?? []), [ownerKey, decision]]));
        }
      } catch (error) {
        if (apiErrorOf(error)?.code === 409) {
          outcome = 'retry';
          return;
        }
        throw error;
      }
      resourceLog.info({ acceptedBy: change.status.acceptedBy, rejectedBy: change.status.rejectedBy }, verdict?.selected ? 'binding written' : 'binding removed');
      if (change.newRejection !== undefined && prometheus) {
        try {
          await events.record({
            type: 'Warning',
            reason: INVALID_CONFIGURATION_REASON,
            action: SELECTING_ACTION,
            regarding: { apiVersion: `${GROUP}/${API_VERSIONS[kind]}`, kind, namespace, name, ...(uid ? { uid } : {}) },
            related: { apiVersion: this.#naming.apiVersion, kind: this.#naming.kind, namespace: owner.namespace, name: owner.name, uid: prometheus.metadata.uid ?? '' },
            note: `"${namespace}/${name}" was rejected due to invalid configuration: ${change.newRejection}`,
          });
          resourceLog.warn({ reason: change.newRejection }, 'rejected; Warning event written');
        } catch (error) {
          // The status already says it; an Event that cannot be written is not worth failing the reconcile.
          resourceLog.error({ err: describeError(error) }, 'could not write the Warning event');
        }
      }
    });
    return outcome;
  }

  /**
   * Applies every child in order; a failure carries the child's kind/name in `.child` for the status message.
   * Notes, per shard, when its files first changed in this reconcile (the start of the apply-to-loaded timing).
   */
  async #apply(prometheus: PrometheusWorkload, desired: DesiredChildren, known: KnownContents, log: Logger): Promise<AppliedChildren> {
    const { caches, children } = this.#deps;
    const { namespace } = prometheus.metadata;
    const shards = desired.configSecrets.length;
    const writtenAt = new Map<number, Date>();
    const changed = (shardsChanged: number[]) => {
      const now = new Date();
      for (const shard of shardsChanged) if (!writtenAt.has(shard)) writtenAt.set(shard, now);
    };
    // Every shard loads every rule file and the TLS assets, so their change concerns all shards.
    const allShards = Array.from({ length: shards }, (_, shard) => shard);
    // Rule ConfigMaps and scrape Secrets are independent of each other: applied CHILD_APPLIES_IN_FLIGHT at a time
    // (one by one, a new Prometheus' scrape files would delay its prometheus.yaml by every write's round trip).
    await forEachBounded(desired.ruleConfigMaps, CHILD_APPLIES_IN_FLIGHT, async (configMap) => {
      if ((await this.#writeData('ConfigMap', configMap, known, log)).changed) changed(allShards);
    });
    if ((await this.#writeData('Secret', desired.tlsAssets, known, log)).changed) changed(allShards);
    // Scrape files before the prometheus.yaml that names them, so the new names mostly find their files; a kubelet
    // sync between the writes can still show a mix (one slot's jobs missing), which verification sees and waits out.
    const scrapeSecrets = desired.scrapeSecrets.flatMap((secrets, shard) => secrets.map((secret) => ({ shard, secret })));
    await forEachBounded(scrapeSecrets, CHILD_APPLIES_IN_FLIGHT, async ({ shard, secret }) => {
      if ((await this.#writeData('Secret', secret, known, log)).changed) changed([shard]);
    });
    const configSecretUids: string[] = [];
    for (const [shard, secret] of desired.configSecrets.entries()) {
      const result = await this.#writeData('Secret', secret, known, log);
      if (result.changed) changed([shard]);
      configSecretUids.push(result.stored.metadata?.uid ?? '');
    }
    if (desired.service) await this.#applyOne('Service', desired.service, caches.ownedServices.get(nameOf(desired.service), namespace), (b) => children.applyService(b), log);
    const statefulSets: V1StatefulSet[] = [];
    for (const statefulSet of desired.statefulSets) {
      statefulSets.push(await this.#applyStatefulSet(statefulSet, caches.ownedStatefulSets.get(nameOf(statefulSet), namespace), log));
    }
    return { statefulSets, writtenAt, configSecretUids };
  }

  /**
   * Applies one shard's StatefulSet. A change the API server refuses because the field is fixed at creation
   * (volumeClaimTemplates, serviceName, selector) is made as prometheus-operator makes it: delete the StatefulSet
   * with propagationPolicy Orphan, wait until it is gone, create it again; the pods keep running meanwhile and the
   * new StatefulSet adopts them (same selector). A shard that was retained after a scale-down and is wanted again
   * loses its deletion deadline.
   */
  async #applyStatefulSet(statefulSet: V1StatefulSet, cached: V1StatefulSet | undefined, log: Logger): Promise<V1StatefulSet> {
    const { children } = this.#deps;
    const apply = (body: V1StatefulSet) => children.applyStatefulSet(body);
    const namespace = statefulSet.metadata?.namespace ?? '';
    const name = nameOf(statefulSet);
    if (!cached) await this.#replaceForeignStatefulSet(statefulSet, log);
    let stored: V1StatefulSet;
    try {
      stored = (await this.#applyOne('StatefulSet', statefulSet, cached, apply, log)).stored;
    } catch (error) {
      if (!isImmutableStatefulSetChange(error)) throw error;
      const uid = await children.statefulSetUid(namespace, name);
      if (uid) {
        await children.deleteStatefulSetKeepingPods(namespace, name, uid);
        await children.untilStatefulSetGone(namespace, name, uid);
      }
      log.info({ child: 'StatefulSet', childName: name, previousUid: uid }, 'StatefulSet deleted (pods orphaned, not deleted) to change a field fixed at creation; creating it again');
      stored = (await this.#applyOne('StatefulSet', statefulSet, undefined, apply, log)).stored;
    }
    if (stored.metadata?.annotations?.[DELETION_DEADLINE_ANNOTATION] !== undefined) {
      await children.annotateStatefulSet(namespace, name, { [DELETION_DEADLINE_ANNOTATION]: null });
      log.info({ child: 'StatefulSet', childName: name }, 'retained shard wanted again: deletion deadline removed');
    }
    return stored;
  }

  /**
   * Deletes, without its pods, a StatefulSet of this name that another operator created for the same Prometheus:
   * prometheus-operator's, when promop takes a cluster over from it (its managed-by label is not promop's, and the
   * Prometheus owns it). Applied over instead, it would keep the other manager's fields merged into promop's
   * template (server-side apply leaves fields it does not own: the config-reloader containers, their volumes), which
   * the API server refuses, and its pod selector cannot change anyway. Its pods keep running; they carry the other
   * operator's labels, so the StatefulSet promop creates next does not adopt them, and the platform replaces them
   * one at a time (docs/migrating.md). Looked up only while promop's cache holds no StatefulSet of that name, that
   * is before promop created one; a StatefulSet the Prometheus does not own is left to the apply, whose refusal is
   * reported in status.
   */
  async #replaceForeignStatefulSet(statefulSet: V1StatefulSet, log: Logger): Promise<void> {
    const { children } = this.#deps;
    const namespace = statefulSet.metadata?.namespace ?? '';
    const name = nameOf(statefulSet);
    const existing = await children.statefulSetIdentity(namespace, name);
    if (!existing || existing.managedBy === MANAGED_BY) return;
    const owner = statefulSet.metadata?.ownerReferences?.[0]?.uid;
    if (!owner || !existing.ownerUids.includes(owner)) return;
    await children.deleteStatefulSetKeepingPods(namespace, name, existing.uid);
    await children.untilStatefulSetGone(namespace, name, existing.uid);
    log.info({ child: 'StatefulSet', childName: name, previousUid: existing.uid, previousManager: existing.managedBy ?? '(none)' },
      'StatefulSet another operator created for this Prometheus deleted (pods orphaned, not deleted); creating promop\'s');
  }

  /**
   * Applies one Service or StatefulSet (watched whole) with its applied-hash annotation, unless the cached one is up
   * to date (applied-hash.ts: no request at all); returns it as stored and whether the API server stored a change
   * (its resourceVersion moved), which is logged.
   */
  async #applyOne<K extends 'Service' | 'StatefulSet'>(kind: K, body: ChildOf<K>, cached: ChildOf<K> | undefined, apply: (body: ChildOf<K>) => Promise<ChildOf<K>>, log: Logger): Promise<{ changed: boolean; stored: ChildOf<K> }> {
    const desired = this.#withHash(body);
    // Found up to date (and without foreign keys) before: the same cached object and body still are.
    if (cached && this.#upToDate.get(cached)?.has(desired)) return { changed: false, stored: cached };
    let stored: ChildOf<K>;
    try {
      const upToDate = cached !== undefined && isUpToDate(desired, cached);
      stored = upToDate ? cached : await apply(desired);
      const foreign = foreignKeysOf(kind, desired, stored);
      if (foreign.length > 0) {
        stored = await this.#removeForeignKeys(kind, stored.metadata?.namespace ?? '', nameOf(body), foreign, stored.metadata?.resourceVersion, log);
      } else if (upToDate) {
        let bodies = this.#upToDate.get(stored);
        if (!bodies) this.#upToDate.set(stored, (bodies = new WeakSet()));
        bodies.add(desired);
      }
    } catch (error) {
      if (error && typeof error === 'object') Object.assign(error, { child: `${kind} ${nameOf(body)}` });
      throw error;
    }
    const before = cached?.metadata?.resourceVersion;
    const after = stored.metadata?.resourceVersion;
    if (before === after) return { changed: false, stored };
    log.info({ child: kind, childName: nameOf(body) }, before === undefined ? 'child applied (created or not yet cached)' : 'child updated');
    return { changed: true, stored };
  }

  /**
   * Removes the keys another manager added to maps promop owns entirely (foreign-keys.ts) with one merge patch,
   * guarded by the `resourceVersion` they were found in (a 409 retries the reconcile from fresh data), and says so
   * in the log; returns the child as stored.
   */
  async #removeForeignKeys<K extends ChildKind>(kind: K, namespace: string, name: string, foreign: readonly ForeignKeys[], resourceVersion: string | undefined, log: Logger): Promise<ChildOf<K>> {
    const patched = await this.#deps.children.mergePatch(kind, namespace, name, removalPatch(foreign, resourceVersion));
    log.info({ child: kind, childName: name, removed: describeForeignKeys(foreign) }, 'keys another manager added to a map promop owns removed');
    return patched;
  }

  /** `body` with its applied-hash annotation, hashed once per body object (an unchanged scrape Secret is not hashed again). */
  #withHash<T extends object>(body: T): T {
    let desired = this.#hashed.get(body) as T | undefined;
    if (!desired) this.#hashed.set(body, (desired = withAppliedHash(body)));
    return desired;
  }

  /**
   * Writes one Secret or ConfigMap whose data promop alone fills (prometheus.yaml, scrape files, rule files, TLS
   * assets) with its applied-hash annotation, unless it holds the body already; returns its metadata as stored and
   * whether the API server stored a change. Their cache holds metadata only, so what they hold is known from
   * promop's writes (known-contents.ts): the cached version is one promop wrote (or checked) with this body → no
   * request. Otherwise, when the cached version carries the body's applied-hash (written by an earlier promop, or
   * edited by someone since), it is read once and compared (applied-hash.ts): the same, it is noted; keys another
   * manager added to its data are removed with one patch (foreign-keys.ts); anything else is written over. (A key a
   * mutating webhook adds during promop's own write is not seen: that write is noted as holding promop's body.)
   */
  async #writeData<K extends DataChildKind>(kind: K, body: ChildOf<K>, known: KnownContents, log: Logger): Promise<{ changed: boolean; stored: PartialObjectMetadata }> {
    const { caches, children } = this.#deps;
    const namespace = body.metadata?.namespace ?? '';
    const name = nameOf(body);
    const cached = (kind === 'Secret' ? caches.ownedSecrets : caches.ownedConfigMaps).get(name, namespace);
    const desired = this.#withHash(body);
    const hash = appliedHashOf(desired) ?? '';
    if (known.holds(kind, cached, hash)) return { changed: false, stored: cached as PartialObjectMetadata };
    let stored: PartialObjectMetadata;
    try {
      let current = cached;
      if (cached && appliedHashOf(cached) === hash) {
        const whole = await children.read(kind, namespace, name);
        if (whole && isUpToDate(desired, whole)) {
          const foreign = foreignKeysOf(kind, desired, whole);
          if (foreign.length === 0) {
            known.note(kind, whole.metadata, hash);
            return { changed: false, stored: metadataOf(whole) };
          }
          const patched = await this.#removeForeignKeys(kind, namespace, name, foreign, whole.metadata?.resourceVersion, log);
          known.note(kind, patched.metadata, hash);
          return { changed: true, stored: metadataOf(patched) };
        }
        current = whole ? metadataOf(whole) : undefined;
      }
      stored = kind === 'Secret' ? await children.writeSecret(desired as V1Secret, current) : await children.writeConfigMap(desired as V1ConfigMap, current);
    } catch (error) {
      if (error && typeof error === 'object') Object.assign(error, { child: `${kind} ${name}` });
      throw error;
    }
    // promop's write sends the whole data: the version it stored holds exactly this body.
    known.note(kind, stored.metadata, hash);
    const before = cached?.metadata?.resourceVersion;
    if (before === stored.metadata?.resourceVersion) return { changed: false, stored };
    log.info({ child: kind, childName: name }, before === undefined ? 'child applied (created or not yet cached)' : 'child updated');
    return { changed: true, stored };
  }

  /** Deletes children of this Prometheus that the current spec no longer wants (removed shards, emptied scrape file slots, fewer rule ConfigMaps). */
  async #deleteLeftovers(prometheus: PrometheusWorkload, desired: DesiredChildren, known: KnownContents, log: Logger): Promise<void> {
    const { caches, children } = this.#deps;
    const { name, namespace, uid } = prometheus.metadata;
    const wanted = new Set([...desired.ruleConfigMaps, desired.tlsAssets, ...desired.scrapeSecrets.flat(), ...desired.configSecrets, ...desired.statefulSets].map(nameOf));
    // Only objects whose controller is this Prometheus: a same-named child of a deleted-and-recreated one is the
    // garbage collector's, not ours.
    const leftover = (meta: V1ObjectMeta | undefined) =>
      !wanted.has(meta?.name ?? '') && (meta?.ownerReferences?.some((ref) => ref.uid === uid && ref.controller) ?? false);
    // Removed shards under shardRetentionPolicy Retain keep their StatefulSet and the Secrets its pods mount until
    // the deadline (shard-retention.ts); the resync (5 minutes) finds a passed deadline.
    const retainedShards = new Set<string>();
    const removedStatefulSets = caches.ownedStatefulSets.list(namespace).filter((s) => s.metadata?.labels?.[PROMETHEUS_NAME_LABEL] === name && leftover(s.metadata));
    for (const statefulSet of removedStatefulSets) {
      const decision = removedShardAction(prometheus, statefulSet, this.#now());
      if (decision.action === 'delete') continue;
      retainedShards.add(statefulSet.metadata?.labels?.[SHARD_LABEL] ?? '');
      if (decision.deadline && await children.annotateStatefulSet(namespace, nameOf(statefulSet), { [DELETION_DEADLINE_ANNOTATION]: decision.deadline })) {
        log.info({ child: 'StatefulSet', childName: nameOf(statefulSet), until: decision.until }, 'removed shard retained (shardRetentionPolicy Retain)');
      }
    }
    const ownedLeftovers: [ChildKind, string][] = [
      ...removedStatefulSets.filter((s) => !retainedShards.has(s.metadata?.labels?.[SHARD_LABEL] ?? ''))
        .map((s): [ChildKind, string] => ['StatefulSet', nameOf(s)]),
      ...caches.ownedSecrets.list(namespace).filter((s) => s.metadata?.labels?.[PROMETHEUS_NAME_LABEL] === name && s.metadata.labels[SHARD_LABEL] !== undefined && leftover(s.metadata))
        .filter((s) => !retainedShards.has(s.metadata?.labels?.[SHARD_LABEL] ?? ''))
        .map((s): [ChildKind, string] => ['Secret', nameOf(s)]),
      ...caches.ownedConfigMaps.list(namespace).filter((c) => c.metadata?.labels?.[RULE_CONFIGMAP_PROMETHEUS_LABEL] === name && leftover(c.metadata))
        .map((c): [ChildKind, string] => ['ConfigMap', nameOf(c)]),
    ];
    for (const [kind, childName] of ownedLeftovers) {
      await children.delete(kind, namespace, childName);
      if (kind === 'Secret' || kind === 'ConfigMap') known.forget(kind, namespace, childName);
      log.info({ child: kind, childName }, 'child deleted (no longer wanted)');
    }
  }

  /**
   * Asks the reloader to make every shard run its files, every reconcile (level-based: the reloader calls only
   * pods not yet known to run them, so a failed or newly ready pod is retried without remembering it here).
   * Returns the failure messages and `status.configStatus`.
   */
  async #reload(prometheus: PrometheusWorkload, output: GeneratorOutput, applied: AppliedChildren, log: Logger): Promise<{ failures: string[]; configStatus: ShardConfigStatus[] }> {
    const results = await Promise.all(applied.configSecretUids.map((uid, shard) => {
      const writtenAt = applied.writtenAt.get(shard);
      return this.#deps.reloader.reload(prometheus, shard, expectedShardFiles(output, shard, uid), { log, ...(writtenAt ? { writtenAt } : {}) });
    }));
    const failures: string[] = [];
    for (const [shard, result] of results.entries()) {
      if (result.ok) continue;
      failures.push(`shard ${shard}: ${result.message}`);
      log.warn({ shard, message: result.message }, 'reload failed');
    }
    return { failures, configStatus: results.map((result) => result.status) };
  }
}

/** Builds every child, or every problem the builders found. */
function buildChildren(prometheus: PrometheusWorkload, output: GeneratorOutput, namespacePrometheuses: readonly PrometheusWorkload[], scrapeSecretMemo: ScrapeSecretMemo):
  { ok: true; value: DesiredChildren } | { ok: false; problems: { path: string; message: string }[] } {
  const tlsAssets = buildTlsAssetsSecret(prometheus, output);
  const configSecrets = buildConfigSecrets(prometheus, output);
  const statefulSets = buildStatefulSets(prometheus, output);
  const problems = [...[tlsAssets, configSecrets, statefulSets].flatMap((result) => (result.ok ? [] : result.problems)), ...shardRetentionProblems(prometheus)];
  if (!tlsAssets.ok || !configSecrets.ok || !statefulSets.ok || problems.length > 0) return { ok: false, problems };
  // The shared Service is owned by every Prometheus of the namespace (non-controller ownerReferences), so the
  // garbage collector removes it only with the last one. Deleted ones are left out, and so are those that name their
  // own governing Service in spec.serviceName (prometheus-operator creates no prometheus-operated for them).
  const usesOperated = (p: PrometheusWorkload) => !p.spec?.serviceName;
  const owners = namespacePrometheuses.filter((p) => !p.metadata.deletionTimestamp && p.metadata.uid && usesOperated(p));
  const serviceOwners = !usesOperated(prometheus) || owners.some((p) => p.metadata.uid === prometheus.metadata.uid) ? owners : [...owners, prometheus];
  return {
    ok: true,
    value: {
      ruleConfigMaps: buildRuleConfigMaps(prometheus, output),
      tlsAssets: tlsAssets.value,
      scrapeSecrets: buildScrapeSecrets(prometheus, output, scrapeSecretMemo),
      configSecrets: configSecrets.value,
      service: serviceOwners.length > 0 ? buildGoverningService(prometheus.metadata.namespace, serviceOwners, workloadKind(prometheus)) : undefined,
      statefulSets: statefulSets.value,
    },
  };
}

/** Reconciled=True's reason: NoSelectedResources when the Prometheus selects nothing, as upstream. */
function successReason(output: GeneratorOutput): { reason: string } {
  const selected = output.verdicts.some((v) => KINDS[v.resource.kind].role !== 'workload' && v.selected);
  return { reason: selected ? '' : 'NoSelectedResources' };
}

function reconciledText(condition: { status: string; reason?: string; message?: string } | undefined): string {
  return condition ? `${condition.status}\n${condition.reason ?? ''}\n${condition.message ?? ''}` : '';
}

function problemsMessage(problems: { path: string; message: string }[]): string {
  return problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ');
}

function verdictKey(resource: { kind: ResourceKind | Kind; namespace: string; name: string }): string {
  return `${resource.kind}/${objectKey(resource.namespace, resource.name)}`;
}

/** An object's metadata as a metadata-only cache or write answer carries it. */
function metadataOf(object: { metadata?: V1ObjectMeta }): PartialObjectMetadata {
  return { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', ...(object.metadata ? { metadata: object.metadata } : {}) };
}

function nameOf(object: { metadata?: { name?: string } }): string {
  return object.metadata?.name ?? '';
}
