/**
 * Probe rendering: goldens under test/golden/scrape/probe-*.yaml (reviewed against prometheus-operator's
 * Probe goldens: job name, key order, the prober relabelings, sharding on __param_target), promtool acceptance,
 * and the bad Probes that are rejected alone with a field path.
 */
import type { Probe } from '@promop/crds';
import { load } from 'js-yaml';
import { generate } from '../generate.ts';
import { renderProbe } from './probe.ts';
import { proberAddressError } from './prober-address.ts';
import type { ScrapeContext } from './scrape-context.ts';
import { describeGoldens, promtoolCheckConfigs, testContext, testPrometheus, wrapScrapeConfigs, type GoldenCaseBase } from '../test-support/scrape-harness.ts';

function probe(spec: Probe['spec'], name = 'testprobe1', namespace = 'default'): Probe {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'Probe', metadata: { name, namespace }, spec };
}

const prober = { url: 'blackbox.exporter.io', scheme: 'http', path: '/probe' } as const;

interface GoldenCase extends GoldenCaseBase {
  probe: Probe;
}

const cases: GoldenCase[] = [
  {
    name: 'probe-static',
    probe: probe({
      prober,
      module: 'http_2xx',
      targets: { staticConfig: { static: ['prometheus.io', 'promcon.io'], labels: { static: 'label' }, relabelingConfigs: [{ targetLabel: 'foo', replacement: 'bar', action: 'replace' }] } },
    }),
    ctx: { shard: undefined },
  },
  {
    // prometheus-operator's ProbeIngressSDConfigGenerationWithLabelEnforce, but for the retention rules promop does not write.
    name: 'probe-ingress-enforced',
    probe: probe({
      prober,
      module: 'http_2xx',
      targets: {
        ingress: {
          selector: { matchLabels: { 'prometheus.io/probe': 'true' } },
          namespaceSelector: { any: true },
          relabelingConfigs: [{ targetLabel: 'foo', replacement: 'bar', action: 'replace' }],
        },
      },
    }),
    ctx: { shard: undefined, enforcedNamespaceLabel: 'namespace' },
  },
  {
    name: 'probe-ingress-namespaces',
    probe: probe({
      prober: { url: 'blackbox:9115' },
      targets: { ingress: { selector: { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['internal'] }] }, namespaceSelector: { matchNames: ['web', 'shop'] } } },
      interval: '1m',
      scrapeTimeout: '15s',
    }),
    ctx: { shards: 2, shard: 1 },
  },
  {
    name: 'probe-auth-tls',
    probe: probe({
      jobName: 'blackbox',
      prober: { url: 'blackbox.monitoring.svc:9115', scheme: 'HTTPS', proxyUrl: 'http://proxy:3128' },
      module: 'http_2xx',
      params: [{ name: 'module', values: ['ignored'] }, { name: 'debug', values: ['true'] }],
      targets: { staticConfig: { static: ['https://example.com'], labels: { namespace: 'shop', env: 'prod' } } },
      basicAuth: { username: { name: 'creds', key: 'user' }, password: { name: 'creds', key: 'password' } },
      tlsConfig: { ca: { secret: { name: 'tls', key: 'ca.crt' } }, serverName: 'blackbox' },
      followRedirects: false,
      enableHttp2: false,
      sampleLimit: 100,
      labelLimit: 20,
      scrapeProtocols: ['OpenMetricsText1.0.0', 'PrometheusText0.0.4'],
      metricRelabelings: [{ sourceLabels: ['__name__'], regex: 'probe_debug_.*', action: 'drop' }],
    }),
    ctx: { enforcedSampleLimit: 50, enforcedBodySizeLimit: '10MB' },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    name: 'probe-oauth2',
    probe: probe({
      prober,
      targets: { staticConfig: { static: ['a.example'] } },
      oauth2: { clientId: { secret: { name: 'creds', key: 'client-id' } }, clientSecret: { name: 'creds', key: 'client-secret' }, tokenUrl: 'https://auth.example/token', scopes: ['probe'] },
    }),
  },
  {
    name: 'probe-scrape-class',
    probe: probe({ prober, targets: { staticConfig: { static: ['a.example'] } }, bearerTokenSecret: { name: 'creds', key: 'token' } }),
    ctx: {
      prometheus: testPrometheus({
        scrapeClasses: [
          {
            name: 'default',
            default: true,
            authorization: { credentials: { name: 'class-token', key: 'token' } },
            tlsConfig: { insecureSkipVerify: true },
            relabelings: [{ targetLabel: 'cluster', replacement: 'east', action: 'replace' }],
            metricRelabelings: [{ sourceLabels: ['__name__'], regex: 'go_.*', action: 'drop' }],
            fallbackScrapeProtocol: 'PrometheusText0.0.4',
          },
        ],
      }),
      overrideHonorTimestamps: true,
    },
  },
  {
    name: 'probe-authorization-v2.40',
    probe: probe({
      prober,
      targets: { staticConfig: { static: ['a.example'] } },
      authorization: { type: 'Bearer', credentials: { name: 'creds', key: 'token' } },
      keepDroppedTargets: 5,
    }),
    version: 'v2.40.0',
    warnings: ['spec.keepDroppedTargets: ignored because Prometheus v2.40.0 does not support "keep_dropped_targets" (needs v2.47.0 or later)'],
  },
];

describeGoldens('Probe goldens', cases, (c, ctx) => renderProbe(c.probe, ctx));

describe('a Probe with a static target', () => {
  const rendering = renderProbe(probe({ prober, module: 'http_2xx', targets: { staticConfig: { static: ['https://example.com'] } } }), testContext());
  const job = rendering.ok ? rendering.scrapeConfigs[0] : undefined;

  it('scrapes the prober with the target as a URL parameter, under job probe/<namespace>/<name>', () => {
    expect(job).toMatchObject({ job_name: 'probe/default/testprobe1', metrics_path: '/probe', params: { module: ['http_2xx'] } });
    const relabelings = job?.relabel_configs as Record<string, unknown>[];
    expect(relabelings.slice(1, 4)).toEqual([
      { source_labels: ['__address__'], target_label: '__param_target' },
      { source_labels: ['__param_target'], target_label: 'instance' },
      { target_label: '__address__', replacement: 'blackbox.exporter.io' },
    ]);
  });

  it('labels every series with the Probe namespace', () => {
    expect(job?.static_configs).toEqual([{ targets: ['https://example.com'], labels: { namespace: 'default' } }]);
  });

  it('shards by target, not by prober address', () => {
    const relabelings = job?.relabel_configs as Record<string, unknown>[];
    expect(relabelings.at(-3)).toMatchObject({ source_labels: ['__param_target', '__tmp_hash'], target_label: '__tmp_hash' });
  });
});

describe('a Probe whose ingress selector holds a value no label can have', () => {
  // prometheus-operator does not check this selector (checkProbe): the Probe is accepted and the value selects nothing.
  const selector = {
    matchLabels: { channel: 'a(b' },
    matchExpressions: [{ key: 'version', operator: 'In' as const, values: ['v1', 'v2.0+beta'] }, { key: 'tier', operator: 'NotIn' as const, values: ['.*'] }],
  };
  const rendering = renderProbe(probe({ prober, targets: { ingress: { selector } } }), testContext());

  it('is accepted, with a warning at each such value', () => {
    expect(rendering.ok && rendering.warnings).toEqual([
      'spec.targets.ingress.selector.matchLabels.channel: "a(b" is not a valid label value, so no Ingress has it: it selects nothing',
      'spec.targets.ingress.selector.matchExpressions[0].values[1]: "v2.0+beta" is not a valid label value, so no Ingress has it: it selects nothing',
      'spec.targets.ingress.selector.matchExpressions[1].values[0]: ".*" is not a valid label value, so no Ingress has it: it selects nothing',
    ]);
  });

  it('keeps the valid values as they are and matches the others literally, so none can widen the selection or break the regex', async () => {
    const job = rendering.ok ? rendering.scrapeConfigs[0]! : {};
    expect((job.relabel_configs as Record<string, unknown>[]).slice(1, 4)).toEqual([
      { action: 'keep', source_labels: ['__meta_kubernetes_ingress_label_channel', '__meta_kubernetes_ingress_labelpresent_channel'], regex: '(a\\(b);true' },
      { action: 'keep', source_labels: ['__meta_kubernetes_ingress_label_version', '__meta_kubernetes_ingress_labelpresent_version'], regex: '(v1|v2\\.0\\+beta);true' },
      { action: 'drop', source_labels: ['__meta_kubernetes_ingress_label_tier', '__meta_kubernetes_ingress_labelpresent_tier'], regex: '(\\.\\*);true' },
    ]);
    const check = await promtoolCheckConfigs([wrapScrapeConfigs([job])]);
    expect(check.code).toBe(0);
  });

});

describe('a Probe whose ingress selector holds a key no label can have', () => {
  // prometheus-operator writes such a key sanitised into the meta label's name (bench/compat-diff seed 3: key " ").
  const selector = {
    matchLabels: { ' ': 'x' },
    matchExpressions: [{ key: 'a b', operator: 'Exists' as const }, { key: '🙂', operator: 'NotIn' as const, values: ['y'] }],
  };
  const rendering = renderProbe(probe({ prober, targets: { ingress: { selector } } }), testContext());

  it('is accepted, with a warning at each such key naming the meta label its rule reads and the Ingress label that gives it', () => {
    expect(rendering.ok && rendering.warnings).toEqual([
      'spec.targets.ingress.selector.matchLabels[" "]: " " is not a valid label key; its rule reads __meta_kubernetes_ingress_label__, as prometheus-operator\'s does, which no Ingress has: no label key sanitises to _',
      'spec.targets.ingress.selector.matchExpressions[0].key: "a b" is not a valid label key; its rule reads __meta_kubernetes_ingress_label_a_b, as prometheus-operator\'s does, so it matches the Ingresses\' label whose name sanitises to a_b (such as a_b itself), not "a b"',
      'spec.targets.ingress.selector.matchExpressions[1].key: "🙂" is not a valid label key; its rule reads __meta_kubernetes_ingress_label__, as prometheus-operator\'s does, which no Ingress has: no label key sanitises to _',
    ]);
  });

  it('writes the rules prometheus-operator writes (one `_` per character, as Go counts characters), which promtool accepts', async () => {
    const job = rendering.ok ? rendering.scrapeConfigs[0]! : {};
    expect((job.relabel_configs as Record<string, unknown>[]).slice(1, 4)).toEqual([
      { action: 'keep', source_labels: ['__meta_kubernetes_ingress_label__', '__meta_kubernetes_ingress_labelpresent__'], regex: '(x);true' },
      { action: 'keep', source_labels: ['__meta_kubernetes_ingress_labelpresent_a_b'], regex: 'true' },
      { action: 'drop', source_labels: ['__meta_kubernetes_ingress_label__', '__meta_kubernetes_ingress_labelpresent__'], regex: '(y);true' },
    ]);
    const check = await promtoolCheckConfigs([wrapScrapeConfigs([job])]);
    expect(check.code).toBe(0);
  });
});

describe('a Probe whose ingress selector Kubernetes could not read', () => {
  // prometheus-operator v0.93 skips a requirement with an unknown operator (promcfg.go's switch has no default) and
  // writes the job, so the Probe probes every Ingress that requirement meant to leave out; it refuses the same
  // selector in a ServiceMonitor or PodMonitor (LabelSelectorAsSelector). promop refuses it in all three.
  it.each([
    ['an unknown operator', { key: 'tier', operator: 'Equals', values: ['web'] }, '.operator', 'unknown operator "Equals"; expected In, NotIn, Exists or DoesNotExist'],
    ['In without values', { key: 'tier', operator: 'In', values: [] }, '.values', 'the In operator needs at least one value'],
    ['NotIn without values', { key: 'tier', operator: 'NotIn' }, '.values', 'the NotIn operator needs at least one value'],
    ['Exists with values', { key: 'tier', operator: 'Exists', values: ['web'] }, '.values', 'the Exists operator takes no values'],
  ] as const)('with %s is rejected at its path', (_what, expression, suffix, message) => {
    const result = renderProbe(probe({ prober, targets: { ingress: { selector: { matchExpressions: [expression as never] } } } }), testContext());
    expect(result.ok ? [] : result.problems).toEqual([{ path: `spec.targets.ingress.selector.matchExpressions[0]${suffix}`, message }]);
  });
});

describe('a bad Probe', () => {
  const rejected = (spec: Probe['spec'], ctx: Partial<ScrapeContext> = {}) => {
    const result = renderProbe(probe(spec), testContext(ctx));
    return result.ok ? [] : result.problems;
  };
  const targets = { staticConfig: { static: ['a.example'] } };

  it.each([
    ['no targets', { prober }, 'spec.targets', 'a Probe without targets probes nothing'],
    ['no prober', { targets }, 'spec.prober.url', 'is required'],
    ['a prober URL with a scheme', { prober: { url: 'http://blackbox:9115' }, targets }, 'spec.prober.url', 'must be host or host:port'],
    ['a prober port out of range', { prober: { url: 'blackbox:70000' }, targets }, 'spec.prober.url', 'invalid port "70000"'],
    ['a timeout longer than the interval', { prober, targets, interval: '10s', scrapeTimeout: '20s' }, 'spec.scrapeTimeout', 'longer than interval 10s'],
    ['a metric relabeling with a bad regex', { prober, targets, metricRelabelings: [{ regex: '(?!x)', action: 'drop' }] }, 'spec.metricRelabelings[0].regex', 'lookahead'],
    ['a static relabeling without target label', { prober, targets: { staticConfig: { static: ['a'], relabelingConfigs: [{ action: 'replace', replacement: 'x' }] } } }, 'spec.targets.staticConfig.relabelingConfigs[0]', 'targetLabel'],
    // staticConfig wins, but the ingress relabelings are still checked, as prometheus-operator does (bench/compat-diff).
    ['an ingress relabeling without target label next to static targets', { prober, targets: { staticConfig: { static: ['a'] }, ingress: { relabelingConfigs: [{ action: 'replace', replacement: 'x' }] } } }, 'spec.targets.ingress.relabelingConfigs[0]', 'targetLabel'],
    ['basic auth without a username', { prober, targets: { staticConfig: { static: ['a'] } }, basicAuth: { password: { name: 'creds', key: 'password' } } }, 'spec.basicAuth.username', 'needs a username'],
    ['basic auth from an optional Secret that does not exist', { prober, targets: { staticConfig: { static: ['a'] } }, basicAuth: { username: { name: 'absent', key: 'user', optional: true }, password: { name: 'creds', key: 'password' } } }, 'spec.basicAuth.username', 'not found'],
    ['an invalid static label name', { prober, targets: { staticConfig: { static: ['a'], labels: { '': 'x' } } } }, 'spec.targets.staticConfig.labels', 'is not a label name'],
    ['an invalid ingress selector', { prober, targets: { ingress: { selector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } } } }, 'spec.targets.ingress.selector.matchExpressions[0].operator', 'unknown operator'],
    ['two authentication methods', { prober, targets, basicAuth: { username: { name: 'creds', key: 'user' } }, bearerTokenSecret: { name: 'creds', key: 'token' } }, 'spec', 'only one authentication method'],
    ['a missing Secret', { prober, targets, bearerTokenSecret: { name: 'absent', key: 'token' } }, 'spec.bearerTokenSecret', 'absent'],
    ['an unknown scrape class', { prober, targets, scrapeClass: 'missing' }, 'spec.scrapeClass', 'not defined'],
    ['a parameter listed twice', { prober, targets, params: [{ name: 'a', values: ['1'] }, { name: 'a', values: ['2'] }] }, 'spec.params[1].name', 'listed twice'],
  ] as const)('with %s is rejected at its path', (_what, spec, path, words) => {
    const problems = rejected(spec as Probe['spec']);
    const problem = problems.find((p) => p.path === path);
    expect(problem?.message ?? JSON.stringify(problems)).toContain(words);
  });

  it('never puts a Secret value into a problem', () => {
    const problems = rejected({ prober: { url: 'x y' }, targets, basicAuth: { username: { name: 'creds', key: 'user' }, password: { name: 'creds', key: 'password' } } });
    expect(JSON.stringify(problems)).not.toContain('s3cret');
  });
});

describe('the prober address', () => {
  it.each(['blackbox', 'blackbox:9115', 'blackbox.monitoring.svc.cluster.local:9115', '10.0.0.1', '10.0.0.1:9115', '::1', '[::1]:9115', 'my_host'])('accepts %s', (address) => {
    expect(proberAddressError(address)).toBeUndefined();
  });

  it.each(['', 'http://blackbox:9115', 'blackbox:', 'blackbox:0', 'blackbox:x', '[::1]', '-bad', 'a b', 'blackbox/probe', 'fe80::1%eth0'])('refuses %j', (address) => {
    expect(proberAddressError(address)).toBeDefined();
  });
});

describe('Probes in a whole prometheus.yaml', () => {
  const prometheus = testPrometheus({ serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: {}, probeSelector: { matchLabels: { probe: 'yes' } }, probeNamespaceSelector: {} });
  const labelled = (name: string, namespace: string, spec: Probe['spec'], labels: Record<string, string> = { probe: 'yes' }): Probe => ({
    ...probe(spec, name, namespace),
    metadata: { name, namespace, labels },
  });
  const good = { prober: { url: 'blackbox:9115' }, targets: { staticConfig: { static: ['https://example.com'] } } };
  const output = generate({
    prometheus,
    serviceMonitors: [
      { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name: 'web', namespace: 'team-a' }, spec: { selector: {}, endpoints: [{ port: 'web' }] } },
    ],
    podMonitors: [],
    probes: [
      labelled('zeta', 'team-b', good),
      labelled('alpha', 'team-b', good),
      labelled('broken', 'team-a', { prober: { url: 'http://blackbox:9115' }, targets: good.targets }),
      labelled('unlabelled', 'team-a', good, {}),
    ],
    prometheusRules: [],
    namespaces: [{ name: 'team-a', labels: {} }, { name: 'team-b', labels: {} }],
    secrets: [],
    configMaps: [],
  });
  const jobs = output.ok ? (load(output.configs[0] ?? '') as { scrape_configs: { job_name: string }[] }).scrape_configs.map((job) => job.job_name) : [];

  it('writes the selected, valid Probes after the monitors, sorted by namespace/name', () => {
    expect(output.prometheusProblems).toEqual([]);
    expect(jobs).toEqual(['serviceMonitor/team-a/web/0', 'probe/team-b/alpha', 'probe/team-b/zeta']);
  });

  it('rejects the bad Probe alone, with its path, and says why the unlabelled one is not selected', () => {
    const verdictOf = (name: string) => output.verdicts.find((v) => v.resource.kind === 'Probe' && v.resource.name === name);
    expect(verdictOf('alpha')).toMatchObject({ selected: true, accepted: true });
    expect(verdictOf('broken')).toMatchObject({ selected: true, accepted: false, reason: expect.stringMatching(/^spec\.prober\.url: "http:\/\/blackbox:9115" must be host or host:port/) });
    expect(verdictOf('unlabelled')).toMatchObject({ selected: false, reason: expect.stringContaining("probeSelector (matchLabels probe=yes) does not match the Probe's labels") });
  });

  it('is a configuration promtool accepts', async () => {
    const result = await promtoolCheckConfigs(output.configs);
    // prometheus.yaml carries the replica label as $(POD_NAME), which promtool's environment does not set.
    const stderr = result.stderr.split('\n').filter((line) => line !== '' && !line.includes('name=POD_NAME'));
    expect({ code: result.code, stderr }).toEqual({ code: 0, stderr: [] });
  });
});

describe('a Probe with an empty authorization next to a bearer token Secret', () => {
  it('is accepted with the bearer token only, as prometheus-operator counts authorization: {} as none (bench/compat-diff)', () => {
    const result = renderProbe(probe({ prober, targets: { staticConfig: { static: ['a'] } }, authorization: {}, bearerTokenSecret: { name: 'creds', key: 'token' } }), testContext());
    expect(result.ok ? result.scrapeConfigs[0] : result.problems).toMatchObject({ bearer_token: 'tok3n' });
    expect(result.ok && result.scrapeConfigs[0]?.authorization).toBeFalsy();
  });
});

describe('a Probe with interval ""', () => {
  it('is accepted without scrape_interval, as prometheus-operator writes it (bench/compat-diff seed 3)', () => {
    const result = renderProbe(probe({ prober, targets: { staticConfig: { static: ['a'] } }, interval: '', scrapeTimeout: '10s' }), testContext());
    expect(result.ok ? Object.keys(result.scrapeConfigs[0] ?? {}) : result.problems).not.toContain('scrape_interval');
    expect(result.ok).toBe(true);
  });
});
