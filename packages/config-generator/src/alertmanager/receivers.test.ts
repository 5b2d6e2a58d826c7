/**
 * AlertmanagerConfig receivers → Alertmanager's receiver configuration: one realistic notifier of every kind, its
 * expected rendering, and Alertmanager's own loader (amtool check-config, Alertmanager 0.35) accepting it; then the
 * problems a team gets on its object instead of a broken Alertmanager configuration.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import type { AlertmanagerConfigReceiver } from '@promop/crds';
import { toolPath } from '@promop/testkit';
import { generateKeyPairSync } from 'node:crypto';
import { TEST_CERT, TEST_KEY } from '../test-support/index.ts';
import { Findings } from '../findings.ts';
import { SecretStore } from '../secret-store.ts';
import { toPrometheusYaml } from '../yaml-output.ts';
import { renderReceiver } from './receivers.ts';

const NAMESPACE = 'team-a';
const NAME = 'team-a/alerting/oncall';

const SECRETS: Record<string, Record<string, string>> = {
  slack: { url: 'https://hooks.slack.com/services/T0001/B0001/s3cr3t-slack', bot: 'https://slack.com/api/chat.postMessage' },
  pagerduty: { routing: 'pd-routing-s3cr3t', service: 'pd-service-s3cr3t' },
  opsgenie: { apiKey: 'og-s3cr3t' },
  smtp: { password: 'smtp-s3cr3t', cram: 'cram-s3cr3t' },
  telegram: { token: '123456:tg-s3cr3t', empty: '' },
  discord: { url: ' https://discord.com/api/webhooks/1/dc-s3cr3t\n' },
  teams: { url: 'https://example.webhook.office.com/webhookb2/teams-s3cr3t', v2: 'https://prod-00.westeurope.logic.azure.com/workflows/teams2-s3cr3t' },
  pushover: { user: 'po-user-s3cr3t', token: 'po-token-s3cr3t' },
  victorops: { apiKey: 'vo-s3cr3t' },
  wechat: { secret: 'wc-s3cr3t' },
  webex: { token: 'webex-s3cr3t' },
  aws: { access: 'AKIA-s3cr3t', secret: 'aws-s3cr3t' },
  rocketchat: { token: 'rc-token-s3cr3t', id: 'rc-id-s3cr3t' },
  webhook: { url: 'https://hooks.example.com/alerts?token=wh-s3cr3t', bearer: 'bearer-s3cr3t', user: 'wh-user', password: 'wh-password-s3cr3t', proxy: 'Basic proxy-s3cr3t', notaurl: 'not a url s3cr3t' },
  oauth: { secret: 'oauth-s3cr3t' },
  tls: { 'tls.crt': TEST_CERT, 'tls.key': TEST_KEY, 'other.key': generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), garbage: 'not a certificate s3cr3t' },
};
const ALL_SECRET_VALUES = Object.values(SECRETS).flatMap((data) => Object.values(data)).filter((value) => value.includes('s3cr3t'));

function secretStore(): SecretStore {
  return new SecretStore(
    Object.entries(SECRETS).map(([name, data]) => ({ namespace: NAMESPACE, name, data })),
    [{ namespace: NAMESPACE, name: 'oauth-client', data: { id: 'client-id' } }, { namespace: NAMESPACE, name: 'ca', data: { 'ca.crt': TEST_CERT } }],
  );
}

function render(receiver: Omit<AlertmanagerConfigReceiver, 'name'>, path = 'spec.receivers[0]') {
  const findings = new Findings();
  const tlsAssets: Record<string, string> = {};
  const rendered = renderReceiver({ name: 'oncall', ...receiver }, { namespace: NAMESPACE, path, secrets: secretStore(), findings, name: NAME, tlsAssets });
  return { rendered, findings, tlsAssets };
}

const dir = mkdtempSync(join(tmpdir(), 'promop-am-receivers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** Writes the smallest configuration routing to `receiver` and asks Alertmanager's loader about it. */
function amtoolCheck(receiver: Record<string, unknown>): { code: number | null; output: string } {
  const config = { route: { receiver: receiver.name }, receivers: [receiver] };
  const text = toPrometheusYaml(config);
  // The writer's YAML reads back as the same object: what amtool checks is what was rendered.
  expect(load(text)).toEqual(config);
  const file = join(dir, `alertmanager-${files++}.yaml`);
  writeFileSync(file, text);
  const result = spawnSync(toolPath('amtool'), ['check-config', file], { encoding: 'utf8' });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

const sk = (name: string, key: string) => ({ name, key });

/** Every notifier list of the receiver type: a kind added to the schema fails the type check here until listed. */
const EVERY_KIND = {
  opsgenieConfigs: true, pagerdutyConfigs: true, discordConfigs: true, slackConfigs: true, webhookConfigs: true, wechatConfigs: true, emailConfigs: true,
  victoropsConfigs: true, pushoverConfigs: true, snsConfigs: true, telegramConfigs: true, webexConfigs: true, msteamsConfigs: true, msteamsv2Configs: true,
  rocketchatConfigs: true,
} satisfies Record<Exclude<keyof AlertmanagerConfigReceiver, 'name'>, true>;

/** One realistic notifier of each kind and what Alertmanager's configuration must say for it. */
const KINDS: Array<{ kind: string; receiver: Omit<AlertmanagerConfigReceiver, 'name'>; expected: Record<string, unknown> }> = [
  {
    kind: 'webhook',
    receiver: {
      webhookConfigs: [
        {
          sendResolved: false,
          urlSecret: sk('webhook', 'url'),
          url: 'https://ignored.example.com/',
          maxAlerts: 20,
          timeout: '90s',
          httpConfig: {
            basicAuth: { username: sk('webhook', 'user'), password: sk('webhook', 'password') },
            tlsConfig: { serverName: 'hooks.example.com', insecureSkipVerify: false, minVersion: 'TLS12' },
            proxyUrl: 'http://proxy.internal:3128',
            noProxy: 'localhost,10.0.0.0/8',
            proxyConnectHeader: { 'Proxy-Authorization': [sk('webhook', 'proxy')] },
            followRedirects: true,
            enableHttp2: false,
          },
        },
        { url: 'https://hooks.example.com/{{ .GroupLabels.team }}', payload: '{"text": "{{ .CommonAnnotations.summary }}"}' },
      ],
    },
    expected: {
      webhook_configs: [
        {
          send_resolved: false,
          url: SECRETS.webhook?.url,
          http_config: {
            basic_auth: { username: 'wh-user', password: 'wh-password-s3cr3t' },
            tls_config: { server_name: 'hooks.example.com', insecure_skip_verify: false, min_version: 'TLS12' },
            follow_redirects: true,
            enable_http2: false,
            proxy_url: 'http://proxy.internal:3128',
            no_proxy: 'localhost,10.0.0.0/8',
            proxy_connect_header: { 'Proxy-Authorization': ['Basic proxy-s3cr3t'] },
          },
          max_alerts: 20,
          timeout: '1m30s',
        },
        { url: 'https://hooks.example.com/{{ .GroupLabels.team }}', payload: '{"text": "{{ .CommonAnnotations.summary }}"}' },
      ],
    },
  },
  {
    kind: 'email',
    receiver: {
      emailConfigs: [
        {
          sendResolved: true,
          to: 'oncall@example.com',
          from: 'alertmanager@example.com',
          hello: 'alertmanager.example.com',
          smarthost: 'smtp.example.com:587',
          authUsername: 'alertmanager',
          authPassword: sk('smtp', 'password'),
          authSecret: sk('smtp', 'cram'),
          authIdentity: 'alertmanager',
          headers: [{ key: 'Subject', value: '[{{ .Status }}] {{ .GroupLabels.alertname }}' }, { key: 'Reply-To', value: 'team-a@example.com' }],
          html: '{{ template "email.default.html" . }}',
          requireTLS: true,
          tlsConfig: { serverName: 'smtp.example.com' },
          forceImplicitTLS: false,
          threading: { threadByDate: 'Daily' },
        },
      ],
    },
    expected: {
      email_configs: [
        {
          send_resolved: true,
          to: 'oncall@example.com',
          from: 'alertmanager@example.com',
          hello: 'alertmanager.example.com',
          smarthost: 'smtp.example.com:587',
          auth_username: 'alertmanager',
          auth_password: 'smtp-s3cr3t',
          auth_secret: 'cram-s3cr3t',
          auth_identity: 'alertmanager',
          headers: { 'Reply-To': 'team-a@example.com', Subject: '[{{ .Status }}] {{ .GroupLabels.alertname }}' },
          html: '{{ template "email.default.html" . }}',
          require_tls: true,
          tls_config: { server_name: 'smtp.example.com' },
          force_implicit_tls: false,
          threading: { enabled: true, thread_by_date: 'daily' },
        },
      ],
    },
  },
  {
    kind: 'slack',
    receiver: {
      slackConfigs: [
        {
          sendResolved: true,
          apiURL: sk('slack', 'url'),
          channel: '#team-a-alerts',
          username: 'alertmanager',
          color: '{{ if eq .Status "firing" }}danger{{ else }}good{{ end }}',
          title: '{{ .GroupLabels.alertname }}',
          titleLink: 'https://grafana.example.com/d/team-a',
          text: '{{ range .Alerts }}{{ .Annotations.description }}\n{{ end }}',
          fields: [{ title: 'Severity', value: '{{ .CommonLabels.severity }}', short: true }, { title: 'Cluster', value: 'prod', short: false }],
          shortFields: true,
          iconEmoji: ':rotating_light:',
          linkNames: false,
          mrkdwnIn: ['text', 'pretext'],
          actions: [
            { type: 'button', text: 'Runbook', url: '{{ .CommonAnnotations.runbook_url }}', style: 'primary' },
            { type: 'button', text: 'Silence', name: 'silence', value: 'silence', confirm: { text: 'Silence this alert?', okText: 'Yes', dismissText: 'No' } },
          ],
          timeout: '30s',
          messageText: 'Alert for team A',
        },
      ],
    },
    expected: {
      slack_configs: [
        {
          send_resolved: true,
          api_url: SECRETS.slack?.url,
          channel: '#team-a-alerts',
          username: 'alertmanager',
          color: '{{ if eq .Status "firing" }}danger{{ else }}good{{ end }}',
          title: '{{ .GroupLabels.alertname }}',
          title_link: 'https://grafana.example.com/d/team-a',
          text: '{{ range .Alerts }}{{ .Annotations.description }}\n{{ end }}',
          fields: [{ title: 'Severity', value: '{{ .CommonLabels.severity }}', short: true }, { title: 'Cluster', value: 'prod' }],
          short_fields: true,
          icon_emoji: ':rotating_light:',
          mrkdwn_in: ['text', 'pretext'],
          actions: [
            { type: 'button', text: 'Runbook', url: '{{ .CommonAnnotations.runbook_url }}', style: 'primary' },
            { type: 'button', text: 'Silence', name: 'silence', value: 'silence', confirm: { text: 'Silence this alert?', ok_text: 'Yes', dismiss_text: 'No' } },
          ],
          timeout: '30s',
          message_text: 'Alert for team A',
        },
      ],
    },
  },
  {
    kind: 'pagerduty',
    receiver: {
      pagerdutyConfigs: [
        {
          sendResolved: true,
          routingKey: sk('pagerduty', 'routing'),
          url: 'https://events.pagerduty.com/v2/enqueue',
          client: 'Alertmanager',
          clientURL: '{{ .ExternalURL }}',
          description: '{{ .CommonAnnotations.summary }}',
          severity: 'critical',
          class: 'latency',
          group: 'prod',
          component: 'api',
          source: 'cluster-1',
          details: [{ key: 'team', value: 'a' }, { key: 'firing', value: '{{ .Alerts.Firing | len }}' }],
          pagerDutyImageConfigs: [{ src: 'https://grafana.example.com/render/panel.png', href: 'https://grafana.example.com/d/x', alt: 'Latency' }],
          pagerDutyLinkConfigs: [{ href: 'https://runbooks.example.com/latency', alt: 'Runbook' }],
          timeout: '10s',
        },
        { serviceKey: sk('pagerduty', 'service') },
      ],
    },
    expected: {
      pagerduty_configs: [
        {
          send_resolved: true,
          routing_key: 'pd-routing-s3cr3t',
          url: 'https://events.pagerduty.com/v2/enqueue',
          client: 'Alertmanager',
          client_url: '{{ .ExternalURL }}',
          description: '{{ .CommonAnnotations.summary }}',
          details: { firing: '{{ .Alerts.Firing | len }}', team: 'a' },
          images: [{ src: 'https://grafana.example.com/render/panel.png', alt: 'Latency', href: 'https://grafana.example.com/d/x' }],
          links: [{ href: 'https://runbooks.example.com/latency', text: 'Runbook' }],
          severity: 'critical',
          class: 'latency',
          component: 'api',
          group: 'prod',
          source: 'cluster-1',
          timeout: '10s',
        },
        { service_key: 'pd-service-s3cr3t' },
      ],
    },
  },
  {
    kind: 'opsgenie',
    receiver: {
      opsgenieConfigs: [
        {
          sendResolved: true,
          apiKey: sk('opsgenie', 'apiKey'),
          apiURL: 'https://api.eu.opsgenie.com/',
          message: '{{ .GroupLabels.alertname }}',
          description: '{{ .CommonAnnotations.description }}',
          source: 'prometheus',
          tags: 'team-a,prod',
          note: 'See the runbook',
          priority: 'P2',
          updateAlerts: true,
          details: [{ key: 'cluster', value: 'prod' }],
          responders: [{ name: 'team-a', type: 'team' }, { username: 'jane@example.com', type: 'user' }, { id: '4513b7ea-3b91-438f-b7e4-e3e54af9147c', type: 'schedule' }],
          entity: 'api',
          actions: 'restart,scale',
        },
      ],
    },
    expected: {
      opsgenie_configs: [
        {
          send_resolved: true,
          api_key: 'og-s3cr3t',
          api_url: 'https://api.eu.opsgenie.com/',
          message: '{{ .GroupLabels.alertname }}',
          description: '{{ .CommonAnnotations.description }}',
          source: 'prometheus',
          details: { cluster: 'prod' },
          responders: [{ name: 'team-a', type: 'team' }, { username: 'jane@example.com', type: 'user' }, { id: '4513b7ea-3b91-438f-b7e4-e3e54af9147c', type: 'schedule' }],
          tags: 'team-a,prod',
          note: 'See the runbook',
          priority: 'P2',
          update_alerts: true,
          entity: 'api',
          actions: 'restart,scale',
        },
      ],
    },
  },
  {
    kind: 'msteams',
    receiver: { msteamsConfigs: [{ sendResolved: true, webhookUrl: sk('teams', 'url'), title: '{{ .GroupLabels.alertname }}', summary: 'Team A alert', text: '{{ .CommonAnnotations.description }}' }] },
    expected: {
      msteams_configs: [{ send_resolved: true, webhook_url: SECRETS.teams?.url, title: '{{ .GroupLabels.alertname }}', summary: 'Team A alert', text: '{{ .CommonAnnotations.description }}' }],
    },
  },
  {
    kind: 'msteamsv2',
    receiver: { msteamsv2Configs: [{ webhookURL: sk('teams', 'v2'), title: 'Alert', text: '{{ .CommonAnnotations.summary }}' }] },
    expected: { msteamsv2_configs: [{ webhook_url: SECRETS.teams?.v2, title: 'Alert', text: '{{ .CommonAnnotations.summary }}' }] },
  },
  {
    kind: 'telegram',
    receiver: {
      telegramConfigs: [
        { sendResolved: true, apiURL: 'https://api.telegram.org', botToken: sk('telegram', 'token'), chatID: -1001234567890, messageThreadID: 42, message: '{{ template "telegram.default.message" . }}', disableNotifications: true, parseMode: 'HTML' },
        { botToken: sk('telegram', 'token'), chatID: 12345, disableNotifications: false },
      ],
    },
    expected: {
      telegram_configs: [
        { send_resolved: true, api_url: 'https://api.telegram.org', bot_token: '123456:tg-s3cr3t', chat_id: -1001234567890, message_thread_id: 42, message: '{{ template "telegram.default.message" . }}', disable_notifications: true, parse_mode: 'HTML' },
        { bot_token: '123456:tg-s3cr3t', chat_id: 12345 },
      ],
    },
  },
  {
    kind: 'discord',
    receiver: { discordConfigs: [{ sendResolved: true, apiURL: sk('discord', 'url'), title: '{{ .GroupLabels.alertname }}', message: '{{ .CommonAnnotations.summary }}', content: '@here', username: 'Alertmanager', avatarURL: 'https://example.com/avatar.png' }] },
    // The URL from the Secret is trimmed, as upstream trims it.
    expected: {
      discord_configs: [
        { send_resolved: true, webhook_url: 'https://discord.com/api/webhooks/1/dc-s3cr3t', title: '{{ .GroupLabels.alertname }}', message: '{{ .CommonAnnotations.summary }}', content: '@here', username: 'Alertmanager', avatar_url: 'https://example.com/avatar.png' },
      ],
    },
  },
  {
    kind: 'webex',
    receiver: { webexConfigs: [{ sendResolved: false, roomID: 'Y2lzY29zcGFyazovL3VzL1JPT00vYmJjZWIxYWQ', message: '{{ .CommonAnnotations.summary }}', apiURL: 'https://webexapis.com/v1/messages', httpConfig: { authorization: { credentials: sk('webex', 'token') } } }] },
    expected: {
      webex_configs: [
        { send_resolved: false, http_config: { authorization: { type: 'Bearer', credentials: 'webex-s3cr3t' } }, api_url: 'https://webexapis.com/v1/messages', message: '{{ .CommonAnnotations.summary }}', room_id: 'Y2lzY29zcGFyazovL3VzL1JPT00vYmJjZWIxYWQ' },
      ],
    },
  },
  {
    kind: 'sns',
    receiver: {
      snsConfigs: [
        {
          sendResolved: true,
          apiURL: 'https://sns.eu-west-1.amazonaws.com',
          sigv4: { region: 'eu-west-1', accessKey: sk('aws', 'access'), secretKey: sk('aws', 'secret'), roleArn: 'arn:aws:iam::123456789012:role/alerts', externalId: 'team-a' },
          topicARN: 'arn:aws:sns:eu-west-1:123456789012:team-a-alerts',
          subject: '{{ .GroupLabels.alertname }}',
          message: '{{ .CommonAnnotations.summary }}',
          attributes: { team: 'a', env: 'prod' },
        },
      ],
    },
    expected: {
      sns_configs: [
        {
          send_resolved: true,
          api_url: 'https://sns.eu-west-1.amazonaws.com',
          sigv4: { region: 'eu-west-1', access_key: 'AKIA-s3cr3t', secret_key: 'aws-s3cr3t', role_arn: 'arn:aws:iam::123456789012:role/alerts', external_id: 'team-a' },
          topic_arn: 'arn:aws:sns:eu-west-1:123456789012:team-a-alerts',
          subject: '{{ .GroupLabels.alertname }}',
          message: '{{ .CommonAnnotations.summary }}',
          attributes: { env: 'prod', team: 'a' },
        },
      ],
    },
  },
  {
    kind: 'pushover',
    receiver: {
      pushoverConfigs: [
        {
          sendResolved: true,
          userKey: sk('pushover', 'user'),
          token: sk('pushover', 'token'),
          title: '{{ .GroupLabels.alertname }}',
          message: '{{ .CommonAnnotations.summary }}',
          url: 'https://grafana.example.com/d/team-a',
          urlTitle: 'Dashboard',
          ttl: '1h',
          device: 'phone',
          sound: 'siren',
          priority: '2',
          retry: '60s',
          expire: '2h',
          html: true,
        },
        { userKey: sk('pushover', 'user'), token: sk('pushover', 'token'), monospace: true },
      ],
    },
    expected: {
      pushover_configs: [
        {
          send_resolved: true,
          user_key: 'po-user-s3cr3t',
          token: 'po-token-s3cr3t',
          title: '{{ .GroupLabels.alertname }}',
          message: '{{ .CommonAnnotations.summary }}',
          url: 'https://grafana.example.com/d/team-a',
          url_title: 'Dashboard',
          ttl: '1h',
          device: 'phone',
          sound: 'siren',
          priority: '2',
          retry: '1m',
          expire: '2h',
          html: true,
        },
        { user_key: 'po-user-s3cr3t', token: 'po-token-s3cr3t', monospace: true },
      ],
    },
  },
  {
    kind: 'victorops',
    receiver: {
      victoropsConfigs: [
        { sendResolved: true, apiKey: sk('victorops', 'apiKey'), apiUrl: 'https://alert.victorops.com/integrations/generic/20131114/alert/', routingKey: 'team-a', messageType: 'CRITICAL', entityDisplayName: '{{ .CommonAnnotations.summary }}', stateMessage: '{{ .CommonAnnotations.description }}', monitoringTool: 'prometheus', customFields: [{ key: 'cluster', value: 'prod' }] },
      ],
    },
    expected: {
      victorops_configs: [
        { send_resolved: true, api_key: 'vo-s3cr3t', api_url: 'https://alert.victorops.com/integrations/generic/20131114/alert/', routing_key: 'team-a', message_type: 'CRITICAL', state_message: '{{ .CommonAnnotations.description }}', entity_display_name: '{{ .CommonAnnotations.summary }}', monitoring_tool: 'prometheus', custom_fields: { cluster: 'prod' } },
      ],
    },
  },
  {
    kind: 'wechat',
    receiver: { wechatConfigs: [{ sendResolved: false, apiSecret: sk('wechat', 'secret'), apiURL: 'https://qyapi.weixin.qq.com/cgi-bin/', corpID: 'wwcorp', agentID: '1000002', toUser: 'jane|joe', toParty: '2', toTag: '1', message: '{{ .CommonAnnotations.summary }}', messageType: 'markdown' }] },
    expected: {
      wechat_configs: [{ send_resolved: false, api_secret: 'wc-s3cr3t', api_url: 'https://qyapi.weixin.qq.com/cgi-bin/', corp_id: 'wwcorp', agent_id: '1000002', to_user: 'jane|joe', to_party: '2', to_tag: '1', message: '{{ .CommonAnnotations.summary }}', message_type: 'markdown' }],
    },
  },
  {
    kind: 'rocketchat',
    receiver: {
      rocketchatConfigs: [
        {
          sendResolved: true,
          apiURL: 'https://chat.example.com',
          channel: '#alerts',
          token: sk('rocketchat', 'token'),
          tokenID: sk('rocketchat', 'id'),
          color: 'red',
          emoji: ':fire:',
          text: '{{ .CommonAnnotations.description }}',
          title: '{{ .GroupLabels.alertname }}',
          titleLink: 'https://grafana.example.com/d/team-a',
          fields: [{ title: 'Severity', value: '{{ .CommonLabels.severity }}', short: true }],
          shortFields: false,
          imageURL: 'https://grafana.example.com/render/panel.png',
          linkNames: true,
          actions: [{ text: 'Runbook', url: 'https://runbooks.example.com/{{ .GroupLabels.alertname }}' }, { text: 'Ack', msg: 'ack' }],
        },
      ],
    },
    expected: {
      rocketchat_configs: [
        {
          send_resolved: true,
          api_url: 'https://chat.example.com',
          token_id: 'rc-id-s3cr3t',
          token: 'rc-token-s3cr3t',
          channel: '#alerts',
          color: 'red',
          title: '{{ .GroupLabels.alertname }}',
          title_link: 'https://grafana.example.com/d/team-a',
          text: '{{ .CommonAnnotations.description }}',
          fields: [{ short: true, title: 'Severity', value: '{{ .CommonLabels.severity }}' }],
          short_fields: false,
          emoji: ':fire:',
          image_url: 'https://grafana.example.com/render/panel.png',
          link_names: true,
          actions: [{ text: 'Runbook', url: 'https://runbooks.example.com/{{ .GroupLabels.alertname }}' }, { text: 'Ack', msg: 'ack' }],
        },
      ],
    },
  },
];

describe('an AlertmanagerConfig receiver, rendered for Alertmanager', () => {
  it.each(KINDS)('writes a $kind notifier in Alertmanager\'s own format, with the Secret values inlined', ({ receiver, expected }) => {
    const { rendered, findings } = render(receiver);
    expect(findings.problems).toEqual([]);
    expect(rendered).toEqual({ name: NAME, ...expected });
  });

  it.each(KINDS)('writes a $kind notifier that Alertmanager 0.35 loads (amtool check-config)', ({ receiver }) => {
    const { rendered } = render(receiver);
    const result = amtoolCheck(rendered);
    expect(result).toEqual({ code: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('covers every notifier kind of the schema', () => {
    const kinds = new Set(KINDS.flatMap(({ receiver }) => Object.keys(receiver)));
    expect([...kinds].sort()).toEqual(Object.keys(EVERY_KIND).sort());
  });

  it('writes every notifier of a receiver in one receiver, in the order of Alertmanager\'s configuration', () => {
    const all = Object.assign({}, ...KINDS.map(({ receiver }) => receiver)) as Omit<AlertmanagerConfigReceiver, 'name'>;
    const { rendered, findings } = render(all);
    expect(findings.problems).toEqual([]);
    expect(Object.keys(rendered)).toEqual([
      'name', 'opsgenie_configs', 'pagerduty_configs', 'slack_configs', 'webhook_configs', 'wechat_configs', 'email_configs', 'pushover_configs',
      'victorops_configs', 'sns_configs', 'telegram_configs', 'discord_configs', 'webex_configs', 'msteams_configs', 'msteamsv2_configs', 'rocketchat_configs',
    ]);
    expect(amtoolCheck(rendered)).toEqual({ code: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('emits the keys of a notifier in a stable order, whatever order the object lists them in', () => {
    const webhook = KINDS[0]?.receiver.webhookConfigs?.[0];
    const reversed = Object.fromEntries(Object.entries(webhook ?? {}).reverse());
    const first = render({ webhookConfigs: [webhook ?? {}] }).rendered;
    const second = render({ webhookConfigs: [reversed] }).rendered;
    expect(JSON.stringify(second)).toEqual(JSON.stringify(first));
    expect(Object.keys((first.webhook_configs as Array<Record<string, unknown>>)[0] ?? {})).toEqual(['send_resolved', 'url', 'http_config', 'max_alerts', 'timeout']);
  });

  it('writes nothing for unset or empty fields', () => {
    const { rendered, findings } = render({ webhookConfigs: [{ url: 'https://hooks.example.com/', payload: undefined, httpConfig: {} }] });
    expect(findings.problems).toEqual([]);
    expect(rendered).toEqual({ name: NAME, webhook_configs: [{ url: 'https://hooks.example.com/' }] });
  });
});

describe('an AlertmanagerConfig receiver whose Secret is missing', () => {
  it('gets a problem at the field that names the Secret, and the field is left out', () => {
    const { rendered, findings } = render({ slackConfigs: [{ apiURL: sk('slack', 'nope'), channel: '#a' }, { apiURL: sk('no-such-secret', 'url') }] }, 'spec.receivers[3]');
    expect(findings.problems).toEqual([
      { path: 'spec.receivers[3].slackConfigs[0].apiURL', message: 'key "nope" not found in Secret "slack" in namespace "team-a"' },
      { path: 'spec.receivers[3].slackConfigs[1].apiURL', message: 'Secret "no-such-secret" not found in namespace "team-a"' },
    ]);
    // Each notifier keeps its place in the list, so later paths still point at the right item.
    expect(rendered).toEqual({ name: NAME, slack_configs: [{ channel: '#a' }, {}] });
  });

  it('gets a problem even when the reference says optional, as prometheus-operator needs the value', () => {
    const { findings } = render({ pagerdutyConfigs: [{ routingKey: { name: 'pagerduty', key: 'gone', optional: true } }] });
    expect(findings.problems).toEqual([{ path: 'spec.receivers[0].pagerdutyConfigs[0].routingKey', message: 'key "gone" not found in Secret "pagerduty" in namespace "team-a"' }]);
  });

  it('reads Secrets from the AlertmanagerConfig\'s namespace only', () => {
    const findings = new Findings();
    renderReceiver({ name: 'x', opsgenieConfigs: [{ apiKey: sk('opsgenie', 'apiKey') }] }, { namespace: 'team-b', path: 'spec.receivers[0]', secrets: secretStore(), findings, name: 'team-b/x/x', tlsAssets: {} });
    expect(findings.problems).toEqual([{ path: 'spec.receivers[0].opsgenieConfigs[0].apiKey', message: 'Secret "opsgenie" not found in namespace "team-b"' }]);
  });

  it('finds missing Secrets inside the HTTP client too (authorization, basicAuth, bearer token, OAuth2, proxy headers)', () => {
    const { findings } = render({
      webhookConfigs: [
        { url: 'https://a.example.com/', httpConfig: { authorization: { credentials: sk('missing', 'token') } } },
        { url: 'https://a.example.com/', httpConfig: { basicAuth: { username: sk('webhook', 'user'), password: sk('webhook', 'missing') } } },
        { url: 'https://a.example.com/', httpConfig: { bearerTokenSecret: sk('missing', 'bearer') } },
        { url: 'https://a.example.com/', httpConfig: { oauth2: { clientId: { configMap: { name: 'oauth-client', key: 'missing' } }, clientSecret: sk('oauth', 'secret'), tokenUrl: 'https://auth.example.com/token' } } },
        { url: 'https://a.example.com/', httpConfig: { proxyUrl: 'http://proxy:3128', proxyConnectHeader: { 'X-Auth': [sk('webhook', 'missing')] } } },
      ],
    });
    expect(findings.problems.map((problem) => problem.path)).toEqual([
      'spec.receivers[0].webhookConfigs[0].httpConfig.authorization.credentials',
      'spec.receivers[0].webhookConfigs[1].httpConfig.basicAuth.password',
      'spec.receivers[0].webhookConfigs[2].httpConfig.bearerTokenSecret',
      'spec.receivers[0].webhookConfigs[3].httpConfig.oauth2.clientId.configMap',
      'spec.receivers[0].webhookConfigs[4].httpConfig.proxyConnectHeader["X-Auth"][0]',
    ]);
  });

  it('never puts a Secret value in a message, even when the Secret holds something that is not a URL', () => {
    const { rendered, findings } = render({
      webhookConfigs: [{ urlSecret: sk('webhook', 'notaurl') }],
      discordConfigs: [{ apiURL: sk('webhook', 'notaurl') }],
      pushoverConfigs: [{ userKey: sk('telegram', 'empty'), token: sk('pushover', 'token') }],
    });
    expect(findings.problems).toEqual([
      { path: 'spec.receivers[0].webhookConfigs[0].urlSecret', message: 'key "notaurl" of Secret "webhook" does not hold a URL Alertmanager can use: the scheme must be http or https' },
      { path: 'spec.receivers[0].pushoverConfigs[0].userKey', message: 'key "empty" of Secret "telegram" is empty' },
      { path: 'spec.receivers[0].discordConfigs[0].apiURL', message: 'key "notaurl" of Secret "webhook" does not hold a URL Alertmanager can use: the scheme must be http or https' },
    ]);
    const text = JSON.stringify(findings);
    for (const value of ALL_SECRET_VALUES) expect(text).not.toContain(value);
    expect(rendered).toEqual({ name: NAME, pushover_configs: [{ token: 'po-token-s3cr3t' }], webhook_configs: [{}], discord_configs: [{}] });
  });
});

describe('an AlertmanagerConfig receiver that prometheus-operator would refuse', () => {
  const problemsOf = (receiver: Omit<AlertmanagerConfigReceiver, 'name'>) => render(receiver).findings.problems;
  const FILE_REFUSED = (secretField: string) => `reads a file of the Alertmanager container, where every team's credentials are; give the value from a Secret of this namespace with ${secretField}`;

  it('names the email notifier without a to address', () => {
    expect(problemsOf({ emailConfigs: [{ to: 'a@example.com', smarthost: 'smtp:25' }, { from: 'b@example.com' }] })).toEqual([
      { path: 'spec.receivers[0].emailConfigs[1].to', message: 'an email notifier needs a to address' },
    ]);
  });

  it('names a smarthost that is not host:port, and headers repeated in another case', () => {
    expect(problemsOf({ emailConfigs: [{ to: 'a@example.com', smarthost: 'smtp.example.com', headers: [{ key: 'Subject', value: 'a' }, { key: 'subject', value: 'b' }] }] })).toEqual([
      { path: 'spec.receivers[0].emailConfigs[0].smarthost', message: '"smtp.example.com" is not a host:port address: missing port in address' },
      { path: 'spec.receivers[0].emailConfigs[0].headers[1].key', message: 'duplicate header "subject" (header names ignore case)' },
    ]);
  });

  it('refuses header names and values that would start another header (a Bcc of the team\'s choosing)', () => {
    expect(problemsOf({ emailConfigs: [{ to: 'a@example.com', smarthost: 'smtp:25', headers: [{ key: 'X-Team\r\nBcc', value: 'a' }, { key: 'X-Note', value: 'x\nBcc: spy@example.com' }, { key: 'Two Words', value: 'b' }] }] })).toEqual([
      { path: 'spec.receivers[0].emailConfigs[0].headers[0].key', message: '"X-Team\\r\\nBcc" is not a header name (printable ASCII but spaces and colons)' },
      { path: 'spec.receivers[0].emailConfigs[0].headers[1].value', message: 'a header value cannot hold a line break' },
      { path: 'spec.receivers[0].emailConfigs[0].headers[2].key', message: '"Two Words" is not a header name (printable ASCII but spaces and colons)' },
    ]);
  });

  it('names the OpsGenie responder without id, name or username, and an unknown responder type', () => {
    expect(problemsOf({ opsgenieConfigs: [{ responders: [{ name: 'ok', type: 'team' }, { type: 'user' }, { name: 'x', type: 'squad' as 'team' }] }] })).toEqual([
      { path: 'spec.receivers[0].opsgenieConfigs[0].responders[1]', message: 'a responder needs one of id, name or username' },
      { path: 'spec.receivers[0].opsgenieConfigs[0].responders[2].type', message: '"squad" is not a responder type: team, teams, user, escalation or schedule' },
    ]);
  });

  it('names a webhook without url or urlSecret, and a url that does not parse', () => {
    expect(problemsOf({ webhookConfigs: [{ sendResolved: true }, { url: 'ftp://hooks.example.com/' }, { url: 'https://hooks example.com/' }, { url: 'https:///path' }] })).toEqual([
      { path: 'spec.receivers[0].webhookConfigs[0]', message: 'one of url or urlSecret is required' },
      { path: 'spec.receivers[0].webhookConfigs[1].url', message: '"ftp://hooks.example.com/" is not a URL Alertmanager can use: the scheme must be http or https' },
      { path: 'spec.receivers[0].webhookConfigs[2].url', message: '"https://hooks example.com/" is not a URL Alertmanager can use: invalid character " " in host name' },
      { path: 'spec.receivers[0].webhookConfigs[3].url', message: '"https:///path" is not a URL Alertmanager can use: it has no host' },
    ]);
  });

  it('names the SNS notifier without exactly one of topicARN, phoneNumber or targetARN, and externalId without roleArn', () => {
    expect(problemsOf({ snsConfigs: [{ subject: 'x' }, { topicARN: 'arn:aws:sns:a:1:t', phoneNumber: '+15555550100' }, { targetARN: 'arn:x', sigv4: { externalId: 'e' } }] })).toEqual([
      { path: 'spec.receivers[0].snsConfigs[0]', message: 'set exactly one of topicARN, phoneNumber or targetARN' },
      { path: 'spec.receivers[0].snsConfigs[1]', message: 'set exactly one of topicARN, phoneNumber or targetARN' },
      { path: 'spec.receivers[0].snsConfigs[2].sigv4.externalId', message: 'externalId needs roleArn' },
    ]);
  });

  it('names PagerDuty without a key, and URLs of its links and images that do not parse', () => {
    expect(problemsOf({ pagerdutyConfigs: [{ url: 'events.pagerduty.com', pagerDutyLinkConfigs: [{ href: 'https://ok.example.com/' }, { href: 'runbook' }] }] })).toEqual([
      { path: 'spec.receivers[0].pagerdutyConfigs[0].url', message: '"events.pagerduty.com" is not a URL Alertmanager can use: the scheme must be http or https' },
      { path: 'spec.receivers[0].pagerdutyConfigs[0]', message: 'one of routingKey or serviceKey is required' },
      { path: 'spec.receivers[0].pagerdutyConfigs[0].pagerDutyLinkConfigs[1].href', message: '"runbook" is not a URL Alertmanager can use: the scheme must be http or https' },
    ]);
  });

  it('names Slack actions without name or url, and message updates on a webhook URL', () => {
    expect(problemsOf({ slackConfigs: [{ apiURL: sk('slack', 'url'), updateMessage: true, actions: [{ type: 'button', text: 'Go' }] }, { apiURL: sk('slack', 'bot'), updateMessage: true }] })).toEqual([
      { path: 'spec.receivers[0].slackConfigs[0].updateMessage', message: 'updateMessage needs a bot token: apiURL must be https://slack.com/api/chat.postMessage, not a webhook URL' },
      { path: 'spec.receivers[0].slackConfigs[0].actions[0]', message: 'a Slack action needs a name or a url' },
    ]);
  });

  it('names Telegram without a bot token or chat, or with both a token and a token file', () => {
    expect(problemsOf({ telegramConfigs: [{ chatID: 0 }, { chatID: 1, botToken: sk('telegram', 'token'), botTokenFile: '/etc/token' }] })).toEqual([
      { path: 'spec.receivers[0].telegramConfigs[0]', message: 'one of botToken or botTokenFile is required' },
      { path: 'spec.receivers[0].telegramConfigs[0].chatID', message: 'a Telegram notifier needs a chatID' },
      { path: 'spec.receivers[0].telegramConfigs[1].botTokenFile', message: FILE_REFUSED('botToken') },
      { path: 'spec.receivers[0].telegramConfigs[1]', message: 'botToken and botTokenFile cannot both be set' },
    ]);
  });

  it('refuses the fields that read a file of the Alertmanager container, where every team\'s credentials are', () => {
    // With apiURL pointing at its own server, a team could have Alertmanager send it the generated configuration.
    const receiver = {
      telegramConfigs: [{ chatID: 1, apiURL: 'https://attacker.example', botTokenFile: '/etc/alertmanager/config/alertmanager.yaml' }],
      pushoverConfigs: [{ userKeyFile: '/etc/alertmanager/config/alertmanager.yaml', tokenFile: '/etc/alertmanager/config/alertmanager.yaml' }],
    };
    expect(problemsOf(receiver)).toEqual([
      { path: 'spec.receivers[0].pushoverConfigs[0].userKeyFile', message: FILE_REFUSED('userKey') },
      { path: 'spec.receivers[0].pushoverConfigs[0].tokenFile', message: FILE_REFUSED('token') },
      { path: 'spec.receivers[0].telegramConfigs[0].botTokenFile', message: FILE_REFUSED('botToken') },
    ]);
    expect(JSON.stringify(render(receiver).rendered)).not.toContain('_file');
  });

  it('names Pushover without keys, or with html and monospace together', () => {
    expect(problemsOf({ pushoverConfigs: [{ html: true, monospace: true }] })).toEqual([
      { path: 'spec.receivers[0].pushoverConfigs[0]', message: 'one of userKey or userKeyFile is required' },
      { path: 'spec.receivers[0].pushoverConfigs[0]', message: 'one of token or tokenFile is required' },
      { path: 'spec.receivers[0].pushoverConfigs[0]', message: 'html and monospace cannot both be set' },
    ]);
  });

  it('names VictorOps custom fields that Alertmanager sets itself', () => {
    expect(problemsOf({ victoropsConfigs: [{ routingKey: 'a', customFields: [{ key: 'team', value: 'a' }, { key: 'entity_state', value: 'x' }] }] })).toEqual([
      { path: 'spec.receivers[0].victoropsConfigs[0].customFields[1].key', message: '"entity_state" is set by Alertmanager itself and cannot be a custom field' },
    ]);
  });

  it('names a Webex notifier without the bot token in httpConfig.authorization (Alertmanager refuses it)', () => {
    const { rendered, findings } = render({ webexConfigs: [{ roomID: 'room' }] });
    expect(findings.problems).toEqual([{ path: 'spec.receivers[0].webexConfigs[0].httpConfig.authorization', message: 'a Webex notifier needs httpConfig.authorization with the bot token in credentials' }]);
    expect(amtoolCheck(rendered).output).toMatch(/authorization/);
  });

  it('names an HTTP client with two authentication methods, or a Basic authorization type', () => {
    expect(problemsOf({ webhookConfigs: [{ url: 'https://a.example.com/', httpConfig: { bearerTokenSecret: sk('webhook', 'bearer'), authorization: { type: 'basic', credentials: sk('webhook', 'bearer') } } }] })).toEqual([
      { path: 'spec.receivers[0].webhookConfigs[0].httpConfig', message: 'only one authentication method can be set, found authorization and bearerTokenSecret' },
      { path: 'spec.receivers[0].webhookConfigs[0].httpConfig.authorization.type', message: 'authorization type "Basic" is not allowed; use basicAuth instead' },
    ]);
  });

  it('names proxy settings Alertmanager refuses together', () => {
    expect(problemsOf({
      webhookConfigs: [
        { url: 'https://a.example.com/', httpConfig: { proxyFromEnvironment: true, proxyUrl: 'http://proxy:3128' } },
        { url: 'https://a.example.com/', httpConfig: { noProxy: 'localhost' } },
        { url: 'https://a.example.com/', httpConfig: { proxyConnectHeader: { 'X-A': [sk('webhook', 'proxy')] } } },
      ],
    })).toEqual([
      { path: 'spec.receivers[0].webhookConfigs[0].httpConfig', message: 'proxyUrl and proxyFromEnvironment cannot both be set' },
      { path: 'spec.receivers[0].webhookConfigs[1].httpConfig.noProxy', message: 'noProxy needs proxyUrl' },
      { path: 'spec.receivers[0].webhookConfigs[2].httpConfig.proxyConnectHeader', message: 'proxyConnectHeader needs proxyUrl or proxyFromEnvironment' },
    ]);
  });

  it('names the URL of an inline field but never the URL held in a Secret', () => {
    expect(problemsOf({ msteamsConfigs: [{ webhookUrl: sk('webhook', 'notaurl') }], telegramConfigs: [{ chatID: 1, botToken: sk('telegram', 'token'), apiURL: 'https://api telegram.org' }] })).toEqual([
      { path: 'spec.receivers[0].telegramConfigs[0].apiURL', message: '"https://api telegram.org" is not a URL Alertmanager can use: invalid character " " in host name' },
      { path: 'spec.receivers[0].msteamsConfigs[0].webhookUrl', message: 'key "notaurl" of Secret "webhook" does not hold a URL Alertmanager can use: the scheme must be http or https' },
    ]);
  });
});

describe('an AlertmanagerConfig receiver with TLS or OAuth2 settings', () => {
  it('writes TLS material from the object\'s Secrets and ConfigMaps as files beside alertmanager.yaml, named as upstream names them', () => {
    const { rendered, findings, tlsAssets } = render({
      webhookConfigs: [{ url: 'https://a.example.com/', httpConfig: { tlsConfig: { ca: { configMap: { name: 'ca', key: 'ca.crt' } }, cert: { secret: sk('tls', 'tls.crt') }, keySecret: sk('tls', 'tls.key'), serverName: 'a' } } }],
      emailConfigs: [{ to: 'a@example.com', smarthost: 'smtp.example.com:587', from: 'am@example.com', tlsConfig: { ca: { secret: sk('tls', 'tls.crt') } } }],
    });
    expect(findings.problems).toEqual([]);
    expect(rendered.webhook_configs).toEqual([{
      url: 'https://a.example.com/',
      http_config: { tls_config: { ca_file: '/etc/alertmanager/config/1_team-a_ca_ca.crt', cert_file: '/etc/alertmanager/config/0_team-a_tls_tls.crt', key_file: '/etc/alertmanager/config/0_team-a_tls_tls.key', server_name: 'a' } },
    }]);
    expect((rendered.email_configs as { tls_config: unknown }[])[0]?.tls_config).toEqual({ ca_file: '/etc/alertmanager/config/0_team-a_tls_tls.crt' });
    expect(tlsAssets).toEqual({ '1_team-a_ca_ca.crt': TEST_CERT, '0_team-a_tls_tls.crt': TEST_CERT, '0_team-a_tls_tls.key': TEST_KEY });
    expect(amtoolCheck(rendered).code).toBe(0);
  });

  it('refuses TLS material Alertmanager could not use, on the field that names it, never quoting it', () => {
    const { findings, tlsAssets } = render({
      webhookConfigs: [
        { url: 'https://a.example.com/', httpConfig: { tlsConfig: { ca: { secret: sk('tls', 'garbage') } } } },
        { url: 'https://a.example.com/', httpConfig: { tlsConfig: { cert: { secret: sk('tls', 'tls.crt') }, keySecret: sk('tls', 'other.key') } } },
        { url: 'https://a.example.com/', httpConfig: { tlsConfig: { cert: { secret: sk('tls', 'tls.crt') } } } },
        { url: 'https://a.example.com/', httpConfig: { tlsConfig: { ca: { secret: sk('tls', 'missing') } } } },
        { url: 'https://a.example.com/', httpConfig: { tlsConfig: { ca: { secret: sk('tls', 'tls.crt'), configMap: { name: 'ca', key: 'ca.crt' } } } } },
      ],
    });
    expect(findings.problems).toEqual([
      { path: 'spec.receivers[0].webhookConfigs[0].httpConfig.tlsConfig.ca', message: 'does not hold a PEM-encoded certificate' },
      { path: 'spec.receivers[0].webhookConfigs[1].httpConfig.tlsConfig.keySecret', message: 'the private key does not match the client certificate' },
      { path: 'spec.receivers[0].webhookConfigs[2].httpConfig.tlsConfig', message: 'a client certificate (cert) needs a client key (keySecret)' },
      { path: 'spec.receivers[0].webhookConfigs[3].httpConfig.tlsConfig.ca.secret', message: 'key "missing" not found in Secret "tls" in namespace "team-a"' },
      { path: 'spec.receivers[0].webhookConfigs[4].httpConfig.tlsConfig.ca', message: 'names both a Secret and a ConfigMap; give one' },
    ]);
    expect(JSON.stringify(findings.problems)).not.toContain('s3cr3t');
    expect(Object.keys(tlsAssets)).toContain('0_team-a_tls_garbage');
  });

  it('reads TLS material from the object\'s namespace only', () => {
    const findings = new Findings();
    const tlsAssets: Record<string, string> = {};
    renderReceiver({ name: 'x', webhookConfigs: [{ url: 'https://a.example.com/', httpConfig: { tlsConfig: { ca: { secret: sk('tls', 'tls.crt') } } } }] }, { namespace: 'team-b', path: 'spec.receivers[0]', secrets: secretStore(), findings, name: 'team-b/x/x', tlsAssets });
    expect(findings.problems).toEqual([{ path: 'spec.receivers[0].webhookConfigs[0].httpConfig.tlsConfig.ca.secret', message: 'Secret "tls" not found in namespace "team-b"' }]);
    expect(tlsAssets).toEqual({});
  });

  it('writes the TLS settings that need no file, and refuses a maximum version below the minimum', () => {
    const ok = render({ webhookConfigs: [{ url: 'https://a.example.com/', httpConfig: { tlsConfig: { insecureSkipVerify: true, serverName: 'a', minVersion: 'TLS12', maxVersion: 'TLS13' } } }] });
    expect(ok.rendered.webhook_configs).toEqual([{ url: 'https://a.example.com/', http_config: { tls_config: { server_name: 'a', insecure_skip_verify: true, min_version: 'TLS12', max_version: 'TLS13' } } }]);
    expect(amtoolCheck(ok.rendered).code).toBe(0);
    const bad = render({ webhookConfigs: [{ url: 'https://a.example.com/', httpConfig: { tlsConfig: { minVersion: 'TLS13', maxVersion: 'TLS12' } } }] });
    expect(bad.findings.problems).toEqual([{ path: 'spec.receivers[0].webhookConfigs[0].httpConfig.tlsConfig', message: 'maxVersion TLS12 is lower than minVersion TLS13' }]);
  });

  it('writes OAuth2 with the client id from a ConfigMap and the secret inlined, and says its tlsConfig is ignored as upstream ignores it', () => {
    const { rendered, findings } = render({
      webhookConfigs: [
        {
          url: 'https://a.example.com/',
          httpConfig: {
            oauth2: {
              clientId: { configMap: { name: 'oauth-client', key: 'id' } },
              clientSecret: sk('oauth', 'secret'),
              tokenUrl: 'https://auth.example.com/token',
              scopes: ['alerts'],
              endpointParams: { b: '2', a: '1' },
              proxyUrl: 'http://proxy:3128',
              tlsConfig: { insecureSkipVerify: true },
            },
          },
        },
      ],
    });
    expect(findings.problems).toEqual([]);
    expect(findings.warnings).toEqual(['spec.receivers[0].webhookConfigs[0].httpConfig.oauth2.tlsConfig: ignored, as prometheus-operator ignores it for Alertmanager receivers']);
    const oauth2 = { client_id: 'client-id', client_secret: 'oauth-s3cr3t', scopes: ['alerts'], token_url: 'https://auth.example.com/token', endpoint_params: { a: '1', b: '2' }, proxy_url: 'http://proxy:3128' };
    expect(rendered.webhook_configs).toEqual([{ url: 'https://a.example.com/', http_config: { oauth2 } }]);
    expect(Object.keys(oauth2)).toEqual(Object.keys(((rendered.webhook_configs as Array<{ http_config: { oauth2: object } }>)[0])?.http_config.oauth2 ?? {}));
    expect(amtoolCheck(rendered).code).toBe(0);
  });

  it('prefers the older proxyURL spelling over proxyUrl, as upstream does', () => {
    const { rendered } = render({ webhookConfigs: [{ url: 'https://a.example.com/', httpConfig: { proxyURL: 'http://old:3128', proxyUrl: 'http://new:3128' } }] });
    expect(rendered.webhook_configs).toEqual([{ url: 'https://a.example.com/', http_config: { proxy_url: 'http://old:3128' } }]);
  });
});
