/**
 * `spec.alertmanagerConfiguration.global` of an Alertmanager → the `global` section of Alertmanager's configuration,
 * as prometheus-operator v0.93 converts it: keys in the order of upstream's global struct, Secrets read from the
 * Alertmanager's namespace only and inlined, URLs checked as Alertmanager parses them when it loads the file, and
 * the Alertmanager release each setting needs checked (upstream refuses the older releases, except for the SMTP TLS
 * settings, which it drops before 0.28).
 *
 * The CRD keeps unknown fields of this section instead of pruning them, so that a field promop does not know is
 * refused here with its path rather than dropped without a word.
 */
import type { AlertmanagerSpec } from '@promop/crds';
import { parseDuration } from '@promop/prometheus-lang';
import type { Findings } from '../findings.ts';
import type { SecretStore } from '../secret-store.ts';
import { olderThan } from './alertmanager-version.ts';
import { formatModelDuration } from './model-duration.ts';
import { sharedRenderers } from './receivers.ts';
import { shownValue } from './shown-value.ts';
import { withoutUndefined } from './without-undefined.ts';

/** The section as the Alertmanager CRD types it. */
export type AlertmanagerGlobalConfig = NonNullable<NonNullable<AlertmanagerSpec['alertmanagerConfiguration']>['global']>;

/** Where the section is in an Alertmanager, for problems. */
export const GLOBAL_PATH = 'spec.alertmanagerConfiguration.global';

/** What rendering the section needs. */
export interface GlobalContext {
  /** The Alertmanager's namespace: every Secret is read from it and from no other. */
  namespace: string;
  secrets: SecretStore;
  findings: Findings;
  /** Where TLS files the section names go (file name → content). */
  tlsAssets: Record<string, string>;
  /** `major.minor` of the Alertmanager release; undefined when spec.version is not a version (the image decides). */
  version: readonly [number, number] | undefined;
}

const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  'smtp', 'resolveTimeout', 'httpConfig', 'slackApiUrl', 'opsGenieApiUrl', 'opsGenieApiKey', 'pagerdutyUrl', 'telegram', 'jira',
  'victorops', 'rocketChat', 'webex', 'wechat', 'mattermost',
]);

/** The oldest Alertmanager release that reads each part (upstream's checkGlobal* functions). */
const NEEDS_RELEASE = {
  telegram: [0, 24], jira: [0, 28], rocketChat: [0, 28], webex: [0, 25], mattermost: [0, 32], 'smtp.forceImplicitTLS': [0, 31],
} as const satisfies Record<string, readonly [number, number]>;
/** Before this release Alertmanager has no smtp_tls_config, and upstream leaves it out. */
const SMTP_TLS_RELEASE: readonly [number, number] = [0, 28];

/** The `global` section, or a mapping without the fields that had problems (they are in `context.findings`). */
export function renderGlobalConfiguration(global: AlertmanagerGlobalConfig, context: GlobalContext): Record<string, unknown> {
  const { findings } = context;
  const at = (field: string) => `${GLOBAL_PATH}.${field}`;
  const r = sharedRenderers(context);
  for (const key of Object.keys(global)) if (!KNOWN_FIELDS.has(key)) findings.problem(at(key), 'is not a field of the global configuration');
  for (const [field, release] of Object.entries(NEEDS_RELEASE)) {
    const [parent, child] = field.split('.') as [keyof AlertmanagerGlobalConfig, string | undefined];
    const value = global[parent] as Record<string, unknown> | undefined;
    const set = child === undefined ? value !== undefined : value?.[child] !== undefined;
    if (set && context.version !== undefined && olderThan(context.version, release)) {
      findings.problem(at(field), `needs Alertmanager ${release.join('.')} or later; spec.version is ${context.version.join('.')}`);
    }
  }

  const smtp = global.smtp;
  const smtpTls = smtp?.tlsConfig && (context.version === undefined || !olderThan(context.version, SMTP_TLS_RELEASE))
    ? r.tlsConfig(smtp.tlsConfig, at('smtp.tlsConfig'))
    : undefined;
  return withoutUndefined({
    resolve_timeout: resolveTimeout(global.resolveTimeout, at('resolveTimeout'), findings),
    http_config: r.httpConfig(global.httpConfig, at('httpConfig')),
    smtp_from: smtp?.from || undefined,
    smtp_hello: smtp?.hello || undefined,
    smtp_smarthost: smtp?.smartHost ? joinHostPort(smtp.smartHost.host, smtp.smartHost.port) : undefined,
    smtp_auth_username: smtp?.authUsername || undefined,
    smtp_auth_password: r.secret(smtp?.authPassword, at('smtp.authPassword')) || undefined,
    smtp_auth_secret: r.secret(smtp?.authSecret, at('smtp.authSecret')) || undefined,
    smtp_auth_identity: smtp?.authIdentity || undefined,
    smtp_require_tls: smtp?.requireTLS,
    smtp_tls_config: smtpTls,
    smtp_force_implicit_tls: smtp?.forceImplicitTLS,
    slack_api_url: r.secretUrl(global.slackApiUrl, at('slackApiUrl'), false),
    pagerduty_url: checkedUrl(global.pagerdutyUrl, at('pagerdutyUrl'), r),
    opsgenie_api_url: r.secretUrl(global.opsGenieApiUrl, at('opsGenieApiUrl'), false),
    opsgenie_api_key: r.secret(global.opsGenieApiKey, at('opsGenieApiKey')) || undefined,
    wechat_api_url: checkedUrl(global.wechat?.apiURL, at('wechat.apiURL'), r),
    wechat_api_secret: r.secret(global.wechat?.apiSecret, at('wechat.apiSecret')) || undefined,
    wechat_api_corp_id: global.wechat?.apiCorpID || undefined,
    victorops_api_url: checkedUrl(global.victorops?.apiURL, at('victorops.apiURL'), r),
    victorops_api_key: r.secret(global.victorops?.apiKey, at('victorops.apiKey')) || undefined,
    telegram_api_url: checkedUrl(global.telegram?.apiURL, at('telegram.apiURL'), r),
    webex_api_url: checkedUrl(global.webex?.apiURL, at('webex.apiURL'), r),
    jira_api_url: checkedUrl(global.jira?.apiURL, at('jira.apiURL'), r),
    rocketchat_api_url: checkedUrl(global.rocketChat?.apiURL, at('rocketChat.apiURL'), r),
    rocketchat_token: r.secret(global.rocketChat?.token, at('rocketChat.token')) || undefined,
    rocketchat_token_id: r.secret(global.rocketChat?.tokenID, at('rocketChat.tokenID')) || undefined,
    mattermost_webhook_url: r.secretUrl(global.mattermost?.webhookURL, at('mattermost.webhookURL'), true),
  });
}

/** resolveTimeout in model.Duration's form (`90s` is written `1m30s`), as upstream writes it. */
function resolveTimeout(value: string | undefined, path: string, findings: Findings): string | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = parseDuration(value);
  if (ms === undefined) {
    findings.problem(path, `${shownValue(value)} is not a duration like 5m or 1h`);
    return undefined;
  }
  return formatModelDuration(ms);
}

function checkedUrl(url: string | undefined, path: string, r: ReturnType<typeof sharedRenderers>): string | undefined {
  if (!url) return undefined;
  r.checkUrl(url, path);
  return url;
}

/** Go's net.JoinHostPort, which Alertmanager's HostPort prints with: an IPv6 host goes in brackets. */
function joinHostPort(host: string, port: string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
