/**
 * One receiver of an AlertmanagerConfig (monitoring.coreos.com/v1alpha1) → the receiver in Alertmanager's own
 * configuration format (`name`, `webhook_configs`, `slack_configs`, ...), converted field by field as
 * prometheus-operator v0.93 converts it (pkg/alertmanager/amcfg.go), with the checks its admission validation and
 * its version sanitizing make, so a receiver Alertmanager would refuse is reported on its own object instead of
 * breaking the whole Alertmanager configuration.
 *
 * Pure: Secrets are read through the namespace-confined SecretStore and their values inlined (the generated
 * configuration is stored in a Secret, as upstream's is). A missing Secret or key, or an invalid field, becomes a
 * problem with the field path; the field is then left out. Messages never contain a Secret's value.
 *
 * TLS material (tlsConfig ca, cert, keySecret) read from the object's namespace becomes files of the generated
 * configuration Secret (`context.tlsAssets`, named as upstream names them), beside alertmanager.yaml in
 * ALERTMANAGER_CONFIG_DIR, and the configuration points at them; it is parsed first, so a CA that is no
 * certificate or a key that does not match its certificate is reported on the object instead of failing the
 * reload of every team's configuration.
 *
 * Keys are emitted in the order of upstream's Alertmanager config structs; maps (details, headers, attributes…)
 * in Go's sorted order; empty and unset values are left out.
 */
import type { AlertmanagerConfigReceiver, ConfigMapKeySelector, OAuth2, SafeTLSConfig, SecretKeySelector } from '@promop/crds';
import { parseDuration } from '@promop/prometheus-lang';
import type { Findings } from '../findings.ts';
import { compareCodePoints, sortedByKey } from '../go-map-order.ts';
import type { SecretStore } from '../secret-store.ts';
import { keyPath } from '../values/field-path.ts';
import { goUrlHostError } from '../values/go-url.ts';
import { parseCertificate, parsePrivateKey } from '../http-client/index.ts';
import { ALERTMANAGER_CONFIG_DIR, tlsAssetFileName } from '../pod-layout.ts';
import { formatModelDuration } from './model-duration.ts';
import { shownValue } from './shown-value.ts';

/** What rendering one receiver needs. */
export interface ReceiverContext {
  /** The AlertmanagerConfig's namespace: every Secret/ConfigMap is read from it only. */
  namespace: string;
  /** The field path of this receiver, e.g. `spec.receivers[2]`, for findings. */
  path: string;
  secrets: SecretStore;
  findings: Findings;
  /** The receiver name as written in the generated config (the caller computes `<namespace>/<object>/<receiver>`). */
  name: string;
  /**
   * The `global` section of the configuration the receiver goes into, when known: a notifier without a field
   * Alertmanager takes from it (an SMTP smarthost, a Slack URL, an API key…) is a problem unless it is there,
   * since Alertmanager would refuse the whole file. Undefined: not checked.
   */
  globals?: Readonly<Record<string, unknown>>;
  /** Where TLS material goes: file name → content (the caller keeps it only if the object is accepted). */
  tlsAssets: Record<string, string>;
}

type Receiver = AlertmanagerConfigReceiver;
type Item<K extends keyof Receiver> = NonNullable<Receiver[K]>[number];
type HttpConfig = NonNullable<Item<'webhookConfigs'>['httpConfig']>;
type KeyValue = NonNullable<Item<'pagerdutyConfigs'>['details']>[number];
type ProxyFields = Pick<HttpConfig, 'proxyUrl' | 'noProxy' | 'proxyFromEnvironment' | 'proxyConnectHeader'>;
type Output = Record<string, unknown>;

/** VictorOps fields Alertmanager sets itself; a custom field cannot take their names. */
const VICTOROPS_RESERVED_FIELDS = new Set(['routing_key', 'message_type', 'state_message', 'entity_display_name', 'monitoring_tool', 'entity_id', 'entity_state']);
const OPSGENIE_RESPONDER_TYPES = new Set(['team', 'teams', 'user', 'escalation', 'schedule']);
const TLS_VERSIONS = ['TLS10', 'TLS11', 'TLS12', 'TLS13'];
/** An email header name: printable ASCII without space or colon (RFC 5322 field name). */
const HEADER_NAME = /^[\x21-\x39\x3b-\x7e]+$/;
/** The only api_url Slack accepts message updates on (they need a bot token, not a webhook). */
const SLACK_POST_MESSAGE_URL = 'https://slack.com/api/chat.postMessage';

/**
 * The receiver as Alertmanager's configuration writes it. Problems go to `context.findings`; the caller rejects
 * the AlertmanagerConfig when there are any (the returned object then lacks the fields that had them).
 */
export function renderReceiver(receiver: AlertmanagerConfigReceiver, context: ReceiverContext): Record<string, unknown> {
  const r = new ReceiverRenderer(context);
  const p = context.path;
  return compact({
    name: context.name,
    opsgenie_configs: r.each(receiver.opsgenieConfigs, `${p}.opsgenieConfigs`, (c, at) => r.opsgenie(c, at)),
    pagerduty_configs: r.each(receiver.pagerdutyConfigs, `${p}.pagerdutyConfigs`, (c, at) => r.pagerduty(c, at)),
    slack_configs: r.each(receiver.slackConfigs, `${p}.slackConfigs`, (c, at) => r.slack(c, at)),
    webhook_configs: r.each(receiver.webhookConfigs, `${p}.webhookConfigs`, (c, at) => r.webhook(c, at)),
    wechat_configs: r.each(receiver.wechatConfigs, `${p}.wechatConfigs`, (c, at) => r.wechat(c, at)),
    email_configs: r.each(receiver.emailConfigs, `${p}.emailConfigs`, (c, at) => r.email(c, at)),
    pushover_configs: r.each(receiver.pushoverConfigs, `${p}.pushoverConfigs`, (c, at) => r.pushover(c, at)),
    victorops_configs: r.each(receiver.victoropsConfigs, `${p}.victoropsConfigs`, (c, at) => r.victorops(c, at)),
    sns_configs: r.each(receiver.snsConfigs, `${p}.snsConfigs`, (c, at) => r.sns(c, at)),
    telegram_configs: r.each(receiver.telegramConfigs, `${p}.telegramConfigs`, (c, at) => r.telegram(c, at)),
    discord_configs: r.each(receiver.discordConfigs, `${p}.discordConfigs`, (c, at) => r.discord(c, at)),
    webex_configs: r.each(receiver.webexConfigs, `${p}.webexConfigs`, (c, at) => r.webex(c, at)),
    msteams_configs: r.each(receiver.msteamsConfigs, `${p}.msteamsConfigs`, (c, at) => r.msteams(c, at)),
    msteamsv2_configs: r.each(receiver.msteamsv2Configs, `${p}.msteamsv2Configs`, (c, at) => r.msteamsv2(c, at)),
    rocketchat_configs: r.each(receiver.rocketchatConfigs, `${p}.rocketchatConfigs`, (c, at) => r.rocketchat(c, at)),
  });
}

/** The pieces of a receiver's rendering that Alertmanager's `global` section shares (its HTTP client, TLS, Secrets and URLs). */
export interface SharedRenderers {
  httpConfig(http: HttpConfig | undefined, path: string): Record<string, unknown> | undefined;
  tlsConfig(tls: SafeTLSConfig | undefined, path: string): Record<string, unknown> | undefined;
  /** A Secret key's value (a problem when it is missing). */
  secret(ref: SecretKeySelector | undefined, path: string): string | undefined;
  /** A URL from a Secret, checked as Alertmanager parses it; `trim` drops surrounding white space first. */
  secretUrl(ref: SecretKeySelector | undefined, path: string, trim: boolean): string | undefined;
  /** A problem when `url` is not an http(s) URL Alertmanager can use. */
  checkUrl(url: string | undefined, path: string): void;
}

/**
 * The receiver renderers that also serve Alertmanager's `global` section, reading Secrets from `context.namespace`
 * only, with the same checks and output as in a receiver.
 */
export function sharedRenderers(context: Pick<ReceiverContext, 'namespace' | 'secrets' | 'findings' | 'tlsAssets'>): SharedRenderers {
  return new ReceiverRenderer({ ...context, path: '', name: '' });
}

class ReceiverRenderer implements SharedRenderers {
  private readonly context: ReceiverContext;

  constructor(context: ReceiverContext) {
    this.context = context;
  }

  /** A problem at `path` when the field is unset and the configuration's global section has none of `globalKeys`. */
  needsGlobal(value: unknown, path: string, globalKeys: readonly string[], what: string): void {
    const globals = this.context.globals;
    if (globals === undefined || (value !== undefined && value !== '')) return;
    if (globalKeys.some((key) => typeof globals[key] === 'string' && globals[key] !== '')) return;
    this.problem(path, `${what} is required: the platform's configuration has no global ${globalKeys.join(' or ')} to fall back on`);
  }

  each<T>(items: readonly T[] | undefined, path: string, render: (item: T, at: string) => Output): Output[] | undefined {
    return items?.map((item, i) => render(item, `${path}[${i}]`));
  }

  opsgenie(c: Item<'opsgenieConfigs'>, p: string): Output {
    this.needsGlobal(c.apiKey, `${p}.apiKey`, ['opsgenie_api_key', 'opsgenie_api_key_file'], 'apiKey');
    this.checkUrl(c.apiURL, `${p}.apiURL`);
    const responders = (c.responders ?? []).map((responder, j) => {
      const at = `${p}.responders[${j}]`;
      if (!responder.id && !responder.name && !responder.username) this.problem(at, 'a responder needs one of id, name or username');
      if (!responder.type.includes('{{') && !OPSGENIE_RESPONDER_TYPES.has(responder.type.toLowerCase())) {
        this.problem(`${at}.type`, `"${responder.type}" is not a responder type: team, teams, user, escalation or schedule`);
      }
      return compact({ id: responder.id, name: responder.name, username: responder.username, type: responder.type });
    });
    return compact({
      send_resolved: c.sendResolved,
      http_config: this.httpConfig(c.httpConfig, `${p}.httpConfig`),
      api_key: this.secret(c.apiKey, `${p}.apiKey`),
      api_url: c.apiURL,
      message: c.message,
      description: c.description,
      source: c.source,
      details: keyValues(c.details),
      responders,
      tags: c.tags,
      note: c.note,
      priority: c.priority,
      update_alerts: c.updateAlerts,
      entity: c.entity,
      actions: c.actions,
    });
  }

  pagerduty(c: Item<'pagerdutyConfigs'>, p: string): Output {
    this.checkUrl(c.url, `${p}.url`);
    this.checkTemplateUrl(c.clientURL, `${p}.clientURL`);
    if (!c.routingKey && !c.serviceKey) this.problem(p, 'one of routingKey or serviceKey is required');
    const images = (c.pagerDutyImageConfigs ?? []).map((image, j) => {
      this.checkTemplateUrl(image.href, `${p}.pagerDutyImageConfigs[${j}].href`);
      return compact({ src: image.src, alt: image.alt, href: image.href });
    });
    const links = (c.pagerDutyLinkConfigs ?? []).map((link, j) => {
      this.checkTemplateUrl(link.href, `${p}.pagerDutyLinkConfigs[${j}].href`);
      return compact({ href: link.href, text: link.alt });
    });
    return compact({
      send_resolved: c.sendResolved,
      http_config: this.httpConfig(c.httpConfig, `${p}.httpConfig`),
      service_key: this.secret(c.serviceKey, `${p}.serviceKey`),
      routing_key: this.secret(c.routingKey, `${p}.routingKey`),
      url: c.url,
      client: c.client,
      client_url: c.clientURL,
      description: c.description,
      details: keyValues(c.details),
      images,
      links,
      severity: c.severity,
      class: c.class,
      component: c.component,
      group: c.group,
      source: c.source,
      timeout: this.duration(c.timeout, `${p}.timeout`),
    });
  }

  slack(c: Item<'slackConfigs'>, p: string): Output {
    this.needsGlobal(c.apiURL, `${p}.apiURL`, ['slack_api_url', 'slack_api_url_file'], 'apiURL');
    const apiUrl = this.secretUrl(c.apiURL, `${p}.apiURL`, true);
    if (c.updateMessage === true && apiUrl !== undefined && apiUrl !== SLACK_POST_MESSAGE_URL) {
      this.problem(`${p}.updateMessage`, `updateMessage needs a bot token: apiURL must be ${SLACK_POST_MESSAGE_URL}, not a webhook URL`);
    }
    const actions = (c.actions ?? []).map((action, j) => {
      const at = `${p}.actions[${j}]`;
      if (!action.type) this.problem(`${at}.type`, 'a Slack action needs a type');
      if (!action.text) this.problem(`${at}.text`, 'a Slack action needs a text');
      if (!action.url && !action.name) this.problem(at, 'a Slack action needs a name or a url');
      if (action.confirm && !action.confirm.text) this.problem(`${at}.confirm.text`, 'a Slack confirmation needs a text');
      const confirm = action.confirm && compact({ text: action.confirm.text, title: action.confirm.title, ok_text: action.confirm.okText, dismiss_text: action.confirm.dismissText });
      return compact({ type: action.type, text: action.text, url: action.url, style: action.style, name: action.name, value: action.value, confirm });
    });
    const fields = (c.fields ?? []).map((field, j) => {
      const at = `${p}.fields[${j}]`;
      if (!field.title) this.problem(`${at}.title`, 'a Slack field needs a title');
      if (!field.value) this.problem(`${at}.value`, 'a Slack field needs a value');
      return compact({ title: field.title, value: field.value, short: field.short === true ? true : undefined });
    });
    return compact({
      send_resolved: c.sendResolved,
      http_config: this.httpConfig(c.httpConfig, `${p}.httpConfig`),
      api_url: apiUrl,
      channel: c.channel,
      username: c.username,
      color: c.color,
      title: c.title,
      title_link: c.titleLink,
      pretext: c.pretext,
      text: c.text,
      fields,
      short_fields: c.shortFields === true ? true : undefined,
      footer: c.footer,
      fallback: c.fallback,
      callback_id: c.callbackId,
      icon_emoji: c.iconEmoji,
      icon_url: c.iconURL,
      image_url: c.imageURL,
      thumb_url: c.thumbURL,
      link_names: c.linkNames === true ? true : undefined,
      mrkdwn_in: c.mrkdwnIn ? [...c.mrkdwnIn] : undefined,
      actions,
      timeout: this.duration(c.timeout, `${p}.timeout`),
      message_text: c.messageText,
      update_message: c.updateMessage,
    });
  }

  webhook(c: Item<'webhookConfigs'>, p: string): Output {
    if (!c.url && c.urlSecret === undefined) this.problem(c.url === '' ? `${p}.url` : p, 'one of url or urlSecret is required');
    // urlSecret wins over url, as upstream.
    let url = c.urlSecret ? this.secretUrl(c.urlSecret, `${p}.urlSecret`, false) : c.url;
    if (!c.urlSecret) this.checkTemplateUrl(c.url, `${p}.url`);
    // Alertmanager parses a webhook URL with {{ as a Go template when it loads the file: one it cannot parse (an
    // unclosed action, a function text/template does not know) would make it refuse every team's configuration.
    const templateError = url === undefined ? undefined : webhookTemplateError(url);
    if (templateError !== undefined) {
      if (c.urlSecret) this.problem(`${p}.urlSecret`, `key "${c.urlSecret.key}" of Secret "${c.urlSecret.name ?? ''}" holds a templated URL promop cannot pass on: ${templateError}`);
      else this.problem(`${p}.url`, `${JSON.stringify(url)} is a templated URL promop cannot pass on: ${templateError}`);
      url = undefined;
    }
    return compact({
      send_resolved: c.sendResolved,
      url,
      http_config: this.httpConfig(c.httpConfig, `${p}.httpConfig`),
      max_alerts: c.maxAlerts !== undefined && c.maxAlerts > 0 ? c.maxAlerts : undefined,
      timeout: this.duration(c.timeout, `${p}.timeout`),
      payload: c.payload,
    });
  }

  wechat(c: Item<'wechatConfigs'>, p: string): Output {
    this.checkUrl(c.apiURL, `${p}.apiURL`);
    this.needsGlobal(c.apiSecret, `${p}.apiSecret`, ['wechat_api_secret', 'wechat_api_secret_file'], 'apiSecret');
    this.needsGlobal(c.corpID, `${p}.corpID`, ['wechat_api_corp_id'], 'corpID');
    // Alertmanager refuses any other message type when it loads the file.
    if (c.messageType !== undefined && c.messageType !== '' && c.messageType !== 'text' && c.messageType !== 'markdown') {
      this.problem(`${p}.messageType`, `${JSON.stringify(c.messageType)} is not a WeChat message type: text or markdown`);
    }
    return compact({
      send_resolved: c.sendResolved,
      api_secret: this.secret(c.apiSecret, `${p}.apiSecret`),
      api_url: c.apiURL,
      corp_id: c.corpID,
      agent_id: c.agentID,
      to_user: c.toUser,
      to_party: c.toParty,
      to_tag: c.toTag,
      message: c.message,
      message_type: c.messageType,
      http_config: this.httpConfig(c.httpConfig, `${p}.httpConfig`),
    });
  }

  email(c: Item<'emailConfigs'>, p: string): Output {
    if (!c.to) this.problem(`${p}.to`, 'an email notifier needs a to address');
    this.needsGlobal(c.smarthost, `${p}.smarthost`, ['smtp_smarthost'], 'smarthost');
    this.needsGlobal(c.from, `${p}.from`, ['smtp_from'], 'from');
    if (c.smarthost) {
      const error = splitHostPortError(c.smarthost);
      if (error) this.problem(`${p}.smarthost`, `${shownValue(c.smarthost)} is not a host:port address: ${error}`);
    }
    const seen = new Set<string>();
    (c.headers ?? []).forEach((header, j) => {
      const name = header.key.toLowerCase();
      // A line break would start another header of the team's choosing (Bcc, say); a header name is an RFC 5322 token.
      if (!HEADER_NAME.test(header.key)) this.problem(`${p}.headers[${j}].key`, `${shownValue(header.key)} is not a header name (printable ASCII but spaces and colons)`);
      if (/[\r\n]/.test(header.value)) this.problem(`${p}.headers[${j}].value`, 'a header value cannot hold a line break');
      if (seen.has(name)) this.problem(`${p}.headers[${j}].key`, `duplicate header ${shownValue(name)} (header names ignore case)`);
      seen.add(name);
    });
    const threadByDate = c.threading ? { Daily: 'daily', None: 'none' }[c.threading.threadByDate] : undefined;
    if (c.threading && threadByDate === undefined) this.problem(`${p}.threading.threadByDate`, 'threadByDate must be Daily or None');
    return compact({
      send_resolved: c.sendResolved,
      to: c.to,
      from: c.from,
      hello: c.hello,
      smarthost: c.smarthost,
      auth_username: c.authUsername,
      auth_password: this.secret(c.authPassword, `${p}.authPassword`),
      auth_secret: this.secret(c.authSecret, `${p}.authSecret`),
      auth_identity: c.authIdentity,
      headers: keyValues(c.headers),
      html: c.html,
      text: c.text,
      require_tls: c.requireTLS,
      tls_config: this.tlsConfig(c.tlsConfig, `${p}.tlsConfig`),
      force_implicit_tls: c.forceImplicitTLS,
      threading: threadByDate === undefined ? undefined : { enabled: true, thread_by_date: threadByDate },
    });
  }

  /**
   * A `...File` field names a file of the Alertmanager container, which holds the generated configuration with
   * every team's credentials: with a URL of its choosing (Telegram's apiURL) a team could send that file anywhere.
   * prometheus-operator passes these fields through; promop refuses them (docs/compatibility.md).
   */
  refuseFile(file: string | undefined, path: string, secretField: string): void {
    if (file !== undefined) this.problem(path, `reads a file of the Alertmanager container, where every team's credentials are; give the value from a Secret of this namespace with ${secretField}`);
  }

  pushover(c: Item<'pushoverConfigs'>, p: string): Output {
    this.refuseFile(c.userKeyFile, `${p}.userKeyFile`, 'userKey');
    this.refuseFile(c.tokenFile, `${p}.tokenFile`, 'token');
    if (!c.userKey && !c.userKeyFile) this.problem(p, 'one of userKey or userKeyFile is required');
    if (!c.token && !c.tokenFile) this.problem(p, 'one of token or tokenFile is required');
    if (c.html === true && c.monospace === true) this.problem(p, 'html and monospace cannot both be set');
    this.checkTemplateUrl(c.url, `${p}.url`);
    const userKey = this.nonEmptySecret(c.userKey, `${p}.userKey`);
    const token = this.nonEmptySecret(c.token, `${p}.token`);
    return compact({
      send_resolved: c.sendResolved,
      http_config: this.httpConfig(c.httpConfig, `${p}.httpConfig`),
      user_key: userKey,
      token,
      title: c.title,
      message: c.message,
      url: c.url,
      url_title: c.urlTitle,
      ttl: c.ttl,
      device: c.device,
      sound: c.sound,
      priority: c.priority,
      retry: this.duration(c.retry, `${p}.retry`),
      expire: this.duration(c.expire, `${p}.expire`),
      html: c.html,
      monospace: c.monospace,
    });
  }

  victorops(c: Item<'victoropsConfigs'>, p: string): Output {
    (c.customFields ?? []).forEach((field, j) => {
      if (VICTOROPS_RESERVED_FIELDS.has(field.key)) this.problem(`${p}.customFields[${j}].key`, `"${field.key}" is set by Alertmanager itself and cannot be a custom field`);
    });
    if (!c.routingKey) this.problem(`${p}.routingKey`, 'a VictorOps notifier needs a routingKey');
    this.needsGlobal(c.apiKey, `${p}.apiKey`, ['victorops_api_key', 'victorops_api_key_file'], 'apiKey');
    this.checkUrl(c.apiUrl, `${p}.apiUrl`);
    return compact({
      send_resolved: c.sendResolved,
      http_config: this.httpConfig(c.httpConfig, `${p}.httpConfig`),
      api_key: this.secret(c.apiKey, `${p}.apiKey`),
      api_url: c.apiUrl,
      routing_key: c.routingKey,
      message_type: c.messageType,
      state_message: c.stateMessage,
      entity_display_name: c.entityDisplayName,
      monitoring_tool: c.monitoringTool,
      custom_fields: keyValues(c.customFields),
    });
  }

  sns(c: Item<'snsConfigs'>, p: string): Output {
    const targets = [c.topicARN, c.phoneNumber, c.targetARN].filter((target) => target !== undefined && target !== '');
    if (targets.length !== 1) this.problem(p, 'set exactly one of topicARN, phoneNumber or targetARN');
    this.checkTemplateUrl(c.apiURL, `${p}.apiURL`);
    let sigv4: Output | undefined;
    if (c.sigv4) {
      const s = c.sigv4;
      if (s.externalId && !s.roleArn) this.problem(`${p}.sigv4.externalId`, 'externalId needs roleArn');
      // Upstream reads the keys only as a pair; one without the other is ignored (the AWS environment then decides).
      const withKeys = s.accessKey !== undefined && s.secretKey !== undefined;
      if (!withKeys && (s.accessKey || s.secretKey)) this.warn(`${p}.sigv4: accessKey and secretKey are used only together; the one given is ignored`);
      if (s.useFIPSSTSEndpoint !== undefined) this.warn(`${p}.sigv4.useFIPSSTSEndpoint: ignored, Alertmanager's SNS notifier has no such setting`);
      sigv4 = compact({
        region: s.region,
        access_key: withKeys ? this.secret(s.accessKey, `${p}.sigv4.accessKey`) : undefined,
        secret_key: withKeys ? this.secret(s.secretKey, `${p}.sigv4.secretKey`) : undefined,
        profile: s.profile,
        role_arn: s.roleArn,
        external_id: s.externalId,
      });
    }
    return compact({
      send_resolved: c.sendResolved,
      http_config: this.httpConfig(c.httpConfig, `${p}.httpConfig`),
      api_url: c.apiURL,
      sigv4,
      topic_arn: c.topicARN,
      phone_number: c.phoneNumber,
      target_arn: c.targetARN,
      subject: c.subject,
      message: c.message,
      attributes: c.attributes ? sortedByKey(c.attributes) : undefined,
      use_aws_http_client: c.useAWSHTTPClient === true ? true : undefined,
    });
  }

  telegram(c: Item<'telegramConfigs'>, p: string): Output {
    this.refuseFile(c.botTokenFile, `${p}.botTokenFile`, 'botToken');
    if (!c.botToken && c.botTokenFile === undefined) this.problem(p, 'one of botToken or botTokenFile is required');
    if (c.botToken && c.botTokenFile !== undefined) this.problem(p, 'botToken and botTokenFile cannot both be set');
    if (!c.chatID) this.problem(`${p}.chatID`, 'a Telegram notifier needs a chatID');
    this.checkUrl(c.apiURL, `${p}.apiURL`);
    return compact({
      send_resolved: c.sendResolved,
      api_url: c.apiURL,
      bot_token: this.nonEmptySecret(c.botToken, `${p}.botToken`),
      chat_id: c.chatID || undefined,
      message_thread_id: c.messageThreadID || undefined,
      message: c.message,
      disable_notifications: c.disableNotifications === true ? true : undefined,
      parse_mode: c.parseMode,
      http_config: this.httpConfig(c.httpConfig, `${p}.httpConfig`),
    });
  }

  discord(c: Item<'discordConfigs'>, p: string): Output {
    return compact({
      send_resolved: c.sendResolved,
      http_config: this.httpConfig(c.httpConfig, `${p}.httpConfig`),
      webhook_url: this.secretUrl(c.apiURL, `${p}.apiURL`, true),
      title: c.title,
      message: c.message,
      content: c.content,
      username: c.username,
      avatar_url: c.avatarURL,
    });
  }

  webex(c: Item<'webexConfigs'>, p: string): Output {
    if (!c.roomID) this.problem(`${p}.roomID`, 'a Webex notifier needs a roomID');
    // Alertmanager refuses a Webex notifier without the bot token it sends as the Authorization header.
    if (!c.httpConfig?.authorization) this.problem(`${p}.httpConfig.authorization`, 'a Webex notifier needs httpConfig.authorization with the bot token in credentials');
    this.checkUrl(c.apiURL, `${p}.apiURL`);
    return compact({
      send_resolved: c.sendResolved,
      http_config: this.httpConfig(c.httpConfig, `${p}.httpConfig`),
      api_url: c.apiURL,
      message: c.message,
      room_id: c.roomID,
    });
  }

  msteams(c: Item<'msteamsConfigs'>, p: string): Output {
    return compact({
      send_resolved: c.sendResolved,
      webhook_url: this.secretUrl(c.webhookUrl, `${p}.webhookUrl`, false),
      title: c.title,
      summary: c.summary,
      text: c.text,
      http_config: this.httpConfig(c.httpConfig, `${p}.httpConfig`),
    });
  }

  msteamsv2(c: Item<'msteamsv2Configs'>, p: string): Output {
    if (!c.webhookURL) this.problem(`${p}.webhookURL`, 'a Microsoft Teams v2 notifier needs a webhookURL');
    return compact({
      send_resolved: c.sendResolved,
      webhook_url: this.secretUrl(c.webhookURL, `${p}.webhookURL`, false),
      title: c.title,
      text: c.text,
      http_config: this.httpConfig(c.httpConfig, `${p}.httpConfig`),
    });
  }

  rocketchat(c: Item<'rocketchatConfigs'>, p: string): Output {
    this.checkUrl(c.apiURL, `${p}.apiURL`);
    this.checkTemplateUrl(c.iconURL, `${p}.iconURL`);
    this.checkTemplateUrl(c.imageURL, `${p}.imageURL`);
    this.checkTemplateUrl(c.thumbURL, `${p}.thumbURL`);
    const actions = (c.actions ?? []).map((action, j) => {
      this.checkTemplateUrl(action.url, `${p}.actions[${j}].url`);
      return compact({ text: action.text, url: action.url, msg: action.msg });
    });
    return compact({
      send_resolved: c.sendResolved,
      http_config: this.httpConfig(c.httpConfig, `${p}.httpConfig`),
      api_url: c.apiURL,
      token_id: this.secret(c.tokenID, `${p}.tokenID`),
      token: this.secret(c.token, `${p}.token`),
      channel: c.channel,
      color: c.color,
      title: c.title,
      title_link: c.titleLink,
      text: c.text,
      fields: (c.fields ?? []).map((field) => compact({ short: field.short, title: field.title, value: field.value })),
      short_fields: c.shortFields,
      emoji: c.emoji,
      icon_url: c.iconURL,
      image_url: c.imageURL,
      thumb_url: c.thumbURL,
      link_names: c.linkNames,
      actions,
    });
  }

  /** The shared HTTP client (convertHTTPConfig), after the checks of upstream's HTTPConfig.Validate. */
  httpConfig(http: HttpConfig | undefined, p: string): Output | undefined {
    if (!http) return undefined;
    const methods = (['authorization', 'basicAuth', 'oauth2', 'bearerTokenSecret'] as const).filter((method) => http[method] !== undefined);
    if (methods.length > 1) this.problem(p, `only one authentication method can be set, found ${methods.join(' and ')}`);

    let authorization: Output | undefined;
    if (http.authorization) {
      const at = `${p}.authorization`;
      const type = http.authorization.type ?? '';
      if (type.trim().toLowerCase() === 'basic') this.problem(`${at}.type`, 'authorization type "Basic" is not allowed; use basicAuth instead');
      if (!http.authorization.credentials) this.problem(`${at}.credentials`, 'authorization needs credentials (a Secret key)');
      const credentials = this.secret(http.authorization.credentials, `${at}.credentials`);
      if (credentials) authorization = { type: type || 'Bearer', credentials };
    }

    let basicAuth: Output | undefined;
    if (http.basicAuth) {
      const at = `${p}.basicAuth`;
      if (!http.basicAuth.username) this.problem(`${at}.username`, 'basicAuth needs a username (a Secret key)');
      if (!http.basicAuth.password) this.problem(`${at}.password`, 'basicAuth needs a password (a Secret key)');
      const username = this.secret(http.basicAuth.username, `${at}.username`) ?? '';
      const password = this.secret(http.basicAuth.password, `${at}.password`) ?? '';
      if (username || password) basicAuth = compact({ username, password });
    }

    const proxy = this.proxy({ ...http, proxyUrl: http.proxyURL || http.proxyUrl }, http.proxyURL ? `${p}.proxyURL` : `${p}.proxyUrl`, p);
    return compact({
      authorization,
      basic_auth: basicAuth,
      oauth2: http.oauth2 && this.oauth2(http.oauth2, `${p}.oauth2`),
      bearer_token: this.secret(http.bearerTokenSecret, `${p}.bearerTokenSecret`),
      tls_config: this.tlsConfig(http.tlsConfig, `${p}.tlsConfig`),
      follow_redirects: http.followRedirects,
      enable_http2: http.enableHttp2,
      ...proxy,
    });
  }

  private oauth2(oauth2: OAuth2, p: string): Output {
    if (!oauth2.tokenUrl) this.problem(`${p}.tokenUrl`, 'oauth2 needs a tokenUrl');
    const { secret, configMap } = oauth2.clientId ?? {};
    if (!secret && !configMap) this.problem(`${p}.clientId`, 'oauth2 needs a clientId from a Secret or a ConfigMap');
    if (secret && configMap) this.problem(`${p}.clientId`, 'clientId takes a Secret or a ConfigMap, not both');
    const clientId = secret ? this.secret(secret, `${p}.clientId.secret`) : this.configMapValue(configMap, `${p}.clientId.configMap`);
    // Upstream does not pass the OAuth2 tlsConfig to Alertmanager; promop does the same and says so.
    if (oauth2.tlsConfig) this.warn(`${p}.tlsConfig: ignored, as prometheus-operator ignores it for Alertmanager receivers`);
    return compact({
      client_id: clientId ?? '',
      client_secret: this.secret(oauth2.clientSecret, `${p}.clientSecret`) ?? '',
      scopes: oauth2.scopes ? [...oauth2.scopes] : undefined,
      token_url: oauth2.tokenUrl ?? '',
      endpoint_params: oauth2.endpointParams ? sortedByKey(oauth2.endpointParams) : undefined,
      ...this.proxy(oauth2, `${p}.proxyUrl`, p),
    });
  }

  /** Proxy fields with the rules Alertmanager applies when it loads them; `urlPath` is the field the URL came from. */
  private proxy(spec: ProxyFields, urlPath: string, p: string): Output {
    const proxyUrl = spec.proxyUrl || undefined;
    const fromEnvironment = spec.proxyFromEnvironment === true;
    const headerNames = Object.keys(spec.proxyConnectHeader ?? {}).sort(compareCodePoints);
    if (proxyUrl !== undefined) {
      const reason = urlReason(proxyUrl, ['http', 'https', 'socks5']);
      if (reason) this.problem(urlPath, `"${proxyUrl}" is not a proxy URL Alertmanager can use: ${reason}`);
    }
    if (headerNames.length > 0 && !fromEnvironment && proxyUrl === undefined) this.problem(`${p}.proxyConnectHeader`, 'proxyConnectHeader needs proxyUrl or proxyFromEnvironment');
    if (fromEnvironment && proxyUrl !== undefined) this.problem(p, 'proxyUrl and proxyFromEnvironment cannot both be set');
    if (fromEnvironment && spec.noProxy) this.problem(`${p}.noProxy`, 'noProxy cannot be used with proxyFromEnvironment (the environment decides)');
    if (spec.noProxy && proxyUrl === undefined && !fromEnvironment) this.problem(`${p}.noProxy`, 'noProxy needs proxyUrl');
    let headers: Record<string, string[]> | undefined;
    for (const name of headerNames) {
      const at = keyPath(`${p}.proxyConnectHeader`, name);
      const refs = spec.proxyConnectHeader?.[name] ?? [];
      if (refs.length === 0) this.problem(at, 'a proxy connect header needs at least one Secret key for its value');
      headers ??= {};
      headers[name] = refs.map((ref, i) => this.secret(ref, `${at}[${i}]`) ?? '');
    }
    return compact({
      proxy_url: proxyUrl,
      no_proxy: spec.noProxy,
      proxy_from_environment: fromEnvironment ? true : undefined,
      proxy_connect_header: headers,
    });
  }

  /** `tls_config`: TLS material from Secrets or ConfigMaps becomes files beside alertmanager.yaml. */
  tlsConfig(tls: SafeTLSConfig | undefined, p: string): Output | undefined {
    if (!tls) return undefined;
    const min = tls.minVersion === undefined ? -1 : TLS_VERSIONS.indexOf(tls.minVersion);
    const max = tls.maxVersion === undefined ? -1 : TLS_VERSIONS.indexOf(tls.maxVersion);
    if (min >= 0 && max >= 0 && max < min) this.problem(p, `maxVersion ${tls.maxVersion} is lower than minVersion ${tls.minVersion}`);
    const ca = this.tlsMaterial(tls.ca, `${p}.ca`);
    const cert = this.tlsMaterial(tls.cert, `${p}.cert`);
    const key = tls.keySecret ? this.tlsMaterial({ secret: tls.keySecret }, `${p}.keySecret`) : undefined;
    if (ca && !parseCertificate(ca.value)) this.problem(`${p}.ca`, 'does not hold a PEM-encoded certificate');
    const certificate = cert ? parseCertificate(cert.value) : undefined;
    if (cert && !certificate) this.problem(`${p}.cert`, 'does not hold a PEM-encoded certificate');
    const privateKey = key ? parsePrivateKey(key.value) : undefined;
    if (key && !privateKey) this.problem(`${p}.keySecret`, 'does not hold a PEM-encoded private key');
    if (certificate && privateKey && !certificate.checkPrivateKey(privateKey)) this.problem(`${p}.keySecret`, 'the private key does not match the client certificate');
    // Alertmanager refuses one without the other when it loads the file.
    const certSet = tls.cert?.secret !== undefined || tls.cert?.configMap !== undefined;
    if (certSet && tls.keySecret === undefined) this.problem(p, 'a client certificate (cert) needs a client key (keySecret)');
    if (!certSet && tls.keySecret !== undefined) this.problem(p, 'a client key (keySecret) needs a client certificate (cert)');
    return compact({
      ca_file: ca?.file,
      cert_file: cert?.file,
      key_file: key?.file,
      server_name: tls.serverName,
      insecure_skip_verify: tls.insecureSkipVerify,
      min_version: tls.minVersion,
      max_version: tls.maxVersion,
    });
  }

  /** The content of a Secret or ConfigMap key for a TLS file, recorded as a file of the configuration Secret. */
  private tlsMaterial(ref: SafeTLSConfig['ca'], p: string): { value: string; file: string } | undefined {
    if (!ref || (ref.secret === undefined && ref.configMap === undefined)) return undefined;
    if (ref.secret !== undefined && ref.configMap !== undefined) {
      this.problem(p, 'names both a Secret and a ConfigMap; give one');
      return undefined;
    }
    const source = ref.secret !== undefined ? 'secret' as const : 'configMap' as const;
    const selector = (ref.secret ?? ref.configMap)!;
    const value = source === 'secret' ? this.secret(ref.secret, `${p}.secret`) : this.configMapValue(ref.configMap, `${p}.configMap`);
    if (value === undefined) return undefined;
    const name = tlsAssetFileName(source, this.context.namespace, selector.name ?? '', selector.key);
    this.context.tlsAssets[name] = value;
    return { value, file: `${ALERTMANAGER_CONFIG_DIR}/${name}` };
  }

  /** A Secret key's value, or undefined (with a problem) when it is missing. `optional` does not make it so: upstream needs it. */
  secret(ref: SecretKeySelector | undefined, p: string): string | undefined {
    if (!ref) return undefined;
    const result = this.context.secrets.secretKey(this.context.namespace, ref.optional ? { ...ref, optional: false } : ref, p);
    if (!result.ok) {
      this.context.findings.add(result.problem);
      return undefined;
    }
    return result.value;
  }

  private configMapValue(ref: ConfigMapKeySelector | undefined, p: string): string | undefined {
    if (!ref) return undefined;
    const result = this.context.secrets.configMapKey(this.context.namespace, ref.optional ? { ...ref, optional: false } : ref, p);
    if (!result.ok) {
      this.context.findings.add(result.problem);
      return undefined;
    }
    return result.value;
  }

  /** A credential Alertmanager cannot use empty (Pushover keys, Telegram's bot token). */
  private nonEmptySecret(ref: SecretKeySelector | undefined, p: string): string | undefined {
    const value = this.secret(ref, p);
    if (ref && value === '') this.problem(p, `key "${ref.key}" of Secret "${ref.name ?? ''}" is empty`);
    return value || undefined;
  }

  /** A URL read from a Secret, checked as Alertmanager reads it; the message never shows it. */
  secretUrl(ref: SecretKeySelector | undefined, p: string, trim: boolean): string | undefined {
    const raw = this.secret(ref, p);
    if (raw === undefined || !ref) return undefined;
    const value = trim ? raw.trim() : raw;
    const reason = urlReason(value, ['http', 'https'], true);
    if (reason) {
      this.problem(p, `key "${ref.key}" of Secret "${ref.name ?? ''}" does not hold a URL Alertmanager can use: ${reason}`);
      return undefined;
    }
    return value;
  }

  /** An http(s) URL Alertmanager parses when it loads the configuration (upstream's ValidateURL). */
  checkUrl(url: string | undefined, p: string): void {
    if (!url) return;
    const reason = urlReason(url, ['http', 'https']);
    if (reason) this.problem(p, `"${url}" is not a URL Alertmanager can use: ${reason}`);
  }

  /** Like checkUrl, but a value with `{{` is a template Alertmanager expands when it sends, and is not checked here. */
  private checkTemplateUrl(url: string | undefined, p: string): void {
    if (url && !url.includes('{{')) this.checkUrl(url, p);
  }

  /** A Prometheus duration in model.Duration's own form (`90s` is written `1m30s`), as upstream writes it. */
  private duration(value: string | undefined, p: string): string | undefined {
    if (value === undefined || value === '') return undefined;
    const ms = parseDuration(value);
    if (ms === undefined) {
      this.problem(p, `"${value}" is not a duration like 30s or 1m`);
      return undefined;
    }
    return formatModelDuration(ms);
  }

  private problem(path: string, message: string): void {
    this.context.findings.problem(path, message);
  }

  private warn(message: string): void {
    this.context.findings.warn(message);
  }
}

/** A copy of `object` without undefined, null, empty strings, empty lists and empty mappings. */
function compact(object: Output): Output {
  const out: Output = {};
  for (const [key, value] of Object.entries(object)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) continue;
    out[key] = value;
  }
  return out;
}

/** Key/value pairs as a map in Go's key order; a later pair replaces an earlier one with the same key, as upstream. */
function keyValues(pairs: readonly KeyValue[] | undefined): Record<string, string> | undefined {
  if (!pairs || pairs.length === 0) return undefined;
  const map: Record<string, string> = {};
  for (const pair of pairs) map[pair.key] = pair.value;
  return sortedByKey(map);
}

/**
 * Why Alertmanager would refuse `url` (its config URL type: Go's url.Parse, an allowed scheme and a host), or
 * undefined. With `secret`, the reason names no part of the value.
 */
function urlReason(url: string, schemes: readonly string[], secret = false): string | undefined {
  // Upstream reads the value through a JSON string first: a quote, a backslash or a control character breaks it.
  if (/["\\\u0000-\u001f]/.test(url)) return 'it contains a quote, a backslash or a control character';
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  if (!scheme || !schemes.includes(scheme)) return `the scheme must be ${schemes.join(', ').replace(/, ([^,]*)$/, ' or $1')}`;
  const authority = url.slice(scheme.length + 1).startsWith('//') ? (url.slice(scheme.length + 3).split(/[/?#]/)[0] ?? '') : '';
  const host = authority.slice(authority.lastIndexOf('@') + 1).replace(/:\d*$/, '');
  if (host === '') return 'it has no host';
  const hostError = goUrlHostError(url);
  if (hostError) return secret ? 'Go cannot parse its host' : hostError;
  return undefined;
}

/** Go's net.SplitHostPort error for `address`, or undefined when it splits. */
function splitHostPortError(address: string): string | undefined {
  const colon = address.lastIndexOf(':');
  if (colon < 0) return 'missing port in address';
  if (address.startsWith('[')) {
    const end = address.indexOf(']');
    if (end < 0) return "missing ']' in address";
    if (end + 1 === address.length) return 'missing port in address';
    if (end + 1 !== colon) return address[end + 1] === ':' ? 'too many colons in address' : 'missing port in address';
    if (address.slice(1, end).includes('[')) return "unexpected '[' in address";
  } else {
    const host = address.slice(0, colon);
    if (host.includes(':')) return 'too many colons in address';
    if (host.includes('[')) return "unexpected '[' in address";
    if (host.includes(']')) return "unexpected ']' in address";
  }
  if (address.slice(colon + 1).includes(']')) return "unexpected ']' in address";
  // Alertmanager's HostPort also refuses an empty port.
  if (colon + 1 === address.length) return 'port cannot be empty';
  return undefined;
}

/**
 * The actions a templated webhook URL may hold: a field chain (`{{ .GroupLabels.team }}`) or `index` of one with a
 * quoted key (`{{ index .CommonLabels "team" }}`). Alertmanager parses the URL with Go's text/template and no
 * function of its own when it loads the file; these parse there whatever the data, and nothing else is checked.
 */
const FIELD_CHAIN = String.raw`\.(?:[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)?`;
const SAFE_ACTION = new RegExp(String.raw`^-?[ \t]*(?:${FIELD_CHAIN}|index[ \t]+${FIELD_CHAIN}[ \t]+"[A-Za-z0-9_.:/-]*")[ \t]*-?$`);

/** Why Alertmanager might not parse `url` as a template, or undefined (no `{{`, or only safe actions). */
function webhookTemplateError(url: string): string | undefined {
  if (!url.includes('{{')) return undefined;
  let at = 0;
  for (;;) {
    const open = url.indexOf('{{', at);
    const stray = url.indexOf('}}', at);
    if (stray >= 0 && (open < 0 || stray < open)) return 'a }} closes no {{';
    if (open < 0) return undefined;
    const close = url.indexOf('}}', open + 2);
    if (close < 0) return 'a {{ is not closed by }}';
    const action = url.slice(open + 2, close);
    // A - that trims spaces must stand apart from what follows it ("{{- .x -}}"); "{{-3}}" is a number.
    if (!SAFE_ACTION.test(action) || /^-[^ \t]/.test(action) || /[^ \t]-$/.test(action)) {
      return `only {{ .Field.Chain }} and {{ index .Field "key" }} actions are accepted, not {{${action.length > 40 ? `${action.slice(0, 40)}…` : action}}}`;
    }
    at = close + 2;
  }
}
