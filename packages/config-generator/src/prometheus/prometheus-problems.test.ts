/**
 * Bad input at Prometheus level: each case must come back as a value (never an exception) with
 * `ok: false`, no configs (so the controller keeps the running one), and the exact path and
 * sentence the user will read in the Prometheus' status.
 */
import type { Prometheus, ServiceMonitor } from '@promop/crds';
import { generate } from '../generate.ts';
import type { FieldProblem, GeneratorInput, KeyValueSource } from '../model.ts';

function prometheus(spec: Record<string, unknown>): Prometheus {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace: 'monitoring', name: 'main' }, spec } as Prometheus;
}

const api = {
  apiVersion: 'monitoring.coreos.com/v1',
  kind: 'ServiceMonitor',
  metadata: { namespace: 'monitoring', name: 'api', labels: {} },
  spec: { selector: {}, endpoints: [{ port: 'web' }] },
} as ServiceMonitor;

/** The Prometheus monitoring/main with `spec`, selecting the ServiceMonitor api. */
function inputFor(spec: Record<string, unknown>, secrets: KeyValueSource[]): GeneratorInput {
  return {
    prometheus: prometheus({ serviceMonitorSelector: {}, ...spec }),
    serviceMonitors: [api],
    podMonitors: [],
    prometheusRules: [],
    namespaces: [{ name: 'monitoring', labels: {} }],
    secrets,
    configMaps: [],
  };
}

function problemsFor(spec: Record<string, unknown>, secrets: KeyValueSource[] = []): FieldProblem[] {
  const output = generate(inputFor(spec, secrets));
  expect(output.ok).toBe(false);
  expect(output.configs).toEqual([]);
  const own = output.verdicts[0];
  expect(own?.resource.kind).toBe('Prometheus');
  expect(own?.selected && !own.accepted && own.reason).toBe(`${output.prometheusProblems[0]?.path}: ${output.prometheusProblems[0]?.message}`);
  // The monitors are still judged on their own, so their verdicts stay useful meanwhile.
  expect(output.verdicts.find((v) => v.resource.name === 'api')).toMatchObject({ selected: true, accepted: true });
  return output.prometheusProblems;
}

describe('a Prometheus with a problem of its own', () => {
  it('rejects a version that is not a version', () => {
    expect(problemsFor({ version: 'latest' })).toEqual([{ path: 'spec.version', message: '"latest" is not a Prometheus version such as v3.5.0' }]);
  });

  it('rejects a scrape timeout longer than the scrape interval', () => {
    expect(problemsFor({ scrapeInterval: '15s', scrapeTimeout: '1m' })).toEqual([
      { path: 'spec.scrapeTimeout', message: 'scrapeTimeout "1m" is greater than scrapeInterval "15s"; Prometheus would refuse the configuration' },
    ]);
  });

  it('rejects a scrape timeout longer than the default 30s interval', () => {
    expect(problemsFor({ scrapeTimeout: '45s' })).toEqual([
      { path: 'spec.scrapeTimeout', message: 'scrapeTimeout "45s" is greater than scrapeInterval "30s"; Prometheus would refuse the configuration' },
    ]);
  });

  it('rejects an interval that is not a duration', () => {
    expect(problemsFor({ evaluationInterval: '1 minute' })).toEqual([{ path: 'spec.evaluationInterval', message: '"1 minute" is not a duration like 30s or 1m' }]);
  });

  it('rejects a selector with an unknown operator, and selects nothing with it', () => {
    const input: GeneratorInput = {
      prometheus: prometheus({ serviceMonitorSelector: { matchExpressions: [{ key: 'team', operator: 'Equals', values: ['a'] }] } }),
      serviceMonitors: [api],
      podMonitors: [],
      prometheusRules: [],
      namespaces: [],
      secrets: [],
      configMaps: [],
    };
    const output = generate(input);
    expect(output.prometheusProblems).toEqual([
      { path: 'spec.serviceMonitorSelector.matchExpressions[0].operator', message: 'unknown operator "Equals"; expected In, NotIn, Exists or DoesNotExist' },
    ]);
    expect(output.verdicts[1]).toEqual({
      resource: { kind: 'ServiceMonitor', namespace: 'monitoring', name: 'api' },
      selected: false,
      reason: "Prometheus monitoring/main's serviceMonitorSelector is invalid, so no ServiceMonitor is selected (see the Prometheus' status)",
    });
  });

  it('rejects a missing remote write password Secret', () => {
    expect(problemsFor({ remoteWrite: [{ url: 'https://rw.example.com', basicAuth: { username: { name: 'rw', key: 'user' }, password: { name: 'rw-pass', key: 'password' } } }] }, [
      { namespace: 'monitoring', name: 'rw', data: { user: 'u' } },
    ])).toEqual([{ path: 'spec.remoteWrite[0].basicAuth.password', message: 'Secret "rw-pass" not found in namespace "monitoring"' }]);
  });

  it('rejects a remote write Secret that lacks the key', () => {
    expect(problemsFor({ remoteWrite: [{ url: 'https://rw.example.com', authorization: { credentials: { name: 'rw', key: 'token' } } }] }, [
      { namespace: 'monitoring', name: 'rw', data: { user: 'u' } },
    ])).toEqual([{ path: 'spec.remoteWrite[0].authorization.credentials', message: 'key "token" not found in Secret "rw" in namespace "monitoring"' }]);
  });

  it('does not read a Secret from another namespace', () => {
    expect(problemsFor({ remoteWrite: [{ url: 'https://rw.example.com', authorization: { credentials: { name: 'rw', key: 'token' } } }] }, [
      { namespace: 'team-a', name: 'rw', data: { token: 't' } },
    ])).toEqual([{ path: 'spec.remoteWrite[0].authorization.credentials', message: 'Secret "rw" not found in namespace "monitoring"' }]);
  });

  it('rejects a remote write url that is not http(s)', () => {
    expect(problemsFor({ remoteWrite: [{ url: 'rw.example.com:9090' }] })).toEqual([
      { path: 'spec.remoteWrite[0].url', message: 'url must be an http:// or https:// URL, got "rw.example.com:9090"' },
    ]);
  });

  it('rejects sigv4 combined with basic auth on one remote write', () => {
    expect(problemsFor({ remoteWrite: [{ url: 'https://rw.example.com', sigv4: { region: 'x' }, basicAuth: { username: { name: 'rw', key: 'u' }, password: { name: 'rw', key: 'p' } } }] }, [
      { namespace: 'monitoring', name: 'rw', data: { u: 'u', p: 'p' } },
    ])).toEqual([{ path: 'spec.remoteWrite[0].sigv4', message: 'sigv4 cannot be combined with basicAuth: set only one authentication method' }]);
  });

  it('rejects an invalid write relabeling regex', () => {
    expect(problemsFor({ remoteWrite: [{ url: 'https://rw.example.com', writeRelabelConfigs: [{ sourceLabels: ['__name__'], regex: 'go_(', action: 'drop' }] }] })).toEqual([
      { path: 'spec.remoteWrite[0].writeRelabelConfigs[0].regex', message: 'invalid regex "go_(": missing closing ): go_(' },
    ]);
  });

  it('rejects a missing Alertmanager bearer token Secret', () => {
    expect(problemsFor({ alerting: { alertmanagers: [{ name: 'am', port: 'web', authorization: { credentials: { name: 'am-token', key: 'token' } } }] } })).toEqual([
      { path: 'spec.alerting.alertmanagers[0].authorization.credentials', message: 'Secret "am-token" not found in namespace "monitoring"' },
    ]);
  });

  it('rejects an Alertmanager API version other than v1 or v2', () => {
    expect(problemsFor({ alerting: { alertmanagers: [{ name: 'am', port: 'web', apiVersion: 'v3' }] } })).toEqual([
      { path: 'spec.alerting.alertmanagers[0].apiVersion', message: 'apiVersion must be v1 or v2, got "v3"' },
    ]);
  });

  it('rejects a missing additionalScrapeConfigs Secret', () => {
    expect(problemsFor({ additionalScrapeConfigs: { name: 'extra', key: 'scrape.yaml' } })).toEqual([
      { path: 'spec.additionalScrapeConfigs', message: 'Secret "extra" not found in namespace "monitoring"' },
    ]);
  });

  it('accepts a missing additionalScrapeConfigs Secret marked optional', () => {
    const output = generate({
      prometheus: prometheus({ additionalScrapeConfigs: { name: 'extra', key: 'scrape.yaml', optional: true } }),
      serviceMonitors: [],
      podMonitors: [],
      prometheusRules: [],
      namespaces: [],
      secrets: [],
      configMaps: [],
    });
    expect(output.ok).toBe(true);
    expect(output.configs[0]).toContain('scrape_configs: []\n');
  });

  // The Secret's text is never quoted: it may hold credentials (basic_auth passwords, tokens).
  it.each([
    ['a mapping instead of a list', 'job_name: node\nstatic_configs: []\n', 'must hold a YAML list, not a mapping'],
    ['not YAML at all', '- job_name: [unclosed\n', 'is not valid YAML: deficient indentation at line 2, column 1'],
    ['a YAML error next to a password', '- job_name: a\n  basic_auth:\n    password: !hunter2 x\n', 'is not valid YAML: unknown scalar tag at line 3, column 15'],
  ])('rejects additionalScrapeConfigs holding %s, saying where without quoting the Secret', (_story, content, message) => {
    expect(problemsFor({ additionalScrapeConfigs: { name: 'extra', key: 'scrape.yaml' } }, [{ namespace: 'monitoring', name: 'extra', data: { 'scrape.yaml': content } }])).toEqual([
      { path: 'spec.additionalScrapeConfigs', message: `key "scrape.yaml" of Secret "extra" ${message}` },
    ]);
  });

  it('rejects an additionalScrapeConfigs list item that is not a mapping', () => {
    expect(problemsFor({ additionalScrapeConfigs: { name: 'extra', key: 'scrape.yaml' } }, [
      { namespace: 'monitoring', name: 'extra', data: { 'scrape.yaml': '- job_name: a\n- just-a-string\n' } },
    ])).toEqual([{ path: 'spec.additionalScrapeConfigs', message: 'key "scrape.yaml" of Secret "extra": item 1 of the list must be a mapping, not a string' }]);
  });

  it('rejects a relabeling target label that nameValidationScheme Legacy does not allow', () => {
    expect(problemsFor({ nameValidationScheme: 'Legacy', remoteWrite: [{ url: 'https://rw.example.com', writeRelabelConfigs: [{ sourceLabels: ['job'], targetLabel: 'service.name' }] }] })).toEqual([
      { path: 'spec.remoteWrite[0].writeRelabelConfigs[0].targetLabel', message: '"service.name" is not a valid target label for the replace action' },
    ]);
  });

  it('never puts a secret value into a problem, a warning or a verdict', () => {
    const values = ['hunter2', 'sesame-open', 'not-a-certificate-but-secret', 'tok-9f8e7d'];
    const secrets: KeyValueSource[] = [
      { namespace: 'monitoring', name: 'extra', data: { 'scrape.yaml': '- job_name: a\n  basic_auth: {password: !hunter2 x}\n', alerts: '*sesame-open' } },
      { namespace: 'monitoring', name: 'tls', data: { ca: 'not-a-certificate-but-secret' } },
      { namespace: 'monitoring', name: 'creds', data: { token: 'tok-9f8e7d' } },
    ];
    const spec = {
      version: 'v2.20.0',
      additionalScrapeConfigs: { name: 'extra', key: 'scrape.yaml' },
      additionalAlertManagerConfigs: { name: 'extra', key: 'alerts' },
      remoteWrite: [
        { url: 'https://rw.example.com', tlsConfig: { ca: { secret: { name: 'tls', key: 'ca' } } }, authorization: { credentials: { name: 'creds', key: 'token' } } },
        { url: 'https://rw2.example.com', basicAuth: { username: { name: 'creds', key: 'token' }, password: { name: 'creds', key: 'missing' } } },
      ],
      alerting: { alertmanagers: [{ name: 'am', port: 'web', apiVersion: 'v3', authorization: { credentials: { name: 'creds', key: 'token' } } }] },
    };
    const output = generate(inputFor(spec, secrets));
    expect(output.ok).toBe(false);
    // Every kind of reference above was reported (so the check below looked at real messages).
    expect(output.prometheusProblems.map((problem) => problem.path)).toEqual([
      'spec.additionalScrapeConfigs',
      'spec.alerting.alertmanagers[0].apiVersion',
      'spec.additionalAlertManagerConfigs',
      'spec.remoteWrite[0].tlsConfig.ca',
      'spec.remoteWrite[1].basicAuth.password',
    ]);
    const text = JSON.stringify([output.prometheusProblems, output.prometheusWarnings, output.verdicts]);
    for (const value of values) expect(text).not.toContain(value);
  });

  it('rejects two default scrape classes and a scrape class relabeling Prometheus would refuse', () => {
    expect(problemsFor({
      scrapeClasses: [
        { name: 'a', default: true },
        { name: 'b', default: true, metricRelabelings: [{ sourceLabels: ['__name__'], regex: 'go_(', action: 'drop' }] },
      ],
    })).toEqual([
      { path: 'spec.scrapeClasses[1].metricRelabelings[0].regex', message: 'invalid regex "go_(": missing closing ): go_(' },
      { path: 'spec.scrapeClasses[1].default', message: 'only one scrape class can be the default, and "a" already is' },
    ]);
  });

  it('rejects a scrape class whose credentials Secret is not in the Prometheus namespace', () => {
    expect(problemsFor({ scrapeClasses: [{ name: 'a', authorization: { credentials: { name: 'class-token', key: 'token' } } }] }, [
      { namespace: 'team-a', name: 'class-token', data: { token: 't' } },
    ])).toEqual([{ path: 'spec.scrapeClasses[0].authorization.credentials', message: 'Secret "class-token" not found in namespace "monitoring"' }]);
  });

  it('reports every problem, not only the first', () => {
    expect(problemsFor({ version: 'v3', scrapeInterval: 'soon', remoteWrite: [{ url: 'ftp://x' }] }).map((problem) => problem.path)).toEqual([
      'spec.version',
      'spec.scrapeInterval',
      'spec.remoteWrite[0].url',
    ]);
  });
});
