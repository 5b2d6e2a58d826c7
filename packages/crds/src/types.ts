/**
 * TypeScript types derived from the schema literals with json-schema-to-ts, so a field added to a schema is a
 * field of the type. `keepDefaultedPropertiesOptional`: fields with a CRD default (relabel action, scrapeInterval…)
 * stay optional, because objects built in code or read from a manifest do not carry the defaults yet; only the
 * API server (or the validators, which return the defaulted copy) fill them in.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { alertmanagerConfigSchema, alertmanagerSchema, prometheusAgentSchema, prometheusRuleSchema, prometheusSchema, podMonitorSchema, probeSchema, scrapeConfigSchema, serviceMonitorSchema, thanosRulerSchema } from './resource-schemas.ts';
import type { scrapeConfigSpecSchema } from './schemas/scrape-config.ts';
import type { probeSpecSchema, probeTargetIngressSchema, probeTargetStaticConfigSchema, proberSpecSchema } from './schemas/probe.ts';
import type { alertmanagerEndpointsSchema } from './schemas/alerting.ts';
import type { receiverSchema } from './schemas/alertmanager-config-receivers.ts';
import type { alertmanagerConfigSpecSchema, alertmanagerMatcherSchema, alertmanagerRouteSchema, inhibitRuleSchema, muteTimeIntervalSchema } from './schemas/alertmanager-config.ts';
import type { apiServerConfigSchema } from './schemas/api-server-config.ts';
import type { configMapKeySelectorSchema, labelSelectorSchema, namespaceSelectorSchema, objectMetaSchema, secretKeySelectorSchema, secretOrConfigMapSchema, sigv4Schema } from './schemas/common.ts';
import type { authorizationSchema, basicAuthSchema, oauth2Schema, proxyProperties, safeAuthorizationSchema } from './schemas/http-auth.ts';
import type { podMetricsEndpointSchema, podMonitorSpecSchema } from './schemas/pod-monitor.ts';
import type { prometheusSpecSchema } from './schemas/prometheus.ts';
import type { prometheusAgentSpecSchema } from './schemas/prometheus-agent.ts';
import type { prometheusStatusSchema } from './schemas/prometheus-status.ts';
import type { prometheusRuleSpecSchema, ruleGroupSchema, ruleSchema } from './schemas/prometheus-rule.ts';
import type { configResourceStatusSchema } from './schemas/config-resource-status.ts';
import type { relabelConfigSchema } from './schemas/relabel-config.ts';
import type { remoteReadSpecSchema, remoteWriteSpecSchema } from './schemas/remote-storage.ts';
import type { endpointSchema, serviceMonitorSpecSchema } from './schemas/service-monitor.ts';
import type { safeTlsConfigSchema, tlsConfigSchema } from './schemas/tls-config.ts';

type Derive<S> = S extends object ? FromSchema<S & {}, { keepDefaultedPropertiesOptional: true }> : never;

/** A whole Prometheus object. */
export type Prometheus = Derive<typeof prometheusSchema>;
/** A whole Alertmanager object. */
export type Alertmanager = Derive<typeof alertmanagerSchema>;
/** Alertmanager `.spec`. */
export type AlertmanagerSpec = NonNullable<Alertmanager['spec']>;
/** A whole ThanosRuler object. */
export type ThanosRuler = Derive<typeof thanosRulerSchema>;
/** ThanosRuler `.spec`. */
export type ThanosRulerSpec = NonNullable<ThanosRuler['spec']>;
/** A whole AlertmanagerConfig object (v1alpha1). */
export type AlertmanagerConfig = Derive<typeof alertmanagerConfigSchema>;
/** AlertmanagerConfig `.spec`. */
export type AlertmanagerConfigSpec = Derive<typeof alertmanagerConfigSpecSchema>;
/** A route of an AlertmanagerConfig (nested routes arrive untyped and are checked against this shape). */
export type AlertmanagerRoute = Derive<typeof alertmanagerRouteSchema>;
/** A label matcher of an AlertmanagerConfig route or inhibit rule. */
export type AlertmanagerMatcher = Derive<typeof alertmanagerMatcherSchema>;
/** An inhibit rule of an AlertmanagerConfig. */
export type InhibitRule = Derive<typeof inhibitRuleSchema>;
/** A named set of time intervals of an AlertmanagerConfig. */
export type MuteTimeInterval = Derive<typeof muteTimeIntervalSchema>;
/** A whole PrometheusAgent object (v1alpha1). */
export type PrometheusAgent = Derive<typeof prometheusAgentSchema>;
/** PrometheusAgent `.spec`. */
export type PrometheusAgentSpec = Derive<typeof prometheusAgentSpecSchema>;
/** A whole ServiceMonitor object. */
export type ServiceMonitor = Derive<typeof serviceMonitorSchema>;
/** A whole PodMonitor object. */
export type PodMonitor = Derive<typeof podMonitorSchema>;
/** A whole Probe object. */
export type Probe = Derive<typeof probeSchema>;
/** A whole ScrapeConfig object (v1alpha1). */
export type ScrapeConfig = Derive<typeof scrapeConfigSchema>;
/** ScrapeConfig `.spec`. */
export type ScrapeConfigSpec = Derive<typeof scrapeConfigSpecSchema>;
/** A whole PrometheusRule object. */
export type PrometheusRule = Derive<typeof prometheusRuleSchema>;

/** metadata of the objects, as far as promop reads it. */
export type ObjectMeta = Derive<typeof objectMetaSchema>;
/** Prometheus `.spec`. */
export type PrometheusSpec = Derive<typeof prometheusSpecSchema>;
/** Prometheus `.status`. */
export type PrometheusStatus = Derive<typeof prometheusStatusSchema>;
/** ServiceMonitor `.spec`. */
export type ServiceMonitorSpec = Derive<typeof serviceMonitorSpecSchema>;
/** One ServiceMonitor endpoint. */
export type Endpoint = Derive<typeof endpointSchema>;
/** PodMonitor `.spec`. */
export type PodMonitorSpec = Derive<typeof podMonitorSpecSchema>;
/** One PodMonitor endpoint. */
export type PodMetricsEndpoint = Derive<typeof podMetricsEndpointSchema>;
/** Probe `.spec`. */
export type ProbeSpec = Derive<typeof probeSpecSchema>;
/** The prober of a Probe. */
export type ProberSpec = Derive<typeof proberSpecSchema>;
/** A Probe's static targets. */
export type ProbeTargetStaticConfig = Derive<typeof probeTargetStaticConfigSchema>;
/** A Probe's Ingress targets. */
export type ProbeTargetIngress = Derive<typeof probeTargetIngressSchema>;
/** PrometheusRule `.spec`. */
export type PrometheusRuleSpec = Derive<typeof prometheusRuleSpecSchema>;
/** One rule group. */
export type RuleGroup = Derive<typeof ruleGroupSchema>;
/** One alerting or recording rule. */
export type Rule = Derive<typeof ruleSchema>;
/** `.status` of ServiceMonitors, PodMonitors, Probes, ScrapeConfigs and PrometheusRules. */
export type ConfigResourceStatus = Derive<typeof configResourceStatusSchema>;
/** One relabeling step. */
export type RelabelConfig = Derive<typeof relabelConfigSchema>;
/** TLS settings from Secrets and ConfigMaps only. */
export type SafeTLSConfig = Derive<typeof safeTlsConfigSchema>;
/** TLS settings that may also name files. */
export type TLSConfig = Derive<typeof tlsConfigSchema>;
/** A key of a Secret in the object's namespace. */
export type SecretKeySelector = Derive<typeof secretKeySelectorSchema>;
/** A key of a ConfigMap in the object's namespace. */
export type ConfigMapKeySelector = Derive<typeof configMapKeySelectorSchema>;
/** A key of either a Secret or a ConfigMap (TLS material, OAuth2 client ids). */
export type SecretOrConfigMap = Derive<typeof secretOrConfigMapSchema>;
/** HTTP basic authentication. */
export type BasicAuth = Derive<typeof basicAuthSchema>;
/** The Authorization header with credentials from a Secret. */
export type SafeAuthorization = Derive<typeof safeAuthorizationSchema>;
/** The Authorization header with credentials from a Secret or a file. */
export type Authorization = Derive<typeof authorizationSchema>;
/** The proxy fields every HTTP client configuration carries (prometheus-operator's ProxyConfig). */
export type ProxyConfig = Pick<OAuth2, keyof typeof proxyProperties>;
/** AWS Signature Version 4. */
export type Sigv4 = Derive<typeof sigv4Schema>;
/** OAuth2 client credentials. */
export type OAuth2 = Derive<typeof oauth2Schema>;
/** A Kubernetes label selector. */
export type LabelSelector = Derive<typeof labelSelectorSchema>;
/** The namespaces a monitor discovers targets in. */
export type NamespaceSelector = Derive<typeof namespaceSelectorSchema>;
/** One remote write endpoint. */
export type RemoteWriteSpec = Derive<typeof remoteWriteSpecSchema>;
/** One remote read endpoint. */
export type RemoteReadSpec = Derive<typeof remoteReadSpecSchema>;
/** How Prometheus reaches the Kubernetes API server for service discovery. */
export type ApiServerConfig = Derive<typeof apiServerConfigSchema>;
/** One Alertmanager Service to send alerts to. */
export type AlertmanagerEndpoints = Derive<typeof alertmanagerEndpointsSchema>;
/** One receiver of an AlertmanagerConfig. */
export type AlertmanagerConfigReceiver = Derive<typeof receiverSchema>;

/** The object type of each kind, for code that handles every kind alike (the validators, `promop render`). */
export interface ResourceOfKind {
  Prometheus: Prometheus;
  PrometheusAgent: PrometheusAgent;
  Alertmanager: Alertmanager;
  ThanosRuler: ThanosRuler;
  ServiceMonitor: ServiceMonitor;
  PodMonitor: PodMonitor;
  Probe: Probe;
  ScrapeConfig: ScrapeConfig;
  PrometheusRule: PrometheusRule;
  AlertmanagerConfig: AlertmanagerConfig;
}
