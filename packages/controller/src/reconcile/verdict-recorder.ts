/**
 * Records the generator's verdicts about the objects one workload kind selects (the monitors and rules of its
 * Prometheus objects, or the AlertmanagerConfigs of its Alertmanagers): each Prometheus'
 * binding in the status of every monitor and rule that has a verdict (removed from those that no longer do), and one
 * Warning Event per newly rejected resource. A reconcile hands the verdicts and returns; the writes run beside the
 * work queue, one pass per Prometheus at a time, newest verdicts first (binding-writer.ts). The memos here make a
 * pass after one change among thousands of monitors look at the changed ones only.
 */
import { oncePerObject, type ResourceKind, type Verdict } from '@promop/config-generator';
import { API_VERSIONS, GROUP, KINDS, kindsSelectedBy, type AlertmanagerConfig, type Kind, type PodMonitor, type WorkloadKind, type Probe, type PrometheusRule, type ScrapeConfig, type ServiceMonitor } from '@promop/crds';
import type { Logger } from 'pino';
import { apiErrorOf, describeError, INVALID_CONFIGURATION_REASON, SELECTING_ACTION } from '../kube/index.ts';
import { bindResource, bindingDecision, hasBindingOf, type BindingChange, type BindingOwner } from './bindings.ts';
import { BindingWriter, type BindingPass } from './binding-writer.ts';
import { forEachBounded } from './bounded-parallel.ts';
import { objectKey, splitKey } from './key.ts';
import type { ReconcilerCaches, ReconcilerEvents, ReconcilerStatus } from './reconciler-ports.ts';
import type { ProcessOutcome } from './work-queue.ts';

type ConfigResource = ServiceMonitor | PodMonitor | Probe | ScrapeConfig | PrometheusRule | AlertmanagerConfig;

/**
 * Binding writes in flight at once: enough to hide the round trip (1,000 bindings in about a second instead of
 * 30), few enough to stay a modest share of the API server's default max-mutating-requests-inflight (200).
 */
const STATUS_WRITES_IN_FLIGHT = 16;
/** Status writes whose resulting version is remembered (#writtenBindings); past it the map starts again. */
const MAX_WRITTEN_BINDINGS = 200_000;

/** The workload kind whose objects own the bindings, as the bindings and Events name it. */
export interface BindingOwnerKind {
  kind: WorkloadKind;
  /** The plural, the bindings' `resource`. */
  resource: 'prometheuses' | 'prometheusagents' | 'alertmanagers' | 'thanosrulers';
  /** `monitoring.coreos.com/<version>`, for the Events' related object. */
  apiVersion: string;
}

/** The workload an Event names as related: only its uid is read. */
type RelatedWorkload = { metadata: { uid?: string | undefined } };

export interface VerdictRecorderDependencies {
  /** The kind whose objects own the bindings (their names, resource and apiVersion). */
  naming: BindingOwnerKind;
  caches: ReconcilerCaches;
  status: ReconcilerStatus;
  events: ReconcilerEvents;
  /** Reconciles the key again after `delayMs`: when a binding write failed or met a newer version. */
  requeue: (key: string, delayMs: number) => void;
  log: Logger;
  /** The clock for condition times. */
  now: () => Date;
}

/** A binding that a pass writes: the resource, its verdict (none: the binding goes) and the status it gets. */
interface BindingWrite {
  kind: Kind;
  resource: ConfigResource;
  verdict: Verdict | undefined;
  change: BindingChange;
  decision: string;
}

export class VerdictRecorder {
  readonly #deps: VerdictRecorderDependencies;
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

  constructor(deps: VerdictRecorderDependencies) {
    this.#deps = deps;
    this.#bindings = new BindingWriter({ requeue: deps.requeue, log: deps.log.child({ kind: deps.naming.kind }) });
  }

  /**
   * Hands the binding writer the newest desired verdicts of Prometheus `key` (built when its pass starts) and
   * `prometheus` for the Events (none when it is gone: `verdicts` empty removes its bindings); does not wait for the
   * writes.
   */
  hand(key: string, verdicts: readonly Verdict[], log: Logger, prometheus?: RelatedWorkload): void {
    const pass: BindingPass = (superseded) => this.#recordVerdicts(key, verdicts, log, superseded, prometheus);
    this.#bindings.hand(key, pass);
  }

  /** Resolves once the bindings handed so far for `key` (without a key: for every Prometheus) are written or their failure handled. */
  settled(key?: string): Promise<void> {
    return this.#bindings.settled(key);
  }

  /** Starts no binding write after this call; resolves once the writes in flight ended. */
  stop(): Promise<void> {
    return this.#bindings.stop();
  }

  /**
   * Whether Prometheus `key`, gone, may have bindings to remove: a cached monitor or rule carries one, or a pass
   * of it runs (its writes may not be cached yet). Forgets what its passes saw unless one runs (a removal pass
   * forgets it too).
   */
  mayHaveBindings(key: string): boolean {
    const owner = this.#owner(key);
    const bound = this.#configResources().some(([, resource]) => hasBindingOf(resource, owner)) || this.#bindings.busy(key);
    if (!this.#bindings.busy(key)) this.#passes.delete(key);
    return bound;
  }

  /** Who the bindings of Prometheus `key` belong to. */
  #owner(key: string): Required<BindingOwner> {
    const { namespace, name } = splitKey(key);
    return { namespace, name, resource: this.#deps.naming.resource };
  }

  /** A string derived from `object` alone, built once per object (see #objectStrings). */
  #stringOf(object: object, build: () => string): string {
    return oncePerObject(this.#objectStrings, object, build);
  }

  /** Every cached object of the kinds this workload kind selects: the objects that may carry one of its bindings. */
  #configResources(): [Kind, ConfigResource][] {
    const { caches } = this.#deps;
    return kindsSelectedBy(this.#deps.naming.kind).flatMap((kind) => caches[KINDS[kind].list].list().map((r): [Kind, ConfigResource] => [kind, r]));
  }

  /**
   * One pass of the binding writer: writes this Prometheus' binding into the status of every monitor and rule that
   * has a verdict, and removes it from those that no longer do; one Warning Event per newly rejected resource. Starts
   * no write once `superseded()` (newer verdicts wait, or the operator stops); those in flight finish. A 409 (the
   * cache was behind another write to the same status) asks for a retry.
   */
  async #recordVerdicts(key: string, verdictList: readonly Verdict[], log: Logger, superseded: () => boolean, prometheus?: RelatedWorkload): Promise<ProcessOutcome> {
    const owner = this.#owner(key);
    let outcome: ProcessOutcome = 'done';
    const changes = this.#changes(owner, verdictList);
    await forEachBounded(changes, STATUS_WRITES_IN_FLIGHT, async (write) => {
      // The newer pass recomputes from the caches whatever this one leaves unwritten.
      if (superseded()) return;
      if (await this.#write(owner, write, log, prometheus) === 'retry') outcome = 'retry';
    });
    return outcome;
  }

  /** The bindings of `owner` that differ from what `verdictList` says; remembers what this pass saw (#passes). */
  #changes(owner: Required<BindingOwner>, verdictList: readonly Verdict[]): BindingWrite[] {
    const now = this.#deps.now();
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
    const verdictFor = (key: string) => (byKey ??= new Map(verdictList.filter((v) => v.resource.kind !== this.#deps.naming.kind).map((v) => [verdictKeyOf(v), v]))).get(key);
    const listed = this.#configResources();
    const keys = new Array<string>(listed.length);
    const settled = new Uint8Array(listed.length);
    const changes: BindingWrite[] = [];
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
    return changes;
  }

  /** Writes one binding, and the Warning Event of a new rejection; 'retry' on a 409. */
  async #write(owner: Required<BindingOwner>, { kind, resource, verdict, change, decision }: BindingWrite, log: Logger, prometheus?: RelatedWorkload): Promise<ProcessOutcome> {
    const { status, events, naming } = this.#deps;
    const ownerKey = objectKey(owner.namespace, owner.name);
    const { namespace, name, resourceVersion, uid } = resource.metadata;
    const resourceLog = log.child({ kind, namespace, name });
    try {
      const written = await status.apply({ kind, namespace, name, ...(resourceVersion ? { resourceVersion } : {}) }, change.status);
      if (!written) return 'done';
      // Other owners' bindings in this version are as they were before the write.
      if (uid && written.resourceVersion) {
        if (this.#writtenBindings.size >= MAX_WRITTEN_BINDINGS) this.#writtenBindings.clear();
        const before = this.#boundAlready.get(resource);
        this.#writtenBindings.set(`${uid}@${written.resourceVersion}`, new Map([...(before ?? []), [ownerKey, decision]]));
      }
    } catch (error) {
      if (apiErrorOf(error)?.code === 409) return 'retry';
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
          related: { apiVersion: naming.apiVersion, kind: naming.kind, namespace: owner.namespace, name: owner.name, uid: prometheus.metadata.uid ?? '' },
          note: `"${namespace}/${name}" was rejected due to invalid configuration: ${change.newRejection}`,
        });
        resourceLog.warn({ reason: change.newRejection }, 'rejected; Warning event written');
      } catch (error) {
        // The status already says it; an Event that cannot be written is not worth failing the reconcile.
        resourceLog.error({ err: describeError(error) }, 'could not write the Warning event');
      }
    }
    return 'done';
  }
}

function verdictKey(resource: { kind: ResourceKind | Kind; namespace: string; name: string }): string {
  return `${resource.kind}/${objectKey(resource.namespace, resource.name)}`;
}
