/**
 * The ClusterRole rules promop's ServiceAccount needs, written once: the Helm chart renders them and the
 * end-to-end tests bind exactly these to the identity the operator runs as, so a missing rule fails a test.
 *
 * Least privilege, with the limit RBAC sets: RBAC cannot say "the Secrets a monitor references". promop, like
 * prometheus-operator, lists and watches Secrets cluster-wide (it needs basic-auth passwords, bearer tokens and
 * TLS material from any namespace a monitor lives in). promop narrows what it *holds* with a field selector
 * (no ServiceAccount tokens, no Helm release blobs; `--secret-field-selector`, `--secret-label-selector`) but that
 * is not an authorization boundary. With `promop run --namespaces a,b` every read and write stays inside those
 * namespaces, and the rules split in three: OPERATOR_NAMESPACE_ROLE_RULES in a Role per watched namespace,
 * LEADER_ELECTION_ROLE_RULES in a Role in the Lease's namespace, and OPERATOR_CLUSTER_SCOPED_RULES (what no Role can
 * grant) in a small ClusterRole. The chart renders either form from these constants.
 */
import type { V1PolicyRule } from '@kubernetes/client-node';
import { GROUP, PLURALS, WORKLOAD_KINDS } from '@promop/crds';

const READ = ['get', 'list', 'watch'];

// What promop reconciles and what the configuration is made of: read through list/watch caches.
const CUSTOM_RESOURCES_READ: V1PolicyRule = { apiGroups: [GROUP], resources: Object.values(PLURALS), verbs: READ };
// Status is a subresource with its own authorization; promop writes it with server-side apply (a PATCH).
// Prometheus: conditions and replica counts; monitors and rules: status.bindings with acceptedBy/rejectedBy.
const STATUS_WRITE: V1PolicyRule = { apiGroups: [GROUP], resources: Object.values(PLURALS).map((plural) => `${plural}/status`), verbs: ['patch'] };
// Children carry an ownerReference with blockOwnerDeletion: clusters that enable the
// OwnerReferencesPermissionEnforcement admission plugin (OpenShift does) require update on the owner's
// finalizers subresource to set it.
const FINALIZERS_UPDATE: V1PolicyRule = { apiGroups: [GROUP], resources: WORKLOAD_KINDS.map((kind) => `${PLURALS[kind]}/finalizers`), verbs: ['update'] };
// Secrets: read the ones monitors and Prometheus objects reference (cluster-wide, see above); create and update
// (replace) the config, scrape-file and TLS-assets Secrets (kube/child-writer.ts), patch them to remove keys another
// manager added (reconcile/foreign-keys.ts); delete those of removed shards.
// ConfigMaps: referenced CA bundles; promop's rule ConfigMaps, written the same way, deleted when fewer are needed.
const SECRETS_CONFIGMAPS: V1PolicyRule = { apiGroups: [''], resources: ['secrets', 'configmaps'], verbs: [...READ, 'create', 'update', 'patch', 'delete'] };
// The governing Service `prometheus-operated`; never deleted by promop (the garbage collector does it once
// no Prometheus of the namespace owns it).
const SERVICES: V1PolicyRule = { apiGroups: [''], resources: ['services'], verbs: [...READ, 'create', 'patch'] };
// A StatefulSet per shard; those of removed shards are deleted.
const STATEFULSETS: V1PolicyRule = { apiGroups: ['apps'], resources: ['statefulsets'], verbs: [...READ, 'create', 'patch', 'delete'] };
// The DaemonSet of a PrometheusAgent in DaemonSet mode: watched, applied (server-side apply creates it), deleted when
// the agent goes back to StatefulSet mode. Never read by name, so no get.
const DAEMONSETS: V1PolicyRule = { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['list', 'watch', 'create', 'patch', 'delete'] };
// The Prometheus pods of promop's StatefulSets: watched (label managed-by=promop) to find each shard's Running,
// Ready pods and their IPs for the reload; patched to set the config-hash annotation, which makes the kubelet
// refresh the mounted config at once instead of on its next periodic sync (reload/shard-reloader.ts). RBAC
// cannot limit the patch to promop's pods or to annotations; promop sends a merge patch of one annotation.
const PODS: V1PolicyRule = { apiGroups: [''], resources: ['pods'], verbs: [...READ, 'patch'] };
// Warning Events for rejected monitors and rules (events.k8s.io/v1). promop only creates today; patch is what an
// event series (a repeated Event counted instead of re-created, as client-go's recorder does) needs.
const EVENTS: V1PolicyRule = { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] };
// Nodes' spec.podCIDRs: the networks promop may dial pods in, when `--pod-network` is not given. Listed on
// demand, not watched. Nodes are cluster-scoped: no Role can grant this.
const NODES_LIST: V1PolicyRule = { apiGroups: [''], resources: ['nodes'], verbs: ['list'] };
// Leader election (kube/leader-election.ts): one Lease, `--leader-election-id` in `--leader-election-namespace`,
// read every retry period, created once, updated (PUT with resourceVersion) to acquire, renew and release.
const LEASES: V1PolicyRule = { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] };

/** The rules of promop's ClusterRole (watching every namespace, or all but `--deny-namespaces`). */
export const OPERATOR_CLUSTER_ROLE_RULES: readonly V1PolicyRule[] = [
  CUSTOM_RESOURCES_READ,
  STATUS_WRITE,
  FINALIZERS_UPDATE,
  // Namespace labels decide which namespaces' monitors a Prometheus selects.
  { apiGroups: [''], resources: ['namespaces'], verbs: ['list', 'watch'] },
  SECRETS_CONFIGMAPS,
  SERVICES,
  STATEFULSETS,
  DAEMONSETS,
  PODS,
  NODES_LIST,
  EVENTS,
  // Granted cluster-wide because the namespace is a flag; the ClusterRole is the one RBAC source.
  LEASES,
];

/**
 * With `--namespaces`: the rules of the Role in each watched namespace. The Namespace object itself is read with
 * get and watch of `namespaces/<ns>`, which the API server authorizes in namespace `<ns>` (a list of Namespaces is
 * cluster-scoped even with a field selector; kube/namespace-scope.ts).
 */
export const OPERATOR_NAMESPACE_ROLE_RULES: readonly V1PolicyRule[] = [
  CUSTOM_RESOURCES_READ,
  STATUS_WRITE,
  FINALIZERS_UPDATE,
  { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'watch'] },
  SECRETS_CONFIGMAPS,
  SERVICES,
  STATEFULSETS,
  DAEMONSETS,
  PODS,
  EVENTS,
];

/** With `--namespaces`: the rules of the Role in the leader election namespace. */
export const LEADER_ELECTION_ROLE_RULES: readonly V1PolicyRule[] = [LEASES];

/** With `--namespaces`: what no Role can grant, for a ClusterRole of its own. */
export const OPERATOR_CLUSTER_SCOPED_RULES: readonly V1PolicyRule[] = [NODES_LIST];

/** The names of promop's CRDs (`<plural>.<group>`), the only CRDs `promop run --manage-crds` reads or writes. */
export const OWN_CRD_NAMES: readonly string[] = Object.values(PLURALS).map((plural) => `${plural}.${GROUP}`);

/**
 * The rules `promop run --manage-crds` (the default; chart value `crds.managedByOperator`) adds, cluster-scoped
 * also with `--namespaces`: read promop's own CRDs by name (to compare their revision and wait until they are
 * Established) and server-side apply them. RBAC matches resourceNames against the name in the request path; promop
 * creates a CRD with an apply (a PATCH to `.../customresourcedefinitions/<name>`), whose create check carries the
 * name too, so `create` is limited to promop's names as well. A POST to the collection has no name to match and is
 * refused, which promop never sends. No list or watch: promop reads its CRDs by name and only at start.
 */
export const CRD_MANAGER_RULES: readonly V1PolicyRule[] = [
  { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], resourceNames: [...OWN_CRD_NAMES], verbs: ['get', 'create', 'patch'] },
];
