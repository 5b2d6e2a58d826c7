/**
 * The comparison of two prometheus.yaml texts, job by job, after removing what docs/compatibility.md says differs by
 * design: the replica label's `$(POD_NAME)` (promop: `${POD_NAME}`, expanded by Prometheus itself), the shard number
 * `$(SHARD)` (promop renders one config per shard; shard 0 is compared) and the shard-retention rules on
 * `__tmp_current_shard` that only serve prometheus-operator's reloader.
 */
import { load } from 'js-yaml';

/** One difference: where (`scrape_configs[probe/c1/p].relabel_configs[2].regex`) and both sides' values. */
export interface ConfigDifference {
  path: string;
  prometheusOperator: unknown;
  promop: unknown;
}

type Json = unknown;
type Mapping = Record<string, Json>;

const isMapping = (value: Json): value is Mapping => typeof value === 'object' && value !== null && !Array.isArray(value);

/** prometheus-operator's text with the by-design differences removed, as shard 0. */
export function normalisePrometheusOperatorConfig(text: string): Mapping {
  // Replaced in parsed values (a `$(SHARD)` written as a plain scalar must stay a string, not become the number 0).
  const config = replaceInStrings(load(text), (value) => value.replaceAll('$(SHARD)', '0').replaceAll('$(POD_NAME)', '${POD_NAME}')) as Mapping;
  for (const job of (config.scrape_configs as Mapping[] | undefined) ?? []) {
    if (Array.isArray(job.relabel_configs)) job.relabel_configs = job.relabel_configs.filter((rule) => !mentionsCurrentShard(rule));
    if (Array.isArray(job.relabel_configs) && job.relabel_configs.length === 0) delete job.relabel_configs;
  }
  return config;
}

function replaceInStrings(value: Json, replace: (text: string) => string): Json {
  if (typeof value === 'string') return replace(value);
  if (Array.isArray(value)) return value.map((item) => replaceInStrings(item, replace));
  if (isMapping(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceInStrings(item, replace)]));
  return value;
}

function mentionsCurrentShard(rule: Json): boolean {
  return JSON.stringify(rule).includes('__tmp_current_shard');
}

/** promop's shard-0 text, parsed. */
export function parsePromopConfig(text: string): Mapping {
  return load(text) as Mapping;
}

/**
 * Every difference between the two configurations: top-level keys other than `scrape_configs` compared whole;
 * jobs matched by `job_name` (a job on one side only is one difference), then their order.
 */
export function diffConfigs(upstream: Mapping, promop: Mapping): ConfigDifference[] {
  const differences: ConfigDifference[] = [];
  const keys = new Set([...Object.keys(upstream), ...Object.keys(promop)]);
  keys.delete('scrape_configs');
  for (const key of keys) diffValues(key, upstream[key], promop[key], differences);
  const upstreamJobs = jobsByName(upstream);
  const promopJobs = jobsByName(promop);
  for (const [name, job] of upstreamJobs) diffValues(`scrape_configs[${name}]`, job, promopJobs.get(name), differences);
  for (const [name, job] of promopJobs) if (!upstreamJobs.has(name)) diffValues(`scrape_configs[${name}]`, undefined, job, differences);
  const commonOrder = (jobs: Map<string, Mapping>, other: Map<string, Mapping>): string[] => [...jobs.keys()].filter((name) => other.has(name));
  const upstreamOrder = commonOrder(upstreamJobs, promopJobs);
  const promopOrder = commonOrder(promopJobs, upstreamJobs);
  if (upstreamOrder.join('\n') !== promopOrder.join('\n')) differences.push({ path: 'scrape_configs (order)', prometheusOperator: upstreamOrder, promop: promopOrder });
  return differences;
}

function jobsByName(config: Mapping): Map<string, Mapping> {
  const jobs = new Map<string, Mapping>();
  for (const job of (config.scrape_configs as Mapping[] | undefined) ?? []) jobs.set(String(job.job_name), job);
  return jobs;
}

function diffValues(path: string, upstream: Json, promop: Json, differences: ConfigDifference[]): void {
  if (isMapping(upstream) && isMapping(promop)) {
    for (const key of new Set([...Object.keys(upstream), ...Object.keys(promop)])) diffValues(`${path}.${key}`, upstream[key], promop[key], differences);
    return;
  }
  if (Array.isArray(upstream) && Array.isArray(promop) && upstream.length === promop.length) {
    upstream.forEach((item, index) => diffValues(`${path}[${index}]`, item, promop[index], differences));
    return;
  }
  if (JSON.stringify(upstream) !== JSON.stringify(promop)) differences.push({ path, prometheusOperator: upstream, promop });
}
