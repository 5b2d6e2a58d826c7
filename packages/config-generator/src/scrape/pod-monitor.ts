/**
 * PodMonitor → one scrape config per podMetricsEndpoint, as prometheus-operator v0.93 renders it
 * (compat reference §2.5): role pod, the pod-phase filter first, no Service labels, and only
 * "safe" HTTP settings (no files of the Prometheus container).
 */
import type { PodMetricsEndpoint, PodMonitor } from '@promop/crds';
import {
  appendProxy,
  checkAuthExclusivity,
  Findings,
  readSecretKey,
  renderAuthorization,
  renderBasicAuth,
  renderOAuth2,
  renderTlsConfig,
  type HttpClientContext,
} from '../http-client/index.ts';
import { isAtLeast } from '../prometheus-version.ts';
import { appendHonorFields, appendHttpFlags, appendScrapeBasics, validateIntervals, validatePortName } from './endpoint-options.ts';
import { kubernetesSdConfigs } from './kubernetes-sd.ts';
import { validateCopiedLabels } from './label-names.ts';
import { appendMonitorLimits, validateMonitorLimits } from './limits.ts';
import { copyKubernetesLabel, copyMetaLabel, jobNameMetaRelabeling, keepMatching, runningPodFilter, setLabel } from './meta-relabelings.ts';
import { namespaceEnforcementRelabelings } from './namespace-enforcement.ts';
import { renderRelabelConfigs, validateRelabelConfigs } from './relabeling.ts';
import { mergeTlsWithScrapeClass, resolveScrapeClass, type ScrapeClass } from './scrape-class.ts';
import type { MonitorRendering, ScrapeContext } from './scrape-context.ts';
import { labelSelectorString, selectorRelabelings, validateLabelSelector } from './selector-relabelings.ts';
import { shardingRelabelings } from './sharding.ts';

/**
 * Renders every podMetricsEndpoint of `pm` for the Prometheus described by `ctx`. Any problem
 * rejects the whole PodMonitor (and only it). Never throws for bad input.
 */
export function renderPodMonitor(pm: PodMonitor, ctx: ScrapeContext): MonitorRendering {
  const findings = new Findings();
  const hc: HttpClientContext = { namespace: pm.metadata.namespace, secrets: ctx.secrets, version: ctx.version, findings, tlsAssets: {} };
  const spec = pm.spec;
  const roleSelector = spec.selectorMechanism === 'RoleSelector';

  findings.problems.push(...validateLabelSelector(spec.selector ?? {}, 'spec.selector'));
  if (roleSelector && !isAtLeast(ctx.version, '2.17.0')) {
    findings.problem('spec.selectorMechanism', `RoleSelector needs Prometheus v2.17.0 or later (configured: ${ctx.version.text})`);
  }
  validateMonitorLimits(spec, hc);
  findings.problems.push(...validateCopiedLabels(spec.podTargetLabels, 'spec.podTargetLabels', ctx.version));
  // Resolved now (endpoints need it) but reported last, where prometheus-operator checks it.
  const classFindings = new Findings();
  const scrapeClass = resolveScrapeClass(spec.scrapeClass, ctx.prometheus, { ...hc, findings: classFindings });

  const scrapeConfigs = (spec.podMetricsEndpoints ?? []).map((ep, i) => renderEndpoint(pm, ep, i, roleSelector, scrapeClass, ctx, hc));
  findings.problems.push(...classFindings.problems);
  if (findings.problems.length > 0) return { ok: false, problems: findings.problems, warnings: findings.warnings };
  return { ok: true, scrapeConfigs, tlsAssets: hc.tlsAssets, warnings: findings.warnings };
}

function renderEndpoint(
  pm: PodMonitor,
  ep: PodMetricsEndpoint,
  index: number,
  roleSelector: boolean,
  scrapeClass: ScrapeClass | undefined,
  ctx: ScrapeContext,
  hc: HttpClientContext,
): Record<string, unknown> {
  const { namespace, name } = pm.metadata;
  const spec = pm.spec;
  const path = `spec.podMetricsEndpoints[${index}]`;
  const findings = hc.findings;
  const bearerTokenSecret = ep.bearerTokenSecret?.name ? ep.bearerTokenSecret : undefined;

  checkAuthExclusivity({ basicAuth: ep.basicAuth, oauth2: ep.oauth2, authorization: ep.authorization, bearerTokenSecret }, path, hc);
  if (ep.portNumber !== undefined && (!Number.isInteger(ep.portNumber) || ep.portNumber < 1 || ep.portNumber > 65535)) {
    findings.problem(`${path}.portNumber`, `${ep.portNumber} is not a valid port number (1-65535)`);
  }
  if (typeof ep.targetPort === 'number' && (!Number.isInteger(ep.targetPort) || ep.targetPort < 0 || ep.targetPort > 65535)) {
    findings.problem(`${path}.targetPort`, `${ep.targetPort} is not a valid port number`);
  }

  const cfg: Record<string, unknown> = { job_name: `podMonitor/${namespace}/${name}/${index}` };
  appendHonorFields(cfg, ep, path, ctx, hc);
  const attachMetadata = spec.attachMetadata ?? scrapeClass?.attachMetadata;
  const label = roleSelector ? labelSelectorString(spec.selector ?? {}) : '';
  cfg.kubernetes_sd_configs = kubernetesSdConfigs(
    {
      role: 'pod',
      namespaceSelector: spec.namespaceSelector,
      namespace,
      attachMetadata: attachMetadata ? { node: attachMetadata.node, minimumVersion: '2.35.0' } : undefined,
      selectors: label ? [{ role: 'pod', label }] : undefined,
    },
    ctx,
    hc,
  );
  appendScrapeBasics(cfg, ep, path, hc);
  appendHttpFlags(cfg, ep, path, hc);
  const tls = mergeTlsWithScrapeClass(ep.tlsConfig, scrapeClass, true);
  if (tls) {
    const rendered = renderTlsConfig(tls, `${path}.tlsConfig`, hc);
    if (rendered) cfg.tls_config = rendered;
  }
  if (bearerTokenSecret) cfg.bearer_token = readSecretKey(bearerTokenSecret, `${path}.bearerTokenSecret`, hc) ?? '';
  if (ep.basicAuth) cfg.basic_auth = renderBasicAuth(ep.basicAuth, `${path}.basicAuth`, hc);
  if (ep.oauth2) {
    const oauth2 = renderOAuth2(ep.oauth2, `${path}.oauth2`, hc);
    if (oauth2) cfg.oauth2 = oauth2;
  }
  appendProxy(cfg, ep, path, hc);
  const hasOtherAuth = ep.basicAuth || ep.oauth2 || bearerTokenSecret;
  const authorization = ep.authorization ?? (hasOtherAuth ? undefined : scrapeClass?.authorization);
  if (authorization) {
    const rendered = renderAuthorization(authorization, `${path}.authorization`, hc);
    if (rendered) cfg.authorization = rendered;
  }

  // Checked after the HTTP settings, in prometheus-operator's order, so the first reason matches its.
  validateIntervals(ep, path, ctx, hc);
  findings.problems.push(...validateRelabelConfigs(ep.relabelings, `${path}.relabelings`, ctx.version));
  findings.problems.push(...validateRelabelConfigs(ep.metricRelabelings, `${path}.metricRelabelings`, ctx.version));
  validatePortName(ep.port, `${path}.port`, hc);
  if (typeof ep.targetPort === 'string') validatePortName(ep.targetPort, `${path}.targetPort`, hc);

  cfg.relabel_configs = [
    jobNameMetaRelabeling(),
    ...(ep.filterRunning !== false ? [runningPodFilter()] : []),
    ...(roleSelector ? [] : selectorRelabelings(spec.selector ?? {}, 'pod')),
    ...portFilter(ep),
    copyMetaLabel('__meta_kubernetes_namespace', 'namespace'),
    copyMetaLabel('__meta_kubernetes_pod_container_name', 'container'),
    copyMetaLabel('__meta_kubernetes_pod_name', 'pod'),
    ...[...(spec.podTargetLabels ?? []), ...(ctx.prometheus.spec?.podTargetLabels ?? [])].map((l) => copyKubernetesLabel('pod', l)),
    setLabel('job', `${namespace}/${name}`),
    ...(spec.jobLabel ? [copyKubernetesLabel('pod', spec.jobLabel, 'job')] : []),
    ...endpointLabel(ep),
    ...renderRelabelConfigs(scrapeClass?.relabelings),
    ...renderRelabelConfigs(ep.relabelings),
    ...namespaceEnforcementRelabelings('PodMonitor', namespace, name, ctx),
    ...shardingRelabelings(ctx.shards, ctx.shard),
  ];

  appendMonitorLimits(cfg, spec, spec.fallbackScrapeProtocol ?? scrapeClass?.fallbackScrapeProtocol, ctx, hc);
  const metricRelabelings = [
    ...renderRelabelConfigs(scrapeClass?.metricRelabelings),
    ...renderRelabelConfigs(ep.metricRelabelings),
    ...namespaceEnforcementRelabelings('PodMonitor', namespace, name, ctx),
  ];
  if (metricRelabelings.length > 0) cfg.metric_relabel_configs = metricRelabelings;
  return cfg;
}

/** Keep only the endpoint's container port: by name (`port`), number (`portNumber`), or the deprecated targetPort. */
function portFilter(ep: PodMetricsEndpoint): Record<string, unknown>[] {
  if (ep.port) return [keepMatching('__meta_kubernetes_pod_container_port_name', ep.port)];
  if (ep.portNumber) return [keepMatching('__meta_kubernetes_pod_container_port_number', ep.portNumber)];
  if (typeof ep.targetPort === 'string' && ep.targetPort !== '') return [keepMatching('__meta_kubernetes_pod_container_port_name', ep.targetPort)];
  if (typeof ep.targetPort === 'number' && ep.targetPort !== 0) return [keepMatching('__meta_kubernetes_pod_container_port_number', ep.targetPort)];
  return [];
}

/** `endpoint` = the port name, or the deprecated targetPort as text (never portNumber, as upstream). */
function endpointLabel(ep: PodMetricsEndpoint): Record<string, unknown>[] {
  if (ep.port) return [setLabel('endpoint', ep.port)];
  if (ep.targetPort !== undefined && String(ep.targetPort) !== '') return [setLabel('endpoint', String(ep.targetPort))];
  return [];
}
