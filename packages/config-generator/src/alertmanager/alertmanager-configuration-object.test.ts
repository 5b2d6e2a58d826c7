/**
 * An Alertmanager whose configuration comes from an AlertmanagerConfig of its own namespace
 * (`spec.alertmanagerConfiguration`) instead of the platform's configSecret, read back by Alertmanager's own code
 * (amtool 0.35 `check-config` and `config routes test`): the named object is the top level, its route the root
 * route with no namespace matcher, `global` comes from the Alertmanager with its Secrets read from the
 * Alertmanager's namespace only, and every problem with either is the Alertmanager's, with the field path.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import type { Alertmanager, AlertmanagerConfig } from '@promop/crds';
import { toolPath } from '@promop/testkit';
import type { KeyValueSource } from '../model.ts';
import { generateAlertmanagerConfiguration } from './alertmanager-configuration.ts';

const dir = mkdtempSync(join(tmpdir(), 'promop-am-configuration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

function written(text: string): string {
  const file = join(dir, `alertmanager-${files++}.yaml`);
  writeFileSync(file, text);
  return file;
}

function alertmanager(spec: Record<string, unknown>): Alertmanager {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'Alertmanager', metadata: { namespace: 'monitoring', name: 'main' }, spec } as Alertmanager;
}

function amcfg(namespace: string, name: string, spec: Record<string, unknown>): AlertmanagerConfig {
  return { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'AlertmanagerConfig', metadata: { namespace, name, labels: {} }, spec } as AlertmanagerConfig;
}

/** The platform's object: every alert to a default webhook, critical ones to a pager, with an inhibit rule. */
const platform = amcfg('monitoring', 'platform', {
  route: { receiver: 'default', groupBy: ['alertname'], routes: [{ receiver: 'pager', matchers: [{ name: 'severity', value: 'critical' }] }] },
  receivers: [
    { name: 'default', webhookConfigs: [{ url: 'http://default.example/hook' }] },
    { name: 'pager', emailConfigs: [{ to: 'oncall@example.com' }] },
  ],
  inhibitRules: [{ sourceMatch: [{ name: 'severity', value: 'critical' }], targetMatch: [{ name: 'severity', value: 'warning' }], equal: ['alertname'] }],
  muteTimeIntervals: [{ name: 'weekends', timeIntervals: [{ weekdays: ['saturday', 'sunday'] }] }],
});

const team = amcfg('team-a', 'alerting', {
  route: { receiver: 'oncall' },
  receivers: [{ name: 'oncall', webhookConfigs: [{ url: 'http://team-a.example/hook' }] }],
});

const NAMESPACES = ['monitoring', 'team-a', 'team-b'].map((name) => ({ name, labels: { 'kubernetes.io/metadata.name': name } }));

/** A password no YAML writer may leave unquoted: a line break, a mapping, a flow sequence, a comment, a document end. */
const HOSTILE_PASSWORD = 'p@ss: word\n- [x, {y: z}] # not a comment\n...\n"\'\\';

const SECRETS: KeyValueSource[] = [
  { namespace: 'monitoring', name: 'smtp', data: { password: HOSTILE_PASSWORD, user: 'alertmanager' } },
  { namespace: 'monitoring', name: 'slack', data: { url: 'https://hooks.slack.com/services/T0/B0/XX' } },
];

const SMTP = { smartHost: { host: 'mail.example.com', port: '587' }, from: 'alerts@example.com', authUsername: 'alertmanager', authPassword: { name: 'smtp', key: 'password' } };

function generate(spec: Record<string, unknown>, objects: AlertmanagerConfig[] = [platform, team], secrets: KeyValueSource[] = SECRETS) {
  return generateAlertmanagerConfiguration({ alertmanager: alertmanager(spec), baseConfig: 'not: [valid', alertmanagerConfigs: objects, namespaces: NAMESPACES, secrets });
}

function okText(result: ReturnType<typeof generate>): string {
  if (!result.ok) throw new Error(`unexpected problem ${JSON.stringify(result.problem)}`);
  const checked = spawnSync(toolPath('amtool'), ['check-config', written(result.text)], { encoding: 'utf8' });
  expect({ code: checked.status, output: `${checked.stdout}${checked.stderr}` }).toEqual({ code: 0, output: expect.stringContaining('SUCCESS') });
  return result.text;
}

function receiversFor(text: string, labels: Record<string, string>): string[] {
  const matchers = Object.entries(labels).map(([name, value]) => `${name}="${value}"`);
  const result = spawnSync(toolPath('amtool'), ['config', 'routes', 'test', `--config.file=${written(text)}`, ...matchers], { encoding: 'utf8' });
  return result.stdout.trim().split(',').map((name) => name.trim()).filter((name) => name !== '');
}

function problemOf(result: ReturnType<typeof generate>) {
  if (result.ok) throw new Error('expected a problem');
  return result.problem;
}

describe('an Alertmanager configured from the AlertmanagerConfig of its namespace it names', () => {
  const spec = { alertmanagerConfiguration: { name: 'platform', global: { resolveTimeout: '90s', smtp: SMTP } }, alertmanagerConfigSelector: {}, alertmanagerConfigNamespaceSelector: {} };
  const result = generate(spec);
  const text = okText(result);
  const config = load(text) as Record<string, any>;

  it('uses the object instead of the configSecret: its route is the root, not confined to a namespace and not continuing', () => {
    expect(config.route).toMatchObject({ receiver: 'monitoring/platform/default', group_by: ['alertname'] });
    expect(config.route.matchers).toBeUndefined();
    expect(config.route.continue).toBeUndefined();
    expect(receiversFor(text, { namespace: 'team-b', alertname: 'Down' })).toEqual(['monitoring/platform/default']);
    expect(receiversFor(text, { namespace: 'team-b', severity: 'critical' })).toEqual(['monitoring/platform/pager']);
  });

  it('names its receivers and time intervals as every AlertmanagerConfig\'s, and keeps its inhibit rules unconfined', () => {
    expect(config.receivers.map((receiver: { name: string }) => receiver.name)).toEqual(['monitoring/platform/default', 'monitoring/platform/pager', 'team-a/alerting/oncall']);
    expect(config.mute_time_intervals.map((interval: { name: string }) => interval.name)).toEqual(['monitoring/platform/weekends']);
    expect(config.inhibit_rules).toEqual([{ target_matchers: ['severity="warning"'], source_matchers: ['severity="critical"'], equal: ['alertname'] }]);
  });

  it('still merges the teams\' objects in front of its routes, confined to their namespaces; never itself as a team\'s', () => {
    expect(receiversFor(text, { namespace: 'team-a', alertname: 'Down' })).toEqual(['team-a/alerting/oncall']);
    expect(receiversFor(text, { namespace: 'team-a', severity: 'critical' })).toEqual(['team-a/alerting/oncall', 'monitoring/platform/pager']);
    expect(result.verdicts.map((verdict) => `${verdict.resource.namespace}/${verdict.resource.name}`)).toEqual(['team-a/alerting']);
  });

  it('writes the global section from the Alertmanager, the duration as Alertmanager prints it', () => {
    expect(config.global).toEqual({
      resolve_timeout: '1m30s', smtp_from: 'alerts@example.com', smtp_smarthost: 'mail.example.com:587', smtp_auth_username: 'alertmanager', smtp_auth_password: HOSTILE_PASSWORD,
    });
    // The email receiver has no smarthost of its own: Alertmanager takes the global one (check-config passed above).
    expect(config.receivers[1].email_configs[0].smarthost).toBeUndefined();
  });

  it('writes a Secret value holding YAML syntax and line breaks as exactly that value', () => {
    expect(config.global.smtp_auth_password).toBe(HOSTILE_PASSWORD);
    expect(Object.keys(config)).toEqual(['global', 'route', 'inhibit_rules', 'receivers', 'mute_time_intervals', 'templates']);
  });
});

describe('the global section', () => {
  const withGlobal = (global: Record<string, unknown>, version?: string) => generate({ ...(version ? { version } : {}), alertmanagerConfiguration: { name: 'platform', global } }, [platform]);

  it('takes the HTTP client, Slack URL and receiver API URLs, with Secrets of the Alertmanager\'s namespace', () => {
    const text = okText(withGlobal({
      smtp: SMTP,
      httpConfig: { basicAuth: { username: { name: 'smtp', key: 'user' }, password: { name: 'smtp', key: 'password' } }, followRedirects: true },
      slackApiUrl: { name: 'slack', key: 'url' },
      pagerdutyUrl: 'https://events.pagerduty.example/v2/enqueue',
      telegram: { apiURL: 'https://telegram.example' },
      webex: { apiURL: 'https://webex.example' },
      wechat: { apiURL: 'https://wechat.example/', apiCorpID: 'corp' },
    }));
    expect((load(text) as Record<string, any>).global).toMatchObject({
      http_config: { basic_auth: { username: 'alertmanager', password: HOSTILE_PASSWORD }, follow_redirects: true },
      slack_api_url: 'https://hooks.slack.com/services/T0/B0/XX',
      pagerduty_url: 'https://events.pagerduty.example/v2/enqueue',
      telegram_api_url: 'https://telegram.example',
      webex_api_url: 'https://webex.example',
      wechat_api_url: 'https://wechat.example/',
      wechat_api_corp_id: 'corp',
    });
  });

  it('never reads a Secret of another namespace, even one of the same name', () => {
    const elsewhere: KeyValueSource[] = [{ namespace: 'team-a', name: 'smtp', data: { password: 'team-a-secret' } }];
    const result = generate({ alertmanagerConfiguration: { name: 'platform', global: { smtp: SMTP } } }, [platform], elsewhere);
    expect(problemOf(result)).toEqual({ path: 'spec.alertmanagerConfiguration.global.smtp.authPassword', message: 'Secret "smtp" not found in namespace "monitoring"' });
    expect(JSON.stringify(result)).not.toContain('team-a-secret');
  });

  it('refuses a field it does not know, with its path, rather than dropping it', () => {
    expect(problemOf(withGlobal({ smtpFrom: 'x@example.com' }))).toEqual({ path: 'spec.alertmanagerConfiguration.global.smtpFrom', message: 'is not a field of the global configuration' });
  });

  it('refuses a setting the Alertmanager release cannot read', () => {
    expect(problemOf(withGlobal({ jira: { apiURL: 'https://jira.example' } }, 'v0.27.0'))).toEqual({
      path: 'spec.alertmanagerConfiguration.global.jira', message: 'needs Alertmanager 0.28 or later; spec.version is 0.27',
    });
  });

  it('refuses a URL from a Secret that Alertmanager cannot use, without showing it', () => {
    const secrets: KeyValueSource[] = [{ namespace: 'monitoring', name: 'slack', data: { url: 'hooks.slack.com/secret-path' } }];
    const result = generate({ alertmanagerConfiguration: { name: 'platform', global: { slackApiUrl: { name: 'slack', key: 'url' } } } }, [platform], secrets);
    expect(problemOf(result).path).toBe('spec.alertmanagerConfiguration.global.slackApiUrl');
    expect(JSON.stringify(result)).not.toContain('secret-path');
  });
});

describe('an alertmanagerConfiguration promop cannot run', () => {
  it('names an AlertmanagerConfig that does not exist: the Alertmanager is refused at spec.alertmanagerConfiguration.name', () => {
    expect(problemOf(generate({ alertmanagerConfiguration: { name: 'missing' } }))).toEqual({
      path: 'spec.alertmanagerConfiguration.name', message: 'AlertmanagerConfig "missing" not found in namespace "monitoring" (it must be in the Alertmanager\'s namespace)',
    });
  });

  it('names one that exists only in another namespace', () => {
    expect(problemOf(generate({ alertmanagerConfiguration: { name: 'alerting' } })).path).toBe('spec.alertmanagerConfiguration.name');
  });

  it('names an object with a problem: the path inside the object is in the message', () => {
    const broken = amcfg('monitoring', 'platform', { route: { receiver: 'nobody' }, receivers: [{ name: 'default' }] });
    expect(problemOf(generate({ alertmanagerConfiguration: { name: 'platform' } }, [broken]))).toEqual({
      path: 'spec.alertmanagerConfiguration.name', message: 'AlertmanagerConfig monitoring/platform: spec.route.receiver: no receiver named "nobody" in spec.receivers',
    });
  });

  it('names an object whose route cannot be the root route', () => {
    const matching = amcfg('monitoring', 'platform', { route: { receiver: 'default', matchers: [{ name: 'team', value: 'a' }] }, receivers: [{ name: 'default' }] });
    expect(problemOf(generate({ alertmanagerConfiguration: { name: 'platform' } }, [matching])).message).toBe('AlertmanagerConfig monitoring/platform: spec.route.matchers: the root route matches every alert and cannot have matchers');
    const routeless = amcfg('monitoring', 'platform', { receivers: [{ name: 'default' }] });
    expect(problemOf(generate({ alertmanagerConfiguration: { name: 'platform' } }, [routeless])).message).toContain('spec.route: is required');
  });

});

describe('the notification templates of spec.alertmanagerConfiguration', () => {
  const SLACK = '{{ define "slack.title" }}[{{ .Status | toUpper }}] {{ .CommonLabels.alertname }}{{ end }}';
  const MAIL = '{{ define "mail.subject" }}{{ len .Alerts }} alerts{{ end }}';
  const webhookOnly = amcfg('monitoring', 'platform', { route: { receiver: 'default' }, receivers: [{ name: 'default', webhookConfigs: [{ url: 'http://default.example/hook' }] }] });
  const withTemplates = (templates: unknown[], sources: { secrets?: KeyValueSource[]; configMaps?: KeyValueSource[] } = {}) => generateAlertmanagerConfiguration({
    alertmanager: alertmanager({ alertmanagerConfiguration: { name: 'platform', templates } }), baseConfig: undefined, alertmanagerConfigs: [webhookOnly], namespaces: NAMESPACES,
    secrets: sources.secrets ?? [{ namespace: 'monitoring', name: 'templates', data: { 'slack.tmpl': SLACK } }, { namespace: 'team-a', name: 'templates', data: { 'mail.tmpl': 'team-a' } }],
    configMaps: sources.configMaps ?? [{ namespace: 'monitoring', name: 'templates', data: { 'mail.tmpl': MAIL } }],
  });
  const slack = { secret: { name: 'templates', key: 'slack.tmpl' } };
  const mail = { configMap: { name: 'templates', key: 'mail.tmpl' } };

  it('are listed where prometheus-operator mounts them, once per entry, and copied beside the configuration (the first of a key)', () => {
    const result = withTemplates([slack, mail, { secret: { name: 'templates', key: 'slack.tmpl' } }]);
    const text = okText(result);
    expect((load(text) as { templates: string[] }).templates).toEqual(['/etc/alertmanager/templates/slack.tmpl', '/etc/alertmanager/templates/mail.tmpl', '/etc/alertmanager/templates/slack.tmpl']);
    expect(result.ok && result.tlsAssets).toEqual({ 'slack.tmpl': SLACK, 'mail.tmpl': MAIL });
  });

  it('are read by Alertmanager\'s own template reader as the platform wrote them', () => {
    const result = withTemplates([slack, mail]);
    if (!result.ok) throw new Error(JSON.stringify(result.problem));
    const templates = mkdtempSync(join(dir, 'templates-'));
    for (const [file, content] of Object.entries(result.tlsAssets)) writeFileSync(join(templates, file), content);
    // The configuration as the pod reads it, its template directory moved here.
    okText({ ...result, text: result.text.replaceAll('/etc/alertmanager/templates/', `${templates}/`) });
    const rendered = spawnSync(toolPath('amtool'), ['template', 'render', `--template.glob=${templates}/*.tmpl`, '--template.text={{ template "slack.title" . }} / {{ template "mail.subject" . }}'], { encoding: 'utf8' });
    // amtool renders with its own sample data: status "alertstatus", two alerts, no common labels.
    expect({ code: rendered.status, output: rendered.stdout.trim() }).toEqual({ code: 0, output: '[ALERTSTATUS]  / 2 alerts' });
  });

  it('change the configuration\'s text when only a template changes, so the reload is verified by Alertmanager\'s hash', () => {
    const before = withTemplates([slack]);
    const after = withTemplates([slack], { secrets: [{ namespace: 'monitoring', name: 'templates', data: { 'slack.tmpl': `${SLACK}\n` } }] });
    expect(before.ok && after.ok && before.text !== after.text).toBe(true);
  });

  it('are read in the Alertmanager\'s namespace only; a missing one is the Alertmanager\'s problem, an optional one is listed without a file', () => {
    expect(problemOf(withTemplates([slack], { secrets: [{ namespace: 'team-a', name: 'templates', data: { 'slack.tmpl': 'team-a' } }] }))).toEqual({
      path: 'spec.alertmanagerConfiguration.templates[0].secret', message: 'Secret "templates" not found in namespace "monitoring"',
    });
    const optional = withTemplates([{ configMap: { name: 'absent', key: 'x.tmpl', optional: true } }]);
    expect(optional.ok && [(load(optional.text) as { templates: string[] }).templates, optional.tlsAssets]).toEqual([['/etc/alertmanager/templates/x.tmpl'], {}]);
  });

  it('cannot take the configuration\'s own file name', () => {
    expect(problemOf(withTemplates([{ secret: { name: 'templates', key: 'alertmanager.yaml' } }])).path).toBe('spec.alertmanagerConfiguration.templates[0].secret.key');
  });
});
