/**
 * The scrape Secrets: one per scrape file of a shard (the generator's `scrapeFiles[shard]`), Secret
 * `<config Secret>-scrape-<slot>` with the file under its own name (`scrape-<slot>-<hash>.yaml`).
 *
 * Why Secrets and why these names: the files hold credentials inline, like prometheus.yaml; and the pods mount a
 * fixed list of names (every slot, `optional`, see pod-volumes.ts), so a slot that has no file simply has no
 * Secret, and the pod spec is the same whether the configuration has one file or sixty-four. The key carries the
 * file's content hash: a new version of a file is a new key, the old one is removed by the same server-side apply,
 * and the kubelet's atomic update of the volume never shows Prometheus a file whose name does not match its
 * content.
 */
import type { V1Secret } from '@kubernetes/client-node';
import type { GeneratorOutput, ScrapeFile } from '@promop/config-generator';
import { workloadKind, type PrometheusWorkload } from './workload-kind.ts';
import { PROMETHEUS_NAME_LABEL, SHARD_LABEL, managedByLabels } from './labels.ts';
import { prometheusOwnerReference } from './owner-reference.ts';
import { MAX_SECRET_DATA_BYTES, base64Data, secretDataBytes } from './secret-size.ts';
import { scrapeSecretName } from './shard-names.ts';

/**
 * The Secrets built for scrape files by earlier reconciles, by file object: the generator's RenderMemo hands out
 * the same ScrapeFile object while a slot's jobs are unchanged, so a reconcile does not encode the whole
 * configuration as base64 again.
 */
export type ScrapeSecretMemo = WeakMap<ScrapeFile, { owner: string; shard: number; secret: V1Secret }>;

/**
 * Per shard, one Secret per scrape file, labelled like the config Secret (Prometheus name and shard, so the
 * controller deletes those of emptied slots and removed shards) and owned by the Prometheus. Empty lists when the
 * jobs are inline. Throws for a file over 1 MiB: the generator keeps files under SCRAPE_FILE_MAX_BYTES. With
 * `memo`, a file built before for the same Prometheus and shard gets the same Secret object back.
 */
export function buildScrapeSecrets(prometheus: PrometheusWorkload, output: Pick<GeneratorOutput, 'scrapeFiles'>, memo?: ScrapeSecretMemo): V1Secret[][] {
  const { name, namespace, uid } = prometheus.metadata;
  const owner = prometheusOwnerReference(prometheus);
  const ownerKey = `${namespace}/${name}/${uid ?? ''}`;
  return output.scrapeFiles.map((files, shard) => files.map((file): V1Secret => {
    const kept = memo?.get(file);
    if (kept && kept.owner === ownerKey && kept.shard === shard) return kept.secret;
    const data = { [file.name]: file.text };
    if (secretDataBytes(data) > MAX_SECRET_DATA_BYTES) throw new Error(`bug: scrape file ${file.name} of Prometheus ${namespace}/${name} is larger than a Secret holds`);
    const secret: V1Secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: scrapeSecretName(name, shard, file.slot, workloadKind(prometheus)),
        namespace,
        labels: { ...managedByLabels(), [PROMETHEUS_NAME_LABEL]: name, [SHARD_LABEL]: String(shard) },
        ownerReferences: [owner],
      },
      type: 'Opaque',
      data: base64Data(data),
    };
    memo?.set(file, { owner: ownerKey, shard, secret });
    return secret;
  }));
}
