/**
 * The webhook notifier of a receiver → Alertmanager's `webhook_configs`: the URL from the spec or a Secret, and a
 * templated URL passed on only when Alertmanager's template parser surely accepts it.
 */
import { compact, type NotifierSpec, type Output } from '../receiver-fields.ts';
import type { ReceiverRenderers } from '../receiver-renderers.ts';

/** A webhook notifier → an item of `webhook_configs`. */
export function renderWebhook(spec: NotifierSpec<'webhookConfigs'>, path: string, r: ReceiverRenderers): Output {
  if (!spec.url && spec.urlSecret === undefined) r.problem(spec.url === '' ? `${path}.url` : path, 'one of url or urlSecret is required');
  // urlSecret wins over url, as upstream.
  let url = spec.urlSecret ? r.secretUrl(spec.urlSecret, `${path}.urlSecret`, false) : spec.url;
  if (!spec.urlSecret) r.checkTemplateUrl(spec.url, `${path}.url`);
  // Alertmanager parses a webhook URL with {{ as a Go template when it loads the file: one it cannot parse (an
  // unclosed action, a function text/template does not know) would make it refuse every team's configuration.
  const templateError = url === undefined ? undefined : webhookTemplateError(url);
  if (templateError !== undefined) {
    if (spec.urlSecret) r.problem(`${path}.urlSecret`, `key "${spec.urlSecret.key}" of Secret "${spec.urlSecret.name ?? ''}" holds a templated URL promop cannot pass on: ${templateError}`);
    else r.problem(`${path}.url`, `${JSON.stringify(url)} is a templated URL promop cannot pass on: ${templateError}`);
    url = undefined;
  }
  return compact({
    send_resolved: spec.sendResolved,
    url,
    http_config: r.httpConfig(spec.httpConfig, `${path}.httpConfig`),
    max_alerts: spec.maxAlerts !== undefined && spec.maxAlerts > 0 ? spec.maxAlerts : undefined,
    timeout: r.duration(spec.timeout, `${path}.timeout`),
    payload: spec.payload,
  });
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
