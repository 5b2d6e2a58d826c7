/**
 * The incident-management notifiers of a receiver (Opsgenie, PagerDuty, VictorOps) → Alertmanager's
 * `opsgenie_configs`, `pagerduty_configs` and `victorops_configs`, with the checks Alertmanager makes when it loads them.
 */
import { compact, keyValues, type NotifierSpec, type Output } from '../receiver-fields.ts';
import type { ReceiverRenderers } from '../receiver-renderers.ts';

/** VictorOps fields Alertmanager sets itself; a custom field cannot take their names. */
const VICTOROPS_RESERVED_FIELDS = new Set(['routing_key', 'message_type', 'state_message', 'entity_display_name', 'monitoring_tool', 'entity_id', 'entity_state']);
const OPSGENIE_RESPONDER_TYPES = new Set(['team', 'teams', 'user', 'escalation', 'schedule']);

/** An Opsgenie notifier → an item of `opsgenie_configs`. */
export function renderOpsgenie(spec: NotifierSpec<'opsgenieConfigs'>, path: string, r: ReceiverRenderers): Output {
  r.needsGlobal(spec.apiKey, `${path}.apiKey`, ['opsgenie_api_key', 'opsgenie_api_key_file'], 'apiKey');
  r.checkUrl(spec.apiURL, `${path}.apiURL`);
  const responders = (spec.responders ?? []).map((responder, j) => {
    const at = `${path}.responders[${j}]`;
    if (!responder.id && !responder.name && !responder.username) r.problem(at, 'a responder needs one of id, name or username');
    if (!responder.type.includes('{{') && !OPSGENIE_RESPONDER_TYPES.has(responder.type.toLowerCase())) {
      r.problem(`${at}.type`, `"${responder.type}" is not a responder type: team, teams, user, escalation or schedule`);
    }
    return compact({ id: responder.id, name: responder.name, username: responder.username, type: responder.type });
  });
  return compact({
    send_resolved: spec.sendResolved,
    http_config: r.httpConfig(spec.httpConfig, `${path}.httpConfig`),
    api_key: r.secret(spec.apiKey, `${path}.apiKey`),
    api_url: spec.apiURL,
    message: spec.message,
    description: spec.description,
    source: spec.source,
    details: keyValues(spec.details),
    responders,
    tags: spec.tags,
    note: spec.note,
    priority: spec.priority,
    update_alerts: spec.updateAlerts,
    entity: spec.entity,
    actions: spec.actions,
  });
}

/** A PagerDuty notifier → an item of `pagerduty_configs`. */
export function renderPagerDuty(spec: NotifierSpec<'pagerdutyConfigs'>, path: string, r: ReceiverRenderers): Output {
  r.checkUrl(spec.url, `${path}.url`);
  r.checkTemplateUrl(spec.clientURL, `${path}.clientURL`);
  if (!spec.routingKey && !spec.serviceKey) r.problem(path, 'one of routingKey or serviceKey is required');
  const images = (spec.pagerDutyImageConfigs ?? []).map((image, j) => {
    r.checkTemplateUrl(image.href, `${path}.pagerDutyImageConfigs[${j}].href`);
    return compact({ src: image.src, alt: image.alt, href: image.href });
  });
  const links = (spec.pagerDutyLinkConfigs ?? []).map((link, j) => {
    r.checkTemplateUrl(link.href, `${path}.pagerDutyLinkConfigs[${j}].href`);
    return compact({ href: link.href, text: link.alt });
  });
  return compact({
    send_resolved: spec.sendResolved,
    http_config: r.httpConfig(spec.httpConfig, `${path}.httpConfig`),
    service_key: r.secret(spec.serviceKey, `${path}.serviceKey`),
    routing_key: r.secret(spec.routingKey, `${path}.routingKey`),
    url: spec.url,
    client: spec.client,
    client_url: spec.clientURL,
    description: spec.description,
    details: keyValues(spec.details),
    images,
    links,
    severity: spec.severity,
    class: spec.class,
    component: spec.component,
    group: spec.group,
    source: spec.source,
    timeout: r.duration(spec.timeout, `${path}.timeout`),
  });
}

/** A VictorOps notifier → an item of `victorops_configs`. */
export function renderVictorOps(spec: NotifierSpec<'victoropsConfigs'>, path: string, r: ReceiverRenderers): Output {
  (spec.customFields ?? []).forEach((field, j) => {
    if (VICTOROPS_RESERVED_FIELDS.has(field.key)) r.problem(`${path}.customFields[${j}].key`, `"${field.key}" is set by Alertmanager itself and cannot be a custom field`);
  });
  if (!spec.routingKey) r.problem(`${path}.routingKey`, 'a VictorOps notifier needs a routingKey');
  r.needsGlobal(spec.apiKey, `${path}.apiKey`, ['victorops_api_key', 'victorops_api_key_file'], 'apiKey');
  r.checkUrl(spec.apiUrl, `${path}.apiUrl`);
  return compact({
    send_resolved: spec.sendResolved,
    http_config: r.httpConfig(spec.httpConfig, `${path}.httpConfig`),
    api_key: r.secret(spec.apiKey, `${path}.apiKey`),
    api_url: spec.apiUrl,
    routing_key: spec.routingKey,
    message_type: spec.messageType,
    state_message: spec.stateMessage,
    entity_display_name: spec.entityDisplayName,
    monitoring_tool: spec.monitoringTool,
    custom_fields: keyValues(spec.customFields),
  });
}
