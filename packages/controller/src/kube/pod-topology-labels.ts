/**
 * Whether the cluster labels pods with their zone (`topology.kubernetes.io/zone`): Kubernetes 1.35 turned on
 * PodTopologyLabelsAdmission by default (KEP-4742), which copies the node's topology labels onto each pod it binds.
 * Topology sharding then reads a target's zone from its pod instead of its node (no node metadata needed in the
 * ServiceMonitor and PodMonitor jobs); prometheus-operator decides the same way, by the API server's version.
 */
import { describeError } from './api-error.ts';

/** First Kubernetes release that labels pods with their zone by default. */
export const POD_TOPOLOGY_LABELS_SINCE = { major: 1, minor: 35 } as const;

/** What the API server's `/version` answers (the fields read here). */
export interface KubernetesVersionInfo {
  major?: string;
  minor?: string;
  gitVersion?: string;
}

/**
 * True when `info` is Kubernetes 1.35 or later. The minor may carry a suffix (`35+` on managed clusters); when the
 * numbers are missing, `gitVersion` (`v1.35.0-gke.1`) is read instead.
 */
export function labelsPodsWithZone(info: KubernetesVersionInfo): boolean {
  let major = Number.parseInt(info.major ?? '', 10);
  let minor = Number.parseInt(info.minor ?? '', 10);
  if (Number.isNaN(major) || Number.isNaN(minor)) {
    const match = /^v?(\d+)\.(\d+)/.exec(info.gitVersion ?? '');
    if (!match) return false;
    major = Number(match[1]);
    minor = Number(match[2]);
  }
  return major > POD_TOPOLOGY_LABELS_SINCE.major || (major === POD_TOPOLOGY_LABELS_SINCE.major && minor >= POD_TOPOLOGY_LABELS_SINCE.minor);
}

/**
 * A reader of the answer, asked once and kept: the API server's version does not change under a running operator
 * (an upgrade restarts nothing here, but a later answer would only move zones from node to pod labels, which both
 * carry). A failed request is not kept and rejects: the reconcile of a topology-sharded Prometheus then fails and is
 * retried with backoff, rather than rendering the other form of its config (and rewriting and reloading it twice)
 * while the API server cannot say which one this cluster needs.
 */
export function podTopologyLabelsReader(getVersion: () => Promise<KubernetesVersionInfo>): () => Promise<boolean> {
  let answer: Promise<boolean> | undefined;
  return () => {
    answer ??= getVersion().then(labelsPodsWithZone, (error: unknown) => {
      answer = undefined;
      throw new Error(`could not read the Kubernetes version, which decides where topology sharding reads zones: ${describeError(error)}`);
    });
    return answer;
  };
}
