/**
 * ScrapeConfig (monitoring.coreos.com/v1alpha1) → one scrape config `scrapeConfig/<namespace>/<name>`, in
 * prometheus-operator v0.93's key order: honor flags, path, params, compression, HTTP/2, interval, timeout,
 * protocols, scheme, proxy, auth and TLS (completed by the scrape class), limits, then the discovery lists
 * (service-discovery.ts), relabel_configs (the scrape class', the job label, the user's) and metric_relabel_configs.
 *
 * Deliberate differences: the enforced namespace label ends relabel_configs even when the ScrapeConfig has no
 * relabelings of its own (upstream adds it only after user relabelings), so a tenant's series always carry its
 * namespace; several shards split targets by `__address__` as for monitors (unless the user hashes himself).
 */
import type { ScrapeConfig } from '@promop/crds';
import { sortedByKey } from '../go-map-order.ts';
import { appendProxy, checkAuthExclusivity, Findings, renderBasicAuth, supports, type HttpClientContext } from '../http-client/index.ts';
import { escapingSchemeName } from '../values/name-escaping.ts';
import { effectiveScrapeInterval } from '../values/scrape-interval.ts';
import { parseDuration } from '@promop/prometheus-lang';
import { scrapeConfigFileProblems } from './file-access.ts';
import { appendMonitorLimits, validateMonitorLimits } from './limits.ts';
import { appendAuthorization, appendEndpointTls, appendOAuth2, finishMonitor, type MonitorFrame } from './monitor-steps.ts';
import { jobNameMetaRelabeling } from './meta-relabelings.ts';
import { namespaceEnforcementRelabelings } from './namespace-enforcement.ts';
import { renderRelabelConfigs, validateRelabelConfigs } from '../values/relabeling.ts';
import { resolveScrapeClass } from './scrape-class.ts';
import type { MonitorRendering, ScrapeContext } from './scrape-context.ts';
import { appendServiceDiscovery } from './service-discovery.ts';
import { shardingRelabelings } from './sharding.ts';

type Spec = ScrapeConfig['spec'];

/** Renders `scrapeConfig` for the Prometheus in `ctx`: one job, or every problem found. Never throws for bad input. */
export function renderScrapeConfig(scrapeConfig: ScrapeConfig, ctx: ScrapeContext): MonitorRendering {
  const { namespace, name } = scrapeConfig.metadata;
  const spec: Spec = scrapeConfig.spec ?? {};
  const findings = new Findings();
  const hc: HttpClientContext = { namespace, secrets: ctx.secrets, version: ctx.version, findings, tlsAssets: {} };
  const classFindings = new Findings();
  const scrapeClass = resolveScrapeClass(spec.scrapeClass, ctx.prometheus, { ...hc, findings: classFindings });
  findings.problems.push(...classFindings.problems);
  if (ctx.denyFileSystemAccess) findings.problems.push(...scrapeConfigFileProblems(spec));
  const frame: MonitorFrame = {
    kind: 'ScrapeConfig', namespace, name, spec, ctx, hc, scrapeClass, roleSelector: false,
    classFindings: new Findings(), namespaceEnforcement: namespaceEnforcementRelabelings('ScrapeConfig', namespace, name, ctx),
  };
  validateMonitorLimits(spec, hc);
  validateScrapeIntervals(spec, ctx, hc);
  findings.problems.push(...validateRelabelConfigs(spec.relabelings, 'spec.relabelings', ctx));
  findings.problems.push(...validateRelabelConfigs(spec.metricRelabelings, 'spec.metricRelabelings', ctx));

  const cfg: Record<string, unknown> = { job_name: `scrapeConfig/${namespace}/${name}` };
  if (spec.honorTimestamps !== undefined && supports(hc, '2.9.0', 'spec.honorTimestamps', 'honor_timestamps')) {
    cfg.honor_timestamps = spec.honorTimestamps && !ctx.overrideHonorTimestamps;
  }
  if (spec.trackTimestampsStaleness !== undefined && supports(hc, '2.48.0', 'spec.trackTimestampsStaleness', 'track_timestamps_staleness')) {
    cfg.track_timestamps_staleness = spec.trackTimestampsStaleness;
  }
  if (spec.honorLabels !== undefined) cfg.honor_labels = spec.honorLabels && !ctx.overrideHonorLabels;
  if (spec.metricsPath !== undefined) cfg.metrics_path = spec.metricsPath;
  if (spec.params && Object.keys(spec.params).length > 0) cfg.params = sortedByKey(spec.params);
  if (spec.enableCompression !== undefined && supports(hc, '2.49.0', 'spec.enableCompression', 'enable_compression')) cfg.enable_compression = spec.enableCompression;
  if (spec.enableHTTP2 !== undefined && supports(hc, '2.35.0', 'spec.enableHTTP2', 'enable_http2')) cfg.enable_http2 = spec.enableHTTP2;
  if (spec.scrapeInterval !== undefined) cfg.scrape_interval = spec.scrapeInterval;
  if (spec.scrapeTimeout !== undefined) cfg.scrape_timeout = spec.scrapeTimeout;
  // Limits and protocols are rendered together (same version gates as monitors) and placed where upstream puts them.
  const limits: Record<string, unknown> = {};
  appendMonitorLimits(limits, spec, spec.fallbackScrapeProtocol ?? scrapeClass?.fallbackScrapeProtocol, ctx, hc);
  const { scrape_protocols: protocols, fallback_scrape_protocol: fallback, ...otherLimits } = limits;
  if (protocols !== undefined) cfg.scrape_protocols = protocols;
  if (fallback !== undefined) cfg.fallback_scrape_protocol = fallback;
  if (spec.scheme !== undefined) cfg.scheme = spec.scheme.toLowerCase();
  appendProxy(cfg, spec, 'spec', hc);
  checkAuthExclusivity({ basicAuth: spec.basicAuth, authorization: spec.authorization, oauth2: spec.oauth2 }, 'spec', hc);
  if (spec.basicAuth) cfg.basic_auth = renderBasicAuth(spec.basicAuth, 'spec.basicAuth', hc);
  appendAuthorization(cfg, spec.authorization, !!(spec.basicAuth || spec.oauth2), 'spec', frame);
  appendOAuth2(cfg, spec.oauth2, 'spec', hc);
  appendEndpointTls(cfg, spec.tlsConfig, true, 'spec', frame);
  Object.assign(cfg, otherLimits);

  appendServiceDiscovery(cfg, spec, hc, {
    nameValidationScheme: ctx.nameValidationScheme,
    ...(ctx.ignoreNamespaceSelectors ? { confineToNamespace: namespace } : {}),
  });

  const userRelabelings = renderRelabelConfigs(spec.relabelings);
  const relabelings = [
    jobNameMetaRelabeling(),
    ...renderRelabelConfigs(scrapeClass?.relabelings),
    ...(spec.jobName ? [{ target_label: 'job', action: 'replace', replacement: spec.jobName }] : []),
    ...userRelabelings,
    ...frame.namespaceEnforcement,
  ];
  // A user hashmod means the user shards targets himself (prometheus-operator leaves such jobs alone).
  if (ctx.shards > 1 && !userRelabelings.some((rule) => rule.action === 'hashmod')) relabelings.push(...shardingRelabelings(ctx.shards, ctx.shard, '__address__', ctx.topology));
  cfg.relabel_configs = relabelings;
  const metricRelabelings = [...renderRelabelConfigs(scrapeClass?.metricRelabelings), ...renderRelabelConfigs(spec.metricRelabelings), ...frame.namespaceEnforcement];
  if (metricRelabelings.length > 0) cfg.metric_relabel_configs = metricRelabelings;
  appendNameSchemes(cfg, spec, ctx, hc);
  return finishMonitor(frame, [cfg]);
}

/**
 * The job's own metric and label name rules, last in the job as upstream writes them (3.0 and 3.4 added them).
 * Prometheus refuses `allow-utf-8` escaping under the legacy validation scheme (the job's, else the Prometheus'),
 * so that pair is a problem here rather than a config Prometheus refuses.
 */
function appendNameSchemes(cfg: Record<string, unknown>, spec: Spec, ctx: ScrapeContext, hc: HttpClientContext): void {
  let validation: string | undefined;
  if (spec.nameValidationScheme && supports(hc, '3.0.0', 'spec.nameValidationScheme', 'metric_name_validation_scheme')) {
    validation = spec.nameValidationScheme.toLowerCase();
    cfg.metric_name_validation_scheme = validation;
  }
  if (spec.nameEscapingScheme && supports(hc, '3.4.0', 'spec.nameEscapingScheme', 'metric_name_escaping_scheme')) {
    cfg.metric_name_escaping_scheme = escapingSchemeName(spec.nameEscapingScheme);
    const effectiveValidation = validation ?? ctx.nameValidationScheme;
    if (spec.nameEscapingScheme === 'AllowUTF8' && effectiveValidation === 'legacy') {
      hc.findings.problem('spec.nameEscapingScheme', 'AllowUTF8 needs the UTF8 name validation scheme, but this job validates names with the Legacy scheme (Prometheus refuses the pair)');
    }
  }
}

/** scrapeInterval and scrapeTimeout are durations, and the timeout is no longer than the interval that applies. */
function validateScrapeIntervals(spec: Spec, ctx: ScrapeContext, hc: HttpClientContext): void {
  const interval = spec.scrapeInterval === undefined ? undefined : parseDuration(spec.scrapeInterval);
  const timeout = spec.scrapeTimeout === undefined ? undefined : parseDuration(spec.scrapeTimeout);
  if (spec.scrapeInterval !== undefined && interval === undefined) hc.findings.problem('spec.scrapeInterval', `"${spec.scrapeInterval}" is not a valid duration (examples: 30s, 1m)`);
  if (spec.scrapeTimeout !== undefined && timeout === undefined) hc.findings.problem('spec.scrapeTimeout', `"${spec.scrapeTimeout}" is not a valid duration (examples: 10s, 1m)`);
  if (!timeout) return;
  const globalText = effectiveScrapeInterval(ctx.prometheus.spec ?? {});
  const effective = interval ? interval : parseDuration(globalText);
  if (effective !== undefined && timeout > effective) {
    hc.findings.problem('spec.scrapeTimeout', `scrapeTimeout ${spec.scrapeTimeout} is longer than ${interval ? `scrapeInterval ${spec.scrapeInterval}` : `the Prometheus scrapeInterval ${globalText}`}`);
  }
}
