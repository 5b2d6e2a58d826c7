/**
 * The steps ServiceMonitor and PodMonitor rendering share: monitor-level checks, the HTTP
 * settings that only differ in their position, the relabelings every job ends with, and the
 * limits/metric relabelings that close a scrape config. The two renderers keep what differs
 * (discovery role, meta labels, key order of the HTTP block).
 */
import type { Authorization, OAuth2, PodMonitor, SecretKeySelector, ServiceMonitor, TLSConfig } from '@promop/crds';
import {
  Findings,
  readSecretKey,
  renderAuthorization,
  renderBasicAuth,
  renderOAuth2,
  renderTlsConfig,
  type HttpClientContext,
} from '../http-client/index.ts';
import { isAtLeast } from '../prometheus-version.ts';
import { validateIntervals, validatePortName, type AnyEndpoint } from './endpoint-options.ts';
import { validateCopiedLabels } from '../values/label-names.ts';
import { copyKubernetesLabel, setLabel } from './meta-relabelings.ts';
import { appendMonitorLimits, validateMonitorLimits, type LimitFields } from './limits.ts';
import { namespaceEnforcementRelabelings } from './namespace-enforcement.ts';
import { renderRelabelConfigs, validateRelabelConfigs } from '../values/relabeling.ts';
import { mergeTlsWithScrapeClass, resolveScrapeClass, type ScrapeClass } from './scrape-class.ts';
import type { MonitorKind, MonitorRendering, ScrapeContext } from './scrape-context.ts';
import { validateLabelSelector } from '../selection/label-selector.ts';
import type { KubernetesSdOptions } from './kubernetes-sd.ts';
import { shardingRelabelings } from './sharding.ts';

/** What the steps read of a monitor's spec: limits, and (monitors only) attachMetadata and podTargetLabels. */
export type FrameSpec = LimitFields & Partial<Pick<ServiceMonitor['spec'], 'attachMetadata' | 'podTargetLabels'>>;

/** What the rendering of one monitor carries from step to step. */
export interface MonitorFrame {
  kind: MonitorKind;
  namespace: string;
  name: string;
  spec: FrameSpec;
  ctx: ScrapeContext;
  /** HTTP client context in the monitor's namespace; its findings collect everything. */
  hc: HttpClientContext;
  scrapeClass: ScrapeClass | undefined;
  /** selectorMechanism RoleSelector: the selector goes to Kubernetes SD instead of relabelings. */
  roleSelector: boolean;
  /** Problems of the scrape class reference, reported last (where prometheus-operator checks it). */
  classFindings: Findings;
  /** The enforced namespace label rule (or none), which ends both relabel lists of every endpoint. */
  namespaceEnforcement: Record<string, unknown>[];
}

/** Monitor-level checks (selector, selector mechanism, limits, copied labels) and scrape class lookup. */
export function beginMonitor(kind: MonitorKind, monitor: ServiceMonitor | PodMonitor, ctx: ScrapeContext): MonitorFrame {
  const findings = new Findings();
  const hc: HttpClientContext = { namespace: monitor.metadata.namespace, secrets: ctx.secrets, version: ctx.version, findings, tlsAssets: {} };
  const spec = monitor.spec;
  const roleSelector = spec.selectorMechanism === 'RoleSelector';
  findings.problems.push(...validateLabelSelector(spec.selector ?? {}, 'spec.selector'));
  if (roleSelector && !isAtLeast(ctx.version, '2.17.0')) {
    findings.problem('spec.selectorMechanism', `RoleSelector needs Prometheus v2.17.0 or later (configured: ${ctx.version.text})`);
  }
  validateMonitorLimits(spec, hc);
  if ('targetLabels' in spec) findings.problems.push(...validateCopiedLabels(spec.targetLabels, 'spec.targetLabels', ctx));
  findings.problems.push(...validateCopiedLabels(spec.podTargetLabels, 'spec.podTargetLabels', ctx));
  // Resolved now (endpoints need it) but reported last.
  const classFindings = new Findings();
  const scrapeClass = resolveScrapeClass(spec.scrapeClass, ctx.prometheus, { ...hc, findings: classFindings });
  const { namespace, name } = monitor.metadata;
  const namespaceEnforcement = namespaceEnforcementRelabelings(kind, namespace, name, ctx);
  return { kind, namespace, name, spec, ctx, hc, scrapeClass, roleSelector, classFindings, namespaceEnforcement };
}

/** The rendering result: the scrape configs, or every problem found. */
export function finishMonitor(frame: MonitorFrame, scrapeConfigs: Record<string, unknown>[]): MonitorRendering {
  const { findings, tlsAssets } = frame.hc;
  findings.problems.push(...frame.classFindings.problems);
  if (findings.problems.length > 0) return { ok: false, problems: findings.problems, warnings: findings.warnings };
  return { ok: true, scrapeConfigs, tlsAssets, warnings: findings.warnings };
}

/** The endpoint's bearerTokenSecret, when it names a Secret (an empty reference counts as unset, as upstream). */
export function bearerTokenSecretOf(ep: AnyEndpoint): SecretKeySelector | undefined {
  return ep.bearerTokenSecret?.name ? ep.bearerTokenSecret : undefined;
}

/** `bearer_token` (inlined from bearerTokenSecret) then `basic_auth`, which both kinds render next to each other. */
export function appendBearerTokenAndBasicAuth(cfg: Record<string, unknown>, ep: AnyEndpoint, path: string, hc: HttpClientContext): void {
  const bearerTokenSecret = bearerTokenSecretOf(ep);
  if (bearerTokenSecret) cfg.bearer_token = readSecretKey(bearerTokenSecret, `${path}.bearerTokenSecret`, hc) ?? '';
  if (ep.basicAuth) cfg.basic_auth = renderBasicAuth(ep.basicAuth, `${path}.basicAuth`, hc);
}

/**
 * attachMetadata of the monitor, else of its scrape class, with the version that introduced it for this kind. Topology
 * sharding that reads zones from node labels turns node metadata on, as prometheus-operator does.
 */
export function attachMetadataOf(frame: MonitorFrame, minimumVersion: string): KubernetesSdOptions['attachMetadata'] {
  const attachMetadata = frame.spec.attachMetadata ?? frame.scrapeClass?.attachMetadata;
  const topology = frame.ctx.topology;
  if (topology && !topology.podZoneLabels && attachMetadata?.node !== true) return { node: true, minimumVersion };
  return attachMetadata ? { node: attachMetadata.node, minimumVersion } : undefined;
}

/** Copies the monitor's podTargetLabels, then the Prometheus' own, from the pod's labels. */
export function podTargetLabelRelabelings(frame: MonitorFrame): Record<string, unknown>[] {
  const labels = [...(frame.spec.podTargetLabels ?? []), ...(frame.ctx.prometheus.spec?.podTargetLabels ?? [])];
  return labels.map((label) => copyKubernetesLabel('pod', label));
}

/** `endpoint` = the port name, or the (deprecated for PodMonitor) targetPort as text; never a PodMonitor's portNumber, as upstream. */
export function endpointLabel(ep: AnyEndpoint): Record<string, unknown>[] {
  if (ep.port) return [setLabel('endpoint', ep.port)];
  if (ep.targetPort !== undefined && String(ep.targetPort) !== '') return [setLabel('endpoint', String(ep.targetPort))];
  return [];
}

/** `oauth2`, when set and valid. */
export function appendOAuth2(cfg: Record<string, unknown>, oauth2: OAuth2 | undefined, path: string, hc: HttpClientContext): void {
  if (!oauth2) return;
  const rendered = renderOAuth2(oauth2, `${path}.oauth2`, hc);
  if (rendered) cfg.oauth2 = rendered;
}

/**
 * Where a scrape class' own Secret references are read: the class belongs to the Prometheus, so
 * its credentials and TLS material live in the Prometheus' namespace, not in the monitor's (a
 * monitor in another namespace would otherwise be rejected, or pick up a same-named Secret of
 * its own team). Problems and TLS files still go to the monitor's rendering.
 */
function scrapeClassContext(frame: MonitorFrame): HttpClientContext {
  return { ...frame.hc, namespace: frame.ctx.prometheus.metadata.namespace };
}

/**
 * `tls_config`: the endpoint's own, completed with the scrape class' file paths, or the class'
 * whole TLS config when the endpoint has none (`safe`: PodMonitor's SafeTLSConfig, where an empty
 * `tlsConfig: {}` counts as none).
 */
export function appendEndpointTls(cfg: Record<string, unknown>, tls: TLSConfig | undefined, safe: boolean, path: string, frame: MonitorFrame): void {
  const merged = mergeTlsWithScrapeClass(tls, frame.scrapeClass, safe);
  if (!merged) return;
  const fromClass = merged === frame.scrapeClass?.tlsConfig;
  const rendered = renderTlsConfig(merged, `${path}.tlsConfig`, fromClass ? scrapeClassContext(frame) : frame.hc);
  if (rendered) cfg.tls_config = rendered;
}

/**
 * `authorization`: the endpoint's, else the scrape class' when the endpoint uses no other
 * authentication method (a class must not add a second method Prometheus would refuse).
 *
 * As prometheus-operator: a ServiceMonitor or PodMonitor endpoint's authorization must name its
 * credentials (it rejects the monitor otherwise); a Probe's or ScrapeConfig's empty `authorization: {}`
 * counts as none, and one with a type but no credentials takes the scrape class' credentials.
 */
export function appendAuthorization(cfg: Record<string, unknown>, ownSpec: Authorization | undefined, hasOtherAuth: boolean, path: string, frame: MonitorFrame): void {
  const own = ownSpec && !isEmptyAuthorization(ownSpec) ? ownSpec : undefined;
  if (ownSpec && !ownSpec.credentials && (frame.kind === 'ServiceMonitor' || frame.kind === 'PodMonitor')) {
    frame.hc.findings.problem(`${path}.authorization.credentials`, 'authorization needs credentials (a Secret key holding the token)');
    return;
  }
  const classAuthorization = hasOtherAuth ? undefined : frame.scrapeClass?.authorization;
  const fromClass = own === undefined ? classAuthorization : undefined;
  const authorization = own ?? fromClass;
  if (!authorization) return;
  const rendered = renderAuthorization(authorization, `${path}.authorization`, fromClass ? scrapeClassContext(frame) : frame.hc);
  if (!rendered) return;
  if (own && !own.credentials && !own.credentialsFile && classAuthorization?.credentials) {
    const credentials = readSecretKey(classAuthorization.credentials, `${path}.authorization.credentials`, scrapeClassContext(frame));
    if (credentials !== undefined) rendered.credentials = credentials;
  }
  cfg.authorization = rendered;
}

/** `authorization: {}` (or only empty strings): prometheus-operator treats it as absent. */
function isEmptyAuthorization(auth: Authorization): boolean {
  return !auth.type && !auth.credentials && !auth.credentialsFile;
}

/**
 * Endpoint checks made after the HTTP settings, in prometheus-operator's order, so the first
 * reason matches its: interval/timeout, relabelings, port names used as regexes.
 */
export function validateEndpointRules(ep: AnyEndpoint, path: string, frame: MonitorFrame): void {
  const { ctx, hc } = frame;
  validateIntervals(ep, path, ctx, hc);
  hc.findings.problems.push(...validateRelabelConfigs(ep.relabelings, `${path}.relabelings`, ctx));
  hc.findings.problems.push(...validateRelabelConfigs(ep.metricRelabelings, `${path}.metricRelabelings`, ctx));
  validatePortName(ep.port, `${path}.port`, hc);
  if (typeof ep.targetPort === 'string') validatePortName(ep.targetPort, `${path}.targetPort`, hc);
}

/** What every job's relabel_configs ends with: scrape class rules, the user's, the enforced namespace label, sharding. */
export function closingRelabelings(ep: AnyEndpoint, frame: MonitorFrame): Record<string, unknown>[] {
  const { ctx } = frame;
  return [
    ...renderRelabelConfigs(frame.scrapeClass?.relabelings),
    ...renderRelabelConfigs(ep.relabelings),
    ...frame.namespaceEnforcement,
    // A DaemonSet agent's pod scrapes its node's pods, all of them: no shard split.
    ...(ctx.nodeLocal ? [] : shardingRelabelings(ctx.shards, ctx.shard, '__address__', ctx.topology)),
  ];
}

/** Limits, protocols and `metric_relabel_configs` (class rules, the user's, the enforced label), closing a scrape config. */
export function appendClosingFields(cfg: Record<string, unknown>, ep: AnyEndpoint, frame: MonitorFrame): void {
  const { spec, scrapeClass, ctx, hc } = frame;
  appendMonitorLimits(cfg, spec, spec.fallbackScrapeProtocol ?? scrapeClass?.fallbackScrapeProtocol, ctx, hc);
  const metricRelabelings = [
    ...renderRelabelConfigs(scrapeClass?.metricRelabelings),
    ...renderRelabelConfigs(ep.metricRelabelings),
    ...frame.namespaceEnforcement,
  ];
  if (metricRelabelings.length > 0) cfg.metric_relabel_configs = metricRelabelings;
}
