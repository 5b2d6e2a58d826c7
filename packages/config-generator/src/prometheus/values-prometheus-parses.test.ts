/**
 * Strings of the Prometheus spec that Prometheus parses with a grammar of its own when it loads the file, and that
 * the CRD schema lets through: each bad one is a problem of the Prometheus (path and sentence), so the running
 * configuration stays, instead of a reload Prometheus refuses. Found by field-checks.test.ts.
 */
import type { Prometheus } from '@promop/crds';
import { generate } from '../generate.ts';
import type { FieldProblem, GeneratorOutput } from '../model.ts';
import { promtoolCheckConfigs } from '../test-support/scrape-harness.ts';

function render(spec: Record<string, unknown>): GeneratorOutput {
  const prometheus = { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace: 'monitoring', name: 'main' }, spec } as Prometheus;
  return generate({ prometheus, serviceMonitors: [], podMonitors: [], prometheusRules: [], namespaces: [{ name: 'monitoring', labels: {} }], secrets: [], configMaps: [] });
}

function problemsFor(spec: Record<string, unknown>): FieldProblem[] {
  const output = render(spec);
  expect(output.configs).toEqual([]);
  return output.prometheusProblems;
}

const write = (more: Record<string, unknown> = {}) => ({ url: 'http://write.example/api/v1/write', ...more });
const read = (more: Record<string, unknown> = {}) => ({ url: 'http://read.example/api/v1/read', ...more });

describe('a Prometheus whose strings Prometheus would refuse to load', () => {
  it('is refused for a byte size the CRD pattern lets through (its ^ anchors only the first alternative)', () => {
    expect(problemsFor({ bodySizeLimit: 'x1KB', enforcedBodySizeLimit: '1MBx0', retentionSize: 'lots10GB' })).toEqual([
      { path: 'spec.bodySizeLimit', message: '"x1KB" is not a size like 512MB or 1GiB' },
      { path: 'spec.enforcedBodySizeLimit', message: '"1MBx0" is not a size like 512MB or 1GiB' },
      { path: 'spec.retentionSize', message: '"lots10GB" is not a size like 512MB or 1GiB' },
    ]);
  });

  it('is refused for a name escaping scheme Prometheus does not know', () => {
    expect(problemsFor({ nameEscapingScheme: 'underscore' })).toEqual([
      { path: 'spec.nameEscapingScheme', message: 'nameEscapingScheme must be one of AllowUTF8, Underscores, Dots, Values, got "underscore"' },
    ]);
  });

  it('is refused for an out-of-order window that is not a duration (tsdb is opaque in the CRD)', () => {
    expect(problemsFor({ tsdb: { outOfOrderTimeWindow: '1 hour' } })).toEqual([
      { path: 'spec.tsdb.outOfOrderTimeWindow', message: '"1 hour" is not a duration like 30m or 1h' },
    ]);
  });

  it('is refused for an external label or required matcher name Prometheus does not accept', () => {
    expect(problemsFor({ externalLabels: { '': 'x' }, remoteRead: [read({ requiredMatchers: { '': 'x' } })] })).toEqual([
      { path: 'spec.externalLabels.', message: '"" is not a label name this Prometheus accepts (must be non-empty UTF-8 text)' },
      { path: 'spec.remoteRead[0].requiredMatchers.', message: '"" is not a label name this Prometheus accepts (must be non-empty UTF-8 text)' },
    ]);
    expect(problemsFor({ version: 'v2.55.0', externalLabels: { 'team-name': 'a' } })).toEqual([
      { path: 'spec.externalLabels.team-name', message: '"team-name" is not a label name this Prometheus accepts (must match [a-zA-Z_][a-zA-Z0-9_]*)' },
    ]);
  });

  it('is refused for a remote URL whose host Go\'s url.Parse refuses, though it matches the CRD pattern', () => {
    expect(problemsFor({ remoteWrite: [{ url: 'http://a b/write' }], apiserverConfig: { host: 'https://kube .example' } })).toEqual([
      { path: 'spec.apiserverConfig.host', message: 'host "https://kube .example" is not a URL Prometheus can read: invalid character " " in host name' },
      { path: 'spec.remoteWrite[0].url', message: 'url "http://a b/write" is not a URL Prometheus can read: invalid character " " in host name' },
    ]);
  });

  it('is refused for a remote header Prometheus sets itself, or Authorization', () => {
    expect(problemsFor({ remoteWrite: [write({ headers: { 'Content-Type': 'text/plain', Authorization: 'Bearer x', 'X-Scope-OrgID': 'a' } })], remoteRead: [read({ headers: { 'user-agent': 'me' } })] })).toEqual([
      { path: 'spec.remoteWrite[0].headers.Content-Type', message: 'Content-Type is a header Prometheus sets itself and cannot be changed' },
      { path: 'spec.remoteWrite[0].headers.Authorization', message: 'the Authorization header is set with basicAuth, authorization, oauth2 or sigv4, not headers' },
      { path: 'spec.remoteRead[0].headers.user-agent', message: 'user-agent is a header Prometheus sets itself and cannot be changed' },
    ]);
  });

  it('is refused for two remote writes (or reads) with one name; unnamed ones never clash', () => {
    expect(problemsFor({ remoteWrite: [write({ name: 'a' }), write(), write(), write({ name: 'a' })], remoteRead: [read({ name: 'b' }), read({ name: 'b' })] })).toEqual([
      { path: 'spec.remoteWrite[3].name', message: '"a" is already the name of remoteWrite[0]; Prometheus needs the names to differ' },
      { path: 'spec.remoteRead[1].name', message: '"b" is already the name of remoteRead[0]; Prometheus needs the names to differ' },
    ]);
  });

  it('is refused for an Alertmanager Service name or port name that is not a regex (both become one)', () => {
    expect(problemsFor({ alerting: { alertmanagers: [{ name: 'am(', port: 'web[' }] } })).toEqual([
      { path: 'spec.alerting.alertmanagers[0].name', message: '"am(" is not a valid Service name' },
      { path: 'spec.alerting.alertmanagers[0].port', message: '"web[" is not a valid port name' },
    ]);
  });

  it('keeps accepting the good values next to them', () => {
    const output = render({
      bodySizeLimit: '10MiB', retentionSize: '1.5GB', nameEscapingScheme: 'Underscores', tsdb: { outOfOrderTimeWindow: '30m' },
      externalLabels: { cluster: 'eu-1' }, remoteWrite: [write({ name: 'a', headers: { 'X-Scope-OrgID': 'team-a' } }), write({ name: 'b' })],
      remoteRead: [read({ requiredMatchers: { job: 'x' } })], alerting: { alertmanagers: [{ name: 'alertmanager-main', port: 'web' }] },
    });
    expect(output.prometheusProblems).toEqual([]);
    expect(output.ok).toBe(true);
  });
});

describe('the values above, written into a configuration Prometheus otherwise accepts', () => {
  // The good configuration of the last case, with one good value swapped for the bad one a case above refuses:
  // promtool (Prometheus' own loader) refuses each, which is why promop reports them instead of writing them.
  const SWAPS: [string, string, string][] = [
    ['byte size', 'body_size_limit: 10MiB', 'body_size_limit: x1KB'],
    ['retention size', 'size: 1.5GB', 'size: lots10GB'],
    ['name escaping scheme', 'metric_name_escaping_scheme: underscores', 'metric_name_escaping_scheme: underscore'],
    ['out-of-order window', 'out_of_order_time_window: 30m', 'out_of_order_time_window: 1 hour'],
    ['external label name', 'cluster: eu-1', '"": eu-1'],
    ['required matcher name', 'job: x', '"": x'],
    ['remote URL host', 'url: http://read.example/api/v1/read', 'url: http://a b/read'],
    ['reserved remote header', 'X-Scope-OrgID: team-a', 'Content-Type: team-a'],
    ['duplicate remote write name', 'name: b', 'name: a'],
    ['Alertmanager Service name regex', 'regex: alertmanager-main', 'regex: am('],
  ];
  const good = render({
    bodySizeLimit: '10MiB', retentionSize: '1.5GB', nameEscapingScheme: 'Underscores', tsdb: { outOfOrderTimeWindow: '30m' },
    externalLabels: { cluster: 'eu-1' }, remoteWrite: [write({ name: 'a', headers: { 'X-Scope-OrgID': 'team-a' } }), write({ name: 'b' })],
    remoteRead: [read({ requiredMatchers: { job: 'x' } })], alerting: { alertmanagers: [{ name: 'alertmanager-main', port: 'web' }] },
  }).configs[0]?.replace('scrape_configs: []', 'scrape_configs:\n- job_name: static\n  static_configs:\n  - targets: [a:80]') ?? '';
  // (One scrape job: Prometheus checks the global name escaping scheme as each job inherits it, so none means no check.)

  it('is accepted by the real promtool as promop writes it', async () => {
    expect((await promtoolCheckConfigs([good])).code).toBe(0);
  });

  it.each(SWAPS)('is refused by the real promtool with a bad %s', async (_what, from, to) => {
    expect(good.split(from)).toHaveLength(2);
    expect((await promtoolCheckConfigs([good.replace(from, to)])).code).not.toBe(0);
  });
});
