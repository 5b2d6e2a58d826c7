/**
 * The custom resources and Namespaces of a cluster, listed. Apart from the reader, this module imports nothing at
 * run time, so the commands can start these lists before they load the generator (the requests and the loading
 * overlap).
 */
import type { V1Namespace } from '@kubernetes/client-node';
import type { PodMonitor, Probe, Prometheus, PrometheusAgent, PrometheusRule, ScrapeConfig, ServiceMonitor } from '@promop/crds';
import { KubeReadError, type KubeReader } from './kube-reader.ts';

const API = '/apis/monitoring.coreos.com/v1';

/** The custom resources and namespaces of a cluster. */
export interface ClusterObjects {
  prometheuses: Prometheus[];
  prometheusAgents: PrometheusAgent[];
  serviceMonitors: ServiceMonitor[];
  podMonitors: PodMonitor[];
  probes: Probe[];
  scrapeConfigs: ScrapeConfig[];
  prometheusRules: PrometheusRule[];
  namespaces: V1Namespace[];
}

/** Lists the custom resources and namespaces. A refused list is a KubeReadError naming the resource. */
export async function readClusterObjects(reader: KubeReader): Promise<ClusterObjects> {
  // A cluster whose CRDs predate promop's PrometheusAgent, Probe or ScrapeConfig support has no such resource
  // (404): none of them.
  const unlessUnserved = <T>(listing: Promise<T[]>) => listing.catch((error: unknown) => {
    if (error instanceof KubeReadError && error.status === 404) return [];
    throw error;
  });
  const [prometheuses, prometheusAgents, serviceMonitors, podMonitors, probes, scrapeConfigs, prometheusRules, namespaces] = await Promise.all([
    reader.list<Prometheus>(`${API}/prometheuses`),
    // The generator tells an agent by its kind, which a custom resource's list items carry; set it all the same.
    unlessUnserved(reader.list<PrometheusAgent>('/apis/monitoring.coreos.com/v1alpha1/prometheusagents'))
      .then((agents) => agents.map((agent) => ({ ...agent, kind: 'PrometheusAgent' as const }))),
    reader.list<ServiceMonitor>(`${API}/servicemonitors`),
    reader.list<PodMonitor>(`${API}/podmonitors`),
    unlessUnserved(reader.list<Probe>(`${API}/probes`)),
    unlessUnserved(reader.list<ScrapeConfig>('/apis/monitoring.coreos.com/v1alpha1/scrapeconfigs')),
    reader.list<PrometheusRule>(`${API}/prometheusrules`),
    reader.list<V1Namespace>('/api/v1/namespaces'),
  ]);
  return { prometheuses, prometheusAgents, serviceMonitors, podMonitors, probes, scrapeConfigs, prometheusRules, namespaces };
}

