/**
 * The health reporter: every period (`promop run --health-interval`, default 30 s) it reads GET /api/v1/targets and
 * GET /api/v1/rules from one Ready replica of each shard of every Prometheus (and the targets of every
 * PrometheusAgent), sums them per monitor and PrometheusRule (target-health.ts, rule-health.ts), and writes into
 * each object's binding of that Prometheus what changed class (binding-health.ts): at most one status write per
 * object per minute, none while nothing changes class, and none while a binding's reason keeps flipping
 * (flap-damper.ts).
 *
 * It reads a replica only once promop verified that it runs the files written for its shard (its Prometheus'
 * `status.configStatus[].loadedReplicas`), so a monitor just added is not reported without targets by a replica
 * that has not loaded it yet.
 * It calls only the pods of promop's own StatefulSets (the pods cache holds nothing else), by the IP the API server
 * reports, inside the pod networks (reload/pod-networks.ts), through the same client and URL policy as the
 * reloader. A Prometheus one of whose shards cannot be read this period (no Ready replica, an error) is skipped
 * whole: a sum over some of the shards would report targets missing that are only unread. What the bindings say
 * then stays as last written.
 *
 * Only the leader runs it (the operator starts it with the work queues). Each object's status gets this
 * Prometheus' health in this Prometheus' binding only; the summaries are keyed by the object the scrape pool or
 * rule file names, so one team's object never carries another's targets or errors.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { ruleFileName } from '@promop/config-generator';
import { API_VERSIONS, GROUP, KINDS, PLURALS, PROMETHEUS_SELECTED_KINDS, PROMETHEUS_WORKLOAD_KINDS, type ConfigResourceStatus, type PrometheusSelectedKind, type ScrapeKind } from '@promop/crds';
import type { Logger } from 'pino';
import { apiErrorOf, describeError } from '../kube/index.ts';
import { prometheusPodUrl, type PrometheusClient } from '../prometheus-client/index.ts';
import type { PodTls } from '../prometheus-client/pod-tls.ts';
import { forEachBounded } from '../reconcile/bounded-parallel.ts';
import { shardCount } from '../reconcile/prometheus-status.ts';
import type { ReconcilerCaches, ReconcilerEvents, ReconcilerStatus } from '../reconcile/reconciler-ports.ts';
import { podCallability, podsOfShard, type PodNetworks } from '../reload/index.ts';
import { PROMETHEUS_PORT, routePrefix, type PrometheusWorkload, type WorkloadKind } from '../workload/index.ts';
import { bindingWithHealth, healthAlarm, healthChangesClass, healthReason, HEALTHY_CONDITION, writtenHealth, type Binding, type BindingHealth } from './binding-health.ts';
import { FlapDamper } from './flap-damper.ts';
import { gatherNoTargetsFacts, type ListObjects } from './no-targets-facts.ts';
import { noTargetsReason } from './no-targets-reason.ts';
import { rulesOf, summariseRules, type EvaluatedGroup, type RulesReport } from './rule-health.ts';
import { summariseTargets, targetsOf, type TargetsAnswer, type TargetsReport } from './target-health.ts';

/** The default period between two reads of every Prometheus. */
export const DEFAULT_HEALTH_INTERVAL_MS = 30_000;
/**
 * Health writes in flight at once: after a Prometheus restarts every one of its objects changes class together, and
 * one write at a time would take longer than a period (the verdict recorder's bound, for the same reason).
 */
const STATUS_WRITES_IN_FLIGHT = 16;
/**
 * How long a monitor must keep finding no target before it is reported so: Prometheus' service discovery hands the
 * targets of a scrape pool it just loaded to the scrape manager within about five seconds, and a round in between
 * would report a new monitor NoTargets (and warn) before its targets.
 */
export const NO_TARGETS_CONFIRM_MS = 10_000;
/** At most one health write per object in this time. */
export const MIN_HEALTH_WRITE_INTERVAL_MS = 60_000;
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

/** What the reporter needs. */
export interface HealthReporterOptions {
  caches: Pick<ReconcilerCaches, 'pods' | 'namespaces' | 'prometheuses' | 'prometheusAgents' | (typeof KINDS)[PrometheusSelectedKind]['list']>;
  /** A client for one pod's base URL (the reloader's: same Agent and allow-list), over HTTPS with `tls`. */
  client: (baseUrl: string, tls?: PodTls) => PrometheusClient;
  /** How the reloader calls the pods of a Prometheus that serves HTTPS; undefined: plain HTTP. */
  podTls?: (kind: WorkloadKind, namespace: string, name: string) => PodTls | undefined;
  networks: PodNetworks;
  status: ReconcilerStatus;
  /** Where the Warning of a monitor that newly finds no target or only down ones, or of a newly failing rule, goes. */
  events?: ReconcilerEvents;
  /**
   * Reads Services and Pods from the API server, to say why a monitor finds no target (no-targets-facts.ts);
   * undefined: the reason is looked for in Prometheus' dropped targets only.
   */
  listObjects?: ListObjects;
  /** False when the Namespace cache holds only some namespaces (`promop run --namespaces`); default true. */
  seesEveryNamespace?: boolean;
  log: Logger;
  /** Period between two rounds (default DEFAULT_HEALTH_INTERVAL_MS). */
  intervalMs?: number;
  /** Least time between two health writes of one object (default MIN_HEALTH_WRITE_INTERVAL_MS; tests shorten it). */
  minWriteIntervalMs?: number;
  /** Test only: the port of a pod's Prometheus (see OperatorOptions.prometheusPortOf). */
  prometheusPortOf?: (pod: V1Pod) => number;
  now?: () => Date;
}

/** What one Prometheus reported this round, per object key (`<kind>/<namespace>/<name>`). */
interface OwnerHealth {
  targets: TargetsReport;
  /** Undefined for an agent: it evaluates no rules. */
  rules: RulesReport | undefined;
  workload: PrometheusWorkload;
  /** The replica of its first shard that answered: where the dropped targets of a monitor without any are asked. */
  client: PrometheusClient;
}

type ConfigResource = {
  metadata: { namespace: string; name: string; uid?: string | undefined; resourceVersion?: string | undefined; generation?: number | undefined };
  spec?: unknown;
  status?: ConfigResourceStatus | undefined;
};

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

/** `<resource>/<namespace>/<name>` of a binding's owner. */
const ownerId = (resource: string, namespace: string, name: string) => `${resource}/${namespace}/${name}`;

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
  /** `<object key>|<owner>` → when it was first seen without targets, while that is not yet what its binding says. */
  readonly #noTargetsSince = new Map<string, number>();
  /** `<object key>|<owner>` → when the reason it has no target was last looked up, and of which generation. */
  readonly #reasonLookedUp = new Map<string, { at: number; generation: number | undefined }>();
  /** The class each binding showed round after round: one that keeps changing is not written while it does. */
  readonly #flaps = new FlapDamper();
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> | undefined;
  #stopped = false;

  constructor(options: HealthReporterOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
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
      const health = await this.#readAll();
      if (!this.#stopped) await this.#writeAll(health);
    } catch (error) {
      this.#options.log.error({ err: describeError(error) }, 'health round failed');
    }
  }

  /** What each readable Prometheus reports, by owner id. */
  async #readAll(): Promise<Map<string, OwnerHealth>> {
    const { caches } = this.#options;
    const owners: [WorkloadKind, PrometheusWorkload][] = PROMETHEUS_WORKLOAD_KINDS.flatMap((kind) =>
      (caches[KINDS[kind].list].list() as readonly PrometheusWorkload[]).map((workload): [WorkloadKind, PrometheusWorkload] => [kind, workload]));
    // Rule file name → object key, for the groups Prometheus reports (rule-health.ts).
    const objectOfFile = new Map(caches.prometheusRules.list().map((rule) =>
      [ruleFileName(rule.metadata.namespace, rule.metadata.name, rule.metadata.uid ?? ''), `PrometheusRule/${rule.metadata.namespace}/${rule.metadata.name}`]));
    const result = new Map<string, OwnerHealth>();
    await Promise.all(owners.map(async ([kind, workload]) => {
      const read = await this.#readOwner(kind, workload);
      if (!read) return;
      const targets = summariseTargets(read.targets);
      const rules = read.rules === undefined ? undefined : summariseRules(read.rules, objectOfFile);
      result.set(ownerId(PLURALS[kind], workload.metadata.namespace, workload.metadata.name), { targets, rules, workload, client: read.client });
    }));
    return result;
  }

  /** The answers of one Ready replica per shard, or undefined when some shard cannot be read this round. */
  async #readOwner(kind: WorkloadKind, workload: PrometheusWorkload): Promise<{ targets: TargetsAnswer[]; rules: EvaluatedGroup[][] | undefined; client: PrometheusClient } | undefined> {
    const { namespace, name } = workload.metadata;
    // Prometheus listens on the pod's loopback only: promop cannot reach it.
    if (workload.spec?.listenLocal === true) return undefined;
    const log = this.#options.log.child({ prometheus: `${namespace}/${name}`, kind });
    // Pods serving HTTPS are called as the reloader calls them: the pinned certificate, promop's client certificate.
    const tls = this.#options.podTls?.(kind, namespace, name);
    const pods = this.#options.caches.pods.list(namespace);
    const configStatus = workload.status?.configStatus;
    const shards = await Promise.all(Array.from({ length: shardCount(workload) }, async (_, shard) => {
      // Only a replica verified to run the files promop wrote (status.configStatus): one still on an older config
      // would report a new monitor as having no targets. Without configStatus (a CRD that does not declare it,
      // docs/compatibility.md) any ready replica.
      const loaded = configStatus === undefined ? undefined : new Set(configStatus.find((entry) => entry.shardID === String(shard))?.loadedReplicas ?? []);
      for (const pod of podsOfShard(pods, name, shard, kind)) {
        if (loaded && !loaded.has(pod.metadata?.name ?? '')) continue;
        const callable = podCallability(pod);
        if (!callable.callable) continue;
        const admission = await this.#options.networks.admit(callable.ip);
        if (!admission.ok) continue;
        const client = tls
          ? this.#options.client(prometheusPodUrl(callable.ip, this.#options.prometheusPortOf?.(pod) ?? PROMETHEUS_PORT, routePrefix(workload.spec ?? {}), 'https'), tls)
          : this.#options.client(prometheusPodUrl(callable.ip, this.#options.prometheusPortOf?.(pod) ?? PROMETHEUS_PORT, routePrefix(workload.spec ?? {})));
        const targets = await client.activeTargets();
        // An agent has no rules endpoint.
        const rules = kind === 'Prometheus' ? await client.ruleGroups() : undefined;
        if (!targets.ok || (rules && !rules.ok)) {
          log.debug({ shard, pod: pod.metadata?.name, err: !targets.ok ? targets.error.message : rules && !rules.ok ? rules.error.message : '' }, 'could not read health; trying the next replica');
          continue;
        }
        return { targets: targets.value, rules: rules?.ok ? rules.value : undefined, client };
      }
      return undefined;
    }));
    if (shards.some((shard) => shard === undefined)) {
      log.debug('no readable replica in some shard; health not updated this round');
      return undefined;
    }
    const read = shards as { targets: TargetsAnswer; rules: EvaluatedGroup[] | undefined; client: PrometheusClient }[];
    return { targets: read.map((shard) => shard.targets), rules: kind === 'Prometheus' ? read.map((shard) => shard.rules ?? []) : undefined, client: read[0]!.client };
  }

  /** Writes each object's bindings whose health changed class, at most once per object per minimum interval. */
  async #writeAll(health: ReadonlyMap<string, OwnerHealth>): Promise<void> {
    if (health.size === 0) return;
    const now = this.#now();
    const minInterval = this.#options.minWriteIntervalMs ?? MIN_HEALTH_WRITE_INTERVAL_MS;
    const { reasons, deferred } = await this.#noTargetsReasons(health, now.getTime());
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
          if (!settled || !this.#worthWriting(id, binding, reported, now.getTime())) return binding;
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
      for (const id of this.#noTargetsSince.keys()) if (!present.has(id.slice(0, id.indexOf('|')))) this.#noTargetsSince.delete(id);
      for (const id of this.#reasonLookedUp.keys()) if (!present.has(id.slice(0, id.indexOf('|')))) this.#reasonLookedUp.delete(id);
      this.#flaps.retain((id) => present.has(id.slice(0, id.indexOf('|'))));
    }
  }

  /**
   * The reasons looked up this round of monitors without targets, by `<object key>|<owner>` (no-targets-reason.ts):
   * of those that will now be written NoTargets (found none for NO_TARGETS_CONFIRM_MS), and of those that say so
   * already, every NO_TARGETS_RECHECK_MS or when the monitor changed (a team that fixed one thing learns the next).
   * Absent: not looked up this round, or some read failed; the binding then keeps the reason it carries.
   * `deferred`: monitors newly without targets whose look-up did not fit in this round.
   */
  async #noTargetsReasons(health: ReadonlyMap<string, OwnerHealth>, now: number): Promise<{ reasons: Map<string, string | undefined>; deferred: Set<string> }> {
    const due: { id: string; kind: PrometheusSelectedKind; resource: ConfigResource; owner: OwnerHealth; said: boolean }[] = [];
    for (const kind of PROMETHEUS_SELECTED_KINDS) {
      if (KINDS[kind].role !== 'scrape' || this.#undeclared.has(kind)) continue;
      for (const resource of this.#options.caches[KINDS[kind].list].list() as readonly ConfigResource[]) {
        const key = `${kind}/${resource.metadata.namespace}/${resource.metadata.name}`;
        for (const binding of resource.status?.bindings ?? []) {
          const owner = health.get(ownerId(binding.resource, binding.namespace, binding.name));
          const id = `${key}|${binding.resource}/${binding.namespace}/${binding.name}`;
          const reported = owner && healthOf('scrape', owner, key);
          if (!owner || reported?.kind !== 'targets' || reported.summary.active > 0) {
            this.#reasonLookedUp.delete(id);
            continue;
          }
          if (!binding.conditions?.some((c) => c.type === 'Accepted' && c.status === 'True')) continue;
          const said = binding.conditions.some((c) => c.type === HEALTHY_CONDITION && c.reason === 'NoTargets');
          if (!said) {
            const since = this.#noTargetsSince.get(id);
            if (since === undefined || now - since < NO_TARGETS_CONFIRM_MS) continue;
          } else {
            const last = this.#reasonLookedUp.get(id);
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
        this.#reasonLookedUp.set(id, { at: now, generation });
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
  #worthWriting(id: string, binding: Binding, reported: BindingHealth, now: number): boolean {
    const none = reported.kind === 'targets' && reported.summary.active === 0;
    const said = binding.conditions?.find((condition) => condition.type === HEALTHY_CONDITION)?.reason === 'NoTargets';
    if (!none || said) {
      this.#noTargetsSince.delete(id);
      return true;
    }
    const since = this.#noTargetsSince.get(id);
    if (since === undefined) this.#noTargetsSince.set(id, now);
    return since !== undefined && now - since >= NO_TARGETS_CONFIRM_MS;
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

/**
 * The health `owner` reports of object `key`, by the role of its kind; undefined when it reports none of that kind,
 * or nothing is known of the object yet (targetsOf, rulesOf): the binding then keeps what it said, so a Prometheus
 * restart costs no write, and the first report, which a minute between two writes would otherwise hold back, is the
 * answer.
 */
function healthOf(role: string, owner: OwnerHealth, key: string): BindingHealth | undefined {
  const targets = role === 'scrape' ? targetsOf(owner.targets, key) : undefined;
  if (targets) return { kind: 'targets', summary: targets };
  const rules = role === 'rules' && owner.rules ? rulesOf(owner.rules, key) : undefined;
  return rules && { kind: 'rules', summary: rules };
}
