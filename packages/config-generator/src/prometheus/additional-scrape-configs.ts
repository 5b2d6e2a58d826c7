/**
 * `spec.additionalScrapeConfigs`: scrape configs written by hand in a Secret, appended after the
 * generated ones. With more than one shard each job also gets the sharding rules; a job that
 * already hashes targets itself (has a `hashmod` rule) only gets the final keep rule, as
 * prometheus-operator does.
 */
import type { SecretKeySelector } from '@promop/crds';
import type { PrometheusRenderContext } from './render-context.ts';
import type { TopologySharding } from '../scrape/sharding.ts';
import { addressShardingRules, keepShardRule } from './sharding.ts';
import { readYamlListSecret } from './yaml-list-secret.ts';

const PATH = 'spec.additionalScrapeConfigs';

/** The additional jobs ready to append (empty when unset), or undefined after a problem. */
export function buildAdditionalScrapeConfigs(
  ref: SecretKeySelector | undefined,
  shards: number,
  context: PrometheusRenderContext,
  topology?: TopologySharding,
): Array<Record<string, unknown>> | undefined {
  const jobs = readYamlListSecret(ref, PATH, context);
  if (jobs === undefined) return ref ? undefined : [];
  if (shards <= 1) return jobs;

  const sharded: Array<Record<string, unknown>> = [];
  for (const [index, job] of jobs.entries()) {
    const relabelings = job.relabel_configs ?? [];
    if (!Array.isArray(relabelings)) {
      context.findings.problem(PATH, `job ${index} ("${String(job.job_name ?? '')}"): relabel_configs must be a list`);
      return undefined;
    }
    const hashesItself = relabelings.some((rule) => typeof rule === 'object' && rule !== null && (rule as Record<string, unknown>).action === 'hashmod');
    // Upstream rebuilds the job with relabel_configs moved last; doing the same keeps diffs small.
    const { relabel_configs: _omitted, ...rest } = job;
    sharded.push({ ...rest, relabel_configs: [...relabelings, ...(hashesItself ? [keepShardRule()] : addressShardingRules(shards, topology))] });
  }
  return sharded;
}
