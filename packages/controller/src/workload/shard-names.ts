/**
 * Names of the objects promop creates once per shard. Shard 0 keeps prometheus-operator's unsuffixed name so
 * dashboards, `kubectl` habits and PVC names carry over; shard n > 0 is suffixed like upstream.
 */
import { prefixedName, type WorkloadKind } from '@promop/config-generator';

/**
 * The StatefulSet of shard `shard`: `prometheus-<name>` for shard 0, `prometheus-<name>-shard-<n>` after
 * (`prom-agent-` for a PrometheusAgent).
 */
export function statefulSetName(prometheusName: string, shard: number, kind: WorkloadKind = 'Prometheus'): string {
  const prefixed = prefixedName(prometheusName, kind);
  return shard === 0 ? prefixed : `${prefixed}-shard-${shard}`;
}

/**
 * The config Secret of shard `shard`. It has the same name as the StatefulSet that mounts it, so "which config
 * does this StatefulSet run" needs no lookup. See config-secret.ts for why there is one Secret per shard.
 */
export function configSecretName(prometheusName: string, shard: number, kind: WorkloadKind = 'Prometheus'): string {
  return statefulSetName(prometheusName, shard, kind);
}

/**
 * The Secret carrying scrape file slot `slot` of shard `shard` (`<config Secret>-scrape-<slot>`). Every shard's pods
 * mount all SCRAPE_FILE_SLOTS of these names, whether they exist or not; see scrape-secrets.ts.
 */
export function scrapeSecretName(prometheusName: string, shard: number, slot: number, kind: WorkloadKind = 'Prometheus'): string {
  return `${configSecretName(prometheusName, shard, kind)}-scrape-${slot}`;
}
