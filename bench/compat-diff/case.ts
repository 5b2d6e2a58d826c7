/**
 * One comparison case: a Prometheus' spec and the objects it may select, all in one namespace of their own, with the
 * Secrets and ConfigMaps every case namespace gets (see planted-objects.ts).
 */

/** A monitoring object of a case, without metadata.namespace (each case gets its namespace when it is created). */
export interface CaseObject {
  apiVersion: string;
  kind: 'ServiceMonitor' | 'PodMonitor' | 'Probe' | 'ScrapeConfig';
  metadata: { name: string; labels?: Record<string, string> };
  spec: Record<string, unknown>;
}

/** One case: what the Prometheus says beyond the common spec, and its candidate objects. */
export interface CompatCase {
  /** Short, unique: `probe-static`, `generated-17`... */
  name: string;
  /** Merged over {@link basePrometheusSpec}. */
  prometheusSpec?: Record<string, unknown>;
  objects: CaseObject[];
}

/** The Prometheus version both operators render for unless a case says otherwise (.tools' Prometheus). */
export const DEFAULT_VERSION = 'v3.16.0';

/**
 * What every case's Prometheus has: a version (the operators' defaults differ), an interval, and every monitor
 * selector empty so both select all objects of the case's namespace (namespace selectors unset: own namespace only).
 */
export function basePrometheusSpec(): Record<string, unknown> {
  return {
    version: DEFAULT_VERSION,
    scrapeInterval: '30s',
    evaluationInterval: '30s',
    serviceMonitorSelector: {},
    podMonitorSelector: {},
    probeSelector: {},
    scrapeConfigSelector: {},
  };
}

/** A Probe of a case. */
export function probe(name: string, spec: Record<string, unknown>): CaseObject {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'Probe', metadata: { name }, spec };
}

/** A ScrapeConfig of a case. */
export function scrapeConfig(name: string, spec: Record<string, unknown>): CaseObject {
  return { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'ScrapeConfig', metadata: { name }, spec };
}

/** A ServiceMonitor of a case. */
export function serviceMonitor(name: string, spec: Record<string, unknown>): CaseObject {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name }, spec };
}

/** A PodMonitor of a case. */
export function podMonitor(name: string, spec: Record<string, unknown>): CaseObject {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor', metadata: { name }, spec };
}
