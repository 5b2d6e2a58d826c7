/**
 * The generator: one Prometheus object and its candidate monitors and rules in, prometheus.yaml
 * per shard (with scrape files when the jobs are too many to stay inline, see
 * prometheus/shard-configs.ts), rule ConfigMaps, TLS assets and a verdict per resource out. Pure and deterministic:
 * candidates are sorted before rendering, so equal input gives byte-identical output whatever
 * order the shell listed the objects in.
 *
 * A problem with a single monitor or rule rejects only that resource (its verdict says why); a
 * problem with the Prometheus object itself makes the output `ok: false` with no configs, so the
 * controller keeps the configuration that is running.
 */
import type { ObjectMeta, PodMonitor, Probe, Prometheus, PrometheusAgent, PrometheusRule, ResourceOfKind, ScrapeConfig, ServiceMonitor } from '@promop/crds';
import { ALL_KINDS, KINDS, SCRAPE_KINDS, PROMETHEUS_SELECTED_KINDS, type ScrapeKind, type PrometheusSelectedKind, type SelectorStem } from '@promop/crds/kinds';
import type { FieldProblem, GeneratorInput, GeneratorOutput, ResourceKind, Verdict } from './model.ts';
import { formatCount } from '@promop/prometheus-lang';
import { sortedByKey } from './go-map-order.ts';
import { supports } from './http-client/index.ts';
import { nameValidationSchemeFor } from './values/prometheus-names.ts';
import { DEFAULT_PROMETHEUS_VERSION, invalidVersionProblem, isAtLeast, parsePrometheusVersion, type PrometheusVersion } from './prometheus-version.ts';
import { buildAdditionalScrapeConfigs } from './prometheus/additional-scrape-configs.ts';
import { agentModeProblems, agentModeWarnings, isAgent, isDaemonSetAgent } from './prometheus/agent-mode.ts';
import { buildApiServerSdKeys } from './prometheus/api-server-config.ts';
import { buildAlertingConfig, type EndpointsRole } from './prometheus/alerting-config.ts';
import { enforcementExclusion, type EnforcementExclusion } from './prometheus/enforcement-exclusions.ts';
import { replicaLabelName } from './prometheus/external-labels.ts';
import { buildGlobalConfig } from './prometheus/global-config.ts';
import { buildOtlpConfig } from './prometheus/otlp-config.ts';
import { buildRemoteReadConfigs } from './prometheus/remote-read-config.ts';
import { buildRemoteWriteConfigs } from './prometheus/remote-write-config.ts';
import { createRenderContext, type PrometheusRenderContext } from './prometheus/render-context.ts';
import { buildRuleFiles } from './prometheus/rule-files.ts';
import { checkScrapeClasses } from './prometheus/scrape-classes.ts';
import { SCRAPE_CONFIG_FILES_SINCE } from './prometheus/scrape-config-files.ts';
import { renderShardConfigs, type OversizedMonitor, type ShardConfigs } from './prometheus/shard-configs.ts';
import { repeatedSelectorProblem } from './prometheus/repeated-selector.ts';
import { shardCount, shardZones, tooManyShardsProblem, topologySharding } from './prometheus/sharding.ts';
import { buildStorageConfig } from './prometheus/storage-config.ts';
import { buildTracingConfig } from './prometheus/tracing-config.ts';
import { validateIntervals, validateSelectors } from './prometheus/validate-prometheus.ts';
import { renderRules } from './rules/index.ts';
import { renderPodMonitor, renderProbe, renderScrapeConfig, renderServiceMonitor, type MonitorRendering, type ScrapeContext } from './scrape/index.ts';
import { callCache, type RenderCache } from './render-memo.ts';
import { SecretStore } from './secret-store.ts';
import { resourceRef, selectedVerdict } from './verdict.ts';
import { boundedVerdict } from './verdict-bounds.ts';
import { indexNamespaces, selectResources, type NamespaceLabels, type ResourceSelection, type SelectorPair } from './selection/select-resources.ts';

type Spec = NonNullable<Prometheus['spec']>;

/** Renders the configuration of one Prometheus. Never throws for bad input. */
export function generate(input: GeneratorInput): GeneratorOutput {
  const prometheus = input.prometheus;
  const agent = isAgent(prometheus);
  const identity = { kind: prometheus.kind, namespace: prometheus.metadata?.namespace ?? '', name: prometheus.metadata?.name ?? '' };
  // An agent's spec is the fields it shares with a server: read as a server's spec, the server-only ones are absent.
  const spec: Spec = prometheus.spec ?? ({} as Spec);
  const problems: FieldProblem[] = [...agentModeProblems(prometheus)];

  const parsedVersion = parsePrometheusVersion(spec.version);
  if (!parsedVersion) {
    problems.push(invalidVersionProblem(spec.version));
  }
  // With an unreadable version the monitors are still judged (against the default version), so
  // their verdicts stay useful while the Prometheus is being fixed.
  const version = parsedVersion ?? (parsePrometheusVersion(DEFAULT_PROMETHEUS_VERSION) as PrometheusVersion);
  const selectorProblems = validateSelectors(spec);
  problems.push(...validateIntervals(spec), ...selectorProblems);

  const secrets = new SecretStore(input.secrets, input.configMaps);
  const context = createRenderContext(identity, version, nameValidationSchemeFor(version, spec.nameValidationScheme), secrets);
  checkScrapeClasses(spec.scrapeClasses, context);
  const namespaces = indexNamespaces(input.namespaces);
  // `spec.<selector field>…` → the selector field, whose pair then selects nothing.
  const invalidSelectors = new Set(selectorProblems.map((problem) => problem.path.split('.')[1] ?? ''));
  const isExcluded = enforcementExclusion(spec.excludedFromEnforcement, spec.prometheusRulesExcludedFromEnforce);
  const shards = shardCount(spec.shards);
  const shardsProblem = tooManyShardsProblem(spec.shards);
  if (shardsProblem) problems.push(shardsProblem);
  const topology = topologySharding(spec, input.podTopologyLabels === true, context);

  // Monitors: select, then render each selected one alone so one bad monitor rejects only itself.
  const apiServerSdKeys = buildApiServerSdKeys(spec.apiserverConfig, context);
  const scrapeContext = buildScrapeContext(prometheus, spec, version, secrets, isExcluded, shards, context);
  if (topology) scrapeContext.topology = topology;
  const nodeLocal = isDaemonSetAgent(prometheus);
  if (nodeLocal) scrapeContext.nodeLocal = true;
  if (apiServerSdKeys) scrapeContext.kubernetesSdApiServer = apiServerSdKeys;
  // With the caller's memo, a monitor unchanged since the previous call (same object, same Prometheus-wide
  // settings, same Secret keys read) keeps its rendering (render-memo.ts); without one, nothing outlives this call.
  const cache: RenderCache = input.memo ?? callCache();
  // Of the Prometheus' metadata only its identity: renderings read its name and namespace, never its labels or
  // resourceVersion. Its resourceVersion moves with every status write promop makes (one per config change), and
  // keying on it made each ServiceMonitor change after the first a miss for all 1,000 monitors.
  const { namespace: prometheusNamespace, name: prometheusName, uid: prometheusUid } = prometheus.metadata ?? {};
  const monitorSettings = cache.settings(() => ({ ...scrapeContext, secrets: undefined, prometheus: { metadata: { namespace: prometheusNamespace, name: prometheusName, uid: prometheusUid }, spec } }));
  // A rendering is kept with its verdict and owner (the same objects from call to call), so the controller
  // recognises an unchanged verdict by identity and the scrape file slots find their monitors' homes without
  // building 10,000 strings per change.
  const renderedAll = <T extends MonitorObject>(kind: ResourceKind, render: (monitor: T, context: ScrapeContext) => MonitorRendering) => (sorted: readonly T[]): SummarisedRendering[] => {
    const summarised = (monitor: T, context: ScrapeContext) => summarise(kind, monitor, render(monitor, context));
    return cache.renderings(kind, sorted, monitorSettings, secrets, (monitor, store) => summarised(monitor, { ...scrapeContext, secrets: store ?? secrets }));
  };
  const generatedJobs: GeneratedJobs = { scrapeConfigs: [], owners: [], tlsAssets: [] };
  // Each scrape kind in the registry's order, which is prometheus-operator's order of jobs: the monitors', then
  // Probes', then ScrapeConfigs'.
  // A DaemonSet agent renders PodMonitors only (its other selectors are refused, agent-mode.ts), as upstream.
  const scrapeSelections = SCRAPE_KINDS.map((kind) => {
    const candidates = (nodeLocal && kind !== 'PodMonitor' ? [] : input[KINDS[kind].list] ?? []) as readonly MonitorObject[];
    return { kind, selection: select(kind, candidates, identity, pairFor(spec, kind), namespaces, invalidSelectors, cache) };
  });
  let monitorVerdicts = scrapeSelections.flatMap(({ kind, selection }) =>
    renderMonitors(kind, selection, renderedAll(kind, SCRAPE_RENDERERS[kind] as (monitor: MonitorObject, context: ScrapeContext) => MonitorRendering), generatedJobs, cache));

  // Rules: only selected objects are rendered; there is always at least one (maybe empty) ConfigMap, but an agent
  // evaluates no rules, selects none and has no ConfigMap.
  const rules = agent ? { selected: [], notSelected: [] } : select('PrometheusRule', input.prometheusRules, identity, pairFor(spec, 'PrometheusRule'), namespaces, invalidSelectors, cache);
  const enforcedNamespaceLabel = spec.enforcedNamespaceLabel || undefined;
  const renderedRules = agent ? { ruleConfigMaps: [], verdicts: [] } : renderRules({
    prometheus,
    rules: cache.sortedBy('PrometheusRule', rules.selected, identityKey),
    version,
    ...(enforcedNamespaceLabel ? { enforcedNamespaceLabel } : {}),
    isExcludedFromEnforcement: (namespace, name) => isExcluded('PrometheusRule', namespace, name),
    cache,
  });

  // The reloader upstream substitutes `$(SHARD)` anywhere, so hand-written jobs may use it too.
  // Generated jobs only carry it when there are several shards (one shard is rendered as 0).
  const additionalScrapeConfigs = buildAdditionalScrapeConfigs(spec.additionalScrapeConfigs, shards, context, topology);
  const config = assembleConfig(spec, context, {
    ruleFiles: spec.ruleSelector ? buildRuleFiles(identity.name, renderedRules.ruleConfigMaps.length) : undefined,
    scrapeConfigs: [...generatedJobs.scrapeConfigs, ...(additionalScrapeConfigs ?? [])],
    role: scrapeContext.serviceDiscoveryRole,
    apiServerSdKeys,
    agent,
  });
  problems.push(...context.findings.problems);

  let files: ShardConfigs = { configs: [], scrapeFiles: [], oversized: [] };
  if (problems.length === 0) {
    const rendered = renderShardConfigs(config, shards, generatedJobs.owners, {
      // A DaemonSet agent's jobs stay inline: each node needs its own copy of prometheus.yaml with the node's name in
      // place of the placeholder, which scrape files shared by every node could not carry.
      scrapeConfigFiles: !nodeLocal && isAtLeast(version, SCRAPE_CONFIG_FILES_SINCE),
      hashKey: prometheus.metadata?.uid ?? '',
      cache,
      ...(topology ? { topology } : {}),
    });
    if (rendered.ok) files = rendered.value;
    else problems.push(rendered.problem);
  }
  // A monitor whose jobs were left out for their size is rejected alone, and its TLS files are not written.
  const oversized = new Map(files.oversized.map((monitor) => [monitor.owner, monitor]));
  if (oversized.size > 0) monitorVerdicts = monitorVerdicts.map((verdict) => withOversizedJobs(verdict, oversized));
  const tlsAssets: Record<string, string> = {};
  for (const { owner, files: ownFiles } of generatedJobs.tlsAssets) if (!oversized.has(owner)) Object.assign(tlsAssets, ownFiles);
  for (const [file, content] of Object.entries(context.tlsAssets)) tlsAssets[file] = content;
  const ok = problems.length === 0;
  const prometheusWarnings = [...context.findings.warnings, ...agentModeWarnings(prometheus)];
  // Bounded, since each becomes a status the API server must accept: a hostile object's problems can quote it back.
  const verdicts: Verdict[] = [
    selectedVerdict(identity, problems, prometheusWarnings),
    ...sortVerdicts('monitors', [...monitorVerdicts, ...scrapeSelections.flatMap(({ selection }) => selection.notSelected)], cache),
    ...sortVerdicts('rules', [...renderedRules.verdicts, ...rules.notSelected], cache),
  ].map(boundedVerdict);
  return {
    ok,
    prometheusProblems: problems,
    prometheusWarnings,
    configs: files.configs,
    scrapeFiles: files.scrapeFiles,
    ruleConfigMaps: renderedRules.ruleConfigMaps,
    tlsAssets: sortedByKey(tlsAssets),
    verdicts,
    version,
    ...(ok && topology ? { shardZones: shardZones(topology, shards) } : {}),
  };
}

/** The parts of prometheus.yaml that come from outside the Prometheus spec. */
interface AssembledParts {
  ruleFiles: string[] | undefined;
  scrapeConfigs: Array<Record<string, unknown>>;
  role: EndpointsRole;
  apiServerSdKeys: Record<string, unknown> | undefined;
  /** Agent mode: no rule evaluation settings, rule files, alerting, remote read or retention (agent-mode.ts). */
  agent: boolean;
}

/** Top-level keys in prometheus-operator's order. */
function assembleConfig(spec: Spec, context: PrometheusRenderContext, parts: AssembledParts): Record<string, unknown> {
  const config: Record<string, unknown> = { global: buildGlobalConfig(spec, context, { ruleEvaluation: !parts.agent }) };
  const goGC = spec.runtime?.goGC;
  // Older releases get it as GOGC in the container's environment (the controller's prometheus-container.ts), as
  // upstream does, so no warning says it is dropped.
  if (typeof goGC === 'number' && isAtLeast(context.version, '2.53.0')) config.runtime = { gogc: goGC };
  if (parts.ruleFiles) config.rule_files = parts.ruleFiles;
  config.scrape_configs = parts.scrapeConfigs;
  const storage = buildStorageConfig(spec, context, { agent: parts.agent });
  if (storage) config.storage = storage;
  const alerting = parts.agent ? undefined : buildAlertingConfig(spec, replicaLabelName(spec), { role: parts.role, apiServer: parts.apiServerSdKeys }, context);
  if (alerting) config.alerting = alerting;
  if (spec.remoteWrite && spec.remoteWrite.length > 0) config.remote_write = buildRemoteWriteConfigs(spec.remoteWrite, context);
  if (!parts.agent && spec.remoteRead && spec.remoteRead.length > 0) config.remote_read = buildRemoteReadConfigs(spec.remoteRead, context);
  const otlp = buildOtlpConfig(spec.otlp, spec.nameValidationScheme, context);
  if (otlp) config.otlp = otlp;
  const tracing = buildTracingConfig(spec.tracingConfig, context);
  if (tracing) config.tracing = tracing;
  return config;
}

function buildScrapeContext(
  prometheus: Prometheus | PrometheusAgent,
  spec: Spec,
  version: PrometheusVersion,
  secrets: SecretStore,
  isExcluded: EnforcementExclusion,
  shards: number,
  context: PrometheusRenderContext,
): ScrapeContext {
  let role: EndpointsRole = 'endpoints';
  if (spec.serviceDiscoveryRole === 'EndpointSlice' && supports(context, '2.21.0', 'spec.serviceDiscoveryRole', 'role: endpointslice')) {
    role = 'endpointslice';
  }
  const scrapeContext: ScrapeContext = {
    prometheus,
    version,
    nameValidationScheme: context.nameValidationScheme,
    secrets,
    serviceDiscoveryRole: role,
    excludedFromEnforcement: isExcluded,
    overrideHonorLabels: spec.overrideHonorLabels === true,
    overrideHonorTimestamps: spec.overrideHonorTimestamps === true,
    ignoreNamespaceSelectors: spec.ignoreNamespaceSelectors === true,
    denyFileSystemAccess: spec.arbitraryFSAccessThroughSMs?.deny === true,
    shards,
    // One shard: written directly. Several: rendered once with the placeholder, then copied per shard.
    ...(shards === 1 ? { shard: 0 } : {}),
  };
  if (spec.enforcedNamespaceLabel) scrapeContext.enforcedNamespaceLabel = spec.enforcedNamespaceLabel;
  if (spec.enforcedSampleLimit !== undefined) scrapeContext.enforcedSampleLimit = spec.enforcedSampleLimit;
  if (spec.enforcedTargetLimit !== undefined) scrapeContext.enforcedTargetLimit = spec.enforcedTargetLimit;
  if (spec.enforcedLabelLimit !== undefined) scrapeContext.enforcedLabelLimit = spec.enforcedLabelLimit;
  if (spec.enforcedLabelNameLengthLimit !== undefined) scrapeContext.enforcedLabelNameLengthLimit = spec.enforcedLabelNameLengthLimit;
  if (spec.enforcedLabelValueLengthLimit !== undefined) scrapeContext.enforcedLabelValueLengthLimit = spec.enforcedLabelValueLengthLimit;
  if (spec.enforcedKeepDroppedTargets !== undefined) scrapeContext.enforcedKeepDroppedTargets = spec.enforcedKeepDroppedTargets;
  if (spec.enforcedBodySizeLimit !== undefined) scrapeContext.enforcedBodySizeLimit = spec.enforcedBodySizeLimit;
  return scrapeContext;
}

/** The workload's selector pair for `kind`, named by the registry (`serviceMonitorSelector`, `ruleNamespaceSelector`). */
function pairFor(spec: Spec, kind: PrometheusSelectedKind): SelectorPair {
  const prefix: SelectorStem = KINDS[kind].selectedBy.fieldStem;
  const selectorField = `${prefix}Selector` as Extract<keyof Spec, `${SelectorStem}Selector`>;
  const namespaceSelectorField = `${prefix}NamespaceSelector` as Extract<keyof Spec, `${SelectorStem}NamespaceSelector`>;
  return {
    selectorField,
    selector: spec[selectorField],
    namespaceSelectorField,
    namespaceSelector: spec[namespaceSelectorField],
  };
}

/** Selection, except that a pair with an invalid selector selects nothing and says so. */
function select<T extends ServiceMonitor | PodMonitor | Probe | ScrapeConfig | PrometheusRule>(
  kind: ResourceKind,
  candidates: readonly T[],
  identity: { kind: ResourceKind; namespace: string; name: string },
  pair: SelectorPair,
  namespaces: NamespaceLabels,
  invalidSelectors: ReadonlySet<string>,
  cache: RenderCache,
): ResourceSelection<T> {
  const invalid = [pair.selectorField, pair.namespaceSelectorField].filter((field) => invalidSelectors.has(field));
  if (invalid.length === 0) return selectResources(kind, candidates, identity, pair, namespaces, cache);
  const reason = `${identity.kind} ${identity.namespace}/${identity.name}'s ${invalid.join(' and ')} ${invalid.length > 1 ? 'are' : 'is'} invalid, so no ${kind} is selected (see the ${identity.kind === 'Prometheus' ? "Prometheus'" : `${identity.kind}'s`} status)`;
  return {
    selected: [],
    notSelected: candidates.map((candidate) => ({ resource: resourceRef(kind, candidate), selected: false, reason })),
  };
}

/**
 * The jobs rendered from monitors, in order, the `<kind>/<namespace>/<name>` of the monitor of each, and the TLS
 * files of the monitors that have some.
 */
interface GeneratedJobs {
  scrapeConfigs: Array<Record<string, unknown>>;
  owners: string[];
  tlsAssets: Array<{ owner: string; files: Record<string, string> }>;
}

type MonitorObject = ServiceMonitor | PodMonitor | Probe | ScrapeConfig;

/**
 * The renderer of each scrape kind. A ServiceMonitor's or PodMonitor's jobs each repeat its selector, so those are
 * refused when the selector is repeated too often.
 */
const SCRAPE_RENDERERS: { readonly [K in ScrapeKind]: (monitor: ResourceOfKind[K], context: ScrapeContext) => MonitorRendering } = {
  ServiceMonitor: unlessSelectorRepeatsTooOften(renderServiceMonitor),
  PodMonitor: unlessSelectorRepeatsTooOften(renderPodMonitor),
  Probe: renderProbe,
  ScrapeConfig: renderScrapeConfig,
};

/** A monitor's rendering with what follows from it alone: its verdict, and the owner name its jobs are placed by. */
interface SummarisedRendering {
  rendering: MonitorRendering;
  verdict: Verdict;
  owner: string;
  /** Whether the rendering has TLS files to copy. */
  hasTlsAssets: boolean;
}

function renderMonitors<T extends MonitorObject>(
  kind: ResourceKind,
  selection: ResourceSelection<T>,
  renderAll: (sorted: readonly T[]) => SummarisedRendering[],
  jobs: GeneratedJobs,
  cache: RenderCache,
): Verdict[] {
  const sorted = cache.sortedBy(kind, selection.selected, identityKey);
  return renderAll(sorted).map(({ rendering, verdict, owner, hasTlsAssets }) => {
    if (!rendering.ok) return verdict;
    const scrapeConfigs = rendering.scrapeConfigs;
    for (let index = 0; index < scrapeConfigs.length; index += 1) {
      jobs.scrapeConfigs.push(scrapeConfigs[index]!);
      jobs.owners.push(owner);
    }
    if (hasTlsAssets) jobs.tlsAssets.push({ owner, files: rendering.tlsAssets });
    return verdict;
  });
}

/**
 * `render`, unless the monitor's endpoints repeat its selector more often than one scrape file could hold
 * (repeated-selector.ts): then it is rejected without being rendered.
 */
function unlessSelectorRepeatsTooOften<T extends ServiceMonitor | PodMonitor>(render: (monitor: T, context: ScrapeContext) => MonitorRendering) {
  return (monitor: T, context: ScrapeContext): MonitorRendering => {
    const problem = repeatedSelectorProblem(monitor);
    return problem ? { ok: false, problems: [problem], warnings: [] } : render(monitor, context);
  };
}

/** `verdict`, rejected when its monitor is one of `oversized` (shard-configs.ts). */
function withOversizedJobs(verdict: Verdict, oversized: ReadonlyMap<string, OversizedMonitor>): Verdict {
  const { kind, namespace, name } = verdict.resource;
  const monitor = oversized.get(`${kind}/${namespace}/${name}`);
  return monitor && verdict.selected ? selectedVerdict(verdict.resource, [oversizedJobsProblem(kind, monitor)], verdict.warnings) : verdict;
}

/**
 * Why a monitor's jobs were left out: at the endpoint whose job alone is too large (at `spec` when it has one), or
 * at `spec` when its jobs are too large together (many endpoints, each repeating the selector).
 */
function oversizedJobsProblem(kind: ResourceKind, monitor: OversizedMonitor): FieldProblem {
  const endpoints = kind === 'ServiceMonitor' ? 'endpoints' : kind === 'PodMonitor' ? 'podMetricsEndpoints' : undefined;
  const endpoint = monitor.job.split('/')[3];
  const limit = monitor.into === 'scrape file'
    ? `a monitor's jobs may take at most ${formatCount(monitor.maxBytes)} bytes, what one scrape file holds (all of a monitor's jobs go into one file, a Secret of at most 1 MiB)`
    : `a monitor's jobs may take at most ${formatCount(monitor.maxBytes)} bytes (this Prometheus, older than 2.43, reads every job from prometheus.yaml, a Secret of at most 1 MiB shared by every monitor)`;
  if (monitor.jobBytes > monitor.maxBytes) {
    const path = endpoints && endpoint !== undefined && monitor.jobs > 1 ? `spec.${endpoints}[${endpoint}]` : 'spec';
    return { path, message: `its scrape job ${monitor.job} is ${formatCount(monitor.jobBytes)} bytes of YAML; ${limit}; shorten its selector, relabelings or other settings` };
  }
  return {
    path: 'spec',
    message: `its scrape jobs take more than ${formatCount(monitor.maxBytes)} bytes of YAML (${formatCount(monitor.bytes)} by job ${monitor.measured} of ${formatCount(monitor.jobs)}, ${monitor.job}); ${limit}; use fewer endpoints or a shorter selector, or split it into several monitors`,
  };
}

function summarise(kind: ResourceKind, monitor: { metadata: Pick<ObjectMeta, 'namespace' | 'name'> }, rendering: MonitorRendering): SummarisedRendering {
  return {
    rendering,
    verdict: selectedVerdict(resourceRef(kind, monitor), rendering.ok ? [] : rendering.problems, rendering.warnings),
    owner: `${kind}/${identityKey(monitor)}`,
    hasTlsAssets: rendering.ok && Object.keys(rendering.tlsAssets).length > 0,
  };
}

/** `<namespace>/<name>`: the order prometheus-operator writes jobs in. */
function identityKey(object: { metadata: Pick<ObjectMeta, 'namespace' | 'name'> }): string {
  return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}

/** Verdicts list the workload first, then the selected kinds in the registry's order. */
const VERDICT_KIND_ORDER = Object.fromEntries(
  ALL_KINDS.map((kind) => [kind, KINDS[kind].role === 'workload' ? 0 : 1 + PROMETHEUS_SELECTED_KINDS.indexOf(kind as PrometheusSelectedKind)]),
) as Record<ResourceKind, number>;

/**
 * Verdicts by kind, then namespace, then name (`list` names the sequence), by a key that sorts that way: a NUL ends
 * the namespace, so a namespace that is a prefix of another comes first, as compareCodePoints has it. A memo then
 * places a verdict kept from the previous call without comparing 10,000 of them again.
 */
function sortVerdicts(list: string, verdicts: Verdict[], cache: RenderCache): Verdict[] {
  return cache.sortedBy(`verdicts|${list}`, verdicts, ({ resource }) => `${String(VERDICT_KIND_ORDER[resource.kind]).padStart(3, '0')}\u0000${resource.namespace}\u0000${resource.name}`);
}
