/**
 * The health reporter: every period (`promop run --health-interval`, default 30 s) it reads what every Prometheus
 * and PrometheusAgent reports of its targets and rules (workload-health-reader.ts), and writes into each object's
 * binding of that Prometheus what changed class (binding-health.ts): at most one status write per object per minute,
 * none while nothing changes class, none while a binding's reason keeps flipping (flap-damper.ts), and a monitor
 * without targets only once that held for a while and its reason is known (no-targets-tracker.ts). A Prometheus
 * that could not be read this period leaves what its bindings say as last written.
 *
 * Only the leader runs it (the operator starts it with the work queues). Each object's status gets this
 * Prometheus' health in this Prometheus' binding only; the summaries are keyed by the object the scrape pool or
 * rule file names, so one team's object never carries another's targets or errors.
 */
import { API_VERSIONS, GROUP, KINDS, PLURALS, PROMETHEUS_SELECTED_KINDS, type ConfigResourceStatus, type PrometheusSelectedKind } from '@promop/crds';
import type { Logger } from 'pino';
import { apiErrorOf, describeError } from '../kube/index.ts';
import { forEachBounded } from '../reconcile/bounded-parallel.ts';
import type { ReconcilerEvents, ReconcilerStatus } from '../reconcile/reconciler-ports.ts';
import { bindingWithHealth, healthAlarm, healthChangesClass, healthReason, HEALTHY_CONDITION, writtenHealth, type Binding, type BindingHealth } from './binding-health.ts';
import { FlapDamper } from './flap-damper.ts';
import { NoTargetsTracker, type ConfigResource, type NoTargetsTrackerOptions } from './no-targets-tracker.ts';
import { healthOf, ownerId, readWorkloadsHealth, type OwnerHealth, type WorkloadHealthReaderOptions } from './workload-health-reader.ts';

/** The default period between two reads of every Prometheus. */
export const DEFAULT_HEALTH_INTERVAL_MS = 30_000;
/**
 * Health writes in flight at once: after a Prometheus restarts every one of its objects changes class together, and
 * one write at a time would take longer than a period (the verdict recorder's bound, for the same reason).
 */
const STATUS_WRITES_IN_FLIGHT = 16;
/** At most one health write per object in this time. */
export const MIN_HEALTH_WRITE_INTERVAL_MS = 60_000;

/** What the reporter needs. */
export interface HealthReporterOptions extends WorkloadHealthReaderOptions, NoTargetsTrackerOptions {
  caches: WorkloadHealthReaderOptions['caches'] & NoTargetsTrackerOptions['caches'];
  status: ReconcilerStatus;
  /** Where the Warning of a monitor that newly finds no target or only down ones, or of a newly failing rule, goes. */
  events?: ReconcilerEvents;
  /** Period between two rounds (default DEFAULT_HEALTH_INTERVAL_MS). */
  intervalMs?: number;
  /** Least time between two health writes of one object (default MIN_HEALTH_WRITE_INTERVAL_MS; tests shorten it). */
  minWriteIntervalMs?: number;
  now?: () => Date;
}

/** The action of the health Warning Events. */
const HEALTH_ACTION = 'ReadingPrometheusHealth';

/** One object's status write of a round, and the Warnings to record once it is written. */
interface HealthWrite {
  kind: PrometheusSelectedKind;
  resource: ConfigResource;
  status: ConfigResourceStatus;
  key: string;
  alarms: { reason: string; message: string; owner: Binding }[];
}

/** Reads the Prometheus pods' targets and rules every period and writes each object's health; see the file comment. */
export class HealthReporter {
  readonly #options: HealthReporterOptions;
  readonly #now: () => Date;
  /** Object key → when its status was last written by this reporter (ms). */
  readonly #lastWrite = new Map<string, number>();
  /**
   * Kinds whose CRD refused the health fields (prometheus-operator's own CRDs do not declare them; server-side apply
   * refuses an undeclared field): not written again by this process.
   */
  readonly #undeclared = new Set<PrometheusSelectedKind>();
  /** The class each binding showed round after round: one that keeps changing is not written while it does. */
  readonly #flaps = new FlapDamper();
  /** Which monitors found no target for how long, and when their reason was looked up. */
  readonly #noTargets: NoTargetsTracker;
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> | undefined;
  #stopped = false;

  constructor(options: HealthReporterOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#noTargets = new NoTargetsTracker(options);
  }

  /** Starts the periodic rounds (the first after one period: the reconciles of a new leader come first). */
  start(): void {
    if (this.#timer || this.#stopped) return;
    this.#timer = setInterval(() => {
      // A round that takes longer than the period is not overlapped by the next.
      if (this.#round === undefined) this.#round = this.runOnce().finally(() => { this.#round = undefined; });
    }, this.#options.intervalMs ?? DEFAULT_HEALTH_INTERVAL_MS);
    this.#timer.unref();
  }

  /** Stops: no round starts after this call; resolves once the one in progress ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#round;
  }

  /** One round: read every Prometheus, write what changed class. Never throws (failures are logged). */
  async runOnce(): Promise<void> {
    try {
      const health = await readWorkloadsHealth(this.#options);
      if (!this.#stopped) await this.#writeAll(health);
    } catch (error) {
      this.#options.log.error({ err: describeError(error) }, 'health round failed');
    }
  }

  /** Writes each object's bindings whose health changed class, at most once per object per minimum interval. */
  async #writeAll(health: ReadonlyMap<string, OwnerHealth>): Promise<void> {
    if (health.size === 0) return;
    const now = this.#now();
    const minInterval = this.#options.minWriteIntervalMs ?? MIN_HEALTH_WRITE_INTERVAL_MS;
    const { reasons, deferred } = await this.#noTargets.reasons(health, now.getTime(), (kind) => this.#undeclared.has(kind));
    const writes: HealthWrite[] = [];
    for (const kind of PROMETHEUS_SELECTED_KINDS) {
      if (this.#undeclared.has(kind)) continue;
      const role = KINDS[kind].role;
      const resources = this.#options.caches[KINDS[kind].list].list() as readonly ConfigResource[];
      for (const resource of resources) {
        const bindings = resource.status?.bindings;
        if (!bindings || bindings.length === 0) continue;
        const key = `${kind}/${resource.metadata.namespace}/${resource.metadata.name}`;
        let changed = false;
        const alarms: HealthWrite['alarms'] = [];
        const next = bindings.map((binding) => {
          const owner = health.get(ownerId(binding.resource, binding.namespace, binding.name));
          if (!owner) return binding;
          const accepted = binding.conditions?.some((c) => c.type === 'Accepted' && c.status === 'True') ?? false;
          if (!accepted) {
            // A rejected object is not in the configuration: what was reported of it before no longer holds.
            if (!binding.targets && !binding.rules && !binding.conditions?.some((c) => c.type === HEALTHY_CONDITION)) return binding;
            changed = true;
            const { targets: _targets, rules: _rules, ...rest } = binding;
            return { ...rest, conditions: (binding.conditions ?? []).filter((c) => c.type !== HEALTHY_CONDITION) };
          }
          const id = `${key}|${binding.resource}/${binding.namespace}/${binding.name}`;
          // Not written NoTargets before its reason is known (the look-ups of a round are bounded): one write, not two.
          if (deferred.has(id)) return binding;
          const reported = withNoTargetsReason(healthOf(role, owner, key), binding, reasons, id);
          if (!reported) return binding;
          // Observed every round it is reported, written or not (a deferred one waits for its reason first): a flapping
          // binding keeps what it said until its reason holds.
          const settled = this.#flaps.observe(id, healthReason(reported), now.getTime());
          if (!settled || !this.#noTargets.confirmed(id, binding, reported, now.getTime())) return binding;
          if (!healthChangesClass(binding, reported)) return binding;
          changed = true;
          const updated = bindingWithHealth(binding, reported, now);
          const alarm = healthAlarm(binding, updated);
          if (alarm) alarms.push({ ...alarm, owner: binding });
          return updated;
        });
        if (!changed) continue;
        const last = this.#lastWrite.get(key);
        if (last !== undefined && now.getTime() - last < minInterval) continue;
        writes.push({ kind, resource, status: { ...resource.status, bindings: next }, key, alarms });
      }
    }
    await forEachBounded(writes, STATUS_WRITES_IN_FLIGHT, async (write) => {
      if (!this.#stopped && !this.#undeclared.has(write.kind) && await this.#write(write, now.getTime())) await this.#warn(write);
    });
    // Forget the write times of objects that are gone (the map stays the size of the cluster).
    if (this.#lastWrite.size > 0) {
      const present = new Set(PROMETHEUS_SELECTED_KINDS.flatMap((kind) =>
        (this.#options.caches[KINDS[kind].list].list() as readonly ConfigResource[]).map((r) => `${kind}/${r.metadata.namespace}/${r.metadata.name}`)));
      for (const key of this.#lastWrite.keys()) if (!present.has(key)) this.#lastWrite.delete(key);
      this.#noTargets.retain((key) => present.has(key));
      this.#flaps.retain((id) => present.has(id.slice(0, id.indexOf('|'))));
    }
  }

  /**
   * One status write; a 409 (the object changed since the cache saw it) waits for the next round. Whether the new
   * health was written (it is then the status, so the next round does not warn again).
   */
  async #write({ kind, resource, status, key }: HealthWrite, at: number): Promise<boolean> {
    const { namespace, name, resourceVersion } = resource.metadata;
    const log = this.#options.log.child({ kind, namespace, name });
    try {
      // The resourceVersion makes a write from a stale cache fail instead of dropping another Prometheus' binding.
      const written = await this.#options.status.apply({ kind, namespace, name, ...(resourceVersion ? { resourceVersion } : {}) }, status);
      this.#lastWrite.set(key, at);
      if (written) log.info({ bindings: status.bindings?.map((b) => `${b.namespace}/${b.name}: ${b.conditions?.find((c) => c.type === HEALTHY_CONDITION)?.reason ?? '-'}`) }, 'health written');
      return written !== undefined;
    } catch (error) {
      const api = apiErrorOf(error);
      if (api?.code === 409) return false;
      this.#lastWrite.set(key, at);
      if (api && /field not declared in schema/.test(api.message)) {
        this.#undeclared.add(kind);
        log.warn({ err: describeError(error) }, 'the CRD does not declare the health fields (not promop\'s CRD?); health of this kind is not written');
        return false;
      }
      log.warn({ err: describeError(error) }, 'could not write health; trying again in a later round');
      return false;
    }
  }

  /** One Warning Event per alarm of a written health, on the team's object, related to the Prometheus that reported it. */
  async #warn({ kind, resource, alarms }: HealthWrite): Promise<void> {
    const { events, caches, log } = this.#options;
    if (!events) return;
    const { namespace, name, uid } = resource.metadata;
    for (const { reason, message, owner } of alarms) {
      const workload = owner.resource === PLURALS.PrometheusAgent ? 'PrometheusAgent' : 'Prometheus';
      const related = caches[KINDS[workload].list].get(owner.name, owner.namespace);
      try {
        await events.record({
          type: 'Warning',
          reason,
          action: HEALTH_ACTION,
          regarding: { apiVersion: `${GROUP}/${API_VERSIONS[kind]}`, kind, namespace, name, ...(uid ? { uid } : {}) },
          ...(related?.metadata.uid ? { related: { apiVersion: `${GROUP}/${API_VERSIONS[workload]}`, kind: workload, namespace: owner.namespace, name: owner.name, uid: related.metadata.uid } } : {}),
          note: `${workload} ${owner.namespace}/${owner.name}: ${message}`,
        });
      } catch (error) {
        // The status already says it; an Event that cannot be written is not worth more than a log line.
        log.warn({ kind, namespace, name, err: describeError(error) }, 'could not write the health Warning event');
      }
    }
  }
}

/**
 * `reported` with the reason a monitor without targets has: the one looked up this round (`reasons`, by `id`), else
 * the one `binding` already carries; none for a monitor with targets.
 */
function withNoTargetsReason(reported: BindingHealth | undefined, binding: Binding, reasons: ReadonlyMap<string, string | undefined>, id: string): BindingHealth | undefined {
  if (reported?.kind !== 'targets' || reported.summary.active > 0) return reported;
  const written = writtenHealth(binding);
  const reason = reasons.has(id) ? reasons.get(id) : written?.kind === 'targets' ? written.noTargetsReason : undefined;
  return reason === undefined ? reported : { ...reported, noTargetsReason: reason };
}
