/**
 * A monitor with a problem is rejected alone, with the path of the offending field and a
 * sentence a user understands; the other monitor of the same Prometheus still renders.
 */
import type { PodMonitor, ServiceMonitor } from '@promop/crds';
import type { FieldProblem } from '../model.ts';
import { renderPodMonitor, renderServiceMonitor } from './index.ts';
import type { ScrapeContext } from './scrape-context.ts';
import { TEST_SECRETS, testContext, testPodMonitor, testPrometheus, testServiceMonitor } from '../test-support/scrape-harness.ts';

type Ep = NonNullable<ServiceMonitor['spec']['endpoints']>[number];

function sm(spec: Partial<ServiceMonitor['spec']>, namespace = 'default'): ServiceMonitor {
  return testServiceMonitor(spec, 'bad', namespace);
}
function smEndpoint(ep: Partial<Ep>, namespace = 'default'): ServiceMonitor {
  return sm({ endpoints: [{ port: 'web', ...ep }] }, namespace);
}
function pm(spec: Partial<PodMonitor['spec']>): PodMonitor {
  return testPodMonitor(spec, 'bad');
}

const good = sm({ endpoints: [{ port: 'web', basicAuth: { username: { name: 'creds', key: 'user' }, password: { name: 'creds', key: 'password' } } }] });
const goodPm = pm({ podMetricsEndpoints: [{ port: 'web' }] });

interface BadCase {
  story: string;
  monitor: ServiceMonitor | PodMonitor;
  problems: FieldProblem[];
  ctx?: Partial<ScrapeContext>;
  version?: string;
}

const cases: BadCase[] = [
  {
    story: 'a basicAuth username from a Secret that does not exist',
    monitor: smEndpoint({ basicAuth: { username: { name: 'nope', key: 'user' }, password: { name: 'creds', key: 'password' } } }),
    problems: [{ path: 'spec.endpoints[0].basicAuth.username', message: 'Secret "nope" not found in namespace "default"' }],
  },
  {
    story: 'a basicAuth without password (prometheus-operator rejects it too)',
    monitor: smEndpoint({ basicAuth: { username: { name: 'creds', key: 'user' } } }),
    problems: [
      {
        path: 'spec.endpoints[0].basicAuth.password',
        message: 'basicAuth needs a password (a Secret name and key); without one the credentials would be sent with an empty password',
      },
    ],
  },
  {
    story: 'a bearerTokenFile together with basicAuth (prometheus-operator writes both; Prometheus refuses the file)',
    monitor: smEndpoint({ bearerTokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token', basicAuth: { username: { name: 'creds', key: 'user' }, password: { name: 'creds', key: 'password' } } }),
    problems: [{ path: 'spec.endpoints[0]', message: 'only one authentication method can be set, found basicAuth and bearerTokenFile' }],
  },
  {
    story: 'a bearer token Secret without the key',
    monitor: smEndpoint({ bearerTokenSecret: { name: 'creds', key: 'missing' } }),
    problems: [{ path: 'spec.endpoints[0].bearerTokenSecret', message: 'key "missing" not found in Secret "creds" in namespace "default"' }],
  },
  {
    story: 'a Secret that only exists in another namespace',
    monitor: smEndpoint({ authorization: { credentials: { name: 'creds', key: 'user' } } }, 'team'),
    problems: [{ path: 'spec.endpoints[0].authorization.credentials', message: 'Secret "creds" not found in namespace "team"' }],
  },
  {
    story: 'a relabeling regex that does not compile',
    monitor: smEndpoint({ relabelings: [{ sourceLabels: ['a'], targetLabel: 'b' }, { sourceLabels: ['a'], regex: '(foo', action: 'keep' }] }),
    problems: [{ path: 'spec.endpoints[0].relabelings[1].regex', message: 'invalid regex "(foo": missing closing ): (foo' }],
  },
  {
    story: 'a lookahead, which RE2 does not have',
    monitor: smEndpoint({ metricRelabelings: [{ sourceLabels: ['__name__'], regex: 'foo(?!bar)', action: 'drop' }] }),
    problems: [{ path: 'spec.endpoints[0].metricRelabelings[0].regex', message: 'invalid regex "foo(?!bar)": lookahead and lookbehind are not supported (Prometheus uses RE2 syntax)' }],
  },
  {
    story: 'a backreference, which RE2 does not have',
    monitor: smEndpoint({ relabelings: [{ sourceLabels: ['a'], regex: '(a)\\1', action: 'keep' }] }),
    problems: [{ path: 'spec.endpoints[0].relabelings[0].regex', message: 'invalid regex "(a)\\1": backreferences are not supported (Prometheus uses RE2 syntax)' }],
  },
  {
    story: 'a scrapeTimeout longer than the endpoint interval',
    monitor: smEndpoint({ interval: '30s', scrapeTimeout: '1m' }),
    problems: [{ path: 'spec.endpoints[0].scrapeTimeout', message: 'scrapeTimeout 1m is longer than interval 30s' }],
  },
  {
    story: 'a scrapeTimeout longer than the Prometheus scrapeInterval',
    monitor: smEndpoint({ scrapeTimeout: '45s' }),
    problems: [{ path: 'spec.endpoints[0].scrapeTimeout', message: 'scrapeTimeout 45s is longer than the Prometheus scrapeInterval 30s' }],
  },
  {
    story: 'a scrapeTimeout longer than the default interval when the Prometheus scrapeInterval is empty',
    monitor: smEndpoint({ scrapeTimeout: '1m' }),
    ctx: { prometheus: testPrometheus({ scrapeInterval: '' }) },
    problems: [{ path: 'spec.endpoints[0].scrapeTimeout', message: 'scrapeTimeout 1m is longer than the Prometheus scrapeInterval 30s' }],
  },
  {
    story: 'an interval that is not a duration',
    monitor: smEndpoint({ interval: '5 minutes' }),
    problems: [{ path: 'spec.endpoints[0].interval', message: '"5 minutes" is not a valid duration (examples: 30s, 1m, 1h30m)' }],
  },
  {
    story: 'a bearer token file when the Prometheus denies file access',
    monitor: smEndpoint({ bearerTokenFile: '/etc/passwd' }),
    ctx: { denyFileSystemAccess: true },
    problems: [{ path: 'spec.endpoints[0].bearerTokenFile', message: 'reading files of the Prometheus container is forbidden by this Prometheus (arbitraryFSAccessThroughSMs.deny)' }],
  },
  {
    story: 'a TLS CA file when the Prometheus denies file access',
    monitor: smEndpoint({ tlsConfig: { caFile: '/etc/ssl/ca.crt' } }),
    ctx: { denyFileSystemAccess: true },
    problems: [{ path: 'spec.endpoints[0].tlsConfig.caFile', message: 'reading files of the Prometheus container is forbidden by this Prometheus (arbitraryFSAccessThroughSMs.deny)' }],
  },
  {
    story: 'an unknown relabel action',
    monitor: smEndpoint({ relabelings: [{ sourceLabels: ['a'], action: 'rename' as 'replace' }] }),
    problems: [
      {
        path: 'spec.endpoints[0].relabelings[0].action',
        message: 'unknown relabel action "rename"; expected one of replace, keep, drop, hashmod, labelmap, labeldrop, labelkeep, lowercase, uppercase, keepequal, dropequal',
      },
    ],
  },
  {
    story: 'hashmod without a modulus',
    monitor: smEndpoint({ relabelings: [{ sourceLabels: ['__address__'], targetLabel: '__tmp_h', action: 'hashmod' }] }),
    problems: [{ path: 'spec.endpoints[0].relabelings[0].modulus', message: 'the hashmod action needs a non-zero modulus' }],
  },
  {
    story: 'replace without a targetLabel',
    monitor: smEndpoint({ relabelings: [{ sourceLabels: ['a'], action: 'replace' }] }),
    problems: [{ path: 'spec.endpoints[0].relabelings[0].targetLabel', message: 'the replace action needs a targetLabel' }],
  },
  {
    story: 'lowercase on a Prometheus older than 2.36',
    monitor: smEndpoint({ relabelings: [{ sourceLabels: ['a'], targetLabel: 'b', action: 'Lowercase' }] }),
    version: 'v2.30.0',
    problems: [{ path: 'spec.endpoints[0].relabelings[0].action', message: 'the lowercase action needs Prometheus v2.36.0 or later (configured: v2.30.0)' }],
  },
  {
    story: 'keepequal on a Prometheus older than 2.41',
    monitor: smEndpoint({ metricRelabelings: [{ sourceLabels: ['a'], targetLabel: 'b', action: 'keepequal' }] }),
    version: 'v2.40.0',
    problems: [{ path: 'spec.endpoints[0].metricRelabelings[0].action', message: 'the keepequal action needs Prometheus v2.41.0 or later (configured: v2.40.0)' }],
  },
  {
    story: 'a target label Prometheus 2 cannot store',
    monitor: smEndpoint({ relabelings: [{ sourceLabels: ['a'], targetLabel: 'my-label', action: 'replace' }] }),
    version: 'v2.50.0',
    problems: [{ path: 'spec.endpoints[0].relabelings[0].targetLabel', message: '"my-label" is not a valid target label for the replace action' }],
  },
  {
    story: 'labeldrop with source labels',
    monitor: smEndpoint({ metricRelabelings: [{ sourceLabels: ['a'], regex: 'x', action: 'labeldrop' }] }),
    problems: [{ path: 'spec.endpoints[0].metricRelabelings[0]', message: 'the labeldrop action takes only regex' }],
  },
  {
    story: 'basicAuth and authorization together',
    monitor: smEndpoint({
      basicAuth: { username: { name: 'creds', key: 'user' }, password: { name: 'creds', key: 'password' } },
      authorization: { credentials: { name: 'creds', key: 'token' } },
    }),
    problems: [{ path: 'spec.endpoints[0]', message: 'only one authentication method can be set, found basicAuth and authorization' }],
  },
  {
    story: 'authorization of type Basic',
    monitor: smEndpoint({ authorization: { type: 'basic', credentials: { name: 'creds', key: 'token' } } }),
    problems: [{ path: 'spec.endpoints[0].authorization.type', message: 'authorization type "Basic" is not allowed; use basicAuth instead' }],
  },
  {
    story: 'a client certificate without a key',
    monitor: smEndpoint({ tlsConfig: { cert: { secret: { name: 'tls', key: 'tls.crt' } } } }),
    problems: [{ path: 'spec.endpoints[0].tlsConfig', message: 'a client certificate (cert or certFile) needs a client key (keySecret or keyFile)' }],
  },
  {
    story: 'a CA that is not a certificate',
    monitor: smEndpoint({ tlsConfig: { ca: { secret: { name: 'tls', key: 'garbage' } } } }),
    problems: [{ path: 'spec.endpoints[0].tlsConfig.ca', message: 'key "garbage" of Secret "tls" does not hold a PEM-encoded certificate' }],
  },
  {
    story: 'a client key that does not belong to the certificate',
    monitor: smEndpoint({ tlsConfig: { cert: { secret: { name: 'tls', key: 'tls.crt' } }, keySecret: { name: 'tls', key: 'other.key' } } }),
    problems: [{ path: 'spec.endpoints[0].tlsConfig.keySecret', message: 'the private key does not match the client certificate' }],
  },
  {
    story: 'an oauth2 client secret that does not exist',
    monitor: smEndpoint({
      oauth2: { clientId: { secret: { name: 'creds', key: 'client-id' } }, clientSecret: { name: 'oauth', key: 'secret' }, tokenUrl: 'https://auth.example.com/token' },
    }),
    problems: [{ path: 'spec.endpoints[0].oauth2.clientSecret', message: 'Secret "oauth" not found in namespace "default"' }],
  },
  {
    story: 'noProxy without a proxy',
    monitor: smEndpoint({ noProxy: 'localhost' }),
    problems: [{ path: 'spec.endpoints[0].noProxy', message: 'noProxy needs proxyUrl' }],
  },
  {
    story: 'a proxy URL with an unsupported scheme',
    monitor: smEndpoint({ proxyUrl: 'ftp://proxy:21' }),
    problems: [{ path: 'spec.endpoints[0].proxyUrl', message: 'proxyUrl must be an http://, https:// or socks5:// URL' }],
  },
  {
    story: 'a selector with an unknown operator',
    monitor: sm({ selector: { matchExpressions: [{ key: 'app', operator: 'Matches', values: ['x'] }] }, endpoints: [{ port: 'web' }] }),
    problems: [{ path: 'spec.selector.matchExpressions[0].operator', message: 'unknown operator "Matches"; expected In, NotIn, Exists or DoesNotExist' }],
  },
  {
    story: 'a selector value Kubernetes would not accept',
    monitor: sm({ selector: { matchLabels: { app: 'a b' } }, endpoints: [{ port: 'web' }] }),
    problems: [{ path: 'spec.selector.matchLabels.app', message: '"a b" is not a valid label value' }],
  },
  {
    // Keys with dots and slashes are quoted, as the validators write them (found by the fuzz suite: the path read as
    // matchLabels.app → kubernetes → io/name).
    story: 'a bad selector value under a prefixed label key',
    monitor: sm({ selector: { matchLabels: { 'app.kubernetes.io/name': 'a b' } }, endpoints: [{ port: 'web' }] }),
    problems: [{ path: 'spec.selector.matchLabels["app.kubernetes.io/name"]', message: '"a b" is not a valid label value' }],
  },
  {
    story: 'a proxy header from a Secret that does not exist',
    monitor: smEndpoint({ proxyUrl: 'http://proxy:3128', proxyConnectHeader: { 'Proxy-Authorization': [{ name: 'missing', key: 'header' }] } }),
    problems: [{ path: 'spec.endpoints[0].proxyConnectHeader["Proxy-Authorization"][0]', message: 'Secret "missing" not found in namespace "default"' }],
  },
  {
    story: 'a scrape class the Prometheus does not define',
    monitor: sm({ scrapeClass: 'missing', endpoints: [{ port: 'web' }] }),
    problems: [{ path: 'spec.scrapeClass', message: 'scrape class "missing" is not defined in Prometheus default/test' }],
  },
  {
    story: 'a scheme that is not HTTP',
    monitor: smEndpoint({ scheme: 'ftp' as 'http' }),
    problems: [{ path: 'spec.endpoints[0].scheme', message: 'scheme must be http or https, not "ftp"' }],
  },
  {
    story: 'a body size limit without a unit',
    monitor: sm({ bodySizeLimit: '10', endpoints: [{ port: 'web' }] }),
    problems: [{ path: 'spec.bodySizeLimit', message: '"10" is not a valid size (examples: 10MB, 1GiB)' }],
  },
  {
    story: 'a scrape protocol listed twice',
    monitor: sm({ scrapeProtocols: ['PrometheusProto', 'PrometheusProto'], endpoints: [{ port: 'web' }] }),
    problems: [{ path: 'spec.scrapeProtocols[1]', message: 'scrape protocol "PrometheusProto" is listed twice' }],
  },
  {
    story: 'a port name that cannot be matched',
    monitor: smEndpoint({ port: 'web(' }),
    problems: [{ path: 'spec.endpoints[0].port', message: '"web(" is not a valid port name' }],
  },
  {
    story: 'a target label Prometheus 2 cannot name',
    monitor: sm({ targetLabels: ['1st-tier'], endpoints: [{ port: 'web' }] }),
    version: 'v2.50.0',
    problems: [{ path: 'spec.targetLabels[0]', message: '"1st-tier" becomes the label name "1st_tier", which this Prometheus does not accept (must match [a-zA-Z_][a-zA-Z0-9_]*)' }],
  },
  {
    story: 'a dotted relabeling target label on a Prometheus 3 with nameValidationScheme Legacy',
    monitor: smEndpoint({ relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_label_app'], targetLabel: 'service.name' }] }),
    ctx: { prometheus: testPrometheus({ nameValidationScheme: 'Legacy' }) },
    problems: [{ path: 'spec.endpoints[0].relabelings[0].targetLabel', message: '"service.name" is not a valid target label for the replace action' }],
  },
  {
    story: 'a target label with a leading digit on a Prometheus 3 with nameValidationScheme Legacy',
    monitor: sm({ podTargetLabels: ['1st-tier'], endpoints: [{ port: 'web' }] }),
    ctx: { prometheus: testPrometheus({ nameValidationScheme: 'Legacy' }) },
    problems: [{ path: 'spec.podTargetLabels[0]', message: '"1st-tier" becomes the label name "1st_tier", which this Prometheus does not accept (must match [a-zA-Z_][a-zA-Z0-9_]*)' }],
  },
  {
    // prometheus-operator rejects such a monitor too (found by bench/compat-diff).
    story: 'an endpoint authorization without credentials',
    monitor: smEndpoint({ authorization: { type: 'Bearer' } }),
    problems: [{ path: 'spec.endpoints[0].authorization.credentials', message: 'authorization needs credentials (a Secret key holding the token)' }],
  },
  {
    story: 'an empty PodMonitor endpoint authorization',
    monitor: pm({ podMetricsEndpoints: [{ port: 'web', authorization: {} }] }),
    problems: [{ path: 'spec.podMetricsEndpoints[0].authorization.credentials', message: 'authorization needs credentials (a Secret key holding the token)' }],
  },
  {
    story: 'a proxy connect header with no Secret key',
    monitor: smEndpoint({ proxyUrl: 'http://proxy:3128', proxyConnectHeader: { 'Proxy-Authorization': [] } }),
    problems: [{ path: 'spec.endpoints[0].proxyConnectHeader["Proxy-Authorization"]', message: 'a proxy connect header needs at least one Secret key for its value' }],
  },
  {
    // optional: true does not make a credential optional: prometheus-operator rejects the monitor too.
    story: 'a basicAuth username from an optional Secret that does not exist',
    monitor: smEndpoint({ basicAuth: { username: { name: 'nope', key: 'user', optional: true }, password: { name: 'creds', key: 'password' } } }),
    problems: [{ path: 'spec.endpoints[0].basicAuth.username', message: 'Secret "nope" not found in namespace "default"' }],
  },
  {
    story: 'a proxy URL whose host Go cannot parse',
    monitor: smEndpoint({ proxyUrl: 'http:// _' }),
    problems: [{ path: 'spec.endpoints[0].proxyUrl', message: 'Prometheus cannot parse this URL: invalid character " " in host name' }],
  },
  {
    story: 'a PodMonitor port number out of range',
    monitor: pm({ podMetricsEndpoints: [{ portNumber: 70000 }] }),
    problems: [{ path: 'spec.podMetricsEndpoints[0].portNumber', message: '70000 is not a valid port number (1-65535)' }],
  },
  {
    story: 'a PodMonitor with a bad regex in its second endpoint',
    monitor: pm({ podMetricsEndpoints: [{ port: 'web' }, { port: 'admin', metricRelabelings: [{ regex: '[z-a]', action: 'labeldrop' }] }] }),
    problems: [{ path: 'spec.podMetricsEndpoints[1].metricRelabelings[0].regex', message: 'invalid regex "[z-a]": invalid character class range: z-a' }],
  },
];

function render(monitor: ServiceMonitor | PodMonitor, ctx: ScrapeContext) {
  return monitor.kind === 'ServiceMonitor' ? renderServiceMonitor(monitor, ctx) : renderPodMonitor(monitor as PodMonitor, ctx);
}

describe('a monitor with bad input', () => {
  it.each(cases)('$story: is rejected with the field path and reason, and the other monitor still renders', (c) => {
    const ctx = testContext({ prometheus: testPrometheus(), ...c.ctx }, c.version);
    const bad = render(c.monitor, ctx);
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.problems).toEqual(c.problems);
    const other = render(c.monitor.kind === 'ServiceMonitor' ? good : goodPm, ctx);
    expect(other.ok).toBe(true);
    if (other.ok) expect(other.scrapeConfigs).toHaveLength(1);
  });

  it('never puts a secret value into a message', () => {
    const values = TEST_SECRETS.flatMap((s) => Object.values(s.data)).filter((v) => v.length > 3);
    for (const c of cases) {
      const result = render(c.monitor, testContext(c.ctx, c.version));
      const text = JSON.stringify(result.ok ? result.warnings : [result.problems, result.warnings]);
      for (const value of values) expect(text).not.toContain(value);
    }
  });
});
