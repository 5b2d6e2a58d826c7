/**
 * The chat notifiers of a receiver (Slack, WeChat, Telegram, Discord, Webex, Microsoft Teams and Teams v2,
 * Rocket.Chat) → Alertmanager's `slack_configs`, `wechat_configs`, ... with the checks Alertmanager makes when it
 * loads them.
 */
import { compact, type NotifierSpec, type Output } from '../receiver-fields.ts';
import type { ReceiverRenderers } from '../receiver-renderers.ts';

/** The only api_url Slack accepts message updates on (they need a bot token, not a webhook). */
const SLACK_POST_MESSAGE_URL = 'https://slack.com/api/chat.postMessage';

/** A Slack notifier → an item of `slack_configs`. */
export function renderSlack(spec: NotifierSpec<'slackConfigs'>, path: string, r: ReceiverRenderers): Output {
  r.needsGlobal(spec.apiURL, `${path}.apiURL`, ['slack_api_url', 'slack_api_url_file'], 'apiURL');
  const apiUrl = r.secretUrl(spec.apiURL, `${path}.apiURL`, true);
  if (spec.updateMessage === true && apiUrl !== undefined && apiUrl !== SLACK_POST_MESSAGE_URL) {
    r.problem(`${path}.updateMessage`, `updateMessage needs a bot token: apiURL must be ${SLACK_POST_MESSAGE_URL}, not a webhook URL`);
  }
  const actions = (spec.actions ?? []).map((action, j) => {
    const at = `${path}.actions[${j}]`;
    if (!action.type) r.problem(`${at}.type`, 'a Slack action needs a type');
    if (!action.text) r.problem(`${at}.text`, 'a Slack action needs a text');
    if (!action.url && !action.name) r.problem(at, 'a Slack action needs a name or a url');
    if (action.confirm && !action.confirm.text) r.problem(`${at}.confirm.text`, 'a Slack confirmation needs a text');
    const confirm = action.confirm && compact({ text: action.confirm.text, title: action.confirm.title, ok_text: action.confirm.okText, dismiss_text: action.confirm.dismissText });
    return compact({ type: action.type, text: action.text, url: action.url, style: action.style, name: action.name, value: action.value, confirm });
  });
  const fields = (spec.fields ?? []).map((field, j) => {
    const at = `${path}.fields[${j}]`;
    if (!field.title) r.problem(`${at}.title`, 'a Slack field needs a title');
    if (!field.value) r.problem(`${at}.value`, 'a Slack field needs a value');
    return compact({ title: field.title, value: field.value, short: field.short === true ? true : undefined });
  });
  return compact({
    send_resolved: spec.sendResolved,
    http_config: r.httpConfig(spec.httpConfig, `${path}.httpConfig`),
    api_url: apiUrl,
    channel: spec.channel,
    username: spec.username,
    color: spec.color,
    title: spec.title,
    title_link: spec.titleLink,
    pretext: spec.pretext,
    text: spec.text,
    fields,
    short_fields: spec.shortFields === true ? true : undefined,
    footer: spec.footer,
    fallback: spec.fallback,
    callback_id: spec.callbackId,
    icon_emoji: spec.iconEmoji,
    icon_url: spec.iconURL,
    image_url: spec.imageURL,
    thumb_url: spec.thumbURL,
    link_names: spec.linkNames === true ? true : undefined,
    mrkdwn_in: spec.mrkdwnIn ? [...spec.mrkdwnIn] : undefined,
    actions,
    timeout: r.duration(spec.timeout, `${path}.timeout`),
    message_text: spec.messageText,
    update_message: spec.updateMessage,
  });
}

/** A WeChat notifier → an item of `wechat_configs`. */
export function renderWeChat(spec: NotifierSpec<'wechatConfigs'>, path: string, r: ReceiverRenderers): Output {
  r.checkUrl(spec.apiURL, `${path}.apiURL`);
  r.needsGlobal(spec.apiSecret, `${path}.apiSecret`, ['wechat_api_secret', 'wechat_api_secret_file'], 'apiSecret');
  r.needsGlobal(spec.corpID, `${path}.corpID`, ['wechat_api_corp_id'], 'corpID');
  // Alertmanager refuses any other message type when it loads the file.
  if (spec.messageType !== undefined && spec.messageType !== '' && spec.messageType !== 'text' && spec.messageType !== 'markdown') {
    r.problem(`${path}.messageType`, `${JSON.stringify(spec.messageType)} is not a WeChat message type: text or markdown`);
  }
  return compact({
    send_resolved: spec.sendResolved,
    api_secret: r.secret(spec.apiSecret, `${path}.apiSecret`),
    api_url: spec.apiURL,
    corp_id: spec.corpID,
    agent_id: spec.agentID,
    to_user: spec.toUser,
    to_party: spec.toParty,
    to_tag: spec.toTag,
    message: spec.message,
    message_type: spec.messageType,
    http_config: r.httpConfig(spec.httpConfig, `${path}.httpConfig`),
  });
}

/** A Telegram notifier → an item of `telegram_configs`. */
export function renderTelegram(spec: NotifierSpec<'telegramConfigs'>, path: string, r: ReceiverRenderers): Output {
  r.refuseFile(spec.botTokenFile, `${path}.botTokenFile`, 'botToken');
  if (!spec.botToken && spec.botTokenFile === undefined) r.problem(path, 'one of botToken or botTokenFile is required');
  if (spec.botToken && spec.botTokenFile !== undefined) r.problem(path, 'botToken and botTokenFile cannot both be set');
  if (!spec.chatID) r.problem(`${path}.chatID`, 'a Telegram notifier needs a chatID');
  r.checkUrl(spec.apiURL, `${path}.apiURL`);
  return compact({
    send_resolved: spec.sendResolved,
    api_url: spec.apiURL,
    bot_token: r.nonEmptySecret(spec.botToken, `${path}.botToken`),
    chat_id: spec.chatID || undefined,
    message_thread_id: spec.messageThreadID || undefined,
    message: spec.message,
    disable_notifications: spec.disableNotifications === true ? true : undefined,
    parse_mode: spec.parseMode,
    http_config: r.httpConfig(spec.httpConfig, `${path}.httpConfig`),
  });
}

/** A Discord notifier → an item of `discord_configs`. */
export function renderDiscord(spec: NotifierSpec<'discordConfigs'>, path: string, r: ReceiverRenderers): Output {
  return compact({
    send_resolved: spec.sendResolved,
    http_config: r.httpConfig(spec.httpConfig, `${path}.httpConfig`),
    webhook_url: r.secretUrl(spec.apiURL, `${path}.apiURL`, true),
    title: spec.title,
    message: spec.message,
    content: spec.content,
    username: spec.username,
    avatar_url: spec.avatarURL,
  });
}

/** A Webex notifier → an item of `webex_configs`. */
export function renderWebex(spec: NotifierSpec<'webexConfigs'>, path: string, r: ReceiverRenderers): Output {
  if (!spec.roomID) r.problem(`${path}.roomID`, 'a Webex notifier needs a roomID');
  // Alertmanager refuses a Webex notifier without the bot token it sends as the Authorization header.
  if (!spec.httpConfig?.authorization) r.problem(`${path}.httpConfig.authorization`, 'a Webex notifier needs httpConfig.authorization with the bot token in credentials');
  r.checkUrl(spec.apiURL, `${path}.apiURL`);
  return compact({
    send_resolved: spec.sendResolved,
    http_config: r.httpConfig(spec.httpConfig, `${path}.httpConfig`),
    api_url: spec.apiURL,
    message: spec.message,
    room_id: spec.roomID,
  });
}

/** A Microsoft Teams notifier → an item of `msteams_configs`. */
export function renderMsTeams(spec: NotifierSpec<'msteamsConfigs'>, path: string, r: ReceiverRenderers): Output {
  return compact({
    send_resolved: spec.sendResolved,
    webhook_url: r.secretUrl(spec.webhookUrl, `${path}.webhookUrl`, false),
    title: spec.title,
    summary: spec.summary,
    text: spec.text,
    http_config: r.httpConfig(spec.httpConfig, `${path}.httpConfig`),
  });
}

/** A Microsoft Teams v2 (Workflows) notifier → an item of `msteamsv2_configs`. */
export function renderMsTeamsV2(spec: NotifierSpec<'msteamsv2Configs'>, path: string, r: ReceiverRenderers): Output {
  if (!spec.webhookURL) r.problem(`${path}.webhookURL`, 'a Microsoft Teams v2 notifier needs a webhookURL');
  return compact({
    send_resolved: spec.sendResolved,
    webhook_url: r.secretUrl(spec.webhookURL, `${path}.webhookURL`, false),
    title: spec.title,
    text: spec.text,
    http_config: r.httpConfig(spec.httpConfig, `${path}.httpConfig`),
  });
}

/** A Rocket.Chat notifier → an item of `rocketchat_configs`. */
export function renderRocketChat(spec: NotifierSpec<'rocketchatConfigs'>, path: string, r: ReceiverRenderers): Output {
  r.checkUrl(spec.apiURL, `${path}.apiURL`);
  r.checkTemplateUrl(spec.iconURL, `${path}.iconURL`);
  r.checkTemplateUrl(spec.imageURL, `${path}.imageURL`);
  r.checkTemplateUrl(spec.thumbURL, `${path}.thumbURL`);
  const actions = (spec.actions ?? []).map((action, j) => {
    r.checkTemplateUrl(action.url, `${path}.actions[${j}].url`);
    return compact({ text: action.text, url: action.url, msg: action.msg });
  });
  return compact({
    send_resolved: spec.sendResolved,
    http_config: r.httpConfig(spec.httpConfig, `${path}.httpConfig`),
    api_url: spec.apiURL,
    token_id: r.secret(spec.tokenID, `${path}.tokenID`),
    token: r.secret(spec.token, `${path}.token`),
    channel: spec.channel,
    color: spec.color,
    title: spec.title,
    title_link: spec.titleLink,
    text: spec.text,
    fields: (spec.fields ?? []).map((field) => compact({ short: field.short, title: field.title, value: field.value })),
    short_fields: spec.shortFields,
    emoji: spec.emoji,
    icon_url: spec.iconURL,
    image_url: spec.imageURL,
    thumb_url: spec.thumbURL,
    link_names: spec.linkNames,
    actions,
  });
}
