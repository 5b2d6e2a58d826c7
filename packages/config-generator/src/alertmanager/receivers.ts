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
 * Each notifier kind is rendered by its family's module in `notifiers/` (paging, chat, email, webhook, push
 * services), all through one ReceiverRenderers: the field reading and checks (receiver-fields.ts) and the HTTP client
 * and TLS files (receiver-renderers.ts), which Alertmanager's `global` section shares (`sharedRenderers`).
 *
 * Keys are emitted in the order of upstream's Alertmanager config structs; maps (details, headers, attributes…)
 * in Go's sorted order; empty and unset values are left out.
 */
import type { AlertmanagerConfigReceiver } from '@promop/crds';
import { renderDiscord, renderMsTeams, renderMsTeamsV2, renderRocketChat, renderSlack, renderTelegram, renderWeChat, renderWebex } from './notifiers/chat.ts';
import { renderEmail } from './notifiers/email.ts';
import { renderOpsgenie, renderPagerDuty, renderVictorOps } from './notifiers/paging.ts';
import { renderPushover, renderSns } from './notifiers/push-services.ts';
import { renderWebhook } from './notifiers/webhook.ts';
import { compact, type Output, type ReceiverContext } from './receiver-fields.ts';
import { ReceiverRenderers, type SharedRenderers } from './receiver-renderers.ts';

export type { ReceiverContext } from './receiver-fields.ts';
export type { SharedRenderers } from './receiver-renderers.ts';

/**
 * The receiver as Alertmanager's configuration writes it. Problems go to `context.findings`; the caller rejects
 * the AlertmanagerConfig when there are any (the returned object then lacks the fields that had them).
 */
export function renderReceiver(receiver: AlertmanagerConfigReceiver, context: ReceiverContext): Record<string, unknown> {
  const r = new ReceiverRenderers(context);
  const p = context.path;
  return compact({
    name: context.name,
    opsgenie_configs: each(receiver.opsgenieConfigs, `${p}.opsgenieConfigs`, (c, at) => renderOpsgenie(c, at, r)),
    pagerduty_configs: each(receiver.pagerdutyConfigs, `${p}.pagerdutyConfigs`, (c, at) => renderPagerDuty(c, at, r)),
    slack_configs: each(receiver.slackConfigs, `${p}.slackConfigs`, (c, at) => renderSlack(c, at, r)),
    webhook_configs: each(receiver.webhookConfigs, `${p}.webhookConfigs`, (c, at) => renderWebhook(c, at, r)),
    wechat_configs: each(receiver.wechatConfigs, `${p}.wechatConfigs`, (c, at) => renderWeChat(c, at, r)),
    email_configs: each(receiver.emailConfigs, `${p}.emailConfigs`, (c, at) => renderEmail(c, at, r)),
    pushover_configs: each(receiver.pushoverConfigs, `${p}.pushoverConfigs`, (c, at) => renderPushover(c, at, r)),
    victorops_configs: each(receiver.victoropsConfigs, `${p}.victoropsConfigs`, (c, at) => renderVictorOps(c, at, r)),
    sns_configs: each(receiver.snsConfigs, `${p}.snsConfigs`, (c, at) => renderSns(c, at, r)),
    telegram_configs: each(receiver.telegramConfigs, `${p}.telegramConfigs`, (c, at) => renderTelegram(c, at, r)),
    discord_configs: each(receiver.discordConfigs, `${p}.discordConfigs`, (c, at) => renderDiscord(c, at, r)),
    webex_configs: each(receiver.webexConfigs, `${p}.webexConfigs`, (c, at) => renderWebex(c, at, r)),
    msteams_configs: each(receiver.msteamsConfigs, `${p}.msteamsConfigs`, (c, at) => renderMsTeams(c, at, r)),
    msteamsv2_configs: each(receiver.msteamsv2Configs, `${p}.msteamsv2Configs`, (c, at) => renderMsTeamsV2(c, at, r)),
    rocketchat_configs: each(receiver.rocketchatConfigs, `${p}.rocketchatConfigs`, (c, at) => renderRocketChat(c, at, r)),
  });
}

/** Each notifier of one kind rendered at its index of the list at `path`. */
function each<T>(items: readonly T[] | undefined, path: string, render: (item: T, at: string) => Output): Output[] | undefined {
  return items?.map((item, i) => render(item, `${path}[${i}]`));
}

/**
 * The receiver renderers that also serve Alertmanager's `global` section, reading Secrets from `context.namespace`
 * only, with the same checks and output as in a receiver.
 */
export function sharedRenderers(context: Pick<ReceiverContext, 'namespace' | 'secrets' | 'findings' | 'tlsAssets'>): SharedRenderers {
  return new ReceiverRenderers({ ...context, path: '', name: '' });
}
