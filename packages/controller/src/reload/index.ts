/** Making the pods of a shard run the files promop wrote: pod networks, which pods to call, the ShardReloader. */
export { ShardReloader, alertmanagerReloadKey, configTiming, type AlertmanagerPods, type LoadedConfigStatus, type PodSetReloadResult, type ReloadMetrics, type ShardReloaderOptions } from './shard-reloader.ts';
export { FixedPodNetworks, NodePodNetworks, parsePodNetworks, podCidrsOfNodes, type Admission, type NodePodNetworksOptions, type PodNetworks } from './pod-networks.ts';
export { CONFIG_HASH_ANNOTATION, needsConfigHash, podCallability, podsOfShard, podsWithLabels, type NotCallableReason, type PodCallability } from './shard-pods.ts';
