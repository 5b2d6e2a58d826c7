/**
 * What promop_managed_resources and promop_config_bytes say about one render (the generator's output for one
 * Prometheus): pure functions, so the reconciler makes one recording call and the counting is tested without a
 * server.
 */
import { oncePerObject, type GeneratorOutput, type Verdict } from '@promop/config-generator';
import { PROMETHEUS_SELECTED_KINDS, type PrometheusSelectedKind } from '@promop/crds/kinds';

/** The custom resources promop selects for a Prometheus: the registry's selected kinds. */
export type ManagedKind = PrometheusSelectedKind;

/** Counts for one kind under one Prometheus: selected and valid, selected but rejected as invalid. */
export interface ManagedCounts {
  selected: number;
  rejected: number;
}

/** The kinds counted in promop_managed_resources. */
export const MANAGED_KINDS: readonly ManagedKind[] = PROMETHEUS_SELECTED_KINDS;

/**
 * Per kind, the monitors and rules the Prometheus selects: `selected` those accepted into its config, `rejected`
 * those selected but invalid (prometheus-operator's `state="rejected"`). Resources its selectors exclude count in
 * neither.
 */
export function managedCounts(verdicts: readonly Verdict[]): Map<ManagedKind, ManagedCounts> {
  const counts = new Map<ManagedKind, ManagedCounts>(MANAGED_KINDS.map((kind) => [kind, { selected: 0, rejected: 0 }]));
  for (const verdict of verdicts) {
    const forKind = counts.get(verdict.resource.kind as ManagedKind);
    if (!forKind || !verdict.selected) continue;
    if (verdict.accepted) forKind.selected += 1;
    else forKind.rejected += 1;
  }
  return counts;
}

/** Each scrape file's UTF-8 size: the render memo hands out the same file object while its slot is unchanged. */
const scrapeFileBytes = new WeakMap<object, number>();

/**
 * Per shard, the bytes of its prometheus.yaml and scrape files (UTF-8, as written to its Secrets). An unchanged file
 * is measured once: measuring every file on every change would cost in proportion to the whole configuration.
 */
export function configBytesPerShard(output: Pick<GeneratorOutput, 'configs' | 'scrapeFiles'>): number[] {
  const bytesOf = (file: { text: string }): number => oncePerObject(scrapeFileBytes, file, () => Buffer.byteLength(file.text));
  return output.configs.map((config, shard) => Buffer.byteLength(config) + (output.scrapeFiles[shard] ?? []).reduce((sum, file) => sum + bytesOf(file), 0));
}
