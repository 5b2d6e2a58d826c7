/**
 * ServiceMonitor → one scrape config per endpoint, as prometheus-operator v0.93 renders it
 * (compat reference §2.1–2.3): same job names, SD config, relabeling sequence and key order.
 */
import type { Endpoint, ServiceMonitor } from '@promop/crds';
import { appendProxy, checkAuthExclusivity } from '../http-client/index.ts';
import { isAtLeast } from '../prometheus-version.ts';
import { appendHonorFields, appendHttpFlags, appendScrapeBasics } from './endpoint-options.ts';
import { clientFileProblems } from './file-access.ts';
import { kubernetesSdConfigs } from './kubernetes-sd.ts';
import { copyKubernetesLabel, copyMetaLabel, jobNameMetaRelabeling, keepMatching, keepTargetPort, runningPodFilter } from './meta-relabelings.ts';
import {
  appendAuthorization,
  appendBearerTokenAndBasicAuth,
  appendClosingFields,
  appendOAuth2,
  appendEndpointTls,
  attachMetadataOf,
  bearerTokenSecretOf,
  beginMonitor,
  closingRelabelings,
  endpointLabel,
  finishMonitor,
  podTargetLabelRelabelings,
  validateEndpointRules,
  type MonitorFrame,
} from './monitor-steps.ts';
import type { MonitorRendering, ScrapeContext } from './scrape-context.ts';
import { labelSelectorString, selectorRelabelings } from './selector-relabelings.ts';
import { sharedRule } from './shared-rules.ts';

type Role = 'endpoints' | 'endpointslice';

/**
 * Renders every endpoint of `sm` for the Prometheus described by `ctx`. Any problem in any
 * endpoint rejects the whole ServiceMonitor (and only it): `ok: false` with every problem found.
 * Never throws for bad input.
 */
export function renderServiceMonitor(sm: ServiceMonitor, ctx: ScrapeContext): MonitorRendering {
  const frame = beginMonitor('ServiceMonitor', sm, ctx);
  // EndpointSlice discovery needs Prometheus 2.21; older versions keep using Endpoints.
  const own = sm.spec.serviceDiscoveryRole;
  const wanted = own ? (own === 'EndpointSlice' ? 'endpointslice' : 'endpoints') : ctx.serviceDiscoveryRole;
  const role: Role = wanted === 'endpointslice' && isAtLeast(ctx.version, '2.21.0') ? 'endpointslice' : 'endpoints';
  const scrapeConfigs = (sm.spec.endpoints ?? []).map((ep, i) => renderEndpoint(sm, ep, i, role, frame));
  return finishMonitor(frame, scrapeConfigs);
}

function renderEndpoint(sm: ServiceMonitor, ep: Endpoint, index: number, role: Role, frame: MonitorFrame): Record<string, unknown> {
  const { namespace, name, ctx, hc, roleSelector } = frame;
  const spec = sm.spec;
  const path = `spec.endpoints[${index}]`;
  const bearerTokenSecret = bearerTokenSecretOf(ep);

  if (ctx.denyFileSystemAccess) hc.findings.problems.push(...clientFileProblems(ep, path));
  checkAuthExclusivity(
    { basicAuth: ep.basicAuth, oauth2: ep.oauth2, authorization: ep.authorization, bearerTokenSecret, bearerTokenFile: ep.bearerTokenFile || undefined },
    path,
    hc,
  );

  const cfg: Record<string, unknown> = { job_name: `serviceMonitor/${namespace}/${name}/${index}` };
  appendHonorFields(cfg, ep, path, ctx, hc);
  cfg.kubernetes_sd_configs = kubernetesSdConfigs(
    {
      role,
      namespaceSelector: spec.namespaceSelector,
      namespace,
      attachMetadata: attachMetadataOf(frame, '2.37.0'),
      selectors: roleSelector ? roleSelectors(spec.selector ?? {}, role) : undefined,
    },
    ctx,
    hc,
  );
  appendScrapeBasics(cfg, ep, path, hc);
  appendHttpFlags(cfg, ep, path, hc);
  appendProxy(cfg, ep, path, hc);
  appendOAuth2(cfg, ep.oauth2, path, hc);
  appendEndpointTls(cfg, ep.tlsConfig, false, path, frame);
  if (ep.bearerTokenFile) cfg.bearer_token_file = ep.bearerTokenFile;
  appendBearerTokenAndBasicAuth(cfg, ep, path, hc);
  appendAuthorization(cfg, ep.authorization, !!(ep.basicAuth || ep.oauth2 || bearerTokenSecret || ep.bearerTokenFile), path, frame);
  validateEndpointRules(ep, path, frame);

  cfg.relabel_configs = [
    jobNameMetaRelabeling(),
    ...(roleSelector ? [] : selectorRelabelings(spec.selector ?? {}, 'service')),
    ...portFilter(ep, role),
    ...targetMetaRelabelings(role, ep.filterRunning !== false),
    ...(spec.targetLabels ?? []).map((label) => copyKubernetesLabel('service', label)),
    ...podTargetLabelRelabelings(frame),
    sharedRule('service-job', () => ({ source_labels: ['__meta_kubernetes_service_name'], target_label: 'job', replacement: '${1}' })),
    ...(spec.jobLabel ? [copyKubernetesLabel('service', spec.jobLabel, 'job')] : []),
    ...endpointLabel(ep),
    ...closingRelabelings(ep, frame),
  ];
  appendClosingFields(cfg, ep, frame);
  return cfg;
}

/** RoleSelector mechanism: the selector goes to the API server for the endpoints and the services. */
function roleSelectors(selector: NonNullable<ServiceMonitor['spec']['selector']>, role: Role): Array<{ role: string; label: string }> {
  // An empty selector is written too (label ""), as prometheus-operator does: it selects everything.
  const label = labelSelectorString(selector);
  return [
    { role, label },
    { role: 'service', label },
  ];
}

/** Keep only the endpoint's port: by Service port name, else by container port name or number. */
function portFilter(ep: Endpoint, role: Role): Record<string, unknown>[] {
  if (ep.port) return [keepMatching(`__meta_kubernetes_${role === 'endpointslice' ? 'endpointslice' : 'endpoint'}_port_name`, ep.port)];
  return keepTargetPort(ep.targetPort);
}

/** node/pod from the address target, then namespace, service, pod, container, then the phase filter. */
function targetMetaRelabelings(role: Role, filterRunning: boolean): Record<string, unknown>[] {
  const prefix = role === 'endpointslice' ? '__meta_kubernetes_endpointslice' : '__meta_kubernetes_endpoint';
  const addressTarget = [`${prefix}_address_target_kind`, `${prefix}_address_target_name`];
  return [
    sharedRule(`address-node\u0000${prefix}`, () => ({ source_labels: addressTarget, separator: ';', regex: 'Node;(.*)', replacement: '${1}', target_label: 'node' })),
    sharedRule(`address-pod\u0000${prefix}`, () => ({ source_labels: addressTarget, separator: ';', regex: 'Pod;(.*)', replacement: '${1}', target_label: 'pod' })),
    copyMetaLabel('__meta_kubernetes_namespace', 'namespace'),
    copyMetaLabel('__meta_kubernetes_service_name', 'service'),
    copyMetaLabel('__meta_kubernetes_pod_name', 'pod'),
    copyMetaLabel('__meta_kubernetes_pod_container_name', 'container'),
    ...(filterRunning ? [runningPodFilter()] : []),
  ];
}

