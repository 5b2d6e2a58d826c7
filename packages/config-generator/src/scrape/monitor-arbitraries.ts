/**
 * fast-check generators of monitors as users write them (mostly well formed, sometimes not) and
 * the property both monitor kinds must have. Test support: imported by *.property.test.ts only.
 */
import fc from 'fast-check';
import type { PodMonitor, ServiceMonitor } from '@promop/crds';
import type { MonitorRendering, ScrapeContext } from './scrape-context.ts';
import { promtoolCheckConfigs, testContext, wrapScrapeConfigs } from '../test-support/scrape-harness.ts';

type Ep = NonNullable<ServiceMonitor['spec']['endpoints']>[number];
type Relabel = NonNullable<Ep['relabelings']>[number];

const opt = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined, freq: 2 });
const dnsLabel = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}[a-z0-9]$/);
const labelKey = fc.constantFrom('app', 'team', 'app.kubernetes.io/name', 'tier', 'k8s-app', 'example.com/owner');
const labelValue = fc.stringMatching(/^[a-z0-9]([a-z0-9._-]{0,6}[a-z0-9])?$/);
const duration = fc.constantFrom('5s', '10s', '15s', '30s', '1m', '1m30s', '2m', '0', '1h');
const labelName = fc.constantFrom('__address__', '__meta_kubernetes_pod_name', 'job', 'instance', 'app', '__name__', 'team');
const validRegex = fc.constantFrom('(.*)', '(.+)', 'foo|bar', '[[:alpha:]]+', '(?i)debug_.*', '\\d+', 'a{2,3}', 'go_.*', '(?P<x>a)b', '8080');
const sources = fc.array(labelName, { minLength: 1, maxLength: 3 });

/** Relabelings as users write them: mostly well formed, sometimes not (those must be rejected). */
const wellFormedRelabeling = fc.oneof(
  fc.record({ sourceLabels: sources, separator: fc.constantFrom(';', '-'), targetLabel: labelName, regex: validRegex, replacement: fc.constantFrom('$1', '${1}', 'x', ''), action: fc.constantFrom('replace', 'Replace') }, { requiredKeys: ['targetLabel'] }),
  fc.record({ sourceLabels: sources, regex: validRegex, action: fc.constantFrom('keep', 'drop', 'Keep') }),
  fc.record({ sourceLabels: sources, targetLabel: labelName, modulus: fc.integer({ min: 1, max: 8 }), action: fc.constantFrom('hashmod', 'HashMod') }),
  fc.record({ regex: fc.constant('__meta_kubernetes_pod_label_(.+)'), replacement: fc.constantFrom('$1', 'pod_${1}'), action: fc.constant('labelmap') }, { requiredKeys: ['action'] }),
  fc.record({ regex: validRegex, action: fc.constantFrom('labeldrop', 'labelkeep', 'LabelDrop') }),
  fc.record({ sourceLabels: sources, targetLabel: labelName, action: fc.constantFrom('lowercase', 'uppercase', 'keepequal', 'dropequal') }),
);
const anyLabel = fc.constantFrom('__address__', 'job', 'ns-key', '', 'app');
const chaosRelabeling = fc.record(
  {
    sourceLabels: fc.array(anyLabel, { maxLength: 3 }),
    separator: fc.constantFrom(';', '-', ''),
    targetLabel: anyLabel,
    regex: fc.constantFrom('(.*)', '(', 'a(?=b)', '', '\\1', '[z-a]'),
    modulus: fc.integer({ min: 0, max: 8 }),
    replacement: fc.constantFrom('$1', 'x', ''),
    action: fc.constantFrom('replace', 'hashmod', 'labeldrop', 'keepequal', 'unknown', 'lowercase'),
  },
  { requiredKeys: [] },
);
const relabeling: fc.Arbitrary<Relabel> = fc.oneof({ weight: 12, arbitrary: wellFormedRelabeling }, { weight: 1, arbitrary: chaosRelabeling }) as fc.Arbitrary<Relabel>;

const secretRef = (keys: string[]) => fc.record({ name: fc.constantFrom('creds', 'creds', 'creds', 'creds', 'creds', 'creds', 'missing'), key: fc.constantFrom(...keys) });
const tlsRef = (key: string) => fc.oneof(fc.record({ secret: fc.constant({ name: 'tls', key }) }), fc.record({ configMap: fc.constant({ name: 'ca', key: 'ca.crt' }) }));

const auth = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  fc.record({ basicAuth: fc.record({ username: secretRef(['user']), password: secretRef(['password', 'nope']) }) }),
  fc.record({ bearerTokenSecret: secretRef(['token']) }),
  fc.record({ bearerTokenFile: fc.constant('/var/run/secrets/kubernetes.io/serviceaccount/token') }),
  fc.record({ authorization: fc.record({ type: opt(fc.constantFrom('Bearer', 'Token', 'Bearer', 'Token', 'Basic')), credentials: opt(secretRef(['token'])) }) }),
  fc.record({
    oauth2: fc.record({
      clientId: fc.record({ secret: secretRef(['client-id']) }),
      clientSecret: secretRef(['client-secret']),
      tokenUrl: fc.constant('https://auth.example.com/token'),
      scopes: opt(fc.array(fc.constantFrom('read', 'metrics'), { maxLength: 2 })),
      endpointParams: opt(fc.dictionary(fc.constantFrom('audience', 'resource'), fc.constantFrom('prometheus', 'x'))),
    }),
  }),
  // Two methods at once: must be rejected.
  { weight: 1, arbitrary: fc.record({ basicAuth: fc.record({ username: secretRef(['user']) }), authorization: fc.record({ credentials: secretRef(['token']) }) }) },
);

const tlsConfig = fc.oneof(
  { weight: 3, arbitrary: fc.record({ ca: tlsRef('ca.crt'), serverName: opt(fc.constantFrom('app.default.svc', 'example')) }) },
  fc.record({ ca: tlsRef('ca.crt'), cert: tlsRef('tls.crt'), keySecret: fc.constant({ name: 'tls', key: 'tls.key' }), minVersion: opt(fc.constantFrom('TLS12', 'TLS13')) }),
  fc.record({ insecureSkipVerify: fc.boolean(), maxVersion: opt(fc.constantFrom('TLS12', 'TLS13')) }),
  fc.record({ caFile: fc.constant('/etc/ssl/ca.crt'), certFile: fc.constant('/etc/ssl/tls.crt'), keyFile: fc.constant('/etc/ssl/tls.key') }),
  // Inconsistent: a certificate without its key, or versions in the wrong order.
  { weight: 1, arbitrary: fc.record({ cert: tlsRef('tls.crt'), minVersion: fc.constant('TLS13'), maxVersion: fc.constant('TLS12') }, { requiredKeys: [] }) },
);

const proxy = fc.oneof(
  fc.constant({}),
  fc.record({ proxyUrl: fc.constantFrom('http://proxy:3128', 'socks5://proxy:1080'), noProxy: opt(fc.constant('localhost')) }),
  fc.record({ proxyFromEnvironment: fc.boolean() }),
  fc.record({ proxyUrl: fc.constant('http://proxy:3128'), proxyConnectHeader: fc.constant({ 'Proxy-Authorization': [{ name: 'creds', key: 'header' }] }) }),
);

const port = fc.oneof(
  fc.record({ port: fc.constantFrom('web', 'metrics', 'https-main') }),
  fc.record({ targetPort: fc.oneof(fc.integer({ min: 1, max: 65535 }), fc.constantFrom('metrics', 'http')) }),
  fc.constant({}),
);

/** ServiceMonitor endpoints: a port, HTTP settings, intervals, relabelings, TLS, one auth method at most, a proxy. */
const endpoint: fc.Arbitrary<Ep> = fc
  .tuple(
    port,
    fc.record(
      {
        path: fc.constantFrom('/metrics', '/federate', '/api/v1/metrics'),
        scheme: fc.constantFrom('http', 'https', 'HTTPS'),
        params: fc.dictionary(fc.constantFrom('module', 'match[]', 'target'), fc.array(fc.constantFrom('a', 'up', 'x y'), { minLength: 1, maxLength: 2 })),
        intervals: fc.oneof(
          { weight: 8, arbitrary: fc.record({ interval: fc.constantFrom('30s', '1m', '2m', '1h'), scrapeTimeout: fc.constantFrom('5s', '10s', '30s') }, { requiredKeys: [] }) },
          { weight: 1, arbitrary: fc.record({ interval: duration, scrapeTimeout: duration }) },
        ),
        honorLabels: fc.boolean(),
        honorTimestamps: fc.boolean(),
        trackTimestampsStaleness: fc.boolean(),
        filterRunning: fc.boolean(),
        followRedirects: fc.boolean(),
        enableHttp2: fc.boolean(),
        relabelings: fc.array(relabeling, { maxLength: 3 }),
        metricRelabelings: fc.array(relabeling, { maxLength: 2 }),
        tlsConfig,
      },
      { requiredKeys: [] },
    ),
    auth,
    proxy,
  )
  .map(([p, { intervals, ...rest }, a, x]) => ({ ...p, ...intervals, ...rest, ...a, ...x }) as Ep);

/** Whole ServiceMonitors, valid or not, with one to three generated endpoints. */
export const serviceMonitor: fc.Arbitrary<ServiceMonitor> = fc
  .record({
    name: dnsLabel,
    namespace: fc.constantFrom('default', 'default', 'default', 'default', 'team'),
    selector: fc.record(
      {
        matchLabels: fc.dictionary(labelKey, labelValue, { maxKeys: 2 }),
        matchExpressions: fc.array(
          fc.oneof(
            fc.record({ key: labelKey, operator: fc.constantFrom('In', 'NotIn'), values: fc.array(labelValue, { minLength: 1, maxLength: 3 }) }),
            fc.record({ key: labelKey, operator: fc.constantFrom('Exists', 'DoesNotExist') }),
          ),
          { maxLength: 2 },
        ),
      },
      { requiredKeys: [] },
    ),
    rest: fc.record(
      {
        namespaceSelector: fc.oneof(fc.record({ any: fc.boolean() }), fc.record({ matchNames: fc.array(dnsLabel, { maxLength: 2 }) })),
        jobLabel: labelKey,
        targetLabels: fc.array(labelKey, { maxLength: 2 }),
        podTargetLabels: fc.array(labelKey, { maxLength: 2 }),
        sampleLimit: fc.integer({ min: 0, max: 100000 }),
        targetLimit: fc.integer({ min: 0, max: 1000 }),
        labelLimit: fc.integer({ min: 0, max: 100 }),
        keepDroppedTargets: fc.integer({ min: 0, max: 100 }),
        bodySizeLimit: fc.constantFrom('10MB', '1GiB', '512KB', '0'),
        scrapeProtocols: fc.subarray(['PrometheusProto', 'OpenMetricsText1.0.0', 'PrometheusText0.0.4', 'PrometheusText1.0.0'], { minLength: 1 }),
        fallbackScrapeProtocol: fc.constantFrom('PrometheusText0.0.4', 'OpenMetricsText1.0.0'),
        serviceDiscoveryRole: fc.constantFrom('Endpoints', 'EndpointSlice'),
        selectorMechanism: fc.constantFrom('RelabelConfig', 'RoleSelector'),
        attachMetadata: fc.record({ node: fc.boolean() }),
      },
      { requiredKeys: [] },
    ),
    endpoints: fc.array(endpoint, { minLength: 1, maxLength: 3 }),
  })
  .map(
    ({ name, namespace, selector, rest, endpoints }) =>
      ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name, namespace }, spec: { selector, ...rest, endpoints } }) as ServiceMonitor,
  );

/** The Prometheus side: a version (or none) and the ScrapeContext knobs that change rendering. */
const context: fc.Arbitrary<{ overrides: Partial<ScrapeContext>; version: string }> = fc.record({
  version: fc.constantFrom('v2.50.0', 'v3.0.0', 'v3.5.0', ''),
  overrides: fc.record(
    {
      serviceDiscoveryRole: fc.constantFrom('endpoints' as const, 'endpointslice' as const),
      enforcedNamespaceLabel: fc.constantFrom('namespace', 'tenant'),
      enforcedSampleLimit: fc.integer({ min: 1, max: 50000 }),
      enforcedBodySizeLimit: fc.constantFrom('5MB', '100MB'),
      overrideHonorLabels: fc.boolean(),
      overrideHonorTimestamps: fc.boolean(),
      ignoreNamespaceSelectors: fc.boolean(),
      denyFileSystemAccess: fc.constantFrom(false, false, false, true),
      shards: fc.integer({ min: 1, max: 4 }),
    },
    { requiredKeys: [] },
  ),
});

type PmEp = NonNullable<PodMonitor['spec']['podMetricsEndpoints']>[number];

/** PodMonitor endpoints: the ServiceMonitor ones without file access, ports by name or number. */
const podEndpoint: fc.Arbitrary<PmEp> = fc.tuple(endpoint, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined })).map(([ep, portNumber]) => {
  const { bearerTokenFile: _file, tlsConfig, ...rest } = ep;
  const safeTls = tlsConfig ? Object.fromEntries(Object.entries(tlsConfig).filter(([k]) => !k.endsWith('File'))) : undefined;
  return { ...rest, ...(safeTls ? { tlsConfig: safeTls } : {}), ...(portNumber !== undefined && !rest.port ? { portNumber } : {}) } as PmEp;
});

/** Whole PodMonitors: a generated ServiceMonitor's spec without the Service-only fields, with pod endpoints. */
export const podMonitor: fc.Arbitrary<PodMonitor> = fc
  .tuple(serviceMonitor, fc.array(podEndpoint, { minLength: 1, maxLength: 3 }))
  .map(([sm, endpoints]) => {
    const { endpoints: _e, targetLabels: _t, serviceDiscoveryRole: _r, ...spec } = sm.spec;
    return { apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor', metadata: sm.metadata, spec: { ...spec, podMetricsEndpoints: endpoints } } as PodMonitor;
  });

/**
 * The property: rendering any generated monitor either gives configs the real promtool accepts
 * (checked in batches of 50 files per promtool run) or rejects it with reasons; it never throws
 * and is deterministic. `PROPERTY_RUNS=5000` searches deeper and prints the rejection reasons.
 */
export async function expectValidOrRejected<M>(monitors: fc.Arbitrary<M>, render: (monitor: M, ctx: ScrapeContext) => MonitorRendering): Promise<void> {
  const accepted: string[] = [];
  let rejected = 0;
  const reasons = new Map<string, number>();
  fc.assert(
    fc.property(monitors, context, (monitor, { overrides, version }) => {
      const ctx = testContext({ ...overrides, shard: (overrides.shards ?? 1) - 1 }, version);
      const result = render(monitor, ctx);
      // Same input, same output (no hidden state, no clock).
      expect(render(monitor, ctx)).toEqual(result);
      if (!result.ok) {
        rejected++;
        const reason = (result.problems[0]?.message ?? '').replace(/"[^"]*"/g, '"…"');
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        expect(result.problems.length).toBeGreaterThan(0);
        for (const problem of result.problems) {
          expect(problem.path).toMatch(/^spec(\.|$)/);
          expect(problem.message.length).toBeGreaterThan(5);
        }
        return;
      }
      accepted.push(wrapScrapeConfigs(result.scrapeConfigs));
    }),
    // PROPERTY_RUNS=5000 for a deeper local search; the default keeps the suite fast.
    { numRuns: Number(process.env.PROPERTY_RUNS ?? 200) },
  );
  if (process.env.PROPERTY_RUNS) console.log(`accepted ${accepted.length}, rejected ${rejected}`, [...reasons].sort((a, b) => b[1] - a[1]));
  // Both outcomes must be exercised, or the generator is not testing anything.
  expect(accepted.length).toBeGreaterThan(20);
  expect(rejected).toBeGreaterThan(20);

  const failures: string[] = [];
  for (let i = 0; i < accepted.length; i += 50) {
    const batch = accepted.slice(i, i + 50);
    const result = await promtoolCheckConfigs(batch);
    if (result.code !== 0) {
      for (const line of result.stderr.split('\n').filter((l) => l.includes('FAILED'))) {
        const index = result.files.findIndex((f) => line.includes(f));
        failures.push(`${line}\n${batch[index] ?? ''}`);
      }
      if (failures.length === 0) failures.push(result.stderr);
    }
  }
  expect(failures.slice(0, 2)).toEqual([]);
}
