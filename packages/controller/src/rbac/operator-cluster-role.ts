/**
 * The ClusterRole rules promop's ServiceAccount needs, written once: the Helm chart renders them and the
 * end-to-end tests bind exactly these to the identity the operator runs as, so a missing rule fails a test.
 *
 * Least privilege, with the limit RBAC sets: RBAC cannot say "the Secrets a monitor references". promop, like
 * prometheus-operator, lists and watches Secrets cluster-wide (it needs basic-auth passwords, bearer tokens and
 * TLS material from any namespace a monitor lives in). promop narrows what it *holds* with a field selector
 * (no ServiceAccount tokens, no Helm release blobs) but that is not an authorization boundary. A later option is
 * to watch only Secrets with an opt-in label (`--secret-label-selector`, as upstream offers) and to bind the
 * Secret rules with RoleBindings in the namespaces promop serves instead of cluster-wide.
 */
import type { V1PolicyRule } from '@kubernetes/client-node';
import { GROUP, PLURALS } from '@promop/crds';

const READ = ['get', 'list', 'watch'];

/** The rules of promop's ClusterRole. */
export const OPERATOR_CLUSTER_ROLE_RULES: readonly V1PolicyRule[] = [
  // What promop reconciles and what the configuration is made of: read through list/watch caches.
  { apiGroups: [GROUP], resources: Object.values(PLURALS), verbs: READ },
  // Status is a subresource with its own authorization; promop writes it with server-side apply (a PATCH).
  // Prometheus: conditions and replica counts; monitors and rules: status.bindings with acceptedBy/rejectedBy.
  { apiGroups: [GROUP], resources: Object.values(PLURALS).map((plural) => `${plural}/status`), verbs: ['patch'] },
  // Children carry an ownerReference with blockOwnerDeletion: clusters that enable the
  // OwnerReferencesPermissionEnforcement admission plugin (OpenShift does) require update on the owner's
  // finalizers subresource to set it.
  { apiGroups: [GROUP], resources: [`${PLURALS.Prometheus}/finalizers`], verbs: ['update'] },
  // Namespace labels decide which namespaces' monitors a Prometheus selects.
  { apiGroups: [''], resources: ['namespaces'], verbs: ['list', 'watch'] },
  // Secrets: read the ones monitors and Prometheus objects reference (cluster-wide, see above); create/patch the
  // config and TLS-assets Secrets (server-side apply creates with PATCH, which the API server authorizes as
  // create when the object does not exist yet); delete those of removed shards.
  // ConfigMaps: referenced CA bundles; promop's rule ConfigMaps, deleted when fewer are needed.
  { apiGroups: [''], resources: ['secrets', 'configmaps'], verbs: [...READ, 'create', 'patch', 'delete'] },
  // The governing Service `prometheus-operated`; never deleted by promop (the garbage collector does it once
  // no Prometheus of the namespace owns it).
  { apiGroups: [''], resources: ['services'], verbs: [...READ, 'create', 'patch'] },
  // A StatefulSet per shard; those of removed shards are deleted.
  { apiGroups: ['apps'], resources: ['statefulsets'], verbs: [...READ, 'create', 'patch', 'delete'] },
  // The Prometheus pods of promop's StatefulSets: watched (label managed-by=promop) to find each shard's Running,
  // Ready pods and their IPs for the reload; patched to set the config-hash annotation, which makes the kubelet
  // refresh the mounted config at once instead of on its next periodic sync (reload/shard-reloader.ts). RBAC
  // cannot limit the patch to promop's pods or to annotations; promop sends a merge patch of one annotation.
  { apiGroups: [''], resources: ['pods'], verbs: [...READ, 'patch'] },
  // Nodes' spec.podCIDRs: the networks promop may dial pods in, when `--pod-network` is not given. Listed on
  // demand, not watched.
  { apiGroups: [''], resources: ['nodes'], verbs: ['list'] },
  // Warning Events for rejected monitors and rules (events.k8s.io/v1). promop only creates today; patch is what an
  // event series (a repeated Event counted instead of re-created, as client-go's recorder does) needs.
  { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
  // Leader election (kube/leader-election.ts): one Lease, `--leader-election-id` in `--leader-election-namespace`,
  // read every retry period, created once, updated (PUT with resourceVersion) to acquire, renew and release.
  // Granted cluster-wide because the namespace is a flag; the ClusterRole is the one RBAC source.
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
];
