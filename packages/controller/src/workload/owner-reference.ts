/**
 * Owner references to the Prometheus object. Kubernetes' garbage collector deletes an object once all its owners
 * are gone, so promop never deletes children of a deleted Prometheus itself.
 */
import type { V1OwnerReference } from '@kubernetes/client-node';
import { namingOf, type PrometheusWorkload } from './workload-kind.ts';

/**
 * A reference to `prometheus`. `controller: true` marks promop's sole owner (Secrets, ConfigMaps, StatefulSets);
 * the shared governing Service gets non-controller references, one per Prometheus in the namespace.
 * `blockOwnerDeletion` makes a foreground deletion of the Prometheus wait for its children (setting it needs
 * `update` on `prometheuses/finalizers` (`prometheusagents/finalizers`) when the OwnerReferencesPermissionEnforcement admission plugin is on).
 * Throws when the object has no uid: objects read from the API server always have one, so that is a bug.
 */
export function prometheusOwnerReference(prometheus: PrometheusWorkload, { controller = true } = {}): V1OwnerReference {
  const { name, uid } = prometheus.metadata;
  const { kind, apiVersion } = namingOf(prometheus);
  if (!uid) throw new Error(`bug: ${kind} ${prometheus.metadata.namespace}/${name} has no metadata.uid; read it from the API server`);
  return { apiVersion, kind, name: name, uid, controller, blockOwnerDeletion: true };
}
