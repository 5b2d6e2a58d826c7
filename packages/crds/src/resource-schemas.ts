/** The complete-object schema of each kind: the one source the types, validators and CRDs come from. */
import { resourceSchema } from './schemas/resource.ts';
import { probeSpecSchema, probeStatusSchema } from './schemas/probe.ts';
import { scrapeConfigSpecSchema, scrapeConfigStatusSchema } from './schemas/scrape-config.ts';
import { podMonitorSpecSchema, podMonitorStatusSchema } from './schemas/pod-monitor.ts';
import { prometheusSpecSchema } from './schemas/prometheus.ts';
import { prometheusAgentSpecSchema } from './schemas/prometheus-agent.ts';
import { prometheusStatusSchema } from './schemas/prometheus-status.ts';
import { prometheusRuleSpecSchema, prometheusRuleStatusSchema } from './schemas/prometheus-rule.ts';
import { serviceMonitorSpecSchema, serviceMonitorStatusSchema } from './schemas/service-monitor.ts';

/** Schema of a whole Prometheus object. */
export const prometheusSchema = resourceSchema('Prometheus', prometheusSpecSchema, prometheusStatusSchema);
/** Schema of a whole PrometheusAgent object (monitoring.coreos.com/v1alpha1); its status is a Prometheus'. */
export const prometheusAgentSchema = resourceSchema('PrometheusAgent', prometheusAgentSpecSchema, prometheusStatusSchema, 'v1alpha1');
/** Schema of a whole ServiceMonitor object. */
export const serviceMonitorSchema = resourceSchema('ServiceMonitor', serviceMonitorSpecSchema, serviceMonitorStatusSchema);
/** Schema of a whole PodMonitor object. */
export const podMonitorSchema = resourceSchema('PodMonitor', podMonitorSpecSchema, podMonitorStatusSchema);
/** Schema of a whole Probe object. */
export const probeSchema = resourceSchema('Probe', probeSpecSchema, probeStatusSchema);
/** Schema of a whole ScrapeConfig object (monitoring.coreos.com/v1alpha1). */
export const scrapeConfigSchema = resourceSchema('ScrapeConfig', scrapeConfigSpecSchema, scrapeConfigStatusSchema, 'v1alpha1');
/** Schema of a whole PrometheusRule object. */
export const prometheusRuleSchema = resourceSchema('PrometheusRule', prometheusRuleSpecSchema, prometheusRuleStatusSchema);
