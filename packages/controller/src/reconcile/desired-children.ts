/**
 * The children one Prometheus (or agent) wants, built from the generator's output by the workload builders (pure):
 * every one of them, or every problem the builders found, in which case nothing is applied (the running
 * configuration stays).
 */
import type { GeneratorOutput } from '@promop/config-generator';
import type { V1ConfigMap, V1DaemonSet, V1Secret, V1Service, V1StatefulSet } from '@kubernetes/client-node';
import {
  buildConfigSecrets, buildDaemonSet, buildNodeConfigSecret, buildGoverningService, buildRuleConfigMaps, buildScrapeSecrets, buildStatefulSets, buildTlsAssetsSecret, buildWebConfigSecret,
  webConfigOf, workloadKind, type BuildResult, type PrometheusWorkload, type ScrapeSecretMemo,
} from '../workload/index.ts';
import { shardRetentionProblems } from './shard-retention.ts';
import { buildThanosHttpClientSecret, usesHttpClientFile } from '../workload/thanos-sidecar.ts';
import { isAgent, isDaemonSetAgent } from '@promop/config-generator';

/** The objects built for one Prometheus, in the order they are applied. */
export interface DesiredChildren {
  ruleConfigMaps: V1ConfigMap[];
  tlsAssets: V1Secret;
  /** `<prefix>-<name>-web-config`; undefined when the Prometheus sets neither `web.tlsConfig` nor `web.httpConfig`. */
  webConfig?: V1Secret;
  /** `prometheus-<name>-thanos-prometheus-http-client-file`; only for a Thanos sidecar that reads it (Thanos >= 0.24). */
  thanosHttpClient?: V1Secret;
  /** Per shard, the Secrets of its scrape files (empty when its jobs are inline). */
  scrapeSecrets: V1Secret[][];
  configSecrets: V1Secret[];
  /** `prometheus-operated` (`prometheus-agent-operated`); undefined when no Prometheus of the namespace uses it (all name a `spec.serviceName`). */
  service: V1Service | undefined;
  /** One per shard; none for a PrometheusAgent in DaemonSet mode, which has `daemonSet` instead. */
  statefulSets: V1StatefulSet[];
  /** `prom-agent-<name>` of a PrometheusAgent in DaemonSet mode (workload/daemonset.ts). */
  daemonSet?: V1DaemonSet;
}

/**
 * Builds every child, or every problem the builders found. `agentNodes`: for a PrometheusAgent in DaemonSet mode, the
 * nodes its pods run on, each of which gets its copy of the configuration (workload/daemonset.ts).
 */
export function buildChildren(
  prometheus: PrometheusWorkload, output: GeneratorOutput, namespacePrometheuses: readonly PrometheusWorkload[], scrapeSecretMemo: ScrapeSecretMemo,
  agentNodes: readonly string[] = [],
): { ok: true; value: DesiredChildren } | { ok: false; problems: { path: string; message: string }[] } {
  const perNode = isDaemonSetAgent(prometheus);
  const tlsAssets = buildTlsAssetsSecret(prometheus, output);
  const configSecrets = perNode ? mapResult(buildNodeConfigSecret(prometheus, output, agentNodes), (secret) => [secret]) : buildConfigSecrets(prometheus, output);
  const statefulSets = perNode ? { ok: true as const, value: [] } : buildStatefulSets(prometheus, output);
  const daemonSet = perNode ? buildDaemonSet(prometheus, output) : { ok: true as const, value: undefined };
  const problems = [...[tlsAssets, configSecrets, statefulSets, daemonSet].flatMap((result) => (result.ok ? [] : result.problems)), ...shardRetentionProblems(prometheus)];
  if (!tlsAssets.ok || !configSecrets.ok || !statefulSets.ok || !daemonSet.ok || problems.length > 0) return { ok: false, problems };
  // buildStatefulSets has refused a web config it cannot build.
  const webConfig = webConfigOf(prometheus, output.version);
  const webConfigSecret = webConfig.ok && webConfig.value ? buildWebConfigSecret(prometheus, webConfig.value) : undefined;
  // The shared Service is owned by every Prometheus of the namespace (non-controller ownerReferences), so the
  // garbage collector removes it only with the last one. Deleted ones are left out, and so are those that name their
  // own governing Service in spec.serviceName (prometheus-operator creates no prometheus-operated for them).
  // A DaemonSet agent has no governing Service, as upstream's (no StatefulSet needs one).
  const usesOperated = (p: PrometheusWorkload) => !p.spec?.serviceName && !isDaemonSetAgent(p);
  const owners = namespacePrometheuses.filter((p) => !p.metadata.deletionTimestamp && p.metadata.uid && usesOperated(p));
  const serviceOwners = !usesOperated(prometheus) || owners.some((p) => p.metadata.uid === prometheus.metadata.uid) ? owners : [...owners, prometheus];
  return {
    ok: true,
    value: {
      ruleConfigMaps: buildRuleConfigMaps(prometheus, output),
      tlsAssets: tlsAssets.value,
      ...(webConfigSecret ? { webConfig: webConfigSecret } : {}),
      ...(!isAgent(prometheus) && usesHttpClientFile(prometheus.spec ?? {}) ? { thanosHttpClient: buildThanosHttpClientSecret(prometheus) } : {}),
      scrapeSecrets: buildScrapeSecrets(prometheus, output, scrapeSecretMemo),
      configSecrets: configSecrets.value,
      service: serviceOwners.length > 0 ? buildGoverningService(prometheus.metadata.namespace, serviceOwners, workloadKind(prometheus)) : undefined,
      statefulSets: statefulSets.value,
      ...(daemonSet.value ? { daemonSet: daemonSet.value } : {}),
    },
  };
}

/** `result`'s value through `map`, or its problems. */
function mapResult<T, U>(result: BuildResult<T>, map: (value: T) => U): BuildResult<U> {
  return result.ok ? { ok: true, value: map(result.value) } : result;
}
