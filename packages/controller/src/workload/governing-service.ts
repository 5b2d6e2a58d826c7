/**
 * The governing Service `prometheus-operated`: the headless Service a StatefulSet needs for its pods' DNS names
 * (`<pod>.prometheus-operated.<ns>.svc`). As with prometheus-operator it is shared by every Prometheus in the
 * namespace and selects all their pods.
 */
import type { V1Service } from '@kubernetes/client-node';
import { isAgent } from '@promop/config-generator';
import { managedByLabels } from './labels.ts';
import { prometheusOwnerReference } from './owner-reference.ts';
import { WORKLOADS, type PrometheusWorkload, type WorkloadKind } from './workload-kind.ts';
import { PROMETHEUS_PORT } from './prometheus-args.ts';
import { WEB_PORT_NAME } from './prometheus-container.ts';
import { THANOS_GRPC_PORT } from './thanos-sidecar.ts';

/** Name of the governing Service, shared by all Prometheus objects of a namespace (agents share `prometheus-agent-operated`). */
export const GOVERNING_SERVICE_NAME = WORKLOADS.Prometheus.governingServiceName;

/**
 * The Service for `namespace`, owned (non-controller) by every Prometheus in `owners`, which must be all those
 * that use it: server-side apply replaces promop's list of ownerReferences, so a missing one is dropped, and the
 * garbage collector deletes the Service once the last owner is gone. Owners are sorted by name so the same set
 * always gives the same object. Prometheus objects with `spec.serviceName` bring their own Service and should not
 * be passed. The Thanos sidecars' `grpc` port (10901) is on the Service while any owner has `spec.thanos`:
 * upstream adds it when the Prometheus it reconciles has one, so with several Prometheus objects its Service
 * follows whichever was reconciled last.
 */
export function buildGoverningService(namespace: string, owners: readonly PrometheusWorkload[], kind: WorkloadKind = 'Prometheus'): V1Service {
  const naming = WORKLOADS[kind];
  const sorted = [...owners].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: naming.governingServiceName,
      namespace,
      labels: { ...managedByLabels(), 'operated-prometheus': 'true' },
      ownerReferences: sorted.map((prometheus) => prometheusOwnerReference(prometheus, { controller: false })),
    },
    spec: {
      clusterIP: 'None',
      ports: [
        { name: WEB_PORT_NAME, port: PROMETHEUS_PORT, targetPort: WEB_PORT_NAME },
        ...(sorted.some((prometheus) => !isAgent(prometheus) && prometheus.spec?.thanos) ? [{ name: 'grpc', port: THANOS_GRPC_PORT, targetPort: 'grpc' }] : []),
      ],
      selector: { 'app.kubernetes.io/name': naming.appName },
    },
  };
}
