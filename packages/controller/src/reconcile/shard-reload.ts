/**
 * Asks the reloader to make every shard of a Prometheus run the files just applied, every reconcile (level-based:
 * the reloader calls only pods not yet known to run them, so a failed or newly ready pod is retried without
 * remembering it here), and turns how the shards stand into the Reconciled condition and `status.configStatus`.
 * The reloader does not wait for the pods; when its work has news it calls `onRoundEnd`, the reconciler requeues
 * the key, and the next reconcile writes what it found.
 */
import type { GeneratorOutput } from '@promop/config-generator';
import type { Logger } from 'pino';
import type { PrometheusWorkload } from '../workload/index.ts';
import type { PodTls } from '../prometheus-client/pod-tls.ts';
import type { AppliedChildren } from './children-applier.ts';
import { RELOADING_REASON, type ShardConfigStatus } from './config-reloader.ts';
import { expectedShardFiles } from './expected-shard-files.ts';
import type { ReconciledVerdict } from './prometheus-status.ts';
import type { ReconcilerReloader } from './reconciler-ports.ts';

/** How the shards stand, and `status.configStatus`. */
export interface ShardReloads {
  /**
   * The Reconciled condition they call for; undefined keeps the one in status: every shard still being reloaded
   * already shows these files in status (a restarted promop confirming what its predecessor wrote).
   */
  reconciled: ReconciledVerdict | undefined;
  configStatus: ShardConfigStatus[];
}

/**
 * Reloads every shard of `prometheus` whose config Secret `applied` names, with the files `output` says it runs, over
 * HTTPS with `tls` when its pods serve HTTPS.
 */
export async function reloadShards(
  reloader: ReconcilerReloader, prometheus: PrometheusWorkload, output: GeneratorOutput, applied: AppliedChildren, log: Logger, onRoundEnd: () => void,
  tls?: PodTls,
): Promise<ShardReloads> {
  const results = await Promise.all(applied.configSecretUids.map((uid, shard) => {
    const writtenAt = applied.writtenAt.get(shard);
    const expected = { ...expectedShardFiles(output, shard, uid), ...(tls ? { tls } : {}) };
    return reloader.reload(prometheus, shard, expected, { log, onRoundEnd, ...(writtenAt ? { writtenAt } : {}) });
  }));
  const shown = prometheus.status?.configStatus ?? [];
  const failures: string[] = [];
  const reloading: string[] = [];
  let confirming = false;
  const configStatus = results.map((result, shard) => {
    if (result.state === 'failed') {
      failures.push(`shard ${shard}: ${result.message}`);
      log.warn({ shard, message: result.message }, 'reload failed');
      return result.status;
    }
    if (result.state === 'loaded') return result.status;
    const entry = shown.find((each) => each.shardID === result.status.shardID);
    if (entry?.configHash === result.status.configHash) {
      confirming = true;
      return entry;
    }
    const pods = (result.status.pendingReplicas ?? []).filter((pod) => pod.reason === RELOADING_REASON).map((pod) => pod.pod);
    reloading.push(`shard ${shard}: ${pods.join(', ')} loading config ${result.status.configHash}`);
    return result.status;
  });
  if (failures.length > 0) return { reconciled: { status: 'False', reason: 'ReloadFailed', message: failures.join('; ') }, configStatus };
  if (reloading.length > 0) return { reconciled: { status: 'Unknown', reason: RELOADING_REASON, message: reloading.join('; ') }, configStatus };
  const hasCondition = prometheus.status?.conditions?.some((condition) => condition.type === 'Reconciled') ?? false;
  if (confirming && hasCondition) return { reconciled: undefined, configStatus };
  if (confirming) return { reconciled: { status: 'Unknown', reason: RELOADING_REASON, message: 'confirming that every ready replica runs the written files' }, configStatus };
  return { reconciled: { status: 'True', reason: '', message: '' }, configStatus };
}
