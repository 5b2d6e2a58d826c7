/**
 * An Alertmanager's configuration: the platform's base configuration (its configSecret) with the teams'
 * AlertmanagerConfigs merged in, as prometheus-operator v0.93 merges them, and a verdict for every candidate
 * AlertmanagerConfig. Pure: objects and Secret contents in, text and verdicts out.
 *
 * - No `alertmanagerConfigSelector`: the base configuration is used exactly as written (as upstream does).
 * - Otherwise the selected objects, in `<namespace>/<name>` order, each add: a route in front of the base route's
 *   own (`continue: true`, and with the OnNamespace strategies a `namespace="<its namespace>"` matcher, so it sees
 *   only its namespace's alerts), its receivers and time intervals after the base's, every name prefixed with
 *   `<namespace>/<name>/`, and its inhibit rules confined to its namespace the same way.
 * - An object with a problem is rejected alone, with the field path in its verdict; the others are merged.
 * - With `alertmanagerConfiguration`, the AlertmanagerConfig it names (in the Alertmanager's namespace) replaces the
 *   configSecret: its route is the root route, with no namespace matcher, its receivers, time intervals and inhibit
 *   rules are the top level's (named `<namespace>/<name>/…` as every AlertmanagerConfig's), `global` is rendered
 *   from the Alertmanager itself, and the teams' selected objects are merged after it as above. That object is never
 *   merged as a team's, and any problem with it or with `global` is the Alertmanager's (the running configuration
 *   stays). Its `templates` are copied into the generated Secret (ALERTMANAGER_TEMPLATES_DIR says why) and listed
 *   under their upstream paths.
 */
import { createHash } from 'node:crypto';
import type { Alertmanager, AlertmanagerConfig, LabelSelector } from '@promop/crds';
import { load } from 'js-yaml';
import { Findings } from '../findings.ts';
import { compareCodePoints } from '../go-map-order.ts';
import type { FieldProblem, KeyValueSource, NamespaceInfo, Verdict } from '../model.ts';
import { SecretStore } from '../secret-store.ts';
import { indexNamespaces, selectResources } from '../selection/select-resources.ts';
import { validateLabelSelector } from '../selection/label-selector.ts';
import { resourceRef, selectedVerdict } from '../verdict.ts';
import { isRecord } from '../values/is-record.ts';
import { withoutUndefined } from './without-undefined.ts';
import { toPrometheusYaml } from '../yaml-output.ts';
import { equalityMatcher, renderMatchers } from './matchers.ts';
import { shownValue } from './shown-value.ts';
import { renderReceiver } from './receivers.ts';
import { renderRoute } from './routes.ts';
import { renderTimeInterval } from './time-intervals.ts';
import { olderThan } from './alertmanager-version.ts';
import { renderGlobalConfiguration } from './global-configuration.ts';
import { ALERTMANAGER_CONFIG_FILE, ALERTMANAGER_TEMPLATES_DIR } from '../pod-layout.ts';

/** The Alertmanager release promop runs when `spec.version` and `spec.image` are unset. */
export const DEFAULT_ALERTMANAGER_VERSION = '0.35.0';

/**
 * The configuration an Alertmanager runs when its configSecret does not exist: every alert to a receiver that
 * sends nothing, as prometheus-operator does, so the pods start and the platform adds its receivers later.
 */
export const DEFAULT_ALERTMANAGER_CONFIG = 'route:\n  receiver: "null"\nreceivers:\n- name: "null"\n';

/** The oldest Alertmanager whose `matchers` syntax promop writes (0.22, from 2021). */
const OLDEST_MATCHERS_VERSION: readonly [number, number] = [0, 22];

/** The Secret holding the platform's base configuration (key alertmanager.yaml): `spec.configSecret`, else `alertmanager-<name>`. */
export function alertmanagerConfigSecretName(alertmanager: Pick<Alertmanager, 'metadata' | 'spec'>): string {
  return alertmanager.spec?.configSecret || `alertmanager-${alertmanager.metadata?.name ?? ''}`;
}

export interface AlertmanagerConfigurationInput {
  alertmanager: Alertmanager;
  /** `alertmanager.yaml` of the platform's configSecret; undefined when the Secret does not exist. */
  baseConfig: string | undefined;
  /** Every AlertmanagerConfig promop sees; the Alertmanager's selectors pick among them. */
  alertmanagerConfigs: readonly AlertmanagerConfig[];
  namespaces: readonly NamespaceInfo[];
  /**
   * The Secrets the AlertmanagerConfigs reference (each read only from its own namespace), and those
   * `spec.alertmanagerConfiguration.global` references (read only from the Alertmanager's namespace).
   */
  secrets: readonly KeyValueSource[];
  /** The ConfigMaps they reference (TLS certificates, OAuth2 client ids), on the same terms. */
  configMaps?: readonly KeyValueSource[];
  /** Why the configSecret is refused before its text is read (a Secret without the key): judged as a base that does not parse. */
  baseProblem?: FieldProblem;
}

export type AlertmanagerConfiguration =
  /**
   * `text` is the configuration to run; `tlsAssets` the TLS files it names (file name → content), written beside
   * it in ALERTMANAGER_CONFIG_DIR; `verdicts` one per candidate AlertmanagerConfig.
   */
  | { ok: true; text: string; tlsAssets: Record<string, string>; verdicts: Verdict[] }
  /** The base configuration cannot be used: the Alertmanager keeps running what it has. */
  | { ok: false; problem: FieldProblem; verdicts: Verdict[] };

/** Builds the configuration of `input.alertmanager`. */
export function generateAlertmanagerConfiguration(input: AlertmanagerConfigurationInput): AlertmanagerConfiguration {
  const { alertmanager } = input;
  const spec = alertmanager.spec ?? {};
  const owner = { kind: 'Alertmanager' as const, namespace: alertmanager.metadata.namespace ?? '', name: alertmanager.metadata.name ?? '' };
  const pair = {
    selectorField: 'alertmanagerConfigSelector', selector: spec.alertmanagerConfigSelector as LabelSelector | undefined,
    namespaceSelectorField: 'alertmanagerConfigNamespaceSelector', namespaceSelector: spec.alertmanagerConfigNamespaceSelector as LabelSelector | undefined,
  };
  for (const [field, selector] of [[pair.selectorField, pair.selector], [pair.namespaceSelectorField, pair.namespaceSelector]] as const) {
    const problems = selector ? validateLabelSelector(selector, `spec.${field}`) : [];
    if (problems[0]) return { ok: false, problem: problems[0], verdicts: [] };
  }
  const configuration = spec.alertmanagerConfiguration;
  const isTopLevel = (object: AlertmanagerConfig) => configuration !== undefined && object.metadata.namespace === owner.namespace && object.metadata.name === configuration.name;
  // Upstream never merges the object that makes the top level as a team's, whatever the selectors say.
  const candidates = configuration ? input.alertmanagerConfigs.filter((object) => !isTopLevel(object)) : input.alertmanagerConfigs;
  const selection = selectResources('AlertmanagerConfig', candidates, owner, pair, indexNamespaces(input.namespaces));
  const version = alertmanagerVersion(spec.version);
  const supportsMatchers = version === undefined || !olderThan(version, OLDEST_MATCHERS_VERSION);
  const secrets = new SecretStore([...input.secrets], [...(input.configMaps ?? [])]);
  /** The TLS files of the accepted parts: a rejected object's never reach the pod. */
  const tlsAssets: Record<string, string> = {};
  const strategy = spec.alertmanagerConfigMatcherStrategy?.type ?? 'OnNamespace';
  const inOrder = [...selection.selected].sort((a, b) => compareCodePoints(keyOf(a), keyOf(b)));
  /**
   * One selected object judged and rendered. `globals` undefined: the platform's global section is not known (its
   * configuration is refused), so no field is refused for lacking a global to fall back on.
   */
  const judge = (object: AlertmanagerConfig, globals: Readonly<Record<string, unknown>> | undefined) => {
    const findings = new Findings();
    if (!supportsMatchers) findings.problem('spec', `promop writes AlertmanagerConfigs for Alertmanager ${OLDEST_MATCHERS_VERSION.join('.')} and later; spec.version of Alertmanager ${owner.namespace}/${owner.name} is older`);
    const namespace = object.metadata.namespace ?? '';
    const confined = strategy === 'OnNamespace' || (strategy === 'OnNamespaceExceptForAlertmanagerNamespace' && namespace !== owner.namespace);
    const assets: Record<string, string> = {};
    const part = renderAlertmanagerConfig(object, { findings, secrets, confineTo: confined ? namespace : undefined, globals, tlsAssets: assets });
    // The files share one directory with the platform's templates: a name taken by another content is refused here.
    for (const [file, content] of Object.entries(assets)) {
      if (Object.hasOwn(tlsAssets, file) && tlsAssets[file] !== content) findings.problem('spec', `its TLS file ${file} has the name of a notification template of Alertmanager ${owner.namespace}/${owner.name}; use another Secret or key`);
    }
    return { verdict: selectedVerdict(resourceRef('AlertmanagerConfig', object), findings.problems, findings.warnings), findings, part, assets };
  };
  // A refused Alertmanager runs its last configuration, teams' parts included: each selected object is still
  // judged, so its binding keeps saying whether it is accepted instead of vanishing until the platform's fix.
  const refused = (problem: FieldProblem): AlertmanagerConfiguration => ({
    ok: false, problem, verdicts: [...selection.notSelected, ...inOrder.map((object) => judge(object, undefined).verdict)],
  });
  let config: Record<string, unknown>;
  if (configuration) {
    if (!supportsMatchers) return refused({ path: 'spec.version', message: `promop writes spec.alertmanagerConfiguration for Alertmanager ${OLDEST_MATCHERS_VERSION.join('.')} and later` });
    const top = topLevelConfiguration(configuration, input.alertmanagerConfigs.find(isTopLevel), { namespace: owner.namespace, secrets, version });
    if (!top.ok) return refused(top.problem);
    config = top.config;
    Object.assign(tlsAssets, top.tlsAssets);
  } else {
    const secretName = alertmanagerConfigSecretName(input.alertmanager);
    const base = input.baseProblem ? { ok: false as const, problem: input.baseProblem } : parseBase(input.baseConfig, secretName, pair.selector !== undefined && pair.selector !== null);
    if (!base.ok) return refused(base.problem);
    // Without a selector the platform's configuration runs exactly as written (as upstream runs it).
    if (!pair.selector) return { ok: true, text: base.text, tlsAssets, verdicts: selection.notSelected };
    config = base.config;
  }
  const route = config.route as Record<string, unknown>;

  const verdicts: Verdict[] = [...selection.notSelected];
  const routes: unknown[] = [];
  const receivers: unknown[] = [];
  const inhibitRules: unknown[] = [];
  const timeIntervals: unknown[] = [];
  for (const object of inOrder) {
    const { verdict, findings, part, assets } = judge(object, isRecord(config.global) ? config.global : {});
    verdicts.push(verdict);
    if (findings.problems.length > 0) continue;
    Object.assign(tlsAssets, assets);
    inhibitRules.push(...part.inhibitRules);
    if (part.route === undefined) continue;
    routes.push(part.route);
    receivers.push(...part.receivers);
    timeIntervals.push(...part.timeIntervals);
  }
  const merged = ordered({
    ...config,
    route: ordered({ ...route, routes: [...routes, ...asList(route.routes)] }, ROUTE_KEY_ORDER),
    inhibit_rules: [...asList(config.inhibit_rules), ...inhibitRules],
    receivers: [...asList(config.receivers), ...receivers],
    mute_time_intervals: [...asList(config.mute_time_intervals), ...timeIntervals],
    // prometheus-operator always writes the templates list, empty or not.
    templates: asList(config.templates),
  }, CONFIG_KEY_ORDER, ['templates']);
  return { ok: true, text: withTlsAssetsDigest(toPrometheusYaml(merged), tlsAssets), tlsAssets, verdicts };
}

/**
 * The configuration with a first comment line naming a digest of its TLS files, when it has any. Alertmanager's
 * own hash of the file (what promop verifies a reload by) then changes when only a certificate does, so promop
 * waits until the pod runs the new certificate, not only the same text (the files come in the same Secret, so
 * the kubelet swaps both at once).
 */
function withTlsAssetsDigest(text: string, tlsAssets: Readonly<Record<string, string>>): string {
  const names = Object.keys(tlsAssets).sort(compareCodePoints);
  if (names.length === 0) return text;
  const digest = createHash('sha256');
  for (const name of names) digest.update(`${Buffer.byteLength(name)}:${name}${Buffer.byteLength(tlsAssets[name]!)}:`).update(tlsAssets[name]!);
  return `# TLS files: ${names.length}, sha256 ${digest.digest('hex').slice(0, 16)}\n${text}`;
}

/** What one AlertmanagerConfig adds to the configuration (its route absent: it adds only its inhibit rules, as upstream). */
interface ConfigPart {
  route: Record<string, unknown> | undefined;
  receivers: Record<string, unknown>[];
  inhibitRules: Record<string, unknown>[];
  timeIntervals: Record<string, unknown>[];
}

/**
 * One AlertmanagerConfig in Alertmanager's format; problems go to `context.findings`. A team's route is made to
 * continue (and confined with `confineTo`); with `topLevel` the route is the root route and is kept as written.
 */
export function renderAlertmanagerConfig(
  object: AlertmanagerConfig,
  context: {
    findings: Findings; secrets: SecretStore; confineTo: string | undefined; globals?: Readonly<Record<string, unknown>>; topLevel?: boolean;
    /** Where the object's TLS files go. */
    tlsAssets: Record<string, string>;
  },
): ConfigPart {
  const { findings, secrets, confineTo, globals, tlsAssets } = context;
  const namespace = object.metadata.namespace ?? '';
  const prefix = `${namespace}/${object.metadata.name ?? ''}/`;
  const qualified = (name: string) => `${prefix}${name}`;
  const spec = object.spec ?? {};

  const receiverNames = new Set<string>();
  const receivers = (spec.receivers ?? []).map((receiver, i) => {
    const path = `spec.receivers[${i}]`;
    if (receiverNames.has(receiver.name)) findings.problem(`${path}.name`, `another receiver is named ${JSON.stringify(receiver.name)}`);
    receiverNames.add(receiver.name);
    return renderReceiver(receiver, { namespace, path, secrets, findings, name: qualified(receiver.name), globals, tlsAssets });
  });

  // Alertmanager refuses two intervals of one name anywhere in the file; the prefix makes names unique across objects.
  const intervalNames = new Map<string, string>();
  const timeIntervals = (spec.muteTimeIntervals ?? []).map((interval, i) => {
    const first = intervalNames.get(interval.name);
    if (first !== undefined && interval.name) findings.problem(`spec.muteTimeIntervals[${i}].name`, `${shownValue(interval.name)} is already the name of ${first}; names must be unique in an AlertmanagerConfig`);
    else intervalNames.set(interval.name, `spec.muteTimeIntervals[${i}]`);
    return renderTimeInterval(interval, { path: `spec.muteTimeIntervals[${i}]`, findings, name: qualified(interval.name) });
  });

  const namespaceMatcher = confineTo === undefined ? undefined : equalityMatcher('namespace', confineTo);
  const inhibitRules = (spec.inhibitRules ?? []).map((rule, i) => {
    const path = `spec.inhibitRules[${i}]`;
    const confined = (matchers: string[]) => (namespaceMatcher === undefined || matchers.includes(namespaceMatcher) ? matchers : [...matchers, namespaceMatcher]);
    const target = confined(renderMatchers(rule.targetMatch, `${path}.targetMatch`, findings));
    const source = confined(renderMatchers(rule.sourceMatch, `${path}.sourceMatch`, findings));
    // Alertmanager refuses an empty label name in equal when it loads the file.
    (rule.equal ?? []).forEach((label, j) => {
      if (label === '') findings.problem(`${path}.equal[${j}]`, 'an empty string is not a label name');
    });
    return withoutUndefined({
      target_matchers: target.length > 0 ? target : undefined,
      source_matchers: source.length > 0 ? source : undefined,
      equal: rule.equal && rule.equal.length > 0 ? rule.equal : undefined,
    });
  });

  let route: Record<string, unknown> | undefined;
  if (spec.route) {
    route = renderRoute(spec.route, 'spec.route', { findings, qualified, receivers: receiverNames, timeIntervals: new Set(intervalNames.keys()) });
    if (context.topLevel) return { route, receivers, inhibitRules, timeIntervals };
    // The team's route sees only its namespace's alerts, and never stops the alerts from reaching the routes after
    // it (the next team's, and the platform's).
    const matchers = [...asList(route.matchers), ...(namespaceMatcher === undefined ? [] : [namespaceMatcher])];
    route = ordered({ ...route, matchers, continue: true }, ROUTE_KEY_ORDER);
  }
  return { route, receivers, inhibitRules, timeIntervals };
}

/**
 * The top of the configuration from `spec.alertmanagerConfiguration`: the `global` section and the named
 * AlertmanagerConfig as the root route, or the first problem with either, as the Alertmanager's.
 */
function topLevelConfiguration(
  configuration: NonNullable<Alertmanager['spec']>['alertmanagerConfiguration'] & {},
  object: AlertmanagerConfig | undefined,
  context: { namespace: string; secrets: SecretStore; version: readonly [number, number] | undefined },
): { ok: true; config: Record<string, unknown>; tlsAssets: Record<string, string> } | { ok: false; problem: FieldProblem } {
  const namePath = 'spec.alertmanagerConfiguration.name';
  const findings = new Findings();
  const tlsAssets: Record<string, string> = {};
  const global = configuration.global ? renderGlobalConfiguration(configuration.global, { ...context, findings, tlsAssets }) : undefined;
  const [globalProblem] = findings.problems;
  if (globalProblem) return { ok: false, problem: globalProblem };
  const templates = templateFiles(configuration.templates ?? [], context);
  if (!templates.ok) return templates;
  if (!configuration.name) return { ok: false, problem: { path: namePath, message: 'names no AlertmanagerConfig; give the one whose route and receivers make the configuration' } };
  if (!object) {
    return { ok: false, problem: { path: namePath, message: `AlertmanagerConfig ${shownValue(configuration.name)} not found in namespace ${shownValue(context.namespace)} (it must be in the Alertmanager's namespace)` } };
  }
  const part = renderAlertmanagerConfig(object, { findings, secrets: context.secrets, confineTo: undefined, globals: global ?? {}, topLevel: true, tlsAssets });
  const route = object.spec?.route;
  if (!route) findings.problem('spec.route', 'is required: this object\'s route is the root of the configuration');
  if (route?.continue === true) findings.problem('spec.route.continue', 'the root route cannot continue');
  if (route?.matchers && route.matchers.length > 0) findings.problem('spec.route.matchers', 'the root route matches every alert and cannot have matchers');
  for (const field of ['muteTimeIntervals', 'activeTimeIntervals'] as const) {
    if (route?.[field] && route[field].length > 0) findings.problem(`spec.route.${field}`, 'the root route cannot be muted or limited to time intervals');
  }
  const [problem] = findings.problems;
  if (problem) return { ok: false, problem: { path: namePath, message: `AlertmanagerConfig ${context.namespace}/${configuration.name}: ${problem.path}: ${problem.message}` } };
  const config = ordered({
    global,
    route: part.route,
    inhibit_rules: part.inhibitRules,
    receivers: part.receivers,
    mute_time_intervals: part.timeIntervals,
    templates: templates.paths,
  }, CONFIG_KEY_ORDER, ['templates']);
  return { ok: true, config, tlsAssets: { ...tlsAssets, ...templates.files } };
}

/**
 * The notification templates as prometheus-operator lists them (a ConfigMap's, then a Secret's, for each entry, at
 * ALERTMANAGER_TEMPLATES_DIR/<key>) and their contents, file name → text, read in the Alertmanager's namespace. Two
 * entries of one key give one file, the first's, as upstream's projected volume does. A template promop cannot read
 * is a problem (upstream's pod would not start); an optional one that does not exist is listed without a file,
 * which Alertmanager reads as a pattern matching nothing.
 */
function templateFiles(
  templates: NonNullable<NonNullable<Alertmanager['spec']>['alertmanagerConfiguration']>['templates'] & {},
  context: { namespace: string; secrets: SecretStore },
): { ok: true; paths: string[]; files: Record<string, string> } | { ok: false; problem: FieldProblem } {
  const paths: string[] = [];
  const files: Record<string, string> = {};
  for (const [index, template] of templates.entries()) {
    const sources = [['configMap', template.configMap], ['secret', template.secret]] as const;
    for (const [source, ref] of sources) {
      if (!ref) continue;
      const path = `spec.alertmanagerConfiguration.templates[${index}].${source}`;
      if (ref.key === ALERTMANAGER_CONFIG_FILE) return { ok: false, problem: { path: `${path}.key`, message: `${ALERTMANAGER_CONFIG_FILE} is the configuration's own file name in the pod; give the template another key` } };
      const read = source === 'secret' ? context.secrets.secretKey(context.namespace, ref, path) : context.secrets.configMapKey(context.namespace, ref, path);
      if (!read.ok) return read;
      paths.push(`${ALERTMANAGER_TEMPLATES_DIR}/${ref.key}`);
      if (read.value !== undefined && !Object.hasOwn(files, ref.key)) files[ref.key] = read.value;
    }
  }
  return { ok: true, paths, files };
}

/**
 * The base configuration (the default when there is none) as text and as a mapping, or why it cannot be used,
 * never quoting it (it holds credentials). AlertmanagerConfigs need its route: `needsRoute`.
 */
function parseBase(text: string | undefined, secretName: string, needsRoute: boolean): { ok: true; text: string; config: Record<string, unknown> } | { ok: false; problem: FieldProblem } {
  const source = text === undefined || text.trim() === '' ? DEFAULT_ALERTMANAGER_CONFIG : text;
  const path = 'spec.configSecret';
  const key = `key alertmanager.yaml of Secret ${secretName}`;
  let parsed: unknown;
  try {
    parsed = load(source);
  } catch (error) {
    const mark = (error as { mark?: { line?: number; column?: number } }).mark;
    const where = mark?.line === undefined ? '' : ` at line ${mark.line + 1}, column ${(mark.column ?? 0) + 1}`;
    return { ok: false, problem: { path, message: `${key} is not valid YAML${where}` } };
  }
  if (!isRecord(parsed)) return { ok: false, problem: { path, message: `${key} is not a YAML mapping` } };
  if (needsRoute && !isRecord(parsed.route)) return { ok: false, problem: { path, message: `${key} has no route, so AlertmanagerConfigs have nothing to attach their routes to` } };
  if (needsRoute && (typeof (parsed.route as Record<string, unknown>).receiver !== 'string' || (parsed.route as Record<string, unknown>).receiver === '')) {
    return { ok: false, problem: { path, message: `the route in ${key} has no receiver` } };
  }
  if (needsRoute) {
    // prometheus-operator loads the base with Alertmanager's own loader before merging: a route naming a receiver
    // or time interval the file does not define fails its reconcile (the running configuration stays), rather than
    // writing a file Alertmanager refuses.
    const missing = undefinedReference(parsed);
    if (missing) return { ok: false, problem: { path, message: `${key}: ${missing}` } };
  }
  return { ok: true, text: source, config: parsed };
}

/**
 * The first receiver or time interval the base's routes name and the base does not define (Alertmanager's loader
 * refuses both), as a sentence, or undefined. Routes deeper than Alertmanager would walk are not searched further.
 */
function undefinedReference(config: Record<string, unknown>): string | undefined {
  const names = (list: unknown) => new Set(asList(list).filter(isRecord).map((entry) => entry.name).filter((name): name is string => typeof name === 'string'));
  const receivers = names(config.receivers);
  const intervals = new Set([...names(config.mute_time_intervals), ...names(config.time_intervals)]);
  const visit = (route: unknown, depth: number): string | undefined => {
    if (!isRecord(route) || depth > 64) return undefined;
    if (typeof route.receiver === 'string' && route.receiver !== '' && !receivers.has(route.receiver)) return `undefined receiver ${JSON.stringify(route.receiver)} used in route`;
    for (const field of ['mute_time_intervals', 'active_time_intervals']) {
      const unknown = asList(route[field]).find((name) => typeof name === 'string' && !intervals.has(name));
      if (unknown !== undefined) return `undefined time interval ${JSON.stringify(unknown)} used in route`;
    }
    for (const child of asList(route.routes)) {
      const found = visit(child, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return visit(config.route, 0);
}

/** `major.minor` of spec.version (default promop's), or undefined when it is not a version (the image decides). */
function alertmanagerVersion(version: string | undefined): readonly [number, number] | undefined {
  const match = /^v?(\d{1,4})\.(\d{1,4})(?:\.|$)/.exec(version || DEFAULT_ALERTMANAGER_VERSION);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

function keyOf(object: AlertmanagerConfig): string {
  return `${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The keys of Alertmanager's configuration file in the order prometheus-operator writes them. */
const CONFIG_KEY_ORDER = ['global', 'route', 'inhibit_rules', 'receivers', 'mute_time_intervals', 'time_intervals', 'templates'];
/** The keys of a route in the order Alertmanager's (and prometheus-operator's) route struct has them. */
const ROUTE_KEY_ORDER = [
  'receiver', 'group_by', 'match', 'match_re', 'matchers', 'continue', 'routes', 'group_wait', 'group_interval', 'repeat_interval',
  'mute_time_intervals', 'active_time_intervals',
];

/**
 * `object` with its keys in `order` (keys `order` does not name follow, in their own order); undefined values and
 * empty lists are left out, except the keys in `keepEmpty`.
 */
function ordered(object: Record<string, unknown>, order: readonly string[], keepEmpty: readonly string[] = []): Record<string, unknown> {
  const keys = [...order.filter((key) => key in object), ...Object.keys(object).filter((key) => !order.includes(key))];
  const result: Record<string, unknown> = {};
  for (const key of keys) {
    const value = object[key];
    if (value === undefined || (Array.isArray(value) && value.length === 0 && !keepEmpty.includes(key))) continue;
    result[key] = value;
  }
  return result;
}
