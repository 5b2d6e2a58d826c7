/** promop's Kubernetes access (RawApi and its own kubeconfig loader, no client-node at runtime): caches kept by watches, server-side apply of children and status, Events, API errors as values. */
export { apiErrorOf, apiResponseOf, describeError, isNotFound, isUserCaused, type ApiError } from './api-error.ts';
export { ApiBackpressure, type BackpressureListener } from './api-backpressure.ts';
export { ChildWriter, isImmutableStatefulSetChange, replacementOf, type ChildKind, type ChildOf, type WrittenOf } from './child-writer.ts';
export {
  createClusterCaches, kindListsOf, startClusterCaches, stopClusterCaches, IGNORED_SECRET_TYPES_SELECTOR, NOT_OWNED_SELECTOR, OWNED_SELECTOR,
  type ClusterCaches, type ClusterCachesOptions, type KindCaches, type KindLists,
} from './cluster-caches.ts';
export { EventRecorder, INVALID_CONFIGURATION_REASON, REPORTING_CONTROLLER, SELECTING_ACTION, type EventSpec } from './event-recorder.ts';
export { FIELD_MANAGER } from './field-manager.ts';
export { ApiPodAnnotator, type PodAnnotator } from './pod-annotator.ts';
export { StatusWriter, type StatusTarget } from './status-writer.ts';
export {
  EncodedBody, KubeApiError, PATCH_TYPE, RawApi, METADATA_ACCEPT, METADATA_LIST_ACCEPT, namespacedPath, rawApiOf,
  type ConnectionStats, type KubeAccess, type PatchType, type RawRequest, type WatchEvent, type WriteOptions, type WriteQuery,
} from './raw-api.ts';
export { ALL_NAMESPACES, MultiNamespaceCache, withDeniedNamespaces, type NamespaceScope, type ObjectCache } from './namespace-scope.ts';
export { WatchedCache, type CachedObject, type ChangeHandler, type PartialObjectMetadata, type WatchedCacheOptions } from './watched-cache.ts';
export { ReferencedObjects, type ReferencedData, type ReferencedKind, type References } from './referenced-objects.ts';
export { LeaderElector, apiLeaseClient, leaderIdentity, DEFAULT_LEASE_DURATION_MS, DEFAULT_RENEW_DEADLINE_MS, DEFAULT_RETRY_PERIOD_MS, type LeaseClient, type LeaderElectorOptions } from './leader-election.ts';
export { NotLeaderError, writeGatedAccess } from './write-gate.ts';
export { Kubeconfig, KubeconfigError, loadKubeconfig, type KubeconfigOptions } from './kubeconfig.ts';
export { crdAction, ensureCrds, type CrdAction, type CrdOutcome, type EnsureCrdsOptions } from './crd-installer.ts';
export { labelsPodsWithZone, podTopologyLabelsReader, type KubernetesVersionInfo } from './pod-topology-labels.ts';
