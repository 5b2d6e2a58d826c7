/**
 * The config Secrets: one per shard, each holding that shard's prometheus.yaml as plain text under
 * CONFIG_FILE_NAME.
 *
 * Why one Secret per shard rather than one Secret with a key per shard: each shard's pods mount their whole
 * Secret at CONFIG_DIR and Prometheus reads CONFIG_DIR/CONFIG_FILE_NAME, with no `items` projection to get
 * wrong, and every shard gets the full 1 MiB Secret budget instead of all shards sharing one (every shard's
 * config contains every scrape job, so N shards in one Secret would cap the config at 1/N MiB).
 *
 * Why plain text: prometheus-operator gzips the config "to avoid the 1MiB secret limit" and its reloader sidecar
 * gunzips it; promop has no sidecar and Prometheus cannot read a gzipped file. Large configs come from thousands of
 * scrape jobs, which the generator moves into scrape files (Prometheus 2.43+; one Secret per file, see
 * scrape-secrets.ts), so what is left here stays small. A prometheus.yaml over 1 MiB all the same (Prometheus
 * before 2.43, or huge additionalScrapeConfigs) is reported as a user error with its size instead of written.
 *
 * The volume must be mounted without `subPath`: only whole-volume Secret mounts are updated in place by the
 * kubelet, which is what lets promop write a new config and call `/-/reload` without restarting the pod.
 */
import type { V1Secret } from '@kubernetes/client-node';
import { CONFIG_FILE_NAME, SCRAPE_CONFIG_FILES_SINCE, isAtLeast, type GeneratorOutput, type PrometheusVersion } from '@promop/config-generator';
import { workloadKind, type PrometheusWorkload } from './workload-kind.ts';
import type { BuildResult } from './build-result.ts';
import { PROMETHEUS_NAME_LABEL, SHARD_LABEL, managedByLabels } from './labels.ts';
import { prometheusOwnerReference } from './owner-reference.ts';
import { configSecretName } from './shard-names.ts';
import { MAX_SECRET_DATA_BYTES, base64Data, formatBytes, secretDataBytes } from './secret-size.ts';

/**
 * One Secret per shard (`configSecretName(name, n)`, key CONFIG_FILE_NAME), labelled with the Prometheus name
 * and shard so the controller can find and delete those of removed shards. A config over 1 MiB is a problem at
 * path `spec`. Throws when `output.configs` is empty: generation failed and the caller must keep the running
 * config, not call this.
 */
export function buildConfigSecrets(prometheus: PrometheusWorkload, output: Pick<GeneratorOutput, 'configs' | 'version'>): BuildResult<V1Secret[]> {
  const { name, namespace } = prometheus.metadata;
  if (output.configs.length === 0) throw new Error(`bug: no config for Prometheus ${namespace}/${name}; keep the running config when generation fails`);
  const problems = output.configs.flatMap((config, shard) => {
    const bytes = secretDataBytes({ [CONFIG_FILE_NAME]: config });
    if (bytes <= MAX_SECRET_DATA_BYTES) return [];
    return [{ path: 'spec', message: `the configuration of shard ${shard} is ${formatBytes(bytes)}, more than the 1 MiB a Secret can hold; ${remedy(output.version)}` }];
  });
  if (problems.length > 0) return { ok: false, problems };
  const owner = prometheusOwnerReference(prometheus);
  const secrets = output.configs.map((config, shard): V1Secret => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: configSecretName(name, shard, workloadKind(prometheus)),
      namespace,
      labels: { ...managedByLabels(), [PROMETHEUS_NAME_LABEL]: name, [SHARD_LABEL]: String(shard) },
      ownerReferences: [owner],
    },
    type: 'Opaque',
    data: base64Data({ [CONFIG_FILE_NAME]: config }),
  }));
  return { ok: true, value: secrets };
}

/** What a user can do about a prometheus.yaml over 1 MiB, depending on whether promop could split it. */
function remedy(version: PrometheusVersion): string {
  if (!isAtLeast(version, SCRAPE_CONFIG_FILES_SINCE)) {
    return `Prometheus ${version.text} cannot read scrape_config_files, which promop uses to spread the scrape jobs over several Secrets: ` +
      `set spec.version to v${SCRAPE_CONFIG_FILES_SINCE} or later, or select fewer monitors (sharding does not help: every shard has every scrape job)`;
  }
  return 'the generated scrape jobs are already in scrape files, so shorten additionalScrapeConfigs or the other settings written into prometheus.yaml';
}
