/**
 * Asks the reloader to make every shard of a Prometheus run the files just applied, every reconcile (level-based:
 * the reloader calls only pods not yet known to run them, so a failed or newly ready pod is retried without
 * remembering it here).
 */
import type { GeneratorOutput } from '@promop/config-generator';
import type { Logger } from 'pino';
import type { PrometheusWorkload } from '../workload/index.ts';
import type { AppliedChildren } from './children-applier.ts';
import type { ShardConfigStatus } from './config-reloader.ts';
import { expectedShardFiles } from './expected-shard-files.ts';
import type { ReconcilerReloader } from './reconciler-ports.ts';

/** The failure messages (`shard <n>: <why>`) and `status.configStatus`. */
export interface ShardReloads {
  failures: string[];
  configStatus: ShardConfigStatus[];
}

/** Reloads every shard of `prometheus` whose config Secret `applied` names, with the files `output` says it runs. */
export async function reloadShards(reloader: ReconcilerReloader, prometheus: PrometheusWorkload, output: GeneratorOutput, applied: AppliedChildren, log: Logger): Promise<ShardReloads> {
  const results = await Promise.all(applied.configSecretUids.map((uid, shard) => {
    const writtenAt = applied.writtenAt.get(shard);
    return reloader.reload(prometheus, shard, expectedShardFiles(output, shard, uid), { log, ...(writtenAt ? { writtenAt } : {}) });
  }));
  const failures: string[] = [];
  for (const [shard, result] of results.entries()) {
    if (result.ok) continue;
    failures.push(`shard ${shard}: ${result.message}`);
    log.warn({ shard, message: result.message }, 'reload failed');
  }
  return { failures, configStatus: results.map((result) => result.status) };
}
