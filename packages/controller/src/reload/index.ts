/** Making the pods of a shard run the files promop wrote: pod networks, which pods to call, the ShardReloader. */
export { ShardReloader, type ReloadMetrics, type ShardReloaderOptions } from './shard-reloader.ts';
export { alertmanagerReloadKey, type AlertmanagerPods } from './alertmanager-pod-set.ts';
export { thanosRulerReloadKey, type ThanosRulerPods } from './thanos-ruler-pod-set.ts';
export { configTiming, type LoadedConfigStatus, type PodSetReloadResult } from './pod-set.ts';
export { FixedPodNetworks, NodePodNetworks, parsePodNetworks, podCidrsOfNodes, type Admission, type NodePodNetworksOptions, type PodNetworks } from './pod-networks.ts';
export { CONFIG_HASH_ANNOTATION, needsConfigHash, podCallability, podsOfShard, podsWithLabels, type NotCallableReason, type PodCallability } from './shard-pods.ts';
