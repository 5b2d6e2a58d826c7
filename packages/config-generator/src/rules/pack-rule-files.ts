/**
 * Packing rule files into ConfigMaps. A ConfigMap holds at most 1 MiB; like prometheus-operator,
 * promop fills each with at most half of that, leaving room for metadata.
 */
import type { RuleConfigMap } from '../model.ts';
import { ruleConfigMapName } from '../pod-layout.ts';

/** The most rule-file content one ConfigMap carries, and the largest single rule file (512 KiB). */
export const MAX_RULE_CONFIGMAP_BYTES = 524_288;

/**
 * Packs `files` (name → text, each at most MAX_RULE_CONFIGMAP_BYTES) into ConfigMaps named
 * `prometheus-<prometheusName>-rulefiles-<i>` (or `nameAt(i)`: a ThanosRuler's are `thanos-ruler-<name>-rulefiles-<i>`). Files are taken in name order and a new ConfigMap
 * is started when the next file does not fit into the current one: this is prometheus-operator's
 * algorithm (its comments call it first-fit; strictly it is next-fit), kept so the same rules land
 * in the same ConfigMaps under both operators. Always returns at least one, possibly empty, ConfigMap.
 */
export function packRuleFiles(
  prometheusName: string, files: ReadonlyMap<string, string>, nameAt: (index: number) => string = (index) => ruleConfigMapName(prometheusName, index),
): RuleConfigMap[] {
  const buckets: Record<string, string>[] = [{}];
  let currentSize = 0;
  for (const name of [...files.keys()].sort()) {
    const text = files.get(name)!;
    const size = Buffer.byteLength(text, 'utf8');
    if (currentSize + size > MAX_RULE_CONFIGMAP_BYTES) {
      buckets.push({});
      currentSize = 0;
    }
    buckets.at(-1)![name] = text;
    currentSize += size;
  }
  return buckets.map((bucket, index) => ({ name: nameAt(index), files: bucket }));
}
