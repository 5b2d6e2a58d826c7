/**
 * What differs between the objects promop creates for a Prometheus and for a PrometheusAgent, in one table: every
 * builder, the reloader and the reconciler read the kind's names and labels from here. The values are
 * prometheus-operator's, so dashboards, `kubectl -l` habits and PodMonitors of Prometheus itself carry over:
 * children `prometheus-<name>` / `prom-agent-<name>` (the prefix lives with the other in-pod names in the
 * generator's pod-layout.ts), pods labelled `app.kubernetes.io/name: prometheus` / `prometheus-agent`, governing
 * Services `prometheus-operated` / `prometheus-agent-operated`, and StatefulSets labelled
 * `operator.prometheus.io/mode: server` / `agent`.
 */
import { isAgent, type PrometheusWorkload, type WorkloadKind } from '@promop/config-generator';
import { API_VERSIONS, GROUP, PLURALS } from '@promop/crds';

export type { PrometheusWorkload, WorkloadKind } from '@promop/config-generator';

/** Label prometheus-operator puts on the StatefulSets: `server` or `agent`. */
export const MODE_LABEL = 'operator.prometheus.io/mode';

/** The per-kind facts. */
export interface WorkloadNaming {
  kind: WorkloadKind;
  /** `monitoring.coreos.com/v1` or `.../v1alpha1`: owner references and Events name the owner with it. */
  apiVersion: string;
  /** The resource (plural): RBAC, status writes and the bindings' `resource`. */
  resource: 'prometheuses' | 'prometheusagents';
  /** `app.kubernetes.io/name` of the pods, which the governing Service selects. */
  appName: string;
  /** The headless Service shared by every object of this kind in a namespace. */
  governingServiceName: string;
  /** The StatefulSets' MODE_LABEL value. */
  mode: 'server' | 'agent';
}

export const WORKLOADS: Readonly<Record<WorkloadKind, WorkloadNaming>> = {
  Prometheus: {
    kind: 'Prometheus',
    apiVersion: `${GROUP}/${API_VERSIONS.Prometheus}`,
    resource: PLURALS.Prometheus,
    appName: 'prometheus',
    governingServiceName: 'prometheus-operated',
    mode: 'server',
  },
  PrometheusAgent: {
    kind: 'PrometheusAgent',
    apiVersion: `${GROUP}/${API_VERSIONS.PrometheusAgent}`,
    resource: PLURALS.PrometheusAgent,
    appName: 'prometheus-agent',
    governingServiceName: 'prometheus-agent-operated',
    mode: 'agent',
  },
};

/** The kind of `workload`: a PrometheusAgent, or a Prometheus (objects without `kind`, as in hand-made fixtures, are servers). */
export function workloadKind(workload: PrometheusWorkload): WorkloadKind {
  return isAgent(workload) ? 'PrometheusAgent' : 'Prometheus';
}

/** The per-kind facts of `workload`. */
export function namingOf(workload: PrometheusWorkload): WorkloadNaming {
  return WORKLOADS[workloadKind(workload)];
}
