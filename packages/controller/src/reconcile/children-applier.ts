/**
 * Writes the children of one Prometheus (or agent), in prometheus-operator's order: rule ConfigMaps, TLS assets,
 * scrape Secrets, config Secrets, governing Service, StatefulSets (each only when it is not up to date:
 * child-writes.ts; a change of a field fixed at creation, or another operator's StatefulSet of the same Prometheus,
 * replaces it without its pods: statefulset-apply.ts); then deletes what the spec no longer wants (removed
 * shards under their retention policy, emptied scrape file slots, fewer rule ConfigMaps). Keeps, per Prometheus, what
 * its Secrets and ConfigMaps are known to hold (known-contents.ts), forgotten when the reconciler says it is gone.
 */
import type { V1DaemonSet, V1ObjectMeta, V1StatefulSet } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { ChildKind } from '../kube/index.ts';
import { PROMETHEUS_NAME_LABEL, RULE_CONFIGMAP_PROMETHEUS_LABEL, SHARD_LABEL, webConfigSecretName, type PrometheusWorkload } from '../workload/index.ts';
import { thanosHttpClientSecretName } from '../workload/thanos-sidecar.ts';
import { forEachBounded } from './bounded-parallel.ts';
import { nameOf } from './child-metadata.ts';
import { ChildWrites } from './child-writes.ts';
import type { DesiredChildren } from './desired-children.ts';
import { KnownContents } from './known-contents.ts';
import type { ReconcilerCaches, ReconcilerChildren } from './reconciler-ports.ts';
import { DELETION_DEADLINE_ANNOTATION, removedShardAction } from './shard-retention.ts';
import { StatefulSetApply } from './statefulset-apply.ts';

/** Applies of independent children (rule ConfigMaps, scrape file Secrets) in flight at once. */
const CHILD_APPLIES_IN_FLIGHT = 8;

export interface ChildrenApplierDependencies {
  caches: Pick<ReconcilerCaches, 'ownedSecrets' | 'ownedConfigMaps' | 'ownedServices' | 'ownedStatefulSets' | 'ownedDaemonSets'>;
  children: ReconcilerChildren;
  /** The clock of shard retention deadlines. */
  now: () => Date;
}

/** What `apply` stored. */
export interface AppliedChildren {
  /** As stored, one per shard; for a DaemonSet agent its DaemonSet's pod counts in a StatefulSet's terms (daemonSetAsShard). */
  statefulSets: V1StatefulSet[];
  /** Shards whose files (config Secret, rule ConfigMaps, TLS assets) this reconcile changed, and when it first did. */
  writtenAt: Map<number, Date>;
  /** The uid of each shard's config Secret: the key of its files' hash (expected-shard-files.ts). */
  configSecretUids: string[];
}

export class ChildrenApplier {
  readonly #deps: ChildrenApplierDependencies;
  readonly #writes: ChildWrites;
  /** Per Prometheus key, what its Secrets and ConfigMaps are known to hold (known-contents.ts). */
  readonly #known = new Map<string, KnownContents>();
  /** The StatefulSet applies, with their replacements and the orphaned pods of replaced foreign ones (statefulset-apply.ts). */
  readonly #statefulSets: StatefulSetApply;

  constructor(deps: ChildrenApplierDependencies) {
    this.#deps = deps;
    this.#writes = new ChildWrites(deps);
    this.#statefulSets = new StatefulSetApply(deps.children, 'Prometheus');
  }

  /** Forgets what the children of Prometheus `key` hold (it is gone). */
  forget(key: string): void {
    this.#known.delete(key);
    this.#statefulSets.forget(key);
  }

  /**
   * Makes promop's StatefulSets start the pods whose names orphans of a replaced StatefulSet held, as soon as those
   * are gone; resolves, while orphans remain, in how many milliseconds to reconcile again (statefulset-apply.ts).
   */
  replaceGoneOrphans(key: string, log: Logger): Promise<number | undefined> {
    return this.#statefulSets.replaceGoneOrphans(key, log);
  }

  #knownOf(key: string): KnownContents {
    let known = this.#known.get(key);
    if (!known) this.#known.set(key, (known = new KnownContents()));
    return known;
  }

  /**
   * Applies every child of Prometheus `key` in order; a failure carries the child's kind/name in `.child` for the
   * status message. Notes, per shard, when its files first changed in this reconcile (the start of the
   * apply-to-loaded timing).
   */
  async apply(key: string, prometheus: PrometheusWorkload, desired: DesiredChildren, log: Logger): Promise<AppliedChildren> {
    const { caches, children } = this.#deps;
    const known = this.#knownOf(key);
    const writes = this.#writes;
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
      if ((await writes.writeData('ConfigMap', configMap, known, log)).changed) changed(allShards);
    });
    if ((await writes.writeData('Secret', desired.tlsAssets, known, log)).changed) changed(allShards);
    // Before the StatefulSet that mounts it (a pod would wait for it); a new file changes the pod template too.
    if (desired.webConfig) await writes.writeData('Secret', desired.webConfig, known, log);
    if (desired.thanosHttpClient) await writes.writeData('Secret', desired.thanosHttpClient, known, log);
    // Scrape files before the prometheus.yaml that names them, so the new names mostly find their files; a kubelet
    // sync between the writes can still show a mix (one slot's jobs missing), which verification sees and waits out.
    const scrapeSecrets = desired.scrapeSecrets.flatMap((secrets, shard) => secrets.map((secret) => ({ shard, secret })));
    await forEachBounded(scrapeSecrets, CHILD_APPLIES_IN_FLIGHT, async ({ shard, secret }) => {
      if ((await writes.writeData('Secret', secret, known, log)).changed) changed([shard]);
    });
    const configSecretUids: string[] = [];
    for (const [shard, secret] of desired.configSecrets.entries()) {
      const result = await writes.writeData('Secret', secret, known, log);
      if (result.changed) changed([shard]);
      configSecretUids.push(result.stored.metadata?.uid ?? '');
    }
    if (desired.service) await writes.applyOne('Service', desired.service, caches.ownedServices.get(nameOf(desired.service), namespace), (b) => children.applyService(b), log);
    const statefulSets: V1StatefulSet[] = [];
    for (const statefulSet of desired.statefulSets) {
      statefulSets.push(await this.#applyStatefulSet(key, statefulSet, caches.ownedStatefulSets.get(nameOf(statefulSet), namespace), log));
    }
    if (desired.daemonSet) {
      const daemonSet = desired.daemonSet;
      const stored = (await writes.applyOne('DaemonSet', daemonSet, caches.ownedDaemonSets.get(nameOf(daemonSet), namespace), (b) => children.applyDaemonSet(b), log)).stored;
      statefulSets.push(daemonSetAsShard(stored));
    }
    return { statefulSets, writtenAt, configSecretUids };
  }

  /**
   * Applies one shard's StatefulSet (statefulset-apply.ts: a change of a field fixed at creation, or another
   * operator's StatefulSet of the same name, replace it without its pods). A shard that was retained after a
   * scale-down and is wanted again loses its deletion deadline.
   */
  async #applyStatefulSet(key: string, statefulSet: V1StatefulSet, cached: V1StatefulSet | undefined, log: Logger): Promise<V1StatefulSet> {
    const { children } = this.#deps;
    const namespace = statefulSet.metadata?.namespace ?? '';
    const name = nameOf(statefulSet);
    const write = async (body: V1StatefulSet, current: V1StatefulSet | undefined) =>
      (await this.#writes.applyOne('StatefulSet', body, current, (b) => children.applyStatefulSet(b), log)).stored;
    const stored = await this.#statefulSets.apply(key, statefulSet, cached, write, log);
    if (stored.metadata?.annotations?.[DELETION_DEADLINE_ANNOTATION] !== undefined) {
      await children.annotateStatefulSet(namespace, name, { [DELETION_DEADLINE_ANNOTATION]: null });
      log.info({ child: 'StatefulSet', childName: name }, 'retained shard wanted again: deletion deadline removed');
    }
    return stored;
  }

  /** Deletes children of Prometheus `key` that the current spec no longer wants (removed shards, emptied scrape file slots, fewer rule ConfigMaps). */
  async deleteLeftovers(key: string, prometheus: PrometheusWorkload, desired: DesiredChildren, log: Logger): Promise<void> {
    const { caches, children } = this.#deps;
    const known = this.#knownOf(key);
    const { name, namespace, uid } = prometheus.metadata;
    const wanted = new Set([
      ...desired.ruleConfigMaps, desired.tlsAssets, ...(desired.webConfig ? [desired.webConfig] : []), ...(desired.thanosHttpClient ? [desired.thanosHttpClient] : []),
      ...desired.scrapeSecrets.flat(), ...desired.configSecrets,
    ].map(nameOf));
    // By kind: an agent's StatefulSet and DaemonSet have the same name, and switching mode keeps one, not both.
    const wantedStatefulSets = new Set(desired.statefulSets.map(nameOf));
    const wantedDaemonSets = new Set(desired.daemonSet ? [nameOf(desired.daemonSet)] : []);
    // Only objects whose controller is this Prometheus: a same-named child of a deleted-and-recreated one is the
    // garbage collector's, not ours.
    const leftover = (meta: V1ObjectMeta | undefined, wantedNames: ReadonlySet<string> = wanted) =>
      !wantedNames.has(meta?.name ?? '') && (meta?.ownerReferences?.some((ref) => ref.uid === uid && ref.controller) ?? false);
    // Removed shards under shardRetentionPolicy Retain keep their StatefulSet and the Secrets its pods mount until
    // the deadline (shard-retention.ts); the resync (5 minutes) finds a passed deadline.
    const retainedShards = new Set<string>();
    const removedStatefulSets = caches.ownedStatefulSets.list(namespace).filter((s) => s.metadata?.labels?.[PROMETHEUS_NAME_LABEL] === name && leftover(s.metadata, wantedStatefulSets));
    for (const statefulSet of removedStatefulSets) {
      const decision = removedShardAction(prometheus, statefulSet, this.#deps.now());
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
      // The web config Secret once neither spec.web.tlsConfig nor spec.web.httpConfig is set.
      ...caches.ownedSecrets.list(namespace).filter((s) => nameOf(s) === webConfigSecretName(prometheus) && leftover(s.metadata))
        .map((s): [ChildKind, string] => ['Secret', nameOf(s)]),
      // The Thanos sidecar's HTTP client Secret once spec.thanos is removed.
      ...caches.ownedSecrets.list(namespace).filter((s) => nameOf(s) === thanosHttpClientSecretName(name) && leftover(s.metadata))
        .map((s): [ChildKind, string] => ['Secret', nameOf(s)]),
      ...caches.ownedConfigMaps.list(namespace).filter((c) => c.metadata?.labels?.[RULE_CONFIGMAP_PROMETHEUS_LABEL] === name && leftover(c.metadata))
        .map((c): [ChildKind, string] => ['ConfigMap', nameOf(c)]),
      // The DaemonSet of an agent switched back to StatefulSet mode (the StatefulSets of one switched to DaemonSet
      // mode are removed shards above).
      ...caches.ownedDaemonSets.list(namespace).filter((d) => d.metadata?.labels?.[PROMETHEUS_NAME_LABEL] === name && leftover(d.metadata, wantedDaemonSets))
        .map((d): [ChildKind, string] => ['DaemonSet', nameOf(d)]),
    ];
    for (const [kind, childName] of ownedLeftovers) {
      await children.delete(kind, namespace, childName);
      if (kind === 'Secret' || kind === 'ConfigMap') known.forget(kind, namespace, childName);
      log.info({ child: kind, childName }, 'child deleted (no longer wanted)');
    }
  }
}

/**
 * A DaemonSet's pod counts as a StatefulSet's, which status (replicas, the Available condition) is computed from:
 * the pods it should run (one per eligible node) are the replicas wanted, its available and ready pods the same.
 */
export function daemonSetAsShard(daemonSet: V1DaemonSet): V1StatefulSet {
  const status = daemonSet.status;
  const scheduled = status?.desiredNumberScheduled ?? 0;
  return {
    metadata: daemonSet.metadata ?? {},
    spec: { replicas: scheduled, selector: daemonSet.spec?.selector ?? {}, serviceName: '', template: daemonSet.spec?.template ?? {} },
    status: {
      replicas: status?.currentNumberScheduled ?? 0,
      readyReplicas: status?.numberReady ?? 0,
      availableReplicas: status?.numberAvailable ?? 0,
      updatedReplicas: status?.updatedNumberScheduled ?? 0,
    },
  };
}
