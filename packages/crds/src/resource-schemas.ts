/** The complete-object schema of each kind: the one source the types, validators and CRDs come from. */
import { KINDS, type Kind } from './kinds.ts';
import { resourceSchema } from './schemas/resource.ts';
import { alertmanagerSpecSchema, alertmanagerStatusSchema } from './schemas/alertmanager.ts';
import { alertmanagerConfigSpecSchema, alertmanagerConfigStatusSchema } from './schemas/alertmanager-config.ts';
import { probeSpecSchema, probeStatusSchema } from './schemas/probe.ts';
import { scrapeConfigSpecSchema, scrapeConfigStatusSchema } from './schemas/scrape-config.ts';
import { podMonitorSpecSchema, podMonitorStatusSchema } from './schemas/pod-monitor.ts';
import { prometheusSpecSchema } from './schemas/prometheus.ts';
import { prometheusAgentSpecSchema } from './schemas/prometheus-agent.ts';
import { prometheusStatusSchema } from './schemas/prometheus-status.ts';
import { prometheusRuleSpecSchema, prometheusRuleStatusSchema } from './schemas/prometheus-rule.ts';
import { serviceMonitorSpecSchema, serviceMonitorStatusSchema } from './schemas/service-monitor.ts';
import { thanosRulerSpecSchema, thanosRulerStatusSchema } from './schemas/thanos-ruler.ts';

/** Schema of a whole Prometheus object. */
export const prometheusSchema = resourceSchema('Prometheus', prometheusSpecSchema, prometheusStatusSchema, KINDS.Prometheus.version);
/** Schema of a whole PrometheusAgent object (monitoring.coreos.com/v1alpha1); its status is a Prometheus'. */
export const prometheusAgentSchema = resourceSchema('PrometheusAgent', prometheusAgentSpecSchema, prometheusStatusSchema, KINDS.PrometheusAgent.version);
/** Schema of a whole Alertmanager object. */
export const alertmanagerSchema = resourceSchema('Alertmanager', alertmanagerSpecSchema, alertmanagerStatusSchema, KINDS.Alertmanager.version);
/** Schema of a whole ThanosRuler object. */
export const thanosRulerSchema = resourceSchema('ThanosRuler', thanosRulerSpecSchema, thanosRulerStatusSchema, KINDS.ThanosRuler.version);
/** Schema of a whole ServiceMonitor object. */
export const serviceMonitorSchema = resourceSchema('ServiceMonitor', serviceMonitorSpecSchema, serviceMonitorStatusSchema, KINDS.ServiceMonitor.version);
/** Schema of a whole PodMonitor object. */
export const podMonitorSchema = resourceSchema('PodMonitor', podMonitorSpecSchema, podMonitorStatusSchema, KINDS.PodMonitor.version);
/** Schema of a whole Probe object. */
export const probeSchema = resourceSchema('Probe', probeSpecSchema, probeStatusSchema, KINDS.Probe.version);
/** Schema of a whole ScrapeConfig object (monitoring.coreos.com/v1alpha1). */
export const scrapeConfigSchema = resourceSchema('ScrapeConfig', scrapeConfigSpecSchema, scrapeConfigStatusSchema, KINDS.ScrapeConfig.version);
/** Schema of a whole PrometheusRule object. */
export const prometheusRuleSchema = resourceSchema('PrometheusRule', prometheusRuleSpecSchema, prometheusRuleStatusSchema, KINDS.PrometheusRule.version);

/** Schema of a whole AlertmanagerConfig object (monitoring.coreos.com/v1alpha1). */
export const alertmanagerConfigSchema = resourceSchema('AlertmanagerConfig', alertmanagerConfigSpecSchema, alertmanagerConfigStatusSchema, KINDS.AlertmanagerConfig.version);

/** The spec and status schemas of each kind, the parts the CRD manifests are built from. */
export const KIND_SCHEMAS = {
  Prometheus: { spec: prometheusSpecSchema, status: prometheusStatusSchema },
  PrometheusAgent: { spec: prometheusAgentSpecSchema, status: prometheusStatusSchema },
  Alertmanager: { spec: alertmanagerSpecSchema, status: alertmanagerStatusSchema },
  ThanosRuler: { spec: thanosRulerSpecSchema, status: thanosRulerStatusSchema },
  ServiceMonitor: { spec: serviceMonitorSpecSchema, status: serviceMonitorStatusSchema },
  PodMonitor: { spec: podMonitorSpecSchema, status: podMonitorStatusSchema },
  Probe: { spec: probeSpecSchema, status: probeStatusSchema },
  ScrapeConfig: { spec: scrapeConfigSpecSchema, status: scrapeConfigStatusSchema },
  PrometheusRule: { spec: prometheusRuleSpecSchema, status: prometheusRuleStatusSchema },
  AlertmanagerConfig: { spec: alertmanagerConfigSpecSchema, status: alertmanagerConfigStatusSchema },
} as const satisfies Record<Kind, { spec: object; status: object }>;

/** The whole-object schema of each kind, for code that handles every kind alike (validators, key references). */
export const RESOURCE_SCHEMAS = {
  Prometheus: prometheusSchema,
  PrometheusAgent: prometheusAgentSchema,
  Alertmanager: alertmanagerSchema,
  ThanosRuler: thanosRulerSchema,
  ServiceMonitor: serviceMonitorSchema,
  PodMonitor: podMonitorSchema,
  Probe: probeSchema,
  ScrapeConfig: scrapeConfigSchema,
  PrometheusRule: prometheusRuleSchema,
  AlertmanagerConfig: alertmanagerConfigSchema,
} as const satisfies Record<Kind, object>;
