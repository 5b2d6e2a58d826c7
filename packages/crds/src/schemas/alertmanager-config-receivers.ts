/**
 * The receivers of an AlertmanagerConfig (monitoring.coreos.com/v1alpha1): where a team's alerts are delivered.
 * Every credential comes from a Secret in the AlertmanagerConfig's own namespace, never from another namespace;
 * the few `...File` fields name files in the Alertmanager container, as prometheus-operator's v1alpha1 API allows.
 *
 * Field names, types, enums, patterns, required lists and minimum lengths follow prometheus-operator v0.93's
 * v1alpha1 `Receiver` type; its URL type (`^https?://.+$`) is written as the shared URL_PATTERN, which accepts the
 * same strings.
 */
import { bool, duration, oneOf, secretKeySelectorSchema, sigv4Schema, str, stringMap, URL_PATTERN } from './common.ts';
import { withShallowDescriptions } from '../schema-node.ts';
import { basicAuthSchema, oauth2Schema, proxyProperties, safeAuthorizationSchema } from './http-auth.ts';
import { safeTlsConfigSchema } from './tls-config.ts';

/** Pushover's retry and expire: a duration without the bare `0` form. */
const PUSHOVER_DURATION_PATTERN = '^(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?$';

/** A string that must not be empty when given. */
function text<const D extends string>(description: D) {
  return { type: 'string', minLength: 1, description } as const;
}

/** An http(s) URL field. */
function url<const D extends string>(description: D) {
  return { type: 'string', pattern: URL_PATTERN, description } as const;
}

/** A Secret key with its own description. */
function secretKey<const D extends string>(description: D) {
  return { ...secretKeySelectorSchema, description } as const;
}

/** A non-empty list of objects (the CRD's minItems: 1). */
function nonEmptyList<const I, const D extends string>(items: I, description: D) {
  return { type: 'array', minItems: 1, items, description } as const;
}

/** A list of objects. */
function list<const I, const D extends string>(items: I, description: D) {
  return { type: 'array', items, description } as const;
}

const sendResolved = bool('Also notify when the alerts are resolved.');

/** A key and its value (PagerDuty and OpsGenie details, email headers, VictorOps custom fields). */
export const keyValueSchema = {
  type: 'object',
  description: 'A key and its value.',
  required: ['key', 'value'],
  additionalProperties: false,
  properties: {
    key: text('The key.'),
    value: str('The value.'),
  },
} as const;

/** The HTTP client of a notifier (prometheus-operator's v1alpha1 HTTPConfig). */
export const receiverHttpConfigSchema = {
  type: 'object',
  description: 'How the notifier connects over HTTP: authentication, TLS and proxy.',
  additionalProperties: false,
  properties: {
    authorization: safeAuthorizationSchema,
    basicAuth: basicAuthSchema,
    oauth2: oauth2Schema,
    bearerTokenSecret: secretKey('Secret key holding a bearer token for the Authorization header.'),
    tlsConfig: safeTlsConfigSchema,
    proxyURL: str('Older spelling of proxyUrl; wins over proxyUrl when both are set.'),
    ...proxyProperties,
    followRedirects: bool('Follow HTTP 3xx redirects.'),
    enableHttp2: bool('Allow HTTP/2.'),
  },
} as const;

// Repeated for each notifier kind: only the block's first two levels keep their descriptions (schema-node.ts).
const httpConfig = withShallowDescriptions(receiverHttpConfigSchema);

/** PagerDuty notifier. */
const pagerdutyConfigSchema = {
  type: 'object',
  description: 'Sends notifications to PagerDuty.',
  additionalProperties: false,
  properties: {
    sendResolved,
    routingKey: secretKey('Secret key holding the Events API v2 integration key (this or serviceKey).'),
    serviceKey: secretKey('Secret key holding the Prometheus integration service key (this or routingKey).'),
    url: url('PagerDuty API URL.'),
    client: text('Name of the sending client.'),
    clientURL: str('Link back to the sending client.'),
    description: text('Description of the incident.'),
    severity: text('Severity of the incident.'),
    class: text('Class or type of the event.'),
    group: text('Group of sources the event belongs to.'),
    component: text('Component of the system that is affected.'),
    details: list(keyValueSchema, 'Extra key/value details of the incident.'),
    pagerDutyImageConfigs: list(
      {
        type: 'object',
        description: 'An image attached to the incident.',
        additionalProperties: false,
        properties: {
          src: text('Source of the image.'),
          href: str('Link the image opens.'),
          alt: text('Alternative text of the image.'),
        },
      },
      'Images attached to the incident.',
    ),
    pagerDutyLinkConfigs: list(
      {
        type: 'object',
        description: 'A link attached to the incident.',
        additionalProperties: false,
        properties: {
          href: str('URL of the link.'),
          alt: text('Text of the link.'),
        },
      },
      'Links attached to the incident.',
    ),
    httpConfig,
    source: text('Where the affected system is.'),
    timeout: duration('How long one request to PagerDuty may take.'),
  },
} as const;

/** Discord notifier. */
const discordConfigSchema = {
  type: 'object',
  description: 'Sends notifications to a Discord webhook.',
  required: ['apiURL'],
  additionalProperties: false,
  properties: {
    sendResolved,
    apiURL: secretKey('Secret key holding the Discord webhook URL.'),
    title: str('Template of the message title.'),
    message: str('Template of the message body.'),
    content: text('Template of the message content.'),
    username: text('Name the message is posted under.'),
    avatarURL: url('Avatar image of the sender.'),
    httpConfig,
  },
} as const;

/** Slack notifier. */
const slackConfigSchema = {
  type: 'object',
  description: 'Sends notifications to Slack.',
  additionalProperties: false,
  properties: {
    sendResolved,
    apiURL: secretKey('Secret key holding the Slack webhook or API URL.'),
    channel: text('Channel or user to post to.'),
    username: text('Name the bot posts under.'),
    color: text('Color of the attachment border.'),
    title: text('Title of the attachment.'),
    titleLink: str('URL the title links to.'),
    pretext: text('Text shown above the attachment.'),
    text: text('Main text of the attachment.'),
    fields: nonEmptyList(
      {
        type: 'object',
        description: 'A field of the attachment.',
        required: ['title', 'value'],
        additionalProperties: false,
        properties: {
          title: text('Title of the field.'),
          value: text('Value of the field.'),
          short: bool('Whether the field may sit beside other short fields.'),
        },
      },
      'Fields of the attachment.',
    ),
    shortFields: bool('Show the fields side by side where they fit.'),
    footer: text('Small text at the bottom of the attachment.'),
    fallback: text('Plain-text summary for clients without attachments.'),
    callbackId: text('Identifier of the message for interactive components.'),
    iconEmoji: text('Emoji used as the bot avatar.'),
    iconURL: str('Image used as the bot avatar.'),
    imageURL: str('Image shown inside the attachment.'),
    thumbURL: str('Thumbnail shown beside the attachment.'),
    linkNames: bool('Turn channel and user names into links.'),
    mrkdwnIn: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, description: 'Attachment fields parsed as Slack markdown.' },
    actions: nonEmptyList(
      {
        type: 'object',
        description: 'An interactive element of the message.',
        required: ['type', 'text'],
        additionalProperties: false,
        properties: {
          type: text('Kind of element, such as button.'),
          text: text('Label of the element.'),
          url: str('URL a button opens.'),
          style: text('Look of the element, such as primary or danger.'),
          name: text('Identifier of the action.'),
          value: text('Value sent back when the action is used.'),
          confirm: {
            type: 'object',
            description: 'A dialog asking to confirm the action.',
            required: ['text'],
            additionalProperties: false,
            properties: {
              text: text('Question the dialog asks.'),
              title: text('Title of the dialog.'),
              okText: text('Label of the confirm button.'),
              dismissText: text('Label of the cancel button.'),
            },
          },
        },
      },
      'Interactive elements of the message.',
    ),
    httpConfig,
    timeout: duration('How long one request to Slack may take.'),
    messageText: text('Top-level text of the Slack message.'),
    updateMessage: bool('Update the message already posted instead of posting a new one (needs a bot token).'),
  },
} as const;

/** Webhook notifier. */
const webhookConfigSchema = {
  type: 'object',
  description: 'Sends notifications as JSON to an HTTP endpoint.',
  additionalProperties: false,
  properties: {
    sendResolved,
    url: str('URL to POST to (this or urlSecret).'),
    urlSecret: secretKey('Secret key holding the URL to POST to; wins over url.'),
    httpConfig,
    maxAlerts: { type: 'integer', format: 'int32', minimum: 0, description: 'Most alerts in one message; 0 sends them all.' },
    timeout: duration('How long one request may take.'),
    payload: text('Go template of a custom request body.'),
  },
} as const;

/** OpsGenie notifier. */
const opsgenieConfigSchema = {
  type: 'object',
  description: 'Sends notifications to OpsGenie.',
  additionalProperties: false,
  properties: {
    sendResolved,
    apiKey: secretKey('Secret key holding the OpsGenie API key.'),
    apiURL: url('OpsGenie API URL.'),
    message: text('Alert text (OpsGenie keeps 130 characters).'),
    description: text('Longer description of the incident.'),
    source: text('Link back to the sender.'),
    tags: text('Comma-separated tags of the alert.'),
    note: text('Extra note on the alert.'),
    priority: text('Priority of the alert, P1 to P5.'),
    updateAlerts: bool('Update the message and description of an alert OpsGenie already has.'),
    details: list(keyValueSchema, 'Extra key/value details of the alert.'),
    responders: list(
      {
        type: 'object',
        description: 'Who is notified; set one of id, name or username.',
        required: ['type'],
        additionalProperties: false,
        properties: {
          id: text('OpsGenie id of the responder.'),
          name: text('Name of the responder.'),
          username: text('User name of the responder.'),
          type: { type: 'string', minLength: 1, enum: ['team', 'teams', 'user', 'escalation', 'schedule'], description: 'Kind of responder.' },
        },
      },
      'Responders of the alert.',
    ),
    httpConfig,
    entity: text('Domain the alert is about.'),
    actions: text('Comma-separated actions offered on the alert.'),
  },
} as const;

/** Webex notifier. */
const webexConfigSchema = {
  type: 'object',
  description: 'Sends notifications to a Webex room.',
  required: ['roomID'],
  additionalProperties: false,
  properties: {
    sendResolved,
    apiURL: url('Webex messages API URL.'),
    httpConfig,
    message: str('Template of the message.'),
    roomID: text('Room to post to.'),
  },
} as const;

/** WeChat notifier. */
const wechatConfigSchema = {
  type: 'object',
  description: 'Sends notifications through WeChat Work.',
  additionalProperties: false,
  properties: {
    sendResolved,
    apiSecret: secretKey('Secret key holding the WeChat API secret.'),
    apiURL: url('WeChat API URL.'),
    corpID: text('Corporation id.'),
    agentID: text('Id of the sending application.'),
    toUser: text('Users to notify, separated by |.'),
    toParty: text('Departments to notify, separated by |.'),
    toTag: text('Tags to notify, separated by |.'),
    message: text('Template of the message.'),
    messageType: text('Type of message, such as text or markdown.'),
    httpConfig,
  },
} as const;

/** Email notifier. */
const emailConfigSchema = {
  type: 'object',
  description: 'Sends notifications by email.',
  additionalProperties: false,
  properties: {
    sendResolved,
    to: text('Recipient address.'),
    from: text('Sender address.'),
    hello: text('Host name announced to the SMTP server.'),
    smarthost: text('SMTP server as host:port.'),
    authUsername: text('SMTP user name.'),
    authPassword: secretKey('Secret key holding the SMTP password.'),
    authSecret: secretKey('Secret key holding the CRAM-MD5 secret.'),
    authIdentity: text('SMTP identity for PLAIN authentication.'),
    headers: list(keyValueSchema, 'Extra email headers; they replace headers of the same name.'),
    html: str('Template of the HTML body.'),
    text: text('Template of the plain-text body.'),
    requireTLS: bool('Require STARTTLS.'),
    tlsConfig: safeTlsConfigSchema,
    forceImplicitTLS: bool('Force (true) or forbid (false) implicit TLS; unset decides by port.'),
    threading: {
      type: 'object',
      description: 'Threads the emails of an alert group.',
      required: ['threadByDate'],
      additionalProperties: false,
      properties: {
        threadByDate: oneOf(['Daily', 'None'], 'Start a new thread every day (Daily) or never (None).'),
      },
    },
  },
} as const;

/** VictorOps notifier. */
const victoropsConfigSchema = {
  type: 'object',
  description: 'Sends notifications to VictorOps.',
  required: ['routingKey'],
  additionalProperties: false,
  properties: {
    sendResolved,
    apiKey: secretKey('Secret key holding the VictorOps API key.'),
    apiUrl: url('VictorOps API URL.'),
    routingKey: text('Key that routes the alert to a team.'),
    messageType: text('Behaviour of the alert: CRITICAL, WARNING or INFO.'),
    entityDisplayName: text('Summary of the problem.'),
    stateMessage: text('Long explanation of the problem.'),
    monitoringTool: text('Tool the alert comes from.'),
    customFields: list(keyValueSchema, 'Extra fields of the incident.'),
    httpConfig,
  },
} as const;

/** Pushover notifier. */
const pushoverConfigSchema = {
  type: 'object',
  description: 'Sends notifications through Pushover.',
  additionalProperties: false,
  properties: {
    sendResolved,
    userKey: secretKey("Secret key holding the recipient's user key (this or userKeyFile)."),
    userKeyFile: text("File in the Alertmanager container holding the recipient's user key."),
    token: secretKey("Secret key holding the application's API token (this or tokenFile)."),
    tokenFile: text("File in the Alertmanager container holding the application's API token."),
    title: text('Title of the notification.'),
    message: text('Body of the notification.'),
    url: str('Extra URL shown with the message.'),
    urlTitle: text('Title shown for the extra URL.'),
    ttl: duration('How long the notification stays before it expires.'),
    device: text('Device to notify instead of all of them.'),
    sound: text('Sound played on the device.'),
    priority: text('Pushover priority of the notification.'),
    retry: { type: 'string', pattern: PUSHOVER_DURATION_PATTERN, description: 'How often an emergency notification is repeated (30s at least).' },
    expire: { type: 'string', pattern: PUSHOVER_DURATION_PATTERN, description: 'How long an emergency notification is repeated unless acknowledged.' },
    html: bool('The message is HTML (not with monospace).'),
    monospace: bool('Show the message in a monospace font (not with html).'),
    httpConfig,
  },
} as const;

/** Amazon SNS notifier. */
const snsConfigSchema = {
  type: 'object',
  description: 'Publishes notifications to Amazon SNS.',
  additionalProperties: false,
  properties: {
    sendResolved,
    apiURL: str('SNS API URL; the SDK chooses one when unset.'),
    sigv4: sigv4Schema,
    topicARN: text('Topic to publish to (this, phoneNumber or targetARN).'),
    subject: text('Subject of messages delivered by email.'),
    phoneNumber: text('Phone number in E.164 format for SMS delivery.'),
    targetARN: text('Mobile platform endpoint to deliver to.'),
    message: text('Text of the notification.'),
    attributes: stringMap('SNS message attributes.'),
    httpConfig,
    useAWSHTTPClient: bool("Use the AWS SDK's HTTP client instead of Alertmanager's."),
  },
} as const;

/** Telegram notifier. */
const telegramConfigSchema = {
  type: 'object',
  description: 'Sends notifications to a Telegram chat.',
  required: ['chatID'],
  additionalProperties: false,
  properties: {
    sendResolved,
    apiURL: url('Telegram API URL.'),
    botToken: secretKey('Secret key holding the bot token (this or botTokenFile).'),
    botTokenFile: str('File in the Alertmanager container holding the bot token.'),
    chatID: { type: 'integer', format: 'int64', description: 'Chat to post to.' },
    messageThreadID: { type: 'integer', format: 'int64', description: 'Topic of the group to post to.' },
    message: str('Template of the message.'),
    disableNotifications: bool('Deliver the message silently.'),
    parseMode: oneOf(['MarkdownV2', 'Markdown', 'HTML'], 'How Telegram formats the message.'),
    httpConfig,
  },
} as const;

/** Microsoft Teams notifier (incoming webhook). */
const msteamsConfigSchema = {
  type: 'object',
  description: 'Sends notifications to a Microsoft Teams incoming webhook.',
  required: ['webhookUrl'],
  additionalProperties: false,
  properties: {
    sendResolved,
    webhookUrl: secretKey('Secret key holding the incoming webhook URL.'),
    title: str('Template of the card title.'),
    summary: str('Template of the card summary.'),
    text: str('Template of the card text.'),
    httpConfig,
  },
} as const;

/** Microsoft Teams notifier (adaptive cards, for Workflows). */
const msteamsv2ConfigSchema = {
  type: 'object',
  description: 'Sends notifications to Microsoft Teams as adaptive cards.',
  additionalProperties: false,
  properties: {
    sendResolved,
    webhookURL: secretKey('Secret key holding the webhook URL.'),
    title: text('Template of the card title.'),
    text: text('Template of the card text.'),
    httpConfig,
  },
} as const;

/** Rocket.Chat notifier. */
const rocketchatConfigSchema = {
  type: 'object',
  description: 'Sends notifications to Rocket.Chat.',
  required: ['token', 'tokenID'],
  additionalProperties: false,
  properties: {
    sendResolved,
    apiURL: url('Rocket.Chat API URL.'),
    channel: text('Channel or user to post to.'),
    token: secretKey('Secret key holding the access token.'),
    tokenID: secretKey('Secret key holding the user id of the token.'),
    color: text('Color of the message bar.'),
    emoji: text('Emoji used as the avatar.'),
    iconURL: str('Image used as the avatar.'),
    text: text('Text of the message.'),
    title: text('Title of the attachment.'),
    titleLink: text('URL the title links to.'),
    fields: nonEmptyList(
      {
        type: 'object',
        description: 'A field of the attachment.',
        additionalProperties: false,
        properties: {
          title: text('Title of the field.'),
          value: text('Value of the field.'),
          short: bool('Whether the field may sit beside other short fields.'),
        },
      },
      'Fields of the attachment.',
    ),
    shortFields: bool('Show the fields side by side where they fit.'),
    imageURL: str('Image shown in the attachment.'),
    thumbURL: str('Thumbnail shown beside the attachment.'),
    linkNames: bool('Turn channel and user names into links.'),
    actions: nonEmptyList(
      {
        type: 'object',
        description: 'A button of the message.',
        additionalProperties: false,
        properties: {
          text: text('Label of the button.'),
          url: str('URL the button opens.'),
          msg: text('Message posted when the button is used.'),
        },
      },
      'Buttons of the message.',
    ),
    httpConfig,
  },
} as const;

/** One named receiver with its notifier configurations. */
export const receiverSchema = {
  type: 'object',
  description: 'A receiver: a name and the notifiers alerts routed to it are sent through.',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: text('Name of the receiver, unique in this AlertmanagerConfig.'),
    opsgenieConfigs: list(opsgenieConfigSchema, 'OpsGenie notifiers.'),
    pagerdutyConfigs: list(pagerdutyConfigSchema, 'PagerDuty notifiers.'),
    discordConfigs: list(discordConfigSchema, 'Discord notifiers.'),
    slackConfigs: list(slackConfigSchema, 'Slack notifiers.'),
    webhookConfigs: list(webhookConfigSchema, 'Webhook notifiers.'),
    wechatConfigs: list(wechatConfigSchema, 'WeChat notifiers.'),
    emailConfigs: list(emailConfigSchema, 'Email notifiers.'),
    victoropsConfigs: list(victoropsConfigSchema, 'VictorOps notifiers.'),
    pushoverConfigs: list(pushoverConfigSchema, 'Pushover notifiers.'),
    snsConfigs: list(snsConfigSchema, 'Amazon SNS notifiers.'),
    telegramConfigs: list(telegramConfigSchema, 'Telegram notifiers.'),
    webexConfigs: list(webexConfigSchema, 'Webex notifiers.'),
    msteamsConfigs: list(msteamsConfigSchema, 'Microsoft Teams notifiers (Alertmanager 0.26 or later).'),
    msteamsv2Configs: list(msteamsv2ConfigSchema, 'Microsoft Teams adaptive-card notifiers (Alertmanager 0.28 or later).'),
    rocketchatConfigs: list(rocketchatConfigSchema, 'Rocket.Chat notifiers (Alertmanager 0.28 or later).'),
  },
} as const;
