/**
 * The governing Service `prometheus-operated`: the headless Service a StatefulSet needs for its pods' DNS names
 * (`<pod>.prometheus-operated.<ns>.svc`). As with prometheus-operator it is shared by every Prometheus in the
 * namespace and selects all their pods.
 */
import type { V1Service } from '@kubernetes/client-node';
import { isAgent, type FieldProblem } from '@promop/config-generator';
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

/**
 * How soon an owner whose `spec.serviceName` names no Service governing its pods is reconciled again: the Service is
 * the user's, which promop does not watch (prometheus-operator retries the failed reconcile with its backoff).
 */
export const CUSTOM_SERVICE_RECHECK_MS = 30_000;

// A Service name (apimachinery's IsDNS1035Label): what the API server accepts as one.
const SERVICE_NAME = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Why `spec.serviceName` cannot be a Service's name, or undefined when it can: checked before the name goes into the
 * path of promop's GET, so that no user-written name reaches the API server as anything but a Service name.
 */
export function serviceNameProblem(serviceName: string): FieldProblem | undefined {
  if (serviceName.length <= 63 && SERVICE_NAME.test(serviceName)) return undefined;
  return { path: 'spec.serviceName', message: `${JSON.stringify(serviceName.slice(0, 100))} is not a Service name (at most 63 lower-case letters, digits and '-', starting with a letter)` };
}

/**
 * Why the Service `spec.serviceName` names cannot govern the pods, or undefined when it can: it must exist in the
 * owner's namespace and its selector must select every pod of the owner (`podLabels`: the labels all its pods carry),
 * as prometheus-operator checks it (EnsureCustomGoverningService) before it writes the StatefulSet. A Service
 * without a selector passes, as upstream's empty selector selects everything.
 */
export function customGoverningServiceProblem(namespace: string, serviceName: string, service: V1Service | undefined, podLabels: Readonly<Record<string, string>>): FieldProblem | undefined {
  const path = 'spec.serviceName';
  if (!service) return { path, message: `Service ${namespace}/${serviceName} does not exist; create the headless Service that governs the pods, or leave spec.serviceName unset` };
  const selector = service.spec?.selector ?? {};
  const unmet = Object.keys(selector).sort().filter((key) => podLabels[key] !== selector[key]);
  if (unmet.length === 0) return undefined;
  const words = (labels: Readonly<Record<string, string>>, keys: readonly string[]) => keys.map((key) => `${key}=${labels[key]}`).join(',');
  return {
    path,
    message: `Service ${namespace}/${serviceName} selects ${words(selector, Object.keys(selector).sort())}, which does not select the pods (labels ${words(podLabels, Object.keys(podLabels).sort())}): ${unmet.map((key) => `${key} is ${podLabels[key] === undefined ? 'not a label of the pods' : `"${podLabels[key]}" on the pods`}`).join(', ')}`,
  };
}
