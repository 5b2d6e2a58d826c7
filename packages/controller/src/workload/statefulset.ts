/**
 * The StatefulSets of a Prometheus: one per shard, each running the Prometheus pods that load that shard's
 * config. prometheus-operator's layout (§5 of the compatibility reference) minus the config-reloader sidecar and
 * its init container: promop's controller reloads Prometheus itself.
 */
import type {
  V1Container, V1PodSecurityContext, V1StatefulSet, V1StatefulSetPersistentVolumeClaimRetentionPolicy, V1StatefulSetUpdateStrategy,
  V1TopologySpreadConstraint,
} from '@kubernetes/client-node';
import { STORAGE_DIR, ZONE_LABEL, isAgent, type GeneratorOutput, type PrometheusVersion } from '@promop/config-generator';
import { MODE_LABEL, namingOf, type PrometheusWorkload } from './workload-kind.ts';
import { asEmbedded } from './embedded-field.ts';
import type { BuildResult } from './build-result.ts';
import { INPUT_HASH_ANNOTATION, inputHash } from './input-hash.ts';
import { withCanonicalQuantities } from './quantity.ts';
import { SHARD_LABEL, managedByLabels, shardSelectorLabels } from './labels.ts';
import { prometheusOwnerReference } from './owner-reference.ts';
import { prometheusArgs } from './prometheus-args.ts';
import { PROMETHEUS_CONTAINER_NAME, prometheusContainer } from './prometheus-container.ts';
import { mergeContainers } from './container-patch.ts';
import { podVolumes } from './pod-volumes.ts';
import { passedThroughPodFields } from './pod-fields.ts';
import { statefulSetName } from './shard-names.ts';
import { thanosSidecar } from './thanos-sidecar.ts';
import { WEB_CONFIG_DIR, WEB_CONFIG_FILE_NAME, WEB_CONFIG_HASH_ANNOTATION, webConfigHash, webConfigOf, type WebConfig } from './web-config.ts';

/** Grace period when `spec.terminationGracePeriodSeconds` is unset: Prometheus may need minutes to flush. */
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 600;

/**
 * Pod security context when `spec.securityContext` is unset. prometheus-operator sets none (the image runs as
 * `nobody`); promop has always set this one, and a Prometheus whose data sits on a claim its earlier pods wrote as
 * uid 1000 / gid 2000 must keep writing it after an upgrade (operator rule 4). The values are kube-prometheus' own.
 */
export const DEFAULT_POD_SECURITY_CONTEXT: V1PodSecurityContext = { runAsUser: 1000, runAsNonRoot: true, fsGroup: 2000 };

/** The fields a Prometheus and a PrometheusAgent share: all the pod is built from. */
type Spec = NonNullable<PrometheusWorkload['spec']>;

/** Annotations copied from the Prometheus: not kubectl's own (last-applied-configuration would be huge). */
function copiedAnnotations(prometheus: PrometheusWorkload): Record<string, string> {
  return Object.fromEntries(Object.entries(prometheus.metadata.annotations ?? {}).filter(([key]) => !key.startsWith('kubectl.kubernetes.io/')));
}


/**
 * Topology sharding (`spec.shardingStrategy.mode: Topology`): a shard scrapes the targets of one zone, so its pods
 * run on nodes of that zone, as prometheus-operator places them (the user's node selector plus the zone label).
 */
function zoneNodeSelector(nodeSelector: Record<string, string> | undefined, zone: string | undefined): { nodeSelector?: Record<string, string> } {
  return zone === undefined ? {} : { nodeSelector: { ...nodeSelector, [ZONE_LABEL]: zone } };
}

/**
 * `spec.topologySpreadConstraints` as prometheus-operator writes them: one with `additionalLabelSelectors` (promop's
 * field, not Kubernetes') gets the pods' selector labels added to its `labelSelector.matchLabels`, without the shard
 * label for `OnResource` (spread the pods of every shard) and with it for `OnShard`; the others are passed as written.
 */
function topologySpread(constraints: Spec['topologySpreadConstraints'], selector: Record<string, string>): { topologySpreadConstraints?: V1TopologySpreadConstraint[] } {
  if (!constraints) return {};
  return {
    topologySpreadConstraints: constraints.map((written) => {
      const { additionalLabelSelectors, ...constraint } = asEmbedded<V1TopologySpreadConstraint & { additionalLabelSelectors?: string }>(written);
      if (additionalLabelSelectors === undefined || additionalLabelSelectors === null) return constraint;
      const added = Object.entries(selector).filter(([key]) => additionalLabelSelectors !== 'OnResource' || key !== SHARD_LABEL);
      return { ...constraint, labelSelector: { ...constraint.labelSelector, matchLabels: { ...constraint.labelSelector?.matchLabels, ...Object.fromEntries(added) } } };
    }),
  };
}

/**
 * One StatefulSet per config in `output.configs` (shard n mounts config Secret n), named by statefulSetName,
 * with a selector that depends only on name and shard, and the input-hash annotation (see input-hash.ts) over
 * everything else in the object. Rule ConfigMap mounts follow `output.ruleConfigMaps.length`.
 *
 * Problems (values, not throws): `additionalArgs` that override promop's flags, and what thanos-sidecar.ts refuses
 * in `spec.thanos` (the sidecar, when set, is the second container). The flags follow `output.version`,
 * the version the generator wrote the files for (an unreadable `spec.version` never gets this far: generation fails).
 * Invalid embedded Kubernetes fields (tolerations, resources, affinity...) are passed through unchecked: the API
 * server rejects the StatefulSet with a 422 naming the field, which the controller reports in status.
 * Throws when `output.configs` is empty (generation failed: the caller keeps the running workload).
 */
export function buildStatefulSets(prometheus: PrometheusWorkload, output: Pick<GeneratorOutput, 'configs' | 'ruleConfigMaps' | 'version' | 'shardZones'>): BuildResult<V1StatefulSet[]> {
  const { name, namespace } = prometheus.metadata;
  if (output.configs.length === 0) throw new Error(`bug: no config for Prometheus ${namespace}/${name}; keep the running workload when generation fails`);
  const spec: Spec = prometheus.spec ?? {};
  const naming = namingOf(prometheus);
  const version = output.version;
  const webConfig = webConfigOf(prometheus, version);
  if (!webConfig.ok) return webConfig;
  const web = webConfig.value;
  const args = prometheusArgs(prometheus, version, web ? `${WEB_CONFIG_DIR}/${WEB_CONFIG_FILE_NAME}` : undefined);
  if (!args.ok) return args;
  const scheme = web?.https ? 'https' : 'http';
  // The sidecar's container and volumes are the same in every shard; the data volume it mounts has one name.
  const dataMount = podVolumes(prometheus, 0, output.ruleConfigMaps.length, web).mounts.find((mount) => mount.mountPath === STORAGE_DIR);
  if (!dataMount) throw new Error(`bug: no data volume mount for Prometheus ${namespace}/${name}`);
  const sidecar = isAgent(prometheus) ? { ok: true as const, value: undefined } : thanosSidecar(prometheus.spec ?? {}, scheme, version, dataMount, name);
  if (!sidecar.ok) return sidecar;
  const statefulSets = output.configs.map((_config, shard) => {
    const selector = shardSelectorLabels(name, shard, naming.kind);
    // The sidecar's volumes go before the data volume, where prometheus-operator lists them.
    const volumes = podVolumes(prometheus, shard, output.ruleConfigMaps.length, web, sidecar.value?.volumes);
    // prometheus-operator's order: prometheus (its config-reloader, which promop has not), thanos-sidecar, then the user's.
    const ours = [prometheusContainer(spec, version, args.value, volumes.mounts, scheme), ...(sidecar.value ? [sidecar.value.container] : [])];
    const containers = mergeContainers(ours, asEmbedded<V1Container[]>(spec.containers ?? []));
    const statefulSet: V1StatefulSet = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: {
        name: statefulSetName(name, shard, naming.kind),
        namespace,
        labels: { ...prometheus.metadata.labels, ...managedByLabels(), [MODE_LABEL]: naming.mode, ...selector },
        annotations: copiedAnnotations(prometheus),
        ownerReferences: [prometheusOwnerReference(prometheus)],
      },
      spec: {
        serviceName: spec.serviceName || naming.governingServiceName,
        replicas: spec.replicas ?? 1,
        podManagementPolicy: spec.podManagementPolicy || 'Parallel',
        updateStrategy: asEmbedded<V1StatefulSetUpdateStrategy | undefined>(spec.updateStrategy) ?? { type: 'RollingUpdate' },
        ...(spec.minReadySeconds !== undefined ? { minReadySeconds: spec.minReadySeconds } : {}),
        ...(spec.persistentVolumeClaimRetentionPolicy
          ? { persistentVolumeClaimRetentionPolicy: asEmbedded<V1StatefulSetPersistentVolumeClaimRetentionPolicy>(spec.persistentVolumeClaimRetentionPolicy) }
          : {}),
        selector: { matchLabels: selector },
        template: {
          metadata: prometheusPodMetadata(spec, selector, version, web),
          spec: {
            ...passedThroughPodFields(spec),
            ...zoneNodeSelector(spec.nodeSelector, output.shardZones?.[shard]),
            ...topologySpread(spec.topologySpreadConstraints, selector),
            // A host-network pod keeps cluster DNS only with this policy; the user's own policy wins, as upstream.
            ...(spec.hostNetwork === true && !spec.dnsPolicy ? { dnsPolicy: 'ClusterFirstWithHostNet' } : {}),
            securityContext: asEmbedded<V1PodSecurityContext | undefined>(spec.securityContext) ?? DEFAULT_POD_SECURITY_CONTEXT,
            // Upstream shares it only for its reloader's signals; promop reloads over HTTP (ProcessSignal changes nothing).
            shareProcessNamespace: false,
            automountServiceAccountToken: spec.automountServiceAccountToken ?? true,
            terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS,
            containers,
            volumes: volumes.volumes,
          },
        },
        ...(volumes.volumeClaimTemplates.length > 0 ? { volumeClaimTemplates: volumes.volumeClaimTemplates } : {}),
      },
    };
    // Quantities as the API server stores them, so the cached StatefulSet compares equal and is not applied again.
    const canonical = withCanonicalQuantities(statefulSet);
    canonical.metadata!.annotations = { ...canonical.metadata!.annotations, [INPUT_HASH_ANNOTATION]: inputHash(canonical) };
    return canonical;
  });
  return { ok: true, value: statefulSets };
}

/**
 * The metadata of a Prometheus pod (a StatefulSet's or a DaemonSet agent's): the version label, podMetadata's labels
 * over it and the selector's last (the selector must match whatever podMetadata says), the default container, podMetadata's
 * annotations and the web config's hash (a new web config rolls the pods).
 */
export function prometheusPodMetadata(
  spec: Spec, selector: Record<string, string>, version: PrometheusVersion, web: WebConfig | undefined,
): { labels: Record<string, string>; annotations: Record<string, string> } {
  return {
    // podMetadata may override the version label, not the selector's, as upstream merges them.
    labels: { 'app.kubernetes.io/version': `${version.major}.${version.minor}.${version.patch}`, ...spec.podMetadata?.labels, ...selector },
    annotations: {
      'kubectl.kubernetes.io/default-container': PROMETHEUS_CONTAINER_NAME,
      ...spec.podMetadata?.annotations,
      ...(web ? { [WEB_CONFIG_HASH_ANNOTATION]: webConfigHash(web) } : {}),
    },
  };
}
