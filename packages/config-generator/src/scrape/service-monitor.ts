/**
 * ServiceMonitor → one scrape config per endpoint, as prometheus-operator v0.93 renders it
 * (compat reference §2.1–2.3): same job names, SD config, relabeling sequence and key order.
 */
import type { Endpoint, ServiceMonitor } from '@promop/crds';
import {
  appendProxy,
  checkAuthExclusivity,
  Findings,
  readSecretKey,
  renderAuthorization,
  renderBasicAuth,
  renderOAuth2,
  renderTlsConfig,
  tlsFilePaths,
  type HttpClientContext,
  type TlsConfigSpec,
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

const FS_DENIED = 'reading files of the Prometheus container is forbidden by this Prometheus (arbitraryFSAccessThroughSMs.deny)';

/**
 * Renders every endpoint of `sm` for the Prometheus described by `ctx`. Any problem in any
 * endpoint rejects the whole ServiceMonitor (and only it): `ok: false` with every problem found.
 * Never throws for bad input.
 */
export function renderServiceMonitor(sm: ServiceMonitor, ctx: ScrapeContext): MonitorRendering {
  const findings = new Findings();
  const hc: HttpClientContext = { namespace: sm.metadata.namespace, secrets: ctx.secrets, version: ctx.version, findings, tlsAssets: {} };
  const spec = sm.spec;
  const roleSelector = spec.selectorMechanism === 'RoleSelector';

  findings.problems.push(...validateLabelSelector(spec.selector ?? {}, 'spec.selector'));
  if (roleSelector && !isAtLeast(ctx.version, '2.17.0')) {
    findings.problem('spec.selectorMechanism', `RoleSelector needs Prometheus v2.17.0 or later (configured: ${ctx.version.text})`);
  }
  validateMonitorLimits(spec, hc);
  findings.problems.push(...validateCopiedLabels(spec.targetLabels, 'spec.targetLabels', ctx.version));
  findings.problems.push(...validateCopiedLabels(spec.podTargetLabels, 'spec.podTargetLabels', ctx.version));
  // Resolved now (endpoints need it) but reported last, where prometheus-operator checks it.
  const classFindings = new Findings();
  const scrapeClass = resolveScrapeClass(spec.scrapeClass, ctx.prometheus, { ...hc, findings: classFindings });

  // EndpointSlice discovery needs Prometheus 2.21; older versions keep using Endpoints.
  const wanted = spec.serviceDiscoveryRole ? (spec.serviceDiscoveryRole === 'EndpointSlice' ? 'endpointslice' : 'endpoints') : ctx.serviceDiscoveryRole;
  const role = wanted === 'endpointslice' && isAtLeast(ctx.version, '2.21.0') ? 'endpointslice' : 'endpoints';

  const scrapeConfigs = (spec.endpoints ?? []).map((ep, i) => renderEndpoint(sm, ep, i, role, roleSelector, scrapeClass, ctx, hc));
  findings.problems.push(...classFindings.problems);
  if (findings.problems.length > 0) return { ok: false, problems: findings.problems, warnings: findings.warnings };
  return { ok: true, scrapeConfigs, tlsAssets: hc.tlsAssets, warnings: findings.warnings };
}

function renderEndpoint(
  sm: ServiceMonitor,
  ep: Endpoint,
  index: number,
  role: 'endpoints' | 'endpointslice',
  roleSelector: boolean,
  scrapeClass: ScrapeClass | undefined,
  ctx: ScrapeContext,
  hc: HttpClientContext,
): Record<string, unknown> {
  const { namespace, name } = sm.metadata;
  const spec = sm.spec;
  const path = `spec.endpoints[${index}]`;
  const findings = hc.findings;
  const bearerTokenSecret = ep.bearerTokenSecret?.name ? ep.bearerTokenSecret : undefined;

  if (ctx.denyFileSystemAccess) {
    if (ep.bearerTokenFile) findings.problem(`${path}.bearerTokenFile`, FS_DENIED);
    for (const file of tlsFilePaths(ep.tlsConfig ?? {})) findings.problem(`${path}.tlsConfig.${file.field}`, FS_DENIED);
  }
  checkAuthExclusivity(
    { basicAuth: ep.basicAuth, oauth2: ep.oauth2, authorization: ep.authorization, bearerTokenSecret, bearerTokenFile: ep.bearerTokenFile || undefined },
    path,
    hc,
  );
  if (typeof ep.targetPort === 'number' && (!Number.isInteger(ep.targetPort) || ep.targetPort < 0 || ep.targetPort > 65535)) {
    findings.problem(`${path}.targetPort`, `${ep.targetPort} is not a valid port number`);
  }

  const cfg: Record<string, unknown> = { job_name: `serviceMonitor/${namespace}/${name}/${index}` };
  appendHonorFields(cfg, ep, path, ctx, hc);
  const attachMetadata = spec.attachMetadata ?? scrapeClass?.attachMetadata;
  cfg.kubernetes_sd_configs = kubernetesSdConfigs(
    {
      role,
      namespaceSelector: spec.namespaceSelector,
      namespace,
      attachMetadata: attachMetadata ? { node: attachMetadata.node, minimumVersion: '2.37.0' } : undefined,
      selectors: roleSelector ? roleSelectors(spec.selector ?? {}, role) : undefined,
    },
    ctx,
    hc,
  );
  appendScrapeBasics(cfg, ep, path, hc);
  appendHttpFlags(cfg, ep, path, hc);
  appendProxy(cfg, ep, path, hc);
  if (ep.oauth2) {
    const oauth2 = renderOAuth2(ep.oauth2, `${path}.oauth2`, hc);
    if (oauth2) cfg.oauth2 = oauth2;
  }
  const tls = mergeTlsWithScrapeClass(ep.tlsConfig, scrapeClass, false);
  if (tls) {
    const rendered = renderTlsConfig(tls, `${path}.tlsConfig`, hc);
    if (rendered) cfg.tls_config = rendered;
  }
  if (ep.bearerTokenFile) cfg.bearer_token_file = ep.bearerTokenFile;
  if (bearerTokenSecret) cfg.bearer_token = readSecretKey(bearerTokenSecret, `${path}.bearerTokenSecret`, hc) ?? '';
  if (ep.basicAuth) cfg.basic_auth = renderBasicAuth(ep.basicAuth, `${path}.basicAuth`, hc);
  const hasOtherAuth = ep.basicAuth || ep.oauth2 || bearerTokenSecret || ep.bearerTokenFile;
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
    ...(roleSelector ? [] : selectorRelabelings(spec.selector ?? {}, 'service')),
    ...portFilter(ep, role),
    ...targetMetaRelabelings(role, ep.filterRunning !== false),
    ...(spec.targetLabels ?? []).map((label) => copyKubernetesLabel('service', label)),
    ...[...(spec.podTargetLabels ?? []), ...(ctx.prometheus.spec?.podTargetLabels ?? [])].map((label) => copyKubernetesLabel('pod', label)),
    { source_labels: ['__meta_kubernetes_service_name'], target_label: 'job', replacement: '${1}' },
    ...(spec.jobLabel ? [copyKubernetesLabel('service', spec.jobLabel, 'job')] : []),
    ...endpointLabel(ep),
    ...renderRelabelConfigs(scrapeClass?.relabelings),
    ...renderRelabelConfigs(ep.relabelings),
    ...namespaceEnforcementRelabelings('ServiceMonitor', namespace, name, ctx),
    ...shardingRelabelings(ctx.shards, ctx.shard),
  ];

  appendMonitorLimits(cfg, spec, spec.fallbackScrapeProtocol ?? scrapeClass?.fallbackScrapeProtocol, ctx, hc);
  const metricRelabelings = [
    ...renderRelabelConfigs(scrapeClass?.metricRelabelings),
    ...renderRelabelConfigs(ep.metricRelabelings),
    ...namespaceEnforcementRelabelings('ServiceMonitor', namespace, name, ctx),
  ];
  if (metricRelabelings.length > 0) cfg.metric_relabel_configs = metricRelabelings;
  return cfg;
}

/** RoleSelector mechanism: the selector goes to the API server for the endpoints and the services. */
function roleSelectors(selector: NonNullable<ServiceMonitor['spec']['selector']>, role: string): Array<{ role: string; label: string }> | undefined {
  const label = labelSelectorString(selector);
  if (label === '') return undefined;
  return [
    { role, label },
    { role: 'service', label },
  ];
}

/** Keep only the endpoint's port: by Service port name, else by container port name or number. */
function portFilter(ep: Endpoint, role: 'endpoints' | 'endpointslice'): Record<string, unknown>[] {
  if (ep.port) return [keepMatching(`__meta_kubernetes_${role === 'endpointslice' ? 'endpointslice' : 'endpoint'}_port_name`, ep.port)];
  if (typeof ep.targetPort === 'string' && ep.targetPort !== '') return [keepMatching('__meta_kubernetes_pod_container_port_name', ep.targetPort)];
  if (typeof ep.targetPort === 'number' && ep.targetPort !== 0) return [keepMatching('__meta_kubernetes_pod_container_port_number', ep.targetPort)];
  return [];
}

/** node/pod from the address target, then namespace, service, pod, container, then the phase filter. */
function targetMetaRelabelings(role: 'endpoints' | 'endpointslice', filterRunning: boolean): Record<string, unknown>[] {
  const prefix = role === 'endpointslice' ? '__meta_kubernetes_endpointslice' : '__meta_kubernetes_endpoint';
  const addressTarget = [`${prefix}_address_target_kind`, `${prefix}_address_target_name`];
  return [
    { source_labels: addressTarget, separator: ';', regex: 'Node;(.*)', replacement: '${1}', target_label: 'node' },
    { source_labels: addressTarget, separator: ';', regex: 'Pod;(.*)', replacement: '${1}', target_label: 'pod' },
    copyMetaLabel('__meta_kubernetes_namespace', 'namespace'),
    copyMetaLabel('__meta_kubernetes_service_name', 'service'),
    copyMetaLabel('__meta_kubernetes_pod_name', 'pod'),
    copyMetaLabel('__meta_kubernetes_pod_container_name', 'container'),
    ...(filterRunning ? [runningPodFilter()] : []),
  ];
}

/** `endpoint` = the port name, or the targetPort as text. */
function endpointLabel(ep: Endpoint): Record<string, unknown>[] {
  if (ep.port) return [setLabel('endpoint', ep.port)];
  if (ep.targetPort !== undefined && String(ep.targetPort) !== '') return [setLabel('endpoint', String(ep.targetPort))];
  return [];
}
