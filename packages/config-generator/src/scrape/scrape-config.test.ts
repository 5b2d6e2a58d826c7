/**
 * ScrapeConfig rendering: goldens under test/golden/scrape/scrapeconfig-*.yaml for every rendered discovery kind
 * (static, file, HTTP, Kubernetes, Consul, DNS; the opaque-list kinds are in discovery/) with their auth/TLS from the ScrapeConfig's namespace, promtool's
 * acceptance, and the rejections (an unrendered discovery kind is never dropped silently).
 */
import type { ScrapeConfig } from '@promop/crds';
import { renderScrapeConfig } from './scrape-config.ts';
import { describeGoldens, testContext, testPrometheus, type GoldenCaseBase } from '../test-support/scrape-harness.ts';

function scrapeConfig(spec: ScrapeConfig['spec'], name = 'sc', namespace = 'default'): ScrapeConfig {
  return { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'ScrapeConfig', metadata: { name, namespace }, spec };
}

const basicAuth = { username: { name: 'creds', key: 'user' }, password: { name: 'creds', key: 'password' } };
const ca = { ca: { secret: { name: 'tls', key: 'ca.crt' } } };

interface GoldenCase extends GoldenCaseBase {
  scrapeConfig: ScrapeConfig;
}

const cases: GoldenCase[] = [
  {
    name: 'scrapeconfig-static-file-http',
    scrapeConfig: scrapeConfig({
      jobName: 'nodes',
      honorLabels: true,
      metricsPath: '/federate',
      params: { 'match[]': ['{job="node"}'] },
      scrapeInterval: '1m',
      scrapeTimeout: '30s',
      scheme: 'HTTPS',
      basicAuth,
      tlsConfig: { ...ca, serverName: 'nodes' },
      sampleLimit: 1000,
      staticConfigs: [{ targets: ['node-1:9100', 'node-2:9100'], labels: { env: 'prod' } }, { targets: ['node-3:9100'] }],
      fileSDConfigs: [{ files: ['/etc/prometheus/configmaps/targets/*.json'], refreshInterval: '5m' }],
      httpSDConfigs: [{ url: 'https://inventory.example/targets', refreshInterval: '1m', authorization: { credentials: { name: 'creds', key: 'token' } }, tlsConfig: ca }],
      relabelings: [{ sourceLabels: ['__address__'], regex: '([^:]+):.*', targetLabel: 'host', replacement: '$1', action: 'replace' }],
      metricRelabelings: [{ regex: 'go_.*', sourceLabels: ['__name__'], action: 'drop' }],
    }),
    ctx: { enforcedNamespaceLabel: 'namespace' },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    name: 'scrapeconfig-kubernetes-consul-dns',
    scrapeConfig: scrapeConfig({
      kubernetesSDConfigs: [
        {
          role: 'Pod',
          namespaces: { names: ['web'], ownNamespace: true },
          selectors: [{ role: 'Pod', label: 'app=web' }],
          attachMetadata: { node: true },
        },
        { role: 'EndpointSlice', apiServer: 'https://kubernetes.example:6443', basicAuth, tlsConfig: ca },
      ],
      consulSDConfigs: [{ server: 'consul.example:8500', tokenRef: { name: 'creds', key: 'token' }, datacenter: 'dc1', scheme: 'HTTPS', services: ['web'], tags: ['prod'], nodeMeta: { rack: 'a' }, allowStale: true, refreshInterval: '30s' }],
      dnsSDConfigs: [{ names: ['_metrics._tcp.example.com'] }, { names: ['web.example.com'], type: 'A', port: 9100 }],
    }),
    ctx: { shards: 2, shard: 1 },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    name: 'scrapeconfig-scrape-class',
    scrapeConfig: scrapeConfig({ staticConfigs: [{ targets: ['a:80'] }], enableCompression: false, enableHTTP2: false, scrapeProtocols: ['PrometheusText0.0.4'] }),
    ctx: {
      prometheus: testPrometheus({
        scrapeClasses: [{ name: 'default', default: true, relabelings: [{ targetLabel: 'cluster', replacement: 'east', action: 'replace' }], fallbackScrapeProtocol: 'PrometheusText0.0.4' }],
      }),
    },
  },
  {
    // Found by bench/compat-diff: the job's own name rules (Prometheus 3.0/3.4) last, as upstream writes them; a
    // type-only authorization takes the scrape class' credentials; an empty proxyConnectHeader is written empty.
    name: 'scrapeconfig-name-schemes-authorization',
    scrapeConfig: scrapeConfig({
      staticConfigs: [{ targets: ['a:80'] }],
      nameValidationScheme: 'UTF8',
      nameEscapingScheme: 'AllowUTF8',
      authorization: { type: 'Token' },
      proxyUrl: 'http://proxy:3128',
      proxyConnectHeader: {},
    }),
    ctx: { prometheus: testPrometheus({ scrapeClasses: [{ name: 'default', default: true, authorization: { credentials: { name: 'creds', key: 'token' } } }] }) },
  },
  {
    // `authorization: {}` counts as none (as upstream), so the scrape class' applies.
    name: 'scrapeconfig-empty-authorization',
    scrapeConfig: scrapeConfig({ staticConfigs: [{ targets: ['a:80'] }], authorization: {}, nameEscapingScheme: 'Dots' }),
    ctx: { prometheus: testPrometheus({ scrapeClasses: [{ name: 'default', default: true, authorization: { type: 'Bearer', credentials: { name: 'creds', key: 'token' } } }] }) },
  },
  {
    name: 'scrapeconfig-name-schemes-v3.2',
    scrapeConfig: scrapeConfig({ staticConfigs: [{ targets: ['a:80'] }], nameValidationScheme: 'Legacy', nameEscapingScheme: 'Underscores' }),
    version: 'v3.2.0',
    warnings: ['spec.nameEscapingScheme: ignored because Prometheus v3.2.0 does not support "metric_name_escaping_scheme" (needs v3.4.0 or later)'],
  },
];

describeGoldens('ScrapeConfig goldens', cases, (c, ctx) => renderScrapeConfig(c.scrapeConfig, ctx));

describe('a ScrapeConfig', () => {
  it('is one job scrapeConfig/<namespace>/<name> with the enforced namespace label even without relabelings of its own', () => {
    const result = renderScrapeConfig(scrapeConfig({ staticConfigs: [{ targets: ['a:80'] }] }), testContext({ enforcedNamespaceLabel: 'namespace' }));
    const job = result.ok ? result.scrapeConfigs[0] : undefined;
    expect(job).toMatchObject({ job_name: 'scrapeConfig/default/sc', static_configs: [{ targets: ['a:80'], labels: {} }] });
    expect(job?.relabel_configs).toEqual([{ source_labels: ['job'], target_label: '__tmp_prometheus_job_name' }, { target_label: 'namespace', replacement: 'default' }]);
  });
});

describe('a bad ScrapeConfig', () => {
  const problems = (spec: ScrapeConfig['spec']) => {
    const result = renderScrapeConfig(scrapeConfig(spec), testContext());
    return result.ok ? [] : result.problems;
  };

  it.each([
    ['OpenStack discovery with a field its CRD lacks', { openstackSDConfigs: [{ role: 'Instance', region: 'r', proxyUrl: 'http://proxy:3128' }] }, 'spec.openstackSDConfigs[0].proxyUrl', 'is not a field of OpenStack discovery'],
    ['IONOS discovery without its data center, next to a supported one', { staticConfigs: [{ targets: ['a:80'] }], ionosSDConfigs: [{ authorization: { credentials: { name: 'creds', key: 'token' } } }] }, 'spec.ionosSDConfigs[0].datacenterID', 'is required by IONOS discovery'],
    ['a timeout longer than the interval', { scrapeInterval: '10s', scrapeTimeout: '20s' }, 'spec.scrapeTimeout', 'longer than scrapeInterval 10s'],
    ['a relabeling with a bad regex', { relabelings: [{ regex: '(', action: 'drop' }] }, 'spec.relabelings[0].regex', ''],
    ['two authentication methods', { basicAuth, authorization: { credentials: { name: 'creds', key: 'token' } } }, 'spec', 'only one authentication method'],
    ['two authentication methods in HTTP discovery', { httpSDConfigs: [{ url: 'https://a.example', basicAuth, oauth2: { clientId: { secret: { name: 'creds', key: 'client-id' } }, clientSecret: { name: 'creds', key: 'client-secret' }, tokenUrl: 'https://t.example' } }] }, 'spec.httpSDConfigs[0]', 'only one authentication method'],
    ['a missing Consul token Secret', { consulSDConfigs: [{ server: 'c:8500', tokenRef: { name: 'absent', key: 'token' } }] }, 'spec.consulSDConfigs[0].tokenRef', 'absent'],
    ['an A lookup without a port', { dnsSDConfigs: [{ names: ['a.example'], type: 'A' }] }, 'spec.dnsSDConfigs[0].port', 'required for A records'],
    ['a refresh interval that is not a duration', { fileSDConfigs: [{ files: ['x.json'], refreshInterval: 'often' }] }, 'spec.fileSDConfigs[0].refreshInterval', 'not a valid duration'],
    ['an unknown scrape class', { scrapeClass: 'missing' }, 'spec.scrapeClass', 'not defined'],
    ['Kubernetes discovery with apiServer and ownNamespace (bench/compat-diff seed 3)', { kubernetesSDConfigs: [{ role: 'Node', apiServer: 'https://k:6443', namespaces: { ownNamespace: true } }] }, 'spec.kubernetesSDConfigs[0].namespaces.ownNamespace', 'cannot be used together with apiServer'],
    ['AllowUTF8 escaping with Legacy name validation', { nameValidationScheme: 'Legacy', nameEscapingScheme: 'AllowUTF8' }, 'spec.nameEscapingScheme', 'needs the UTF8 name validation scheme'],
    ['a proxy connect header without a value', { proxyUrl: 'http://p:3128', proxyConnectHeader: { 'X-Auth': [] } }, 'spec.proxyConnectHeader["X-Auth"]', 'needs at least one Secret key'],
  ] as const)('with %s is rejected at its path', (_what, spec, path, words) => {
    const found = problems(spec as ScrapeConfig['spec']);
    const problem = found.find((p) => p.path === path);
    expect(problem?.message ?? JSON.stringify(found)).toContain(words);
  });

  it('never puts a Secret value into a problem', () => {
    expect(JSON.stringify(problems({ basicAuth, consulSDConfigs: [{ server: 'c', tokenRef: { name: 'creds', key: 'token' } }], ec2SDConfigs: [{}] }))).not.toMatch(/s3cret|tok3n/);
  });
});
