/**
 * PodMonitor → one scrape config per podMetricsEndpoint, as prometheus-operator v0.93 renders it
 * (compat reference §2.5): role pod, the pod-phase filter first, no Service labels, and only
 * "safe" HTTP settings (no files of the Prometheus container).
 */
import type { PodMetricsEndpoint, PodMonitor } from '@promop/crds';
import { appendProxy, checkAuthExclusivity } from '../http-client/index.ts';
import { appendHonorFields, appendHttpFlags, appendScrapeBasics } from './endpoint-options.ts';
import { clientFileProblems } from './file-access.ts';
import { NODE_NAME_PLACEHOLDER } from '../pod-layout.ts';
import { kubernetesSdConfigs } from './kubernetes-sd.ts';
import { copyKubernetesLabel, copyMetaLabel, jobNameMetaRelabeling, keepMatching, keepTargetPort, runningPodFilter, setLabel } from './meta-relabelings.ts';
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

/**
 * Renders every podMetricsEndpoint of `pm` for the Prometheus described by `ctx`. Any problem
 * rejects the whole PodMonitor (and only it). Never throws for bad input.
 */
export function renderPodMonitor(pm: PodMonitor, ctx: ScrapeContext): MonitorRendering {
  const frame = beginMonitor('PodMonitor', pm, ctx);
  const scrapeConfigs = (pm.spec.podMetricsEndpoints ?? []).map((ep, i) => renderEndpoint(pm, ep, i, frame));
  return finishMonitor(frame, scrapeConfigs);
}

function renderEndpoint(pm: PodMonitor, ep: PodMetricsEndpoint, index: number, frame: MonitorFrame): Record<string, unknown> {
  const { namespace, name, ctx, hc, roleSelector } = frame;
  const spec = pm.spec;
  const path = `spec.podMetricsEndpoints[${index}]`;
  const bearerTokenSecret = bearerTokenSecretOf(ep);

  if (ctx.denyFileSystemAccess) hc.findings.problems.push(...clientFileProblems(ep, path));
  checkAuthExclusivity({ basicAuth: ep.basicAuth, oauth2: ep.oauth2, authorization: ep.authorization, bearerTokenSecret }, path, hc);
  if (ep.portNumber !== undefined && (!Number.isInteger(ep.portNumber) || ep.portNumber < 1 || ep.portNumber > 65535)) {
    hc.findings.problem(`${path}.portNumber`, `${ep.portNumber} is not a valid port number (1-65535)`);
  }

  const cfg: Record<string, unknown> = { job_name: `podMonitor/${namespace}/${name}/${index}` };
  appendHonorFields(cfg, ep, path, ctx, hc);
  // With RoleSelector the selector goes to the API server, even an empty one (label "", as upstream writes it).
  const label = roleSelector ? labelSelectorString(spec.selector ?? {}) : undefined;
  cfg.kubernetes_sd_configs = kubernetesSdConfigs(
    {
      role: 'pod',
      namespaceSelector: spec.namespaceSelector,
      namespace,
      attachMetadata: attachMetadataOf(frame, '2.35.0'),
      selectors: podSelectors(label, ctx.nodeLocal === true),
    },
    ctx,
    hc,
  );
  appendScrapeBasics(cfg, ep, path, hc);
  appendHttpFlags(cfg, ep, path, hc);
  appendEndpointTls(cfg, ep.tlsConfig, true, path, frame);
  appendBearerTokenAndBasicAuth(cfg, ep, path, hc);
  appendOAuth2(cfg, ep.oauth2, path, hc);
  appendProxy(cfg, ep, path, hc);
  appendAuthorization(cfg, ep.authorization, !!(ep.basicAuth || ep.oauth2 || bearerTokenSecret), path, frame);
  validateEndpointRules(ep, path, frame);

  cfg.relabel_configs = [
    jobNameMetaRelabeling(),
    ...(ep.filterRunning !== false ? [runningPodFilter()] : []),
    ...(roleSelector ? [] : selectorRelabelings(spec.selector ?? {}, 'pod')),
    ...portFilter(ep),
    copyMetaLabel('__meta_kubernetes_namespace', 'namespace'),
    copyMetaLabel('__meta_kubernetes_pod_container_name', 'container'),
    copyMetaLabel('__meta_kubernetes_pod_name', 'pod'),
    ...podTargetLabelRelabelings(frame),
    setLabel('job', `${namespace}/${name}`),
    ...(spec.jobLabel ? [copyKubernetesLabel('pod', spec.jobLabel, 'job')] : []),
    ...endpointLabel(ep),
    ...closingRelabelings(ep, frame),
  ];
  appendClosingFields(cfg, ep, frame);
  return cfg;
}

/**
 * The pod selectors sent to the API server: the monitor's label selector (RoleSelector mechanism) and, for a
 * DaemonSet agent, the field selector on the pod's node. Prometheus takes one selector per role, so both go in
 * one entry (prometheus-operator appends a second `selectors` key, which Prometheus refuses: a difference promop
 * does not copy, docs/compatibility.md).
 */
function podSelectors(label: string | undefined, nodeLocal: boolean): Array<{ role: string; label?: string; field?: string }> | undefined {
  if (!nodeLocal) return label !== undefined ? [{ role: 'pod', label }] : undefined;
  return [{ role: 'pod', ...(label !== undefined ? { label } : {}), field: `spec.nodeName=${NODE_NAME_PLACEHOLDER}` }];
}

/** Keep only the endpoint's container port: by name (`port`), number (`portNumber`), or the deprecated targetPort. */
function portFilter(ep: PodMetricsEndpoint): Record<string, unknown>[] {
  if (ep.port) return [keepMatching('__meta_kubernetes_pod_container_port_name', ep.port)];
  if (ep.portNumber) return [keepMatching('__meta_kubernetes_pod_container_port_number', ep.portNumber)];
  return keepTargetPort(ep.targetPort);
}

