/**
 * Probe → one scrape config, `probe/<namespace>/<name>`, as prometheus-operator v0.93 renders it: Prometheus
 * scrapes the prober (`prober.url` becomes `__address__`) and passes each target as the `target` URL parameter.
 * Targets are `targets.staticConfig` (static_configs; it wins when both are set) or `targets.ingress`
 * (Kubernetes SD, role ingress: `<scheme>://<host><path>` of every Ingress rule). Key order differs from
 * monitors: limits come before the HTTP settings, and the authentication keys come after relabel_configs.
 * Sharding hashes `__param_target`, so each target (not the prober) belongs to one shard.
 */
import type { Probe } from '@promop/crds';
import { appendProxy, checkAuthExclusivity, Findings, readSecretKey, renderBasicAuth, type HttpClientContext } from '../http-client/index.ts';
import { sortedByKey } from '../go-map-order.ts';
import { isValidLabelName, labelNameRule } from '../values/prometheus-names.ts';
import { sanitizeLabelName } from '../values/label-names.ts';
import { supports } from '../http-client/index.ts';
import { validateIntervals } from './endpoint-options.ts';
import { clientFileProblems } from './file-access.ts';
import { kubernetesSdConfigs } from './kubernetes-sd.ts';
import { appendMonitorLimits, validateMonitorLimits } from './limits.ts';
import { copyMetaLabel, jobNameMetaRelabeling, setLabel } from './meta-relabelings.ts';
import { appendAuthorization, appendEndpointTls, appendOAuth2, finishMonitor, type MonitorFrame } from './monitor-steps.ts';
import { namespaceEnforcementRelabelings } from './namespace-enforcement.ts';
import { proberAddressError } from './prober-address.ts';
import { renderRelabelConfigs, validateRelabelConfigs } from '../values/relabeling.ts';
import { resolveScrapeClass } from './scrape-class.ts';
import type { MonitorRendering, ScrapeContext } from './scrape-context.ts';
import { isQualifiedName, literalSelector, validateLabelSelector } from '../selection/label-selector.ts';
import { selectorRelabelings } from './selector-relabelings.ts';
import { shardingRelabelings } from './sharding.ts';

type ProbeSpec = Probe['spec'];

/** The label the ingress target's original address is kept in, for relabelings that build another URL. */
const INGRESS_ADDRESS_LABEL = '__tmp_ingress_address';

/**
 * Renders `probe` for the Prometheus described by `ctx`: one scrape config, or every problem found (the Probe is
 * then rejected alone). Never throws for bad input.
 */
export function renderProbe(probe: Probe, ctx: ScrapeContext): MonitorRendering {
  const frame = beginProbe(probe, ctx);
  const cfg = renderProbeJob(probe.spec ?? {}, frame);
  return finishMonitor(frame, [cfg]);
}

/** Probe-level checks, in prometheus-operator's order, and the scrape class lookup. */
function beginProbe(probe: Probe, ctx: ScrapeContext): MonitorFrame {
  const findings = new Findings();
  const { namespace, name } = probe.metadata;
  const spec: ProbeSpec = probe.spec ?? {};
  const hc: HttpClientContext = { namespace, secrets: ctx.secrets, version: ctx.version, findings, tlsAssets: {} };
  const classFindings = new Findings();
  const scrapeClass = resolveScrapeClass(spec.scrapeClass, ctx.prometheus, { ...hc, findings: classFindings });
  // prometheus-operator checks the class first: its problem leads.
  findings.problems.push(...classFindings.problems);
  if (ctx.denyFileSystemAccess) findings.problems.push(...clientFileProblems(spec, 'spec'));
  if (!spec.targets?.staticConfig && !spec.targets?.ingress) {
    findings.problem('spec.targets', 'set staticConfig or ingress: a Probe without targets probes nothing');
  }
  checkAuthExclusivity(
    { basicAuth: spec.basicAuth, oauth2: spec.oauth2, authorization: spec.authorization, bearerTokenSecret: spec.bearerTokenSecret?.name ? spec.bearerTokenSecret : undefined },
    'spec',
    hc,
  );
  validateMonitorLimits(spec, hc);
  return {
    kind: 'Probe',
    namespace,
    name,
    spec,
    ctx,
    hc,
    scrapeClass,
    roleSelector: false,
    classFindings: new Findings(),
    namespaceEnforcement: namespaceEnforcementRelabelings('Probe', namespace, name, ctx),
  };
}

function renderProbeJob(spec: ProbeSpec, frame: MonitorFrame): Record<string, unknown> {
  const { namespace, name, ctx, hc, scrapeClass } = frame;
  const prober = spec.prober;
  const cfg: Record<string, unknown> = { job_name: `probe/${namespace}/${name}` };
  // A Probe always honors the prober's timestamps (unless the Prometheus overrides it).
  if (supports(hc, '2.9.0', 'spec', 'honor_timestamps')) cfg.honor_timestamps = !ctx.overrideHonorTimestamps;
  cfg.metrics_path = prober?.path ?? '/probe';
  if (spec.interval) cfg.scrape_interval = spec.interval;
  if (spec.scrapeTimeout) cfg.scrape_timeout = spec.scrapeTimeout;
  if (prober?.scheme) {
    const scheme = prober.scheme.toLowerCase();
    if (scheme !== 'http' && scheme !== 'https') hc.findings.problem('spec.prober.scheme', `scheme must be http or https, not "${prober.scheme}"`);
    cfg.scheme = scheme;
  }
  const params = probeParams(spec, hc);
  if (Object.keys(params).length > 0) cfg.params = params;
  appendMonitorLimits(cfg, spec, spec.fallbackScrapeProtocol ?? scrapeClass?.fallbackScrapeProtocol, ctx, hc);

  appendProxy(cfg, prober ?? {}, 'spec.prober', hc);
  if (spec.followRedirects !== undefined && supports(hc, '2.26.0', 'spec.followRedirects', 'follow_redirects')) cfg.follow_redirects = spec.followRedirects;
  if (spec.enableHttp2 !== undefined && supports(hc, '2.35.0', 'spec.enableHttp2', 'enable_http2')) cfg.enable_http2 = spec.enableHttp2;
  appendEndpointTls(cfg, spec.tlsConfig, true, 'spec', frame);

  const relabelings: Record<string, unknown>[] = [jobNameMetaRelabeling()];
  if (spec.jobName) relabelings.push(setLabel('job', spec.jobName));
  const proberAddress = prober?.url ?? '';
  const staticConfig = spec.targets?.staticConfig;
  const ingress = spec.targets?.ingress;
  // The ingress relabelings are checked even when staticConfig wins, as prometheus-operator checks them.
  if (ingress) hc.findings.problems.push(...validateRelabelConfigs(ingress.relabelingConfigs, 'spec.targets.ingress.relabelingConfigs', ctx));
  if (staticConfig) {
    validateStaticLabels(staticConfig.labels, frame);
    hc.findings.problems.push(...validateRelabelConfigs(staticConfig.relabelingConfigs, 'spec.targets.staticConfig.relabelingConfigs', ctx));
    // Every series says which namespace's Probe produced it, unless the Probe names one itself.
    const labels = sortedByKey({ namespace, ...staticConfig.labels });
    cfg.static_configs = [{ targets: [...(staticConfig.static ?? [])], labels }];
    relabelings.push(
      { source_labels: ['__address__'], target_label: '__param_target' },
      copyMetaLabel('__param_target', 'instance'),
      setLabel('__address__', proberAddress),
      ...renderRelabelConfigs(scrapeClass?.relabelings),
      ...renderRelabelConfigs(staticConfig.relabelingConfigs),
      ...frame.namespaceEnforcement,
    );
  } else if (ingress) {
    // prometheus-operator does not check this selector: a key or value no label can have is accepted (it writes the
    // value into the keep regex as it is, the key sanitised into a meta label name). promop accepts them too, with a
    // warning, the values quoted. What Kubernetes could not read at all (an unknown operator, which upstream skips,
    // keeping every Ingress the requirement meant to leave out; a value count the operator cannot take) stays
    // refused, as upstream refuses it in ServiceMonitor and PodMonitor selectors (docs/compatibility.md, Probes).
    const path = 'spec.targets.ingress.selector';
    const selector = ingress.selector ?? {};
    hc.findings.problems.push(...validateLabelSelector(selector, path, { acceptInvalidLabels: true }));
    const literal = literalSelector(selector, path);
    for (const { path: at, value } of literal.invalidKeys) hc.findings.warn(`${at}: ${invalidIngressKeyWarning(value)}`);
    for (const { path: at, value } of literal.invalid) {
      hc.findings.warn(`${at}: ${JSON.stringify(value)} is not a valid label value, so no Ingress has it: it selects nothing`);
    }
    relabelings.push(...selectorRelabelings(literal.selector, 'ingress'));
    cfg.kubernetes_sd_configs = kubernetesSdConfigs({ role: 'ingress', namespaceSelector: ingress.namespaceSelector, namespace }, ctx, hc);
    relabelings.push(
      {
        source_labels: ['__meta_kubernetes_ingress_scheme', '__address__', '__meta_kubernetes_ingress_path'],
        separator: ';',
        regex: '(.+);(.+);(.+)',
        target_label: '__param_target',
        replacement: '${1}://${2}${3}',
        action: 'replace',
      },
      copyMetaLabel('__meta_kubernetes_namespace', 'namespace'),
      copyMetaLabel('__meta_kubernetes_ingress_name', 'ingress'),
      { source_labels: ['__address__'], separator: ';', regex: '(.*)', target_label: INGRESS_ADDRESS_LABEL, replacement: '$1', action: 'replace' },
      copyMetaLabel('__param_target', 'instance'),
      setLabel('__address__', proberAddress),
      ...renderRelabelConfigs(scrapeClass?.relabelings),
      ...renderRelabelConfigs(ingress.relabelingConfigs),
      ...frame.namespaceEnforcement,
    );
  }
  relabelings.push(...shardingRelabelings(ctx.shards, ctx.shard, '__param_target', ctx.topology));
  cfg.relabel_configs = relabelings;

  const bearerTokenSecret = spec.bearerTokenSecret?.name ? spec.bearerTokenSecret : undefined;
  if (bearerTokenSecret) cfg.bearer_token = readSecretKey(bearerTokenSecret, 'spec.bearerTokenSecret', hc) ?? '';
  if (spec.basicAuth) cfg.basic_auth = renderBasicAuth(spec.basicAuth, 'spec.basicAuth', hc);
  appendOAuth2(cfg, spec.oauth2, 'spec', hc);
  appendAuthorization(cfg, spec.authorization, !!(spec.basicAuth || spec.oauth2 || bearerTokenSecret), 'spec', frame);

  validateIntervals({ interval: spec.interval, scrapeTimeout: spec.scrapeTimeout }, 'spec', ctx, hc);
  hc.findings.problems.push(...validateRelabelConfigs(spec.metricRelabelings, 'spec.metricRelabelings', ctx));
  if (!prober?.url) hc.findings.problem('spec.prober.url', 'is required: the address (host:port) of the prober to scrape');
  else {
    const error = proberAddressError(prober.url);
    if (error) hc.findings.problem('spec.prober.url', `"${prober.url}" must be host or host:port without a scheme (set prober.scheme for https): ${error}`);
  }

  const metricRelabelings = [
    ...renderRelabelConfigs(scrapeClass?.metricRelabelings),
    ...renderRelabelConfigs(spec.metricRelabelings),
    ...frame.namespaceEnforcement,
  ];
  if (metricRelabelings.length > 0) cfg.metric_relabel_configs = metricRelabelings;
  return cfg;
}

/** `params`: `module` (from spec.module) first, then spec.params in their order; spec.module wins over a `module` entry. */
function probeParams(spec: ProbeSpec, hc: HttpClientContext): Record<string, string[]> {
  const params: Record<string, string[]> = {};
  if (spec.module) params.module = [spec.module];
  const seen = new Set<string>();
  (spec.params ?? []).forEach((param, i) => {
    if (seen.has(param.name)) hc.findings.problem(`spec.params[${i}].name`, `parameter "${param.name}" is listed twice`);
    seen.add(param.name);
    if (spec.module && param.name === 'module') return;
    params[param.name] = [...(param.values ?? [])];
  });
  return params;
}

/** Static labels become label names of every series: the Prometheus must accept them. */
function validateStaticLabels(labels: Record<string, string> | undefined, frame: MonitorFrame): void {
  const scheme = frame.ctx.nameValidationScheme;
  for (const label of Object.keys(labels ?? {}).sort()) {
    if (!isValidLabelName(label, scheme)) {
      frame.hc.findings.problem(`spec.targets.staticConfig.labels`, `"${label}" is not a label name this Prometheus accepts (${labelNameRule(scheme)})`);
    }
  }
}

/**
 * The warning for an ingress selector key that is no label key. Its rule reads the key's sanitised meta label,
 * which Prometheus gives every Ingress label whose name sanitises alike: the key is not without effect, it matches
 * Ingresses labelled with another name, when a label key can sanitise to that name at all.
 */
function invalidIngressKeyWarning(key: string): string {
  const sanitised = sanitizeLabelName(key);
  const reads = `${JSON.stringify(key)} is not a valid label key; its rule reads __meta_kubernetes_ingress_label_${sanitised}, as prometheus-operator's does`;
  // Sanitising keeps a valid key's first and last characters (ASCII letters or digits), and turns only its . - / into _.
  if (!/^[A-Za-z0-9]/.test(sanitised) || !/[A-Za-z0-9]$/.test(sanitised)) return `${reads}, which no Ingress has: no label key sanitises to ${sanitised}`;
  const example = isQualifiedName(sanitised) ? ` (such as ${sanitised} itself)` : '';
  return `${reads}, so it matches the Ingresses' label whose name sanitises to ${sanitised}${example}, not ${JSON.stringify(key)}`;
}
