/**
 * Renders objects that carry a sentinel in one string field and says whether the sentinel reached prometheus.yaml,
 * a scrape file or a rule file (imported by tests only, field-checks.test.ts). Each kind the generator renders has
 * base objects that are accepted as they are; the field is set on a copy of one of them, with the smallest valid
 * containers on the way (string-field-walk.ts) and Secret references that resolve to TEST_SECRETS.
 */
import { BYTE_SIZE_PATTERN, DURATION_PATTERN, podMonitorSchema, probeSchema, prometheusAgentSchema, prometheusRuleSchema, prometheusSchema, PROXY_URL_PATTERN, scrapeConfigSchema, serviceMonitorSchema, URL_PATTERN, type Kind } from '@promop/crds';
import { generate } from '../generate.ts';
import type { GeneratorInput, GeneratorOutput, KeyValueSource } from '../model.ts';
import { TEST_CERT, TEST_CONFIG_MAPS, TEST_KEY, TEST_SECRETS } from './scrape-harness.ts';
import { minimalValue, schemaStrings, withValueAt, type SchemaNode, type SchemaStrings, type StringField, type ValueHint } from './string-field-walk.ts';

/** The word every plain-string sentinel contains: nothing promop writes on its own contains it. */
export const SENTINEL = 'zqsentinel';

/**
 * Plain-string sentinels, tried in order until one is accepted and found: a bare word (a name, a label, a regex, a
 * PromQL selector), then the shapes fields with a grammar of their own need (the last one a UUID, as Azure IDs are).
 */
const PLAIN_SENTINELS = [SENTINEL, `${SENTINEL}:9115`, `/${SENTINEL}`, `http://${SENTINEL}.example/`, `app=${SENTINEL}`, '4.711', `/${SENTINEL}.json`, '2a5e4711-0000-4000-8000-00000000a711'];

/**
 * Values for the schema patterns: each matches its pattern, is written as it is, and is unlikely anywhere else in
 * the output. Several for durations: a timeout must not exceed its interval.
 */
const PATTERN_SENTINELS: Readonly<Record<string, readonly string[]>> = {
  [DURATION_PATTERN]: ['1y2w3d4h5m6s7ms', '29s17ms', '17ms'],
  [BYTE_SIZE_PATTERN]: ['4711KiB'],
  [URL_PATTERN]: [`http://${SENTINEL}.example/`],
  [PROXY_URL_PATTERN]: [`http://${SENTINEL}.example:3128/`],
};

/** Values for the schema patterns in the containers built around a sentinel (never the sentinel itself). */
const PATTERN_MINIMA: Readonly<Record<string, string>> = {
  [DURATION_PATTERN]: '10s',
  [BYTE_SIZE_PATTERN]: '1MB',
  [URL_PATTERN]: 'http://minimal.example/',
  [PROXY_URL_PATTERN]: 'http://proxy.example:3128/',
};

/** The kinds whose string fields can reach the configuration. */
// Alertmanager's fields reach alertmanager.yaml, a ThanosRuler's thanos rule's flags: not prometheus.yaml.
export type RenderedKind = Exclude<Kind, 'Alertmanager' | 'AlertmanagerConfig' | 'ThanosRuler'>;

/** The spec schema of each kind. */
export const SPEC_SCHEMAS: Readonly<Record<RenderedKind, SchemaNode>> = {
  Prometheus: prometheusSchema.properties.spec as SchemaNode,
  PrometheusAgent: prometheusAgentSchema.properties.spec as SchemaNode,
  ServiceMonitor: serviceMonitorSchema.properties.spec as SchemaNode,
  PodMonitor: podMonitorSchema.properties.spec as SchemaNode,
  Probe: probeSchema.properties.spec as SchemaNode,
  ScrapeConfig: scrapeConfigSchema.properties.spec as SchemaNode,
  PrometheusRule: prometheusRuleSchema.properties.spec as SchemaNode,
};

/** Every string field of every kind, as `Kind.path`, and the opaque objects. */
export function allStringFields(): { strings: (StringField & { kind: RenderedKind; key: string })[]; opaque: string[] } {
  const strings: (StringField & { kind: RenderedKind; key: string })[] = [];
  const opaque: string[] = [];
  for (const [kind, schema] of Object.entries(SPEC_SCHEMAS) as [RenderedKind, SchemaNode][]) {
    const found: SchemaStrings = schemaStrings(schema);
    strings.push(...found.strings.map((field) => ({ ...field, kind, key: `${kind}.${field.path}` })));
    opaque.push(...found.opaque.map((path) => `${kind}.${path}`));
  }
  return { strings, opaque };
}

/** An Azure client or tenant ID the generator accepts (a UUID). */
const AZURE_ID = '1f0c8a52-7d8e-4c5b-9a3e-2b6f4d1e8c70';
const RELABELING_LIST = /(^|\.)(relabelings|metricRelabelings|writeRelabelConfigs|relabelingConfigs|alertRelabelings)\[\]$/;
const PROXY_URL = 'http://proxy.example:3128/';

/** The Secret or ConfigMap key a reference at `path` needs to resolve to usable content. */
function referenceAt(path: string): { name: string; key: string } {
  if (/(^|\.)keySecret$/.test(path)) return { name: 'tls-key', key: 'tls.key' };
  if (/(^|\.)(ca|cert)\.configMap$/.test(path)) return { name: 'ca', key: 'ca.crt' };
  if (/(^|\.)(ca|cert)\.secret$/.test(path)) return { name: 'tls', key: path.endsWith('ca.secret') ? 'ca.crt' : 'tls.crt' };
  if (/(^|\.)clientId\.(secret|configMap)$/.test(path)) return { name: 'creds', key: 'client-id' };
  if (/(^|\.)username$/.test(path)) return { name: 'creds', key: 'user' };
  if (/(^|\.)password$/.test(path)) return { name: 'creds', key: 'password' };
  if (/(^|\.)clientSecret$/.test(path)) return { name: 'creds', key: 'client-secret' };
  return { name: 'creds', key: 'token' };
}

/**
 * Containers that must hold more than their required fields to be accepted or rendered; `target` is the field the
 * sentinel goes to (a CA from a Secret when that is the target, else from a ConfigMap…).
 */
function hintFor(target: string): ValueHint {
  return (path, node) => {
    if (node.pattern && PATTERN_MINIMA[node.pattern]) return PATTERN_MINIMA[node.pattern];
    if (RELABELING_LIST.test(path)) return { sourceLabels: ['__address__'], targetLabel: 'zz_target' };
    if (/(^|\.)azureAd\.\w+\.(clientId|tenantId)$/.test(path)) return AZURE_ID;
    if (/(^|\.)(ca|cert|clientId)$/.test(path)) {
      const from = target.startsWith(`${path}.configMap`) || (/(^|\.)ca$/.test(path) && !target.startsWith(`${path}.secret`)) ? 'configMap' : 'secret';
      return { [from]: referenceAt(`${path}.${from}`) };
    }
    if (node.properties && 'key' in node.properties && 'name' in node.properties && 'optional' in node.properties) return referenceAt(path);
    if (/proxyConnectHeader\{\}$/.test(path)) return [{ name: 'creds', key: 'token' }];
    if (/(^|\.)matchExpressions\[\]$/.test(path)) return { key: 'app', operator: 'In', values: ['a'] };
    if (/^scrapeClasses\[\]$/.test(path)) return { name: 'zz_class', default: true };
    if (/^endpoints\[\]$|^podMetricsEndpoints\[\]$/.test(path)) return { port: 'web' };
    if (/^prober$/.test(path)) return { url: 'blackbox:9115' };
    if (/^fileSDConfigs\[\]$/.test(path)) return { files: ['/etc/prometheus/sd/targets.json'] };
    if (/\.rules\[\]$/.test(path)) return { record: 'zz_rec', expr: 'up' };
    return undefined;
  };
}

/** `prefix` + `.` + `field`, for a prefix that may be empty (a field of the spec itself). */
const under = (prefix: string | undefined, field: string) => (prefix ? `${prefix}.${field}` : field);

/**
 * Sibling fields a field is only rendered or accepted with: the field's path (with its kind) → paths and values
 * set before the sentinel (undefined removes a field).
 */
const COMPANIONS: readonly [RegExp, (match: RegExpExecArray) => [string, unknown][]][] = [
  [/^\w+\.(?:(.*)\.)?(noProxy|proxyConnectHeader)/, (m) => [[under(m[1], 'proxyUrl'), PROXY_URL]]],
  [/^\w+\.(?:(.*)\.)?tlsConfig\.(cert\.|certFile$)/, (m) => [[under(m[1], 'tlsConfig.keySecret'), referenceAt('keySecret')]]],
  [/^\w+\.(?:(.*)\.)?tlsConfig\.(keySecret\.|keyFile$)/, (m) => [[under(m[1], 'tlsConfig.cert'), { secret: referenceAt('cert.secret') }]]],
  [/^\w+\.(?:(.*)\.)?basicAuth\.username\./, (m) => [[under(m[1], 'basicAuth.password'), referenceAt('password')]]],
  [/^\w+\.(?:(.*)\.)?basicAuth\.password\./, (m) => [[under(m[1], 'basicAuth.username'), referenceAt('username')]]],
  [/^\w+\.(?:(.*)\.)?authorization\.type$/, (m) => [[under(m[1], 'authorization.credentials'), referenceAt('credentials')]]],
  [/^\w+\.(?:(.*)\.)?sigv4\.accessKey\./, (m) => [[under(m[1], 'sigv4.secretKey'), referenceAt('secretKey')]]],
  [/^\w+\.(?:(.*)\.)?sigv4\.secretKey\./, (m) => [[under(m[1], 'sigv4.accessKey'), referenceAt('accessKey')]]],
  [/^Prometheus(Agent)?\.apiserverConfig\.(?!host$)/, () => [['apiserverConfig.host', 'https://kube.example:6443']]],
  [/^Prometheus(Agent)?\.otlp\.ignoreResourceAttributes/, () => [['otlp.promoteAllResourceAttributes', true]]],
  [/^(ServiceMonitor\.endpoints|PodMonitor\.podMetricsEndpoints)\[\]\.targetPort$/, (m) => [[`${m[1]!.split('.')[1]}[].port`, undefined]]],
];

/**
 * TEST_SECRETS and TEST_CONFIG_MAPS, each key also under the sentinel's name and a Secret and a ConfigMap named
 * after it, so a reference whose name or key is the sentinel resolves.
 */
function withSentinelKeys(sources: readonly KeyValueSource[], extra: KeyValueSource[]): KeyValueSource[] {
  const all = [...sources, ...extra];
  const everything = Object.assign({}, ...all.filter((source) => source.namespace === 'default').map((source) => source.data)) as Record<string, string>;
  return [
    ...all.map((source) => (source.namespace !== 'default' ? source : { ...source, data: { ...source.data, [SENTINEL]: source.name === 'tls-key' ? TEST_KEY : (source.name === 'tls' || source.name === 'ca') ? TEST_CERT : 'tok3n' } })),
    { namespace: 'default', name: SENTINEL, data: everything },
  ];
}
const SECRETS = withSentinelKeys(TEST_SECRETS, [{ namespace: 'default', name: 'tls-key', data: { 'tls.key': TEST_KEY } }]);
const CONFIG_MAPS = withSentinelKeys(TEST_CONFIG_MAPS, [{ namespace: 'default', name: 'creds', data: { 'client-id': 'promop' } }]);

const META = { namespace: 'default', name: 'test', uid: '00000000-0000-0000-0000-000000000001' };

const SELECT_ALL = { serviceMonitorSelector: {}, podMonitorSelector: {}, probeSelector: {}, scrapeConfigSelector: {}, ruleSelector: {} };

/** Base specs of each kind, each accepted as it is; a field is tried on each in turn. */
const BASES: Readonly<Record<RenderedKind, readonly Record<string, unknown>[]>> = {
  Prometheus: [{ ...SELECT_ALL, scrapeInterval: '30s', evaluationInterval: '30s' }, { ...SELECT_ALL, scrapeInterval: '30s', evaluationInterval: '30s', alerting: { alertmanagers: [{ name: 'am', port: 'web' }] } }],
  PrometheusAgent: [{ ...SELECT_ALL, ruleSelector: undefined, scrapeInterval: '30s' }],
  ServiceMonitor: [{ selector: {}, endpoints: [{ port: 'web' }] }],
  PodMonitor: [{ selector: {}, podMetricsEndpoints: [{ port: 'web' }] }],
  Probe: [
    { prober: { url: 'blackbox:9115' }, targets: { staticConfig: { static: ['http://a.example'] } } },
    { prober: { url: 'blackbox:9115' }, targets: { ingress: { selector: {} } } },
  ],
  ScrapeConfig: [{ staticConfigs: [{ targets: ['a:80'] }] }],
  PrometheusRule: [
    { groups: [{ name: 'g', rules: [{ record: 'zz_rec', expr: 'up' }] }] },
    { groups: [{ name: 'g', rules: [{ alert: 'ZzAlert', expr: 'up' }] }] },
  ],
};

const API_VERSIONS: Readonly<Record<RenderedKind, string>> = {
  Prometheus: 'monitoring.coreos.com/v1',
  PrometheusAgent: 'monitoring.coreos.com/v1alpha1',
  ServiceMonitor: 'monitoring.coreos.com/v1',
  PodMonitor: 'monitoring.coreos.com/v1',
  Probe: 'monitoring.coreos.com/v1',
  ScrapeConfig: 'monitoring.coreos.com/v1alpha1',
  PrometheusRule: 'monitoring.coreos.com/v1',
};

const LISTS: Partial<Record<RenderedKind, keyof GeneratorInput>> = {
  ServiceMonitor: 'serviceMonitors',
  PodMonitor: 'podMonitors',
  Probe: 'probes',
  ScrapeConfig: 'scrapeConfigs',
  PrometheusRule: 'prometheusRules',
};

function object(kind: RenderedKind, spec: unknown): Record<string, unknown> {
  return { apiVersion: API_VERSIONS[kind], kind, metadata: { ...META, name: kind === 'Prometheus' || kind === 'PrometheusAgent' ? 'test' : `${kind.toLowerCase()}-test` }, spec };
}

/** The generator input with `spec` as an object of `kind`, a base object of every other kind that can be selected. */
function inputWith(kind: RenderedKind, spec: unknown): GeneratorInput {
  const isServer = kind === 'Prometheus' || kind === 'PrometheusAgent';
  const prometheus = isServer ? object(kind, spec) : object('Prometheus', BASES.Prometheus[0]);
  const candidate = (other: RenderedKind) => [object(other, other === kind ? spec : BASES[other][0])];
  return {
    prometheus: prometheus as GeneratorInput['prometheus'],
    serviceMonitors: candidate('ServiceMonitor') as GeneratorInput['serviceMonitors'],
    podMonitors: (isServer || kind === 'PodMonitor' ? candidate('PodMonitor') : []) as GeneratorInput['podMonitors'],
    probes: (kind === 'Probe' ? candidate('Probe') : []) as GeneratorInput['probes'],
    scrapeConfigs: (kind === 'ScrapeConfig' ? candidate('ScrapeConfig') : []) as GeneratorInput['scrapeConfigs'],
    prometheusRules: (isServer || kind === 'PrometheusRule' ? candidate('PrometheusRule') : []) as GeneratorInput['prometheusRules'],
    namespaces: [{ name: 'default', labels: {} }],
    secrets: SECRETS,
    configMaps: CONFIG_MAPS,
  };
}

/** Whether the object of `kind` in the input was accepted (for a Prometheus: the whole output is ok). */
function accepted(kind: RenderedKind, output: GeneratorOutput): boolean {
  if (!output.ok) return false;
  if (!LISTS[kind]) return true;
  const verdict = output.verdicts.find((v) => v.resource.kind === kind);
  return verdict !== undefined && verdict.selected && verdict.accepted;
}

/** Everything the generator wrote that Prometheus reads: prometheus.yaml, scrape files and rule files. */
export function outputText(output: GeneratorOutput): string {
  return [
    ...output.configs,
    ...output.scrapeFiles.flat().map((file) => file.text),
    ...output.ruleConfigMaps.flatMap((configMap) => Object.values(configMap.files)),
  ].join('\n');
}

/** What happened to a field's sentinel. */
export type Reach =
  | { reaches: true; value: string; base: number; text: string }
  | { reaches: false; why: 'never accepted'; reasons: string[] }
  | { reaches: false; why: 'accepted, not written' };

/** Renders `value` at `path` of a base object of `kind` (base `base`); undefined when rejected. */
export function renderWith(kind: RenderedKind, path: string, value: string, base: number): { output: GeneratorOutput; accepted: boolean } {
  const hint = hintFor(path);
  let spec: unknown = BASES[kind][base];
  for (const [pattern, companions] of COMPANIONS) {
    const match = pattern.exec(`${kind}.${path}`);
    if (match) for (const [at, companion] of companions(match)) spec = withValueAt(spec, SPEC_SCHEMAS[kind], at, companion, hint);
  }
  spec = withValueAt(spec, SPEC_SCHEMAS[kind], path, value, hint);
  const output = generate(inputWith(kind, spec));
  return { output, accepted: accepted(kind, output) };
}

/** The number of base objects of `kind`. */
export function baseCount(kind: RenderedKind): number {
  return BASES[kind].length;
}

/** Sentinels for a string field (plain, or matching its schema pattern); none for an enum. */
export function sentinelsFor(node: SchemaNode): readonly string[] {
  if (node.enum) return [];
  if (node.pattern) return PATTERN_SENTINELS[node.pattern] ?? [];
  return PLAIN_SENTINELS;
}

function problemsOf(kind: RenderedKind, output: GeneratorOutput): string[] {
  const verdict = output.verdicts.find((v) => v.resource.kind === kind);
  const own = verdict && verdict.selected && !verdict.accepted ? verdict.problems.map((p) => `${p.path}: ${p.message}`) : [];
  return [...output.prometheusProblems.map((p) => `${p.path}: ${p.message}`), ...own];
}

/** Tries each sentinel on each base object until one is accepted and written. */
export function reachOf(kind: RenderedKind, field: StringField): Reach {
  let anyAccepted = false;
  const reasons = new Set<string>();
  for (let base = 0; base < baseCount(kind); base++) {
    for (const value of sentinelsFor(field.node)) {
      const { output, accepted: ok } = renderWith(kind, field.path, value, base);
      if (!ok) {
        for (const reason of problemsOf(kind, output)) reasons.add(reason);
        continue;
      }
      anyAccepted = true;
      const text = outputText(output);
      const needle = value.includes(SENTINEL) ? SENTINEL : value;
      if (text.includes(needle)) return { reaches: true, value, base, text };
    }
  }
  return anyAccepted ? { reaches: false, why: 'accepted, not written' } : { reaches: false, why: 'never accepted', reasons: [...reasons] };
}

/** The smallest valid value of the node at `path` of `kind`, as the walk builds it (for tests of the harness). */
export function minimalAt(node: SchemaNode, path: string): unknown {
  return minimalValue(node, path, hintFor(path));
}
