/**
 * An Alertmanager's configuration from the platform's base and the teams' AlertmanagerConfigs, read back by
 * Alertmanager's own code (amtool 0.35: `check-config`, and `config routes test`, which answers which receivers an
 * alert with given labels reaches): each team's alerts reach its receivers and no other team's, a hostile value
 * stays the value it meant, and a broken object is rejected alone with its field path.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import type { Alertmanager, AlertmanagerConfig } from '@promop/crds';
import { toolPath } from '@promop/testkit';
import type { Verdict } from '../model.ts';
import { TEST_CERT } from '../test-support/index.ts';
import { DEFAULT_ALERTMANAGER_CONFIG, generateAlertmanagerConfiguration, type AlertmanagerConfigurationInput } from './alertmanager-configuration.ts';

const dir = mkdtempSync(join(tmpdir(), 'promop-am-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const BASE = [
  'global:',
  '  resolve_timeout: 5m',
  'route:',
  '  receiver: platform',
  '  group_by: [alertname]',
  '  routes:',
  '  - receiver: watchdog',
  '    matchers: [alertname="Watchdog"]',
  'receivers:',
  '- name: platform',
  '- name: watchdog',
  '',
].join('\n');

function alertmanager(spec: Record<string, unknown> = { alertmanagerConfigSelector: {}, alertmanagerConfigNamespaceSelector: {} }): Alertmanager {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'Alertmanager', metadata: { namespace: 'monitoring', name: 'main' }, spec } as Alertmanager;
}

function amcfg(namespace: string, name: string, spec: Record<string, unknown>, labels: Record<string, string> = {}): AlertmanagerConfig {
  return { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'AlertmanagerConfig', metadata: { namespace, name, labels }, spec } as AlertmanagerConfig;
}

/** A team's ordinary object: its alerts of any severity to a webhook. */
const teamConfig = (namespace: string, name = 'alerting') => amcfg(namespace, name, {
  route: { receiver: 'oncall', groupBy: ['alertname'], groupWait: '30s' },
  receivers: [{ name: 'oncall', webhookConfigs: [{ url: `http://${namespace}.example/hook` }] }],
});

const NAMESPACES = ['monitoring', 'team-a', 'team-b', 'team-c'].map((name) => ({ name, labels: { 'kubernetes.io/metadata.name': name } }));

function generate(overrides: Partial<AlertmanagerConfigurationInput>) {
  return generateAlertmanagerConfiguration({ alertmanager: alertmanager(), baseConfig: BASE, alertmanagerConfigs: [], namespaces: NAMESPACES, secrets: [], ...overrides });
}

function written(text: string): string {
  const file = join(dir, `alertmanager-${files++}.yaml`);
  writeFileSync(file, text);
  return file;
}

/** amtool check-config on `text`: exit code and output. */
function check(text: string): { code: number | null; output: string } {
  const result = spawnSync(toolPath('amtool'), ['check-config', written(text)], { encoding: 'utf8' });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The receivers Alertmanager routes an alert with these labels to (amtool reads the label set as matchers). */
function receiversFor(text: string, labels: Record<string, string>): string[] {
  const matchers = Object.entries(labels).map(([name, value]) => `${name}="${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`);
  const result = spawnSync(toolPath('amtool'), ['config', 'routes', 'test', `--config.file=${written(text)}`, ...matchers], { encoding: 'utf8' });
  if (result.status !== 0 && result.stdout === '') throw new Error(`amtool failed: ${result.stderr}`);
  return result.stdout.trim().split(',').map((name) => name.trim()).filter((name) => name !== '');
}

function okText(result: ReturnType<typeof generate>): string {
  if (!result.ok) throw new Error(`unexpected problem ${JSON.stringify(result.problem)}`);
  expect(check(result.text)).toEqual({ code: 0, output: expect.stringContaining('SUCCESS') });
  return result.text;
}

const verdictOf = (verdicts: Verdict[], namespace: string, name: string) => verdicts.find((v) => v.resource.namespace === namespace && v.resource.name === name);

describe('an Alertmanager without alertmanagerConfigSelector', () => {
  it('runs the platform\'s configuration exactly as written, and says why no AlertmanagerConfig is selected', () => {
    const result = generate({ alertmanager: alertmanager({}), alertmanagerConfigs: [teamConfig('monitoring'), teamConfig('team-a')] });
    expect(result).toMatchObject({ ok: true, text: BASE });
    expect(verdictOf(result.verdicts, 'monitoring', 'alerting')).toMatchObject({ selected: false, reason: 'Alertmanager monitoring/main\'s alertmanagerConfigSelector is not set, so no AlertmanagerConfig is selected' });
    expect(verdictOf(result.verdicts, 'team-a', 'alerting')).toMatchObject({ selected: false, reason: expect.stringContaining('alertmanagerConfigNamespaceSelector is not set') });
  });

  it('runs a configuration that sends nothing when the platform gave none', () => {
    expect(generate({ alertmanager: alertmanager({}), baseConfig: undefined })).toMatchObject({ ok: true, text: DEFAULT_ALERTMANAGER_CONFIG });
    expect(check(DEFAULT_ALERTMANAGER_CONFIG).code).toBe(0);
  });
});

describe('teams\' AlertmanagerConfigs merged into the platform\'s configuration', () => {
  const result = generate({ alertmanagerConfigs: [teamConfig('team-b'), teamConfig('team-a')] });
  const text = okText(result);

  it('send each team\'s alerts to its own receiver, and only its own', () => {
    expect(receiversFor(text, { namespace: 'team-a', alertname: 'Down' })).toEqual(['team-a/alerting/oncall']);
    expect(receiversFor(text, { namespace: 'team-b', alertname: 'Down' })).toEqual(['team-b/alerting/oncall']);
    // Another namespace's alerts, and the platform's, go where the platform routes them.
    expect(receiversFor(text, { namespace: 'team-c', alertname: 'Down' })).toEqual(['platform']);
    expect(receiversFor(text, { namespace: 'monitoring', alertname: 'Watchdog' })).toEqual(['watchdog']);
  });

  it('let the platform\'s own routes still see a team\'s alerts (continue: true)', () => {
    expect(receiversFor(text, { namespace: 'team-a', alertname: 'Watchdog' })).toEqual(['team-a/alerting/oncall', 'watchdog']);
  });

  it('write the teams\' routes first, in namespace/name order, then the platform\'s, as prometheus-operator does', () => {
    const config = load(text) as { route: { routes: { receiver: string; matchers: string[]; continue?: boolean }[] }; receivers: { name: string }[]; templates: unknown[] };
    expect(config.route.routes.map((route) => route.receiver)).toEqual(['team-a/alerting/oncall', 'team-b/alerting/oncall', 'watchdog']);
    expect(config.route.routes[0]).toEqual({ receiver: 'team-a/alerting/oncall', group_by: ['alertname'], matchers: ['namespace="team-a"'], continue: true, group_wait: '30s' });
    expect(config.receivers.map((receiver) => receiver.name)).toEqual(['platform', 'watchdog', 'team-a/alerting/oncall', 'team-b/alerting/oncall']);
    expect(config.templates).toEqual([]);
  });

  it('give each selected object an accepted verdict, in the order they were merged', () => {
    expect(result.verdicts.map((v) => [v.resource.namespace, v.selected && v.accepted])).toEqual([['team-a', true], ['team-b', true]]);
  });
});

describe('a hostile team', () => {
  it('cannot catch another team\'s alerts with a matcher on namespace, nor stop them with continue: false', () => {
    const thief = amcfg('team-b', 'thief', {
      route: { receiver: 'steal', continue: false, matchers: [{ name: 'namespace', value: 'team-a' }], routes: [{ receiver: 'steal', continue: false }] },
      receivers: [{ name: 'steal', webhookConfigs: [{ url: 'http://attacker.example/' }] }],
    });
    const text = okText(generate({ alertmanagerConfigs: [thief, teamConfig('team-a')] }));
    expect(receiversFor(text, { namespace: 'team-a', alertname: 'Down' })).toEqual(['team-a/alerting/oncall']);
  });

  it('cannot break out of a matcher value: quotes, commas, braces, backslashes and line breaks stay the value', () => {
    const value = 'a", namespace=~".*"} \\ \n x\u2028- receiver: evil\u0085';
    const sly = amcfg('team-b', 'sly', {
      route: { receiver: 'r', matchers: [{ name: 'severity', value }] },
      receivers: [{ name: 'r' }],
      inhibitRules: [{ sourceMatch: [{ name: 'alertname', value }], targetMatch: [{ name: 'severity', value: 'warning' }] }],
    });
    const text = okText(generate({ alertmanagerConfigs: [sly, teamConfig('team-a')] }));
    expect(receiversFor(text, { namespace: 'team-b', severity: value })).toEqual(['team-b/sly/r']);
    expect(receiversFor(text, { namespace: 'team-b', severity: 'a' })).toEqual(['platform']);
    expect(receiversFor(text, { namespace: 'team-a', severity: value })).toEqual(['team-a/alerting/oncall']);
    const config = load(text) as { receivers: { name: string }[]; inhibit_rules: { source_matchers: string[]; target_matchers: string[] }[] };
    expect(config.receivers.map((receiver) => receiver.name)).toEqual(['platform', 'watchdog', 'team-a/alerting/oncall', 'team-b/sly/r']);
    expect(config.inhibit_rules[0]?.target_matchers).toEqual(['severity="warning"', 'namespace="team-b"']);
  });

  it('is rejected alone for a regex Alertmanager would refuse, with the field path, and the others are merged', () => {
    const broken = amcfg('team-b', 'broken', {
      route: { receiver: 'r', matchers: [{ name: 'job', value: '(unclosed', matchType: '=~' }] },
      receivers: [{ name: 'r' }],
    });
    const result = generate({ alertmanagerConfigs: [broken, teamConfig('team-a')] });
    const text = okText(result);
    expect(verdictOf(result.verdicts, 'team-b', 'broken')).toMatchObject({ selected: true, accepted: false, reason: expect.stringMatching(/^spec\.route\.matchers\[0\]\.value: /) });
    expect(receiversFor(text, { namespace: 'team-a' })).toEqual(['team-a/alerting/oncall']);
    expect(text).not.toContain('team-b');
  });

  it('is rejected for a label name that is not one, a route to a receiver it does not have, and an unknown field in a nested route', () => {
    const broken = amcfg('team-b', 'broken', {
      route: {
        receiver: 'missing',
        matchers: [{ name: 'a"b', value: 'x' }],
        routes: [{ receiver: 'r', groupWait: 'soon' }, { receiver: 'r', matchers: [{ name: 'x', value: 'y', matchType: '==' }] }, { recevier: 'r' }],
      },
      receivers: [{ name: 'r' }, { name: 'r' }],
    });
    const verdict = verdictOf(generate({ alertmanagerConfigs: [broken] }).verdicts, 'team-b', 'broken');
    expect(verdict && verdict.selected && !verdict.accepted ? verdict.problems.map((problem) => problem.path) : []).toEqual([
      'spec.receivers[1].name',
      'spec.route.receiver',
      'spec.route.matchers[0].name',
      'spec.route.routes[0].groupWait',
      'spec.route.routes[1].matchers[0].matchType',
      'spec.route.routes[2].recevier',
    ]);
  });

  it('cannot nest routes deeper than promop allows', () => {
    let route: Record<string, unknown> = { receiver: 'r' };
    for (let depth = 0; depth < 40; depth++) route = { receiver: 'r', routes: [route] };
    const verdict = verdictOf(generate({ alertmanagerConfigs: [amcfg('team-b', 'deep', { route, receivers: [{ name: 'r' }] })] }).verdicts, 'team-b', 'deep');
    expect(verdict).toMatchObject({ accepted: false, reason: expect.stringContaining('routes nest more than 16 levels deep') });
  });
});

describe('TLS material of the teams\' receivers', () => {
  const withCa = (namespace: string, key: string) => amcfg(namespace, 'tls', {
    route: { receiver: 'oncall' },
    receivers: [{ name: 'oncall', webhookConfigs: [{ url: `https://${namespace}.example/hook`, httpConfig: { tlsConfig: { ca: { secret: { name: 'hook-ca', key } } } } }] }],
  });
  const secrets = [
    { namespace: 'team-a', name: 'hook-ca', data: { 'ca.crt': TEST_CERT } },
    { namespace: 'team-b', name: 'hook-ca', data: { 'ca.crt': 'not a certificate' } },
  ];

  it('goes with the configuration as files of accepted objects only, and a digest of them heads the text so Alertmanager\'s hash of the file changes with them', () => {
    const output = generate({ alertmanagerConfigs: [withCa('team-a', 'ca.crt'), withCa('team-b', 'ca.crt')], secrets });
    if (!output.ok) throw new Error(output.problem.message);
    expect(output.tlsAssets).toEqual({ '0_team-a_hook-ca_ca.crt': TEST_CERT });
    expect(output.text).toContain('ca_file: /etc/alertmanager/config/0_team-a_hook-ca_ca.crt');
    expect(output.text).toMatch(/^# TLS files: 1, sha256 [0-9a-f]{16}\n/);
    expect(output.verdicts.find((verdict) => verdict.resource.namespace === 'team-b')).toMatchObject({ accepted: false });
    expect(spawnSync(toolPath('amtool'), ['check-config', written(output.text)], { encoding: 'utf8' }).status).toBe(0);
    const rotated = generate({ alertmanagerConfigs: [withCa('team-a', 'ca.crt')], secrets: [{ ...secrets[0]!, data: { 'ca.crt': `${TEST_CERT}\n` } }] });
    if (!rotated.ok) throw new Error(rotated.problem.message);
    expect(rotated.text.split('\n')[0]).not.toBe(output.text.split('\n')[0]);
    expect(rotated.text.split('\n').slice(1)).toEqual(output.text.split('\n').slice(1));
  });

  it('leaves a configuration without TLS files as it was', () => {
    const output = generate({ alertmanagerConfigs: [teamConfig('team-a')] });
    expect(output.ok && output.text.startsWith('#')).toBe(false);
    expect(output.ok && output.tlsAssets).toEqual({});
  });
});

describe('a team\'s time intervals', () => {
  it('are named after the object, and its routes mute by them', () => {
    const object = amcfg('team-a', 'quiet', {
      route: { receiver: 'r', routes: [{ receiver: 'r', muteTimeIntervals: ['weekdays'], matchers: [{ name: 'severity', value: 'warning' }] }] },
      receivers: [{ name: 'r' }],
      muteTimeIntervals: [{ name: 'weekdays', timeIntervals: [{ weekdays: ['Monday:FRIDAY'] }] }],
    });
    const text = okText(generate({ alertmanagerConfigs: [object] }));
    const config = load(text) as { route: { routes: { routes: { mute_time_intervals: string[] }[] }[] }; mute_time_intervals: { name: string; time_intervals: unknown[] }[] };
    expect(config.mute_time_intervals).toEqual([{ name: 'team-a/quiet/weekdays', time_intervals: [{ weekdays: ['monday:friday'] }] }]);
    expect(config.route.routes[0]?.routes[0]?.mute_time_intervals).toEqual(['team-a/quiet/weekdays']);
  });

  it('must exist for a route to name them', () => {
    const object = amcfg('team-a', 'quiet', { route: { receiver: 'r', routes: [{ activeTimeIntervals: ['office-hours'] }] }, receivers: [{ name: 'r' }] });
    expect(verdictOf(generate({ alertmanagerConfigs: [object] }).verdicts, 'team-a', 'quiet')).toMatchObject({
      accepted: false, reason: 'spec.route.routes[0].activeTimeIntervals[0]: no time interval named "office-hours" in spec.muteTimeIntervals',
    });
  });
});

describe('the matcher strategy', () => {
  const inMonitoring = amcfg('monitoring', 'platform-extra', { route: { receiver: 'all' }, receivers: [{ name: 'all' }] });

  it('OnNamespaceExceptForAlertmanagerNamespace lets objects in the Alertmanager\'s namespace see every alert', () => {
    const text = okText(generate({
      alertmanager: alertmanager({ alertmanagerConfigSelector: {}, alertmanagerConfigNamespaceSelector: {}, alertmanagerConfigMatcherStrategy: { type: 'OnNamespaceExceptForAlertmanagerNamespace' } }),
      alertmanagerConfigs: [inMonitoring, teamConfig('team-a')],
    }));
    expect(receiversFor(text, { namespace: 'team-c' })).toEqual(['monitoring/platform-extra/all']);
    expect(receiversFor(text, { namespace: 'team-a' })).toEqual(['monitoring/platform-extra/all', 'team-a/alerting/oncall']);
  });

  it('None adds no namespace matcher', () => {
    const text = okText(generate({
      alertmanager: alertmanager({ alertmanagerConfigSelector: {}, alertmanagerConfigNamespaceSelector: {}, alertmanagerConfigMatcherStrategy: { type: 'None' } }),
      alertmanagerConfigs: [teamConfig('team-a')],
    }));
    expect(receiversFor(text, { namespace: 'team-c' })).toEqual(['team-a/alerting/oncall']);
  });
});

describe('selection', () => {
  it('takes only the Alertmanager\'s own namespace when alertmanagerConfigNamespaceSelector is unset, and only matching labels', () => {
    const result = generate({
      alertmanager: alertmanager({ alertmanagerConfigSelector: { matchLabels: { alerting: 'on' } } }),
      alertmanagerConfigs: [amcfg('monitoring', 'on', { route: { receiver: 'r' }, receivers: [{ name: 'r' }] }, { alerting: 'on' }), amcfg('monitoring', 'off', {}), { ...teamConfig('team-a'), metadata: { namespace: 'team-a', name: 'alerting', labels: { alerting: 'on' } } }],
    });
    okText(result);
    expect(result.verdicts.map((v) => [v.resource.namespace, v.resource.name, v.selected])).toEqual(expect.arrayContaining([
      ['monitoring', 'on', true], ['monitoring', 'off', false], ['team-a', 'alerting', false],
    ]));
  });
});

describe('the platform\'s base configuration', () => {
  it('without a route cannot take AlertmanagerConfigs, and says so without quoting it', () => {
    const result = generate({ baseConfig: 'global:\n  smtp_auth_password: hunter2\nreceivers: []\n', alertmanagerConfigs: [teamConfig('team-a')] });
    expect(result).toMatchObject({ ok: false, problem: { path: 'spec.configSecret', message: expect.stringContaining('has no route') } });
    expect(JSON.stringify(result)).not.toContain('hunter2');
  });

  it('whose routes name a receiver or time interval it does not define is refused, as upstream refuses it', () => {
    const missingReceiver = generate({ baseConfig: 'route:\n  receiver: platform\n  routes:\n  - receiver: missing\nreceivers:\n- name: platform\n', alertmanagerConfigs: [teamConfig('team-a')] });
    expect(missingReceiver).toMatchObject({ ok: false, problem: { path: 'spec.configSecret', message: expect.stringContaining('undefined receiver "missing" used in route') } });
    const missingInterval = generate({ baseConfig: 'route:\n  receiver: platform\n  mute_time_intervals: [nights]\nreceivers:\n- name: platform\n' });
    expect(missingInterval).toMatchObject({ ok: false, problem: { message: expect.stringContaining('undefined time interval "nights" used in route') } });
    // Without a selector the base is written as it is, as upstream writes it.
    expect(generate({ alertmanager: alertmanager({}), baseConfig: 'route:\n  receiver: missing\n' })).toMatchObject({ ok: true });
  });

  it('that is not YAML is refused with the line and column', () => {
    expect(generate({ baseConfig: 'route: [\n  receiver: {' })).toMatchObject({ ok: false, problem: { message: expect.stringMatching(/^key alertmanager\.yaml of Secret alertmanager-main is not valid YAML at line \d+, column \d+$/) } });
    // Also without AlertmanagerConfigs: the Alertmanager keeps what it runs rather than load a broken file.
    expect(generate({ alertmanager: alertmanager({}), baseConfig: 'a: [' })).toMatchObject({ ok: false });
  });
});
