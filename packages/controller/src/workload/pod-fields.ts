/**
 * Pod spec fields a workload's spec passes to its pods as the user wrote them (opaque in the CRDs; the API server
 * validates them when the StatefulSet is written). Prometheus, PrometheusAgent and Alertmanager name them alike.
 */
import type {
  V1Affinity, V1Container, V1HostAlias, V1LocalObjectReference, V1PodDNSConfig, V1Toleration, V1TopologySpreadConstraint,
} from '@kubernetes/client-node';
import { asEmbedded } from './embedded-field.ts';

/** The spec fields read here, as every workload kind's schema types them. */
export interface PodFieldsSpec {
  serviceAccountName?: string;
  nodeSelector?: Record<string, string>;
  tolerations?: unknown[];
  affinity?: unknown;
  topologySpreadConstraints?: unknown[];
  priorityClassName?: string;
  imagePullSecrets?: unknown[];
  initContainers?: unknown[];
  hostNetwork?: boolean;
  hostUsers?: boolean;
  hostAliases?: unknown[];
  dnsPolicy?: string;
  dnsConfig?: unknown;
  enableServiceLinks?: boolean;
  schedulerName?: string;
}

/** The pod spec fields `spec` sets, and only those. */
export function passedThroughPodFields(spec: PodFieldsSpec) {
  return {
    ...(spec.serviceAccountName ? { serviceAccountName: spec.serviceAccountName } : {}),
    ...(spec.nodeSelector ? { nodeSelector: { ...spec.nodeSelector } } : {}),
    ...(spec.tolerations ? { tolerations: asEmbedded<V1Toleration[]>(spec.tolerations) } : {}),
    ...(spec.affinity ? { affinity: asEmbedded<V1Affinity>(spec.affinity) } : {}),
    ...(spec.topologySpreadConstraints ? { topologySpreadConstraints: asEmbedded<V1TopologySpreadConstraint[]>(spec.topologySpreadConstraints) } : {}),
    ...(spec.priorityClassName ? { priorityClassName: spec.priorityClassName } : {}),
    ...(spec.imagePullSecrets ? { imagePullSecrets: asEmbedded<V1LocalObjectReference[]>(spec.imagePullSecrets) } : {}),
    ...(spec.initContainers ? { initContainers: asEmbedded<V1Container[]>(spec.initContainers) } : {}),
    ...(spec.hostNetwork !== undefined ? { hostNetwork: spec.hostNetwork } : {}),
    ...(spec.hostUsers !== undefined ? { hostUsers: spec.hostUsers } : {}),
    ...(spec.hostAliases ? { hostAliases: asEmbedded<V1HostAlias[]>(spec.hostAliases) } : {}),
    ...(spec.dnsPolicy ? { dnsPolicy: spec.dnsPolicy } : {}),
    ...(spec.dnsConfig ? { dnsConfig: asEmbedded<V1PodDNSConfig>(spec.dnsConfig) } : {}),
    ...(spec.enableServiceLinks !== undefined ? { enableServiceLinks: spec.enableServiceLinks } : {}),
    ...(spec.schedulerName ? { schedulerName: spec.schedulerName } : {}),
  };
}
