/**
 * Hand-written cases for the Alertmanager configuration comparison (alertmanager-compat-diff.ts): each an
 * Alertmanager, its base configuration Secret, the Secrets its AlertmanagerConfigs reference, and the
 * AlertmanagerConfigs themselves, in the case's namespace and (for cross-namespace cases) in namespaces of its own
 * named `<case namespace>-<suffix>`.
 */

/** An AlertmanagerConfig of a case. `namespace` is a suffix of the case namespace (unset: the case namespace). */
export interface AmConfigObject {
  namespace?: string;
  name: string;
  labels?: Record<string, string>;
  spec: Record<string, unknown>;
}

export interface AlertmanagerCase {
  /** Short, unique, a DNS label part. */
  name: string;
  /** What the case exercises (printed with the result). */
  about: string;
  /** Merged over {@link baseAlertmanagerSpec}. With `alertmanagerConfigNamespaceSelector: CASE_NAMESPACES` the case's namespaces. */
  alertmanagerSpec?: Record<string, unknown>;
  /** `alertmanager.yaml` of Secret `alertmanager-am`; undefined: no such Secret. */
  baseConfig?: string;
  /** Namespace suffixes besides the case namespace (each labelled as the case's). */
  extraNamespaces?: string[];
  configs: AmConfigObject[];
  /**
   * When the two sides are expected to differ on purpose: the docs/compatibility.md entry that explains it.
   * A case without it must come out equal.
   */
  documented?: string;
}

/** Placeholder for the case's namespace selector (replaced by `{matchLabels: {am-case: <case namespace>}}`). */
export const CASE_NAMESPACES = '@case-namespaces';

/** The Alertmanager name of every case. */
export const ALERTMANAGER_NAME = 'am';

/** The version both operators render for (upstream's default). */
export const ALERTMANAGER_VERSION = 'v0.33.1';

export function baseAlertmanagerSpec(): Record<string, unknown> {
  return { version: ALERTMANAGER_VERSION, replicas: 1, alertmanagerConfigSelector: {} };
}

/** Secret `receiver-secrets`, planted in every namespace of every case. */
export const RECEIVER_SECRET_NAME = 'receiver-secrets';
export const RECEIVER_SECRET_DATA: Readonly<Record<string, string>> = {
  url: 'http://hooks.example.com/team?token=abc',
  slack: 'https://hooks.slack.com/services/T000/B000/XXXX',
  routingKey: 'pd-routing-key',
  password: 's3cret "quoted"',
  username: 'alice',
  apiKey: 'opsgenie-api-key',
  botToken: '123456:ABC-DEF',
  teams: 'https://example.webhook.office.com/webhookb2/abc',
  discord: 'https://discord.com/api/webhooks/1/abc',
  token: 'bearer-token',
};

const BASE = `global:
  resolve_timeout: 5m
route:
  receiver: platform
  group_by: [alertname]
  routes:
  - receiver: watchdog
    matchers: [alertname="Watchdog"]
receivers:
- name: platform
- name: watchdog
`;

const BASE_RICH = `global:
  resolve_timeout: 5m
  smtp_smarthost: mail.example.com:587
  smtp_from: alerts@example.com
route:
  receiver: platform
  group_by: [alertname, cluster]
  group_wait: 30s
  group_interval: 5m
  repeat_interval: 4h
  routes:
  - receiver: watchdog
    matchers: [alertname="Watchdog"]
    mute_time_intervals: [weekends]
  - receiver: platform
    match:
      severity: critical
    continue: true
inhibit_rules:
- source_matchers: [severity="critical"]
  target_matchers: [severity="warning"]
  equal: [alertname]
receivers:
- name: platform
  webhook_configs:
  - url: http://platform.example.com/hook
- name: watchdog
mute_time_intervals:
- name: weekends
  time_intervals:
  - weekdays: [saturday, sunday]
time_intervals:
- name: office
  time_intervals:
  - times:
    - start_time: "09:00"
      end_time: "17:00"
templates:
- /etc/alertmanager/config/*.tmpl
`;

const hook = (name = 'hook') => ({ name, webhookConfigs: [{ url: 'http://hooks.example.com/a' }] });
const secret = (key: string) => ({ name: RECEIVER_SECRET_NAME, key });

export const ALERTMANAGER_CASES: AlertmanagerCase[] = [
  {
    name: 'no-selector',
    about: 'no alertmanagerConfigSelector: the base configuration as written, objects ignored',
    alertmanagerSpec: { alertmanagerConfigSelector: undefined },
    baseConfig: BASE,
    configs: [{ name: 'ignored', spec: { route: { receiver: 'hook' }, receivers: [hook()] } }],
  },
  {
    name: 'default-base',
    about: 'no config Secret: the default base (receiver "null") with one object',
    configs: [{ name: 'team', spec: { route: { receiver: 'hook', groupBy: ['alertname'] }, receivers: [hook()] } }],
  },
  {
    name: 'rich-base',
    about: 'a base with routes, inhibit rules, mute and time intervals, templates, global',
    baseConfig: BASE_RICH,
    configs: [{
      name: 'team',
      spec: {
        route: { receiver: 'hook', muteTimeIntervals: ['nights'] },
        receivers: [hook()],
        inhibitRules: [{ sourceMatch: [{ name: 'severity', value: 'critical' }], targetMatch: [{ name: 'severity', value: 'info' }] }],
        muteTimeIntervals: [{ name: 'nights', timeIntervals: [{ times: [{ startTime: '00:00', endTime: '06:00' }] }] }],
      },
    }],
  },
  {
    name: 'nested-routes',
    about: 'routes nested three deep, receivers at each level, continue and groupBy in children',
    baseConfig: BASE,
    configs: [{
      name: 'tree',
      spec: {
        route: {
          receiver: 'default',
          groupBy: ['alertname', 'job'],
          groupWait: '10s',
          routes: [
            {
              receiver: 'db',
              matchers: [{ name: 'service', value: 'db' }],
              continue: true,
              routes: [
                { receiver: 'pager', matchers: [{ name: 'severity', value: 'critical', matchType: '=' }], groupBy: ['...'] },
                { matchers: [{ name: 'severity', value: 'warning' }], continue: false, routes: [{ receiver: 'default', groupWait: '1m' }] },
              ],
            },
            { receiver: 'pager', matchers: [{ name: 'severity', value: 'page' }], groupInterval: '10m', repeatInterval: '12h' },
          ],
        },
        receivers: [hook('default'), hook('db'), hook('pager')],
      },
    }],
  },
  {
    name: 'match-types',
    about: 'every matchType, no matchType, and values with quotes, backslashes and line breaks',
    baseConfig: BASE,
    configs: [{
      name: 'matchers',
      spec: {
        route: {
          receiver: 'hook',
          matchers: [
            { name: 'a', value: 'x', matchType: '=' },
            { name: 'b', value: 'x', matchType: '!=' },
            { name: 'c', value: 'x|y.*', matchType: '=~' },
            { name: 'd', value: 'z+', matchType: '!~' },
            { name: 'e', value: 'plain' },
            { name: 'f', value: '' },
            { name: 'g', value: 'say "hi" \\ back\nslash' },
          ],
          routes: [{ receiver: 'hook', matchers: [{ name: 'h', value: 'nested', matchType: '!=' }] }],
        },
        receivers: [hook()],
      },
    }],
  },
  {
    name: 'regex-deprecated',
    about: 'the deprecated regex: true, alone and next to a matchType (which wins)',
    baseConfig: BASE,
    configs: [{
      name: 'legacy',
      spec: {
        route: {
          receiver: 'hook',
          matchers: [
            { name: 'a', value: 'x.*', regex: true },
            { name: 'b', value: 'y', regex: false },
            { name: 'c', value: 'z.*', regex: true, matchType: '=' },
            { name: 'd', value: 'w', regex: true, matchType: '!=' },
          ],
        },
        receivers: [hook()],
        inhibitRules: [{ sourceMatch: [{ name: 'alertname', value: 'Node.*', regex: true }], targetMatch: [{ name: 'x', value: 'y' }] }],
      },
    }],
  },
  {
    name: 'durations',
    about: 'groupWait/groupInterval/repeatInterval: zero ones (0, 0s, 0m) and compound ones, at each level',
    baseConfig: BASE,
    configs: [{
      name: 'timing',
      spec: {
        route: {
          receiver: 'hook',
          groupWait: '0s',
          groupInterval: '0',
          repeatInterval: '1h30m',
          routes: [
            { receiver: 'hook', groupWait: '0', groupInterval: '5m', repeatInterval: '0m', matchers: [{ name: 'a', value: '1' }] },
            { receiver: 'hook', groupWait: '1d', groupInterval: '2h0m0s', repeatInterval: '1w', matchers: [{ name: 'a', value: '2' }] },
          ],
        },
        receivers: [hook()],
      },
    }],
  },
  {
    name: 'strategy-default',
    about: 'OnNamespace (the CRD default): namespace matcher on the route and both sides of inhibit rules',
    baseConfig: BASE,
    alertmanagerSpec: { alertmanagerConfigNamespaceSelector: CASE_NAMESPACES },
    extraNamespaces: ['team'],
    configs: [
      { name: 'own', spec: { route: { receiver: 'hook' }, receivers: [hook()] } },
      { namespace: 'team', name: 'other', spec: { route: { receiver: 'hook', matchers: [{ name: 'namespace', value: 'elsewhere' }] }, receivers: [hook()], inhibitRules: [{ sourceMatch: [{ name: 'a', value: 'b' }], equal: ['alertname'] }] } },
    ],
  },
  {
    name: 'strategy-except',
    about: 'OnNamespaceExceptForAlertmanagerNamespace: no namespace matcher for objects in the Alertmanager namespace',
    baseConfig: BASE,
    alertmanagerSpec: { alertmanagerConfigNamespaceSelector: CASE_NAMESPACES, alertmanagerConfigMatcherStrategy: { type: 'OnNamespaceExceptForAlertmanagerNamespace' } },
    extraNamespaces: ['team'],
    configs: [
      { name: 'own', spec: { route: { receiver: 'hook' }, receivers: [hook()], inhibitRules: [{ targetMatch: [{ name: 'a', value: 'b' }] }] } },
      { namespace: 'team', name: 'other', spec: { route: { receiver: 'hook' }, receivers: [hook()], inhibitRules: [{ targetMatch: [{ name: 'a', value: 'b' }] }] } },
    ],
  },
  {
    name: 'strategy-none',
    about: 'None: no namespace matchers at all, continue still forced',
    baseConfig: BASE,
    alertmanagerSpec: { alertmanagerConfigNamespaceSelector: CASE_NAMESPACES, alertmanagerConfigMatcherStrategy: { type: 'None' } },
    extraNamespaces: ['team'],
    configs: [
      { namespace: 'team', name: 'other', spec: { route: { receiver: 'hook', continue: false }, receivers: [hook()], inhibitRules: [{ sourceMatch: [{ name: 'a', value: 'b' }], targetMatch: [{ name: 'c', value: 'd' }] }] } },
    ],
  },
  {
    name: 'inhibit-rules',
    about: 'inhibit rules: every matchType, a namespace matcher already there (kept once), one side empty, equal only',
    baseConfig: BASE,
    configs: [{
      name: 'inhibit',
      spec: {
        route: { receiver: 'hook' },
        receivers: [hook()],
        inhibitRules: [
          { sourceMatch: [{ name: 'severity', value: 'critical' }], targetMatch: [{ name: 'severity', value: 'warning', matchType: '=' }, { name: 'x', value: 'a|b', matchType: '=~' }], equal: ['alertname', 'instance'] },
          { sourceMatch: [{ name: 'namespace', value: '@NS@', matchType: '=' }], targetMatch: [{ name: 'namespace', value: 'other', matchType: '!=' }, { name: 'y', value: 'z', matchType: '!~' }] },
          { equal: ['cluster'] },
        ],
      },
    }],
  },
  {
    name: 'no-route',
    about: 'an object without a route: only its inhibit rules count (receivers and intervals dropped, as upstream)',
    baseConfig: BASE,
    configs: [
      {
        name: 'routeless',
        spec: {
          receivers: [hook()],
          inhibitRules: [{ sourceMatch: [{ name: 'a', value: 'b' }], targetMatch: [{ name: 'c', value: 'd' }] }],
          muteTimeIntervals: [{ name: 'never', timeIntervals: [{ weekdays: ['monday'] }] }],
        },
      },
      { name: 'with-route', spec: { route: { receiver: 'hook' }, receivers: [hook()] } },
    ],
  },
  {
    name: 'mute-intervals',
    about: 'mute time intervals: weekday/month names in mixed case and numbers, ranges, days of month, years, times; mute and active references',
    baseConfig: BASE,
    configs: [{
      name: 'intervals',
      spec: {
        route: {
          receiver: 'hook',
          muteTimeIntervals: ['offhours'],
          routes: [{ receiver: 'hook', activeTimeIntervals: ['business'], muteTimeIntervals: ['holidays'], matchers: [{ name: 'a', value: 'b' }] }],
        },
        receivers: [hook()],
        muteTimeIntervals: [
          {
            name: 'offhours',
            timeIntervals: [
              { weekdays: ['Saturday', 'SUNday'] },
              { weekdays: ['Monday:friday'], times: [{ startTime: '00:00', endTime: '08:00' }, { startTime: '18:00', endTime: '24:00' }] },
            ],
          },
          {
            name: 'holidays',
            timeIntervals: [
              { months: ['December'], daysOfMonth: [{ start: 24, end: 26 }] },
              { months: ['january:March', '7', '10:12'], daysOfMonth: [{ start: -3, end: -1 }, { start: 1, end: 1 }], years: ['2030', '2031:2035'] },
            ],
          },
          { name: 'business', timeIntervals: [{ weekdays: ['tuesday:tuesday'], times: [{ startTime: '09:00', endTime: '17:00' }] }] },
        ],
      },
    }],
  },
  {
    name: 'receivers-webhook-slack',
    about: 'webhook (url, urlSecret, basic auth, maxAlerts, timeout) and slack (apiURL, fields, actions) with Secrets',
    baseConfig: BASE,
    configs: [{
      name: 'chat',
      spec: {
        route: { receiver: 'web', routes: [{ receiver: 'slack', matchers: [{ name: 'team', value: 'x' }] }] },
        receivers: [
          {
            name: 'web',
            webhookConfigs: [
              { urlSecret: secret('url'), sendResolved: false, maxAlerts: 10, httpConfig: { basicAuth: { username: secret('username'), password: secret('password') } } },
              { url: 'https://hooks.example.com/b', httpConfig: { bearerTokenSecret: secret('token'), followRedirects: false } },
            ],
          },
          {
            name: 'slack',
            slackConfigs: [{
              apiURL: secret('slack'),
              channel: '#alerts',
              sendResolved: true,
              title: '{{ .CommonLabels.alertname }}',
              text: 'hello',
              fields: [{ title: 'a', value: 'b', short: true }],
              actions: [{ type: 'button', text: 'Runbook', url: 'https://runbooks.example.com' }],
              linkNames: true,
              mrkdwnIn: ['text'],
            }],
          },
        ],
      },
    }],
  },
  {
    name: 'receivers-paging',
    about: 'pagerduty (routingKey, details, links, images), opsgenie (apiKey, responders, details), email (authPassword, headers)',
    baseConfig: BASE,
    configs: [{
      name: 'paging',
      spec: {
        route: { receiver: 'pd', routes: [{ receiver: 'og', matchers: [{ name: 'a', value: 'b' }] }, { receiver: 'mail', matchers: [{ name: 'a', value: 'c' }] }] },
        receivers: [
          {
            name: 'pd',
            pagerdutyConfigs: [{
              routingKey: secret('routingKey'),
              severity: 'critical',
              class: 'db',
              details: [{ key: 'zeta', value: '1' }, { key: 'alpha', value: '2' }],
              pagerDutyLinkConfigs: [{ href: 'https://example.com', alt: 'site' }],
              pagerDutyImageConfigs: [{ src: 'https://example.com/i.png', alt: 'img', href: 'https://example.com' }],
            }],
          },
          {
            name: 'og',
            opsgenieConfigs: [{
              apiKey: secret('apiKey'),
              message: 'm',
              priority: 'P1',
              tags: 'a,b',
              details: [{ key: 'k', value: 'v' }],
              responders: [{ type: 'team', name: 'ops' }, { type: 'user', username: 'bob' }],
            }],
          },
          {
            name: 'mail',
            emailConfigs: [{
              to: 'team@example.com',
              from: 'am@example.com',
              smarthost: 'smtp.example.com:587',
              authUsername: 'alice',
              authPassword: secret('password'),
              headers: [{ key: 'Subject', value: 'alert' }, { key: 'Reply-To', value: 'x@example.com' }],
              requireTLS: true,
              sendResolved: true,
            }],
          },
        ],
      },
    }],
  },
  {
    name: 'receivers-im',
    about: 'telegram (botToken, chatID, parseMode), msteams (webhookUrl), discord (apiURL), a receiver with no integrations',
    baseConfig: BASE,
    configs: [{
      name: 'im',
      spec: {
        route: {
          receiver: 'tg',
          routes: [
            { receiver: 'teams', matchers: [{ name: 'a', value: 'b' }] },
            { receiver: 'discord', matchers: [{ name: 'a', value: 'c' }] },
            { receiver: 'void', matchers: [{ name: 'a', value: 'd' }] },
          ],
        },
        receivers: [
          { name: 'tg', telegramConfigs: [{ botToken: secret('botToken'), chatID: -1001234, parseMode: 'HTML', disableNotifications: true, message: 'x' }] },
          { name: 'teams', msteamsConfigs: [{ webhookUrl: secret('teams'), title: 't', text: 'x', sendResolved: true }] },
          { name: 'discord', discordConfigs: [{ apiURL: secret('discord'), title: 't', message: 'm' }] },
          { name: 'void' },
        ],
      },
    }],
  },
  {
    name: 'ordering',
    about: 'objects across namespaces: <namespace>/<name> byte order (a-b/x before a/x), routes before the base routes; names with - and . in one namespace',
    baseConfig: BASE,
    alertmanagerSpec: { alertmanagerConfigNamespaceSelector: CASE_NAMESPACES },
    extraNamespaces: ['a', 'a-b', 'b'],
    configs: [
      { namespace: 'b', name: 'a', spec: { route: { receiver: 'hook' }, receivers: [hook()] } },
      { namespace: 'a', name: 'z', spec: { route: { receiver: 'hook' }, receivers: [hook()] } },
      { namespace: 'a', name: 'b', spec: { route: { receiver: 'hook' }, receivers: [hook()], muteTimeIntervals: [{ name: 'i', timeIntervals: [{ weekdays: ['monday'] }] }] } },
      { namespace: 'a-b', name: 'x', spec: { route: { receiver: 'hook' }, receivers: [hook()], inhibitRules: [{ equal: ['x'] }] } },
      { name: 'a.x', spec: { route: { receiver: 'hook' }, receivers: [hook()] } },
      { name: 'a-x', spec: { route: { receiver: 'hook' }, receivers: [hook()] } },
      { name: 'lower', spec: { route: { receiver: 'hook' }, receivers: [hook()] } },
    ],
  },
  {
    name: 'label-selector',
    about: 'alertmanagerConfigSelector with matchLabels: only labelled objects',
    baseConfig: BASE,
    alertmanagerSpec: { alertmanagerConfigSelector: { matchLabels: { alerting: 'yes' } } },
    configs: [
      { name: 'picked', labels: { alerting: 'yes' }, spec: { route: { receiver: 'hook' }, receivers: [hook()] } },
      { name: 'ignored', labels: { alerting: 'no' }, spec: { route: { receiver: 'hook' }, receivers: [hook()] } },
    ],
  },
  {
    name: 'rejected',
    about: 'objects the operators reject (missing receiver, missing Secret key, interval not defined) next to a good one',
    baseConfig: BASE,
    configs: [
      { name: 'missing-receiver', spec: { route: { receiver: 'nobody' }, receivers: [hook()] } },
      { name: 'missing-key', spec: { route: { receiver: 'web' }, receivers: [{ name: 'web', webhookConfigs: [{ urlSecret: secret('absent') }] }] } },
      { name: 'missing-interval', spec: { route: { receiver: 'hook', muteTimeIntervals: ['none'] }, receivers: [hook()] } },
      { name: 'no-top-receiver', spec: { route: { groupBy: ['a'] }, receivers: [hook()] } },
      { name: 'good', spec: { route: { receiver: 'hook' }, receivers: [hook()], inhibitRules: [{ equal: ['a'] }] } },
    ],
  },
  {
    name: 'route-details',
    about: 'explicit continue: true on top, continue false in children, groupBy ..., a child without receiver',
    baseConfig: BASE,
    configs: [{
      name: 'details',
      spec: {
        route: {
          receiver: 'hook',
          continue: true,
          groupBy: ['...'],
          routes: [{ matchers: [{ name: 'x', value: 'y' }], continue: false }, { matchers: [{ name: 'x', value: 'z' }], continue: true, receiver: 'hook' }],
        },
        receivers: [hook()],
      },
    }],
  },
  {
    name: 'receivers-more',
    about: 'webex, wechat, victorops, sns, msteamsv2; webhook with oauth2, authorization, TLS settings, proxy, timeout',
    baseConfig: BASE,
    configs: [{
      name: 'more',
      spec: {
        route: { receiver: 'web', routes: ['webex', 'wechat', 'victorops', 'sns', 'teams2', 'oauth'].map((receiver) => ({ receiver, matchers: [{ name: 'to', value: receiver }] })) },
        receivers: [
          { name: 'web', webhookConfigs: [{ url: 'https://hooks.example.com/w', timeout: '90s', httpConfig: { authorization: { credentials: secret('token') }, tlsConfig: { serverName: 'hooks.example.com', insecureSkipVerify: true, minVersion: 'TLS12' }, proxyUrl: 'http://proxy.example.com:3128', noProxy: 'localhost', followRedirects: true, enableHttp2: false } }] },
          { name: 'oauth', webhookConfigs: [{ url: 'https://hooks.example.com/o', httpConfig: { oauth2: { clientId: { secret: secret('username') }, clientSecret: secret('password'), tokenUrl: 'https://auth.example.com/token', scopes: ['a', 'b'], endpointParams: { z: '1', a: '2' } } } }] },
          { name: 'webex', webexConfigs: [{ roomID: 'room1', message: 'm', httpConfig: { authorization: { type: 'Bearer', credentials: secret('token') } } }] },
          { name: 'wechat', wechatConfigs: [{ apiSecret: secret('password'), corpID: 'corp', agentID: '1', toUser: 'u', message: 'm', messageType: 'text', apiURL: 'https://qyapi.weixin.qq.com/cgi-bin/' }] },
          { name: 'victorops', victoropsConfigs: [{ apiKey: secret('apiKey'), routingKey: 'team-x', messageType: 'CRITICAL', customFields: [{ key: 'z', value: '1' }, { key: 'a', value: '2' }] }] },
          { name: 'sns', snsConfigs: [{ apiURL: 'https://sns.eu-west-1.amazonaws.com', sigv4: { region: 'eu-west-1', accessKey: secret('username'), secretKey: secret('password') }, topicARN: 'arn:aws:sns:eu-west-1:1:t', subject: 's', attributes: { k: 'v' } }] },
          { name: 'teams2', msteamsv2Configs: [{ webhookURL: secret('teams'), title: 't', text: 'x' }] },
        ],
      },
    }],
  },
  {
    name: 'receivers-pushover-rocketchat',
    about: 'pushover (userKey, token, retry 90s, sound) and rocketchat (token, tokenID, fields, actions)',
    baseConfig: BASE,
    configs: [{
      name: 'push',
      spec: {
        route: { receiver: 'pushover', routes: [{ receiver: 'rocket', matchers: [{ name: 'to', value: 'rocket' }] }] },
        receivers: [
          { name: 'pushover', pushoverConfigs: [{ userKey: secret('apiKey'), token: secret('token'), priority: '2', retry: '90s', expire: '1h', html: true, ttl: '10m', sound: 'siren' }] },
          { name: 'rocket', rocketchatConfigs: [{ apiURL: 'https://rocket.example.com', token: secret('token'), tokenID: secret('username'), channel: '#a', fields: [{ title: 't', value: 'v', short: true }], actions: [{ text: 'go', url: 'https://example.com' }] }] },
        ],
      },
    }],
    documented: 'pushover sound and rocketchat false booleans (compat-diff subsection)',
  },
  {
    name: 'route-empty-parts',
    about: 'empty groupBy, matchers and routes lists, an empty child route, a receiver name with a space',
    baseConfig: BASE,
    configs: [{
      name: 'empty',
      spec: {
        route: { receiver: 'on call', groupBy: [], matchers: [], routes: [{}, { receiver: 'on call', routes: [] }] },
        receivers: [{ name: 'on call', webhookConfigs: [{ url: 'http://hooks.example.com/a' }] }],
      },
    }],
  },
  {
    name: 'base-normalised',
    about: 'a base prometheus-operator re-marshals: resolve_timeout 300s, global http_config and slack_api_url, base receivers with credentials, a time interval location',
    baseConfig: `global:
  resolve_timeout: 300s
  slack_api_url: https://hooks.slack.com/services/T/B/C
  http_config:
    follow_redirects: true
    basic_auth:
      username: u
      password: p
route:
  receiver: slack
  group_wait: 60s
  routes:
  - receiver: web
    matchers: ['alertname = "x"']
    active_time_intervals: [office]
receivers:
- name: slack
  slack_configs:
  - channel: '#ops'
    send_resolved: true
- name: web
  webhook_configs:
  - url: http://platform.example.com/hook
    http_config:
      bearer_token: secret-token
    max_alerts: 5
time_intervals:
- name: office
  time_intervals:
  - weekdays: ['monday:friday']
    location: Europe/Berlin
`,
    configs: [{ name: 'team', spec: { route: { receiver: 'hook' }, receivers: [hook()] } }],
    documented: 'base configuration kept as written (compat-diff subsection: upstream re-marshals resolve_timeout)',
  },
  {
    name: 'empty-base',
    about: 'a config Secret whose alertmanager.yaml is empty: the default base',
    baseConfig: '',
    configs: [{ name: 'team', spec: { route: { receiver: 'hook' }, receivers: [hook()] } }],
  },
  {
    name: 'invalid-base',
    about: 'a base whose route names a receiver it does not define',
    baseConfig: 'route:\n  receiver: missing\nreceivers:\n- name: other\n',
    configs: [{ name: 'team', spec: { route: { receiver: 'hook' }, receivers: [hook()] } }],
  },
  {
    name: 'proxy-url-legacy',
    about: 'the older httpConfig.proxyURL field alone, and with noProxy (which upstream checks against proxyUrl only)',
    baseConfig: BASE,
    configs: [
      { name: 'alone', spec: { route: { receiver: 'web' }, receivers: [{ name: 'web', webhookConfigs: [{ url: 'http://hooks.example.com/a', httpConfig: { proxyURL: 'http://proxy.example.com:3128' } }] }] } },
      { name: 'with-no-proxy', spec: { route: { receiver: 'web' }, receivers: [{ name: 'web', webhookConfigs: [{ url: 'http://hooks.example.com/a', httpConfig: { proxyURL: 'http://proxy.example.com:3128', noProxy: 'localhost' } }] }] } },
    ],
    documented: 'proxyURL with noProxy (compat-diff subsection: accepted by promop, rejected by upstream)',
  },
  {
    name: 'invalid-regex',
    about: 'a matcher regex Go cannot compile',
    baseConfig: BASE,
    configs: [
      { name: 'bad', spec: { route: { receiver: 'hook', matchers: [{ name: 'a', value: '(unclosed', matchType: '=~' }] }, receivers: [hook()] } },
      { name: 'good', spec: { route: { receiver: 'hook' }, receivers: [hook()] } },
    ],
    documented: 'More is refused, alone, instead of breaking the shared file (a matcher regex Go cannot compile)',
  },
  {
    name: 'old-version',
    about: 'Alertmanager 0.21: upstream writes match/match_re maps',
    baseConfig: BASE.replace('matchers: [alertname="Watchdog"]', 'match: {alertname: Watchdog}'),
    alertmanagerSpec: { version: 'v0.21.0' },
    configs: [{ name: 'team', spec: { route: { receiver: 'hook', matchers: [{ name: 'a', value: 'b' }] }, receivers: [hook()] } }],
    documented: 'Alertmanager older than 0.22 gets no AlertmanagerConfig',
  },
];
