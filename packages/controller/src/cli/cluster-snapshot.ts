/**
 * Everything the operator's generators read, read once from a live cluster with list and get requests: the objects
 * of the kinds one program's configuration is made from (cluster-objects.ts), the Namespaces, and the data of the
 * Secrets and ConfigMaps they reference (found with the operator's own reference finder, reconcile/references.ts),
 * an Alertmanager's configSecret included. What `promop explain` and `promop diff` render from, so they judge
 * exactly as the running operator does.
 */
import type { KeyValueSource } from '@promop/config-generator';
import { alertmanagerReferences } from '../alertmanager/alertmanager-rendering.ts';
import { referencedObjects } from '../reconcile/references.ts';
import { thanosRulerReferences } from '../thanos-ruler/thanos-ruler-rendering.ts';
import { configSecretName } from '../workload/shard-names.ts';
import { workloadKind, type PrometheusWorkload } from '../workload/workload-kind.ts';
import { readClusterObjects, type ClusterObjects } from './cluster-objects.ts';
import { KubeReadError, type KubeReader } from './kube-reader.ts';
import { labelsPodsWithZone, type KubernetesVersionInfo } from '../kube/pod-topology-labels.ts';

export type { ClusterObjects } from './cluster-objects.ts';

/** ClusterObjects plus the referenced Secrets' and ConfigMaps' data, and what could not be read. */
export interface ClusterSnapshot extends ClusterObjects {
  secrets: KeyValueSource[];
  configMaps: KeyValueSource[];
  /** Referenced objects the reader may not read (`Secret team-a/auth`): their keys are assumed to exist. */
  unreadable: string[];
  /** The cluster labels pods with their zone (Kubernetes 1.35+), read as the operator reads it; for topology sharding. */
  podTopologyLabels?: boolean;
}

/**
 * Reads the data of every Secret and ConfigMap that `objects` reference. A missing one is left out (the generator
 * then rejects its referrer, as the operator would); one the reader may not read stands in with every key present
 * and an opaque value, and is named in `unreadable`, so a user without access to a team's Secrets still gets the
 * selection and the other verdicts right.
 */
export async function readReferencedData(reader: KubeReader, objects: ClusterObjects): Promise<Pick<ClusterSnapshot, 'secrets' | 'configMaps' | 'unreadable'>> {
  // The Prometheus family's references, and what the Alertmanagers' and ThanosRulers' reconcilers read
  // (alertmanager-rendering.ts, thanos-ruler-rendering.ts).
  const references = referencedObjects({ ...objects, alertmanagers: [], alertmanagerConfigs: [], thanosRulers: [] });
  const ofAlertmanagers = alertmanagerReferences(objects.alertmanagers, objects.alertmanagerConfigs);
  const ofThanosRulers = thanosRulerReferences(objects.thanosRulers);
  const secretKeys = new Set([...references.secrets, ...ofAlertmanagers.secrets, ...ofThanosRulers.secrets]);
  const configMapKeys = new Set([...references.configMaps, ...ofAlertmanagers.configMaps, ...ofThanosRulers.configMaps]);
  const unreadable: string[] = [];
  const read = async (kind: 'Secret' | 'ConfigMap', key: string): Promise<KeyValueSource | undefined> => {
    const [namespace, name] = key.split('/') as [string, string];
    const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/${kind === 'Secret' ? 'secrets' : 'configmaps'}/${encodeURIComponent(name)}`;
    try {
      const object = await reader.get<{ data?: Record<string, string>; binaryData?: Record<string, string> }>(path);
      const decode = (values: Record<string, string> | undefined) => Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
      const data = kind === 'Secret' ? decode(object.data) : { ...decode(object.binaryData), ...object.data };
      return { namespace, name, data };
    } catch (error) {
      if (error instanceof KubeReadError && error.status === 404) return undefined;
      if (error instanceof KubeReadError && error.status === 403) {
        unreadable.push(`${kind} ${key}`);
        return { namespace, name, data: anyKeyData() };
      }
      throw error;
    }
  };
  const secrets = await inBatches([...secretKeys].sort(), (key) => read('Secret', key));
  const configMaps = await inBatches([...configMapKeys].sort(), (key) => read('ConfigMap', key));
  return { secrets: secrets.filter(isPresent), configMaps: configMaps.filter(isPresent), unreadable };
}

/** Reads the whole snapshot; `objects` when they were listed already. */
export async function readClusterSnapshot(reader: KubeReader, objects?: ClusterObjects): Promise<ClusterSnapshot> {
  const listed = objects ?? (await readClusterObjects(reader));
  const podTopologyLabels = await readPodTopologyLabels(reader, listed);
  return { ...listed, ...(await readReferencedData(reader, listed)), ...(podTopologyLabels ? { podTopologyLabels } : {}) };
}

/**
 * Whether the cluster labels pods with their zone, asked of `/version` only when some Prometheus or agent shards by
 * topology (nothing else depends on it); an answer that cannot be read counts as no, as for the operator.
 */
async function readPodTopologyLabels(reader: KubeReader, objects: ClusterObjects): Promise<boolean> {
  const workloads: readonly PrometheusWorkload[] = [...objects.prometheuses, ...objects.prometheusAgents];
  if (!workloads.some((workload) => workload.spec?.shardingStrategy?.mode === 'Topology')) return false;
  try {
    return labelsPodsWithZone(await reader.get<KubernetesVersionInfo>('/version'));
  } catch {
    return false;
  }
}

/** The value given for every key of an object the reader may not read. */
export const UNREADABLE_VALUE = '<unreadable>';

/** Data in which every key exists and holds UNREADABLE_VALUE (the generator only looks keys up). */
function anyKeyData(): Record<string, string> {
  return new Proxy({}, { get: (_target, key) => (typeof key === 'string' ? UNREADABLE_VALUE : undefined) });
}

/**
 * The uid of each shard's config Secret of `prometheus`, a Prometheus or PrometheusAgent (the key of the config hash in its status), from their
 * metadata only; undefined for a Secret that does not exist or that the reader may not read.
 */
export async function readConfigSecretUids(reader: KubeReader, prometheus: PrometheusWorkload, shards: number): Promise<(string | undefined)[]> {
  return Promise.all(Array.from({ length: shards }, async (_, shard) => {
    const path = `/api/v1/namespaces/${encodeURIComponent(prometheus.metadata.namespace)}/secrets/${encodeURIComponent(configSecretName(prometheus.metadata.name, shard, workloadKind(prometheus)))}`;
    try {
      return (await reader.get<{ metadata?: { uid?: string } }>(path, { metadataOnly: true })).metadata?.uid;
    } catch (error) {
      if (error instanceof KubeReadError && (error.status === 404 || error.status === 403)) return undefined;
      throw error;
    }
  }));
}

/** Runs `read` over `keys`, eight at a time, keeping their order. */
async function inBatches<T>(keys: readonly string[], read: (key: string) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < keys.length; start += 8) results.push(...(await Promise.all(keys.slice(start, start + 8).map(read))));
  return results;
}

function isPresent<T>(value: T | undefined): value is T {
  return value !== undefined;
}
