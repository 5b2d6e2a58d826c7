/**
 * Reads what each Prometheus and PrometheusAgent reports of its targets and rules: GET /api/v1/targets and
 * GET /api/v1/rules from one Ready replica of each shard, summed per monitor and PrometheusRule (target-health.ts,
 * rule-health.ts).
 *
 * A replica is read only once promop verified that it runs the files written for its shard (its workload's
 * `status.configStatus[].loadedReplicas`), so a monitor just added is not reported without targets by a replica that
 * has not loaded it yet. Only the pods of promop's own StatefulSets are called (the pods cache holds nothing else),
 * by the IP the API server reports, inside the pod networks (reload/pod-networks.ts), through the same client and URL
 * policy as the reloader. A workload one of whose shards cannot be read (no Ready replica, an error) is left out
 * whole: a sum over some of the shards would report targets missing that are only unread.
 *
 * A PrometheusAgent in DaemonSet mode is not read at all: each of its pods scrapes only its own node's pods, so one
 * pod's answer would report every target on other nodes as missing (a false NoTargets), and a sum over all its pods
 * is not complete while a node's pod is not Ready. Its bindings carry Accepted/Rejected only (docs/compatibility.md).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { ruleFileName } from '@promop/config-generator';
import { KINDS, PLURALS, PROMETHEUS_WORKLOAD_KINDS } from '@promop/crds';
import type { Logger } from 'pino';
import { prometheusPodUrl, type PrometheusClient } from '../prometheus-client/index.ts';
import type { PodTls } from '../prometheus-client/pod-tls.ts';
import { shardCount } from '../reconcile/prometheus-status.ts';
import type { ReconcilerCaches } from '../reconcile/reconciler-ports.ts';
import { podCallability, podsOfShard, type PodNetworks } from '../reload/index.ts';
import { PROMETHEUS_PORT, routePrefix, type PrometheusWorkload, type WorkloadKind } from '../workload/index.ts';
import type { BindingHealth } from './binding-health.ts';
import { rulesOf, summariseRules, type EvaluatedGroup, type RulesReport } from './rule-health.ts';
import { summariseTargets, targetsOf, type TargetsAnswer, type TargetsReport } from './target-health.ts';

/** What one Prometheus reported this round, per object key (`<kind>/<namespace>/<name>`). */
export interface OwnerHealth {
  targets: TargetsReport;
  /** Undefined for an agent: it evaluates no rules. */
  rules: RulesReport | undefined;
  workload: PrometheusWorkload;
  /** The replica of its first shard that answered: where the dropped targets of a monitor without any are asked. */
  client: PrometheusClient;
}

/** What the reader needs: a subset of the reporter's options. */
export interface WorkloadHealthReaderOptions {
  caches: Pick<ReconcilerCaches, 'pods' | 'prometheuses' | 'prometheusAgents' | 'prometheusRules'>;
  /** A client for one pod's base URL (the reloader's: same Agent and allow-list), over HTTPS with `tls`. */
  client: (baseUrl: string, tls?: PodTls) => PrometheusClient;
  /** How the reloader calls the pods of a Prometheus that serves HTTPS; undefined: plain HTTP. */
  podTls?: (kind: WorkloadKind, namespace: string, name: string) => PodTls | undefined;
  networks: PodNetworks;
  log: Logger;
  /** Test only: the port of a pod's Prometheus (see OperatorOptions.prometheusPortOf). */
  prometheusPortOf?: (pod: V1Pod) => number;
}

/** `<resource>/<namespace>/<name>` of a binding's owner: how {@link readWorkloadsHealth} keys its answer. */
export const ownerId = (resource: string, namespace: string, name: string) => `${resource}/${namespace}/${name}`;

/** What each readable Prometheus and PrometheusAgent reports, by {@link ownerId}. */
export async function readWorkloadsHealth(options: WorkloadHealthReaderOptions): Promise<Map<string, OwnerHealth>> {
  const { caches } = options;
  const owners: [WorkloadKind, PrometheusWorkload][] = PROMETHEUS_WORKLOAD_KINDS.flatMap((kind) =>
    (caches[KINDS[kind].list].list() as readonly PrometheusWorkload[]).map((workload): [WorkloadKind, PrometheusWorkload] => [kind, workload]));
  // Rule file name → object key, for the groups Prometheus reports (rule-health.ts).
  const objectOfFile = new Map(caches.prometheusRules.list().map((rule) =>
    [ruleFileName(rule.metadata.namespace, rule.metadata.name, rule.metadata.uid ?? ''), `PrometheusRule/${rule.metadata.namespace}/${rule.metadata.name}`]));
  const result = new Map<string, OwnerHealth>();
  await Promise.all(owners.map(async ([kind, workload]) => {
    const read = await readOwner(options, kind, workload);
    if (!read) return;
    const targets = summariseTargets(read.targets);
    const rules = read.rules === undefined ? undefined : summariseRules(read.rules, objectOfFile);
    result.set(ownerId(PLURALS[kind], workload.metadata.namespace, workload.metadata.name), { targets, rules, workload, client: read.client });
  }));
  return result;
}

/** The answers of one Ready replica per shard, or undefined when some shard cannot be read this round. */
async function readOwner(options: WorkloadHealthReaderOptions, kind: WorkloadKind, workload: PrometheusWorkload): Promise<{ targets: TargetsAnswer[]; rules: EvaluatedGroup[][] | undefined; client: PrometheusClient } | undefined> {
  const { namespace, name } = workload.metadata;
  // Prometheus listens on the pod's loopback only: promop cannot reach it.
  if (workload.spec?.listenLocal === true) return undefined;
  // One pod per node, each seeing its node's targets only: no one pod answers for the agent (see the file comment).
  if (kind === 'PrometheusAgent' && (workload.spec as { mode?: string } | undefined)?.mode === 'DaemonSet') return undefined;
  const log = options.log.child({ prometheus: `${namespace}/${name}`, kind });
  // Pods serving HTTPS are called as the reloader calls them: the pinned certificate, promop's client certificate.
  const tls = options.podTls?.(kind, namespace, name);
  const pods = options.caches.pods.list(namespace);
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
      const admission = await options.networks.admit(callable.ip);
      if (!admission.ok) continue;
      const base = prometheusPodUrl(callable.ip, options.prometheusPortOf?.(pod) ?? PROMETHEUS_PORT, routePrefix(workload.spec ?? {}), tls ? 'https' : undefined);
      const client = tls ? options.client(base, tls) : options.client(base);
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

/**
 * The health `owner` reports of object `key`, by the role of its kind; undefined when it reports none of that kind,
 * or nothing is known of the object yet (targetsOf, rulesOf): the binding then keeps what it said, so a Prometheus
 * restart costs no write, and the first report, which a minute between two writes would otherwise hold back, is the
 * answer.
 */
export function healthOf(role: string, owner: OwnerHealth, key: string): BindingHealth | undefined {
  const targets = role === 'scrape' ? targetsOf(owner.targets, key) : undefined;
  if (targets) return { kind: 'targets', summary: targets };
  const rules = role === 'rules' && owner.rules ? rulesOf(owner.rules, key) : undefined;
  return rules && { kind: 'rules', summary: rules };
}
