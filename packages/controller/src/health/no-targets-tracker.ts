/**
 * The bookkeeping of monitors that find no target: how long each has found none (a monitor is reported NoTargets
 * only once that held for NO_TARGETS_CONFIRM_MS) and when the reason was last looked up (no-targets-reason.ts), so
 * the look-ups, which read the API server and Prometheus, stay bounded per round and are repeated only every
 * NO_TARGETS_RECHECK_MS or when the monitor changed.
 *
 * Entries are keyed `<object key>|<owner>`: one monitor selected by two Prometheuses is tracked per Prometheus.
 */
import { KINDS, PROMETHEUS_SELECTED_KINDS, type ConfigResourceStatus, type PrometheusSelectedKind, type ScrapeKind } from '@promop/crds';
import type { Logger } from 'pino';
import { describeError } from '../kube/index.ts';
import { forEachBounded } from '../reconcile/bounded-parallel.ts';
import type { ReconcilerCaches } from '../reconcile/reconciler-ports.ts';
import { HEALTHY_CONDITION, type Binding, type BindingHealth } from './binding-health.ts';
import { gatherNoTargetsFacts, type ListObjects } from './no-targets-facts.ts';
import { noTargetsReason } from './no-targets-reason.ts';
import { healthOf, ownerId, type OwnerHealth } from './workload-health-reader.ts';

/**
 * How long a monitor must keep finding no target before it is reported so: Prometheus' service discovery hands the
 * targets of a scrape pool it just loaded to the scrape manager within about five seconds, and a round in between
 * would report a new monitor NoTargets (and warn) before its targets.
 */
export const NO_TARGETS_CONFIRM_MS = 10_000;
/**
 * How often the reason of a monitor that keeps finding no target is looked up again (no-targets-facts.ts), unless
 * the monitor itself changed: what it depends on (Namespaces, Services, Pods, relabeling) is outside the caches, and
 * looking it up every period for every such monitor would cost requests for nothing most of the time.
 */
export const NO_TARGETS_RECHECK_MS = 5 * 60_000;
/** At most this many reasons are looked up per round (the others come in later rounds). */
const REASON_LOOKUPS_PER_ROUND = 20;
/** Reason look-ups in flight at once. */
const REASON_LOOKUPS_IN_FLIGHT = 4;

/** A team's object as the health code reads it from the caches. */
export type ConfigResource = {
  metadata: { namespace: string; name: string; uid?: string | undefined; resourceVersion?: string | undefined; generation?: number | undefined };
  spec?: unknown;
  status?: ConfigResourceStatus | undefined;
};

/** What the tracker needs: a subset of the reporter's options. */
export interface NoTargetsTrackerOptions {
  caches: Pick<ReconcilerCaches, 'namespaces' | (typeof KINDS)[PrometheusSelectedKind]['list']>;
  /** Reads Services and Pods from the API server; undefined: the reason is looked for in dropped targets only. */
  listObjects?: ListObjects;
  /** False when the Namespace cache holds only some namespaces (`promop run --namespaces`); default true. */
  seesEveryNamespace?: boolean;
  log: Logger;
}

/** The reasons of a round: see {@link NoTargetsTracker.reasons}. */
export interface NoTargetsReasons {
  reasons: Map<string, string | undefined>;
  deferred: Set<string>;
}

/** Tracks monitors without targets across rounds; see the file comment. */
export class NoTargetsTracker {
  readonly #options: NoTargetsTrackerOptions;
  /** `<object key>|<owner>` → when it was first seen without targets, while that is not yet what its binding says. */
  readonly #since = new Map<string, number>();
  /** `<object key>|<owner>` → when the reason it has no target was last looked up, and of which generation. */
  readonly #lookedUp = new Map<string, { at: number; generation: number | undefined }>();

  constructor(options: NoTargetsTrackerOptions) {
    this.#options = options;
  }

  /**
   * The reasons looked up this round of monitors without targets, by `<object key>|<owner>`: of those that will now
   * be written NoTargets (found none for NO_TARGETS_CONFIRM_MS), and of those that say so already, every
   * NO_TARGETS_RECHECK_MS or when the monitor changed (a team that fixed one thing learns the next). Absent: not looked
   * up this round, or some read failed; the binding then keeps the reason it carries. `deferred`: monitors newly
   * without targets whose look-up did not fit in this round. Kinds for which `skipKind` is true are not looked at.
   */
  async reasons(health: ReadonlyMap<string, OwnerHealth>, now: number, skipKind: (kind: PrometheusSelectedKind) => boolean): Promise<NoTargetsReasons> {
    const due: { id: string; kind: PrometheusSelectedKind; resource: ConfigResource; owner: OwnerHealth; said: boolean }[] = [];
    for (const kind of PROMETHEUS_SELECTED_KINDS) {
      if (KINDS[kind].role !== 'scrape' || skipKind(kind)) continue;
      for (const resource of this.#options.caches[KINDS[kind].list].list() as readonly ConfigResource[]) {
        const key = `${kind}/${resource.metadata.namespace}/${resource.metadata.name}`;
        for (const binding of resource.status?.bindings ?? []) {
          const owner = health.get(ownerId(binding.resource, binding.namespace, binding.name));
          const id = `${key}|${binding.resource}/${binding.namespace}/${binding.name}`;
          const reported = owner && healthOf('scrape', owner, key);
          if (!owner || reported?.kind !== 'targets' || reported.summary.active > 0) {
            this.#lookedUp.delete(id);
            continue;
          }
          if (!binding.conditions?.some((c) => c.type === 'Accepted' && c.status === 'True')) continue;
          const said = binding.conditions.some((c) => c.type === HEALTHY_CONDITION && c.reason === 'NoTargets');
          if (!said) {
            const since = this.#since.get(id);
            if (since === undefined || now - since < NO_TARGETS_CONFIRM_MS) continue;
          } else {
            const last = this.#lookedUp.get(id);
            if (last && last.generation === resource.metadata.generation && now - last.at < NO_TARGETS_RECHECK_MS) continue;
          }
          due.push({ id, kind, resource, owner, said });
        }
      }
    }
    const reasons = new Map<string, string | undefined>();
    // Monitors newly without targets first: each waits for its reason before it is written; a recheck can wait.
    due.sort((a, b) => Number(a.said) - Number(b.said));
    const deferred = new Set(due.slice(REASON_LOOKUPS_PER_ROUND).filter((entry) => !entry.said).map((entry) => entry.id));
    if (due.length === 0) return { reasons, deferred };
    const existing = this.#options.seesEveryNamespace === false ? undefined : new Set(this.#options.caches.namespaces.list().map((namespace) => namespace.metadata?.name ?? ''));
    await forEachBounded(due.slice(0, REASON_LOOKUPS_PER_ROUND), REASON_LOOKUPS_IN_FLIGHT, async ({ id, kind, resource, owner }) => {
      const { namespace, name, generation } = resource.metadata;
      const subject = { kind: kind as ScrapeKind, namespace, name, spec: resource.spec ?? {}, ignoreNamespaceSelectors: owner.workload.spec?.ignoreNamespaceSelectors === true };
      try {
        const { facts, failed } = await gatherNoTargetsFacts(subject, existing, this.#options.listObjects, owner.client);
        const reason = noTargetsReason(facts);
        this.#lookedUp.set(id, { at: now, generation });
        if (reason !== undefined || !failed) reasons.set(id, reason);
      } catch (error) {
        this.#options.log.debug({ kind, namespace, name, err: describeError(error) }, 'could not look up why the monitor has no target');
      }
    });
    return { reasons, deferred };
  }

  /**
   * Whether `reported` may be written into `binding`: a monitor newly without targets once it has found none for
   * NO_TARGETS_CONFIRM_MS (see there); anything else at once.
   */
  confirmed(id: string, binding: Binding, reported: BindingHealth, now: number): boolean {
    const none = reported.kind === 'targets' && reported.summary.active === 0;
    const said = binding.conditions?.find((condition) => condition.type === HEALTHY_CONDITION)?.reason === 'NoTargets';
    if (!none || said) {
      this.#since.delete(id);
      return true;
    }
    const since = this.#since.get(id);
    if (since === undefined) this.#since.set(id, now);
    return since !== undefined && now - since >= NO_TARGETS_CONFIRM_MS;
  }

  /** Forgets the entries of objects whose key `present` does not hold (the maps stay the size of the cluster). */
  retain(present: (objectKey: string) => boolean): void {
    for (const map of [this.#since, this.#lookedUp]) {
      for (const id of map.keys()) if (!present(id.slice(0, id.indexOf('|')))) map.delete(id);
    }
  }
}
