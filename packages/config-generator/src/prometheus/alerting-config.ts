/**
 * The `alerting` block: where alerts go (`spec.alerting.alertmanagers`, each found through
 * Kubernetes service discovery of its Service's endpoints) and how they are relabelled first.
 * The replica label is always dropped from alerts so that Alertmanager deduplicates the copies
 * sent by each replica.
 */
import type { AlertmanagerEndpoints, PrometheusSpec } from '@promop/crds';
import { supports } from '../http-client/index.ts';
import { renderClientPieces } from './client-auth.ts';
import { checkRegex } from '@promop/prometheus-lang';
import { renderRelabelConfigs, validateRelabelConfigs } from '../values/relabeling.ts';
import type { PrometheusRenderContext } from './render-context.ts';
import { renderSigv4 } from './sigv4.ts';
import { readYamlListSecret } from './yaml-list-secret.ts';

/** The spec fields the alerting block reads. */
export type AlertingFields = Pick<PrometheusSpec, 'alerting' | 'additionalAlertRelabelConfigs' | 'additionalAlertManagerConfigs'>;

/** Kubernetes SD role used to find Alertmanager pods (the Prometheus' serviceDiscoveryRole). */
export type EndpointsRole = 'endpoints' | 'endpointslice';

/** How Alertmanagers are discovered: the SD role, and the API server keys (spec.apiserverConfig). */
export interface AlertmanagerDiscovery {
  role: EndpointsRole;
  apiServer: Record<string, unknown> | undefined;
}

/** Builds the alerting block, or undefined when none of its fields is set. */
export function buildAlertingConfig(
  spec: AlertingFields,
  replicaLabel: string,
  discovery: AlertmanagerDiscovery,
  context: PrometheusRenderContext,
): Record<string, unknown> | undefined {
  if (!spec.alerting && !spec.additionalAlertRelabelConfigs && !spec.additionalAlertManagerConfigs) return undefined;

  const alertRelabelConfigs: Array<Record<string, unknown>> = [];
  if (replicaLabel !== '') alertRelabelConfigs.push({ action: 'labeldrop', regex: quoteRegex(replicaLabel) });
  alertRelabelConfigs.push(...(readYamlListSecret(spec.additionalAlertRelabelConfigs, 'spec.additionalAlertRelabelConfigs', context) ?? []));

  const alertmanagers = (spec.alerting?.alertmanagers ?? []).map((endpoints, index) =>
    renderAlertmanager(endpoints, `spec.alerting.alertmanagers[${index}]`, discovery, context),
  );
  alertmanagers.push(...(readYamlListSecret(spec.additionalAlertManagerConfigs, 'spec.additionalAlertManagerConfigs', context) ?? []));
  return { alert_relabel_configs: alertRelabelConfigs, alertmanagers };
}

function renderAlertmanager(
  am: AlertmanagerEndpoints,
  path: string,
  discovery: AlertmanagerDiscovery,
  context: PrometheusRenderContext,
): Record<string, unknown> {
  const role = discovery.role;
  if (!am.name) context.findings.problem(`${path}.name`, 'name (the Alertmanager Service) is required');
  if (am.port === null || am.port === undefined || am.port === '') context.findings.problem(`${path}.port`, 'port (name or number of the Service port) is required');
  // Both become a keep relabeling's regex, as prometheus-operator writes them: one that does not compile makes
  // Prometheus refuse the file. (The port of a ServiceMonitor endpoint is checked the same way.)
  if (am.name && checkRegex(am.name, 'relabeling') !== undefined) context.findings.problem(`${path}.name`, `"${am.name}" is not a valid Service name`);
  if (typeof am.port === 'string' && am.port !== '' && checkRegex(am.port, 'relabeling') !== undefined) context.findings.problem(`${path}.port`, `"${am.port}" is not a valid port name`);

  const out: Record<string, unknown> = {};
  if (am.scheme) out.scheme = am.scheme.toLowerCase();
  if (am.pathPrefix) out.path_prefix = am.pathPrefix;
  if (am.timeout) out.timeout = am.timeout;
  if (am.enableHttp2 !== null && am.enableHttp2 !== undefined && supports(context, '2.35.0', `${path}.enableHttp2`, 'enable_http2')) {
    out.enable_http2 = am.enableHttp2;
  }
  const client = renderClientPieces(am, path, context);
  if (client.tls_config) out.tls_config = client.tls_config;
  Object.assign(out, client.proxy);
  if (client.oauth2) context.findings.problem(`${path}.oauth2`, 'oauth2 is not available for Alertmanager endpoints');
  if (client.bearer_token) context.findings.problem(`${path}.bearerToken`, 'bearerToken is not available for Alertmanager endpoints; use authorization');
  out.kubernetes_sd_configs = [{ role, namespaces: { names: [am.namespace || context.namespace] }, ...discovery.apiServer }];
  if (client.bearer_token_file) out.bearer_token_file = client.bearer_token_file;
  if (client.basic_auth && supports(context, '2.26.0', `${path}.basicAuth`, 'basic_auth')) out.basic_auth = client.basic_auth;
  if (client.authorization) out.authorization = client.authorization;
  if (am.sigv4 && supports(context, '2.48.0', `${path}.sigv4`, 'sigv4')) out.sigv4 = renderSigv4(am.sigv4, `${path}.sigv4`, context);
  const apiVersion = am.apiVersion?.toLowerCase();
  if (apiVersion !== undefined && apiVersion !== '') {
    if (apiVersion !== 'v1' && apiVersion !== 'v2') context.findings.problem(`${path}.apiVersion`, `apiVersion must be v1 or v2, got "${am.apiVersion}"`);
    // Prometheus 3 speaks only the v2 API: v1 is dropped (upstream does the same).
    else if (apiVersion === 'v1' && context.version.major >= 3) context.findings.warn(`${path}.apiVersion: ignored because Prometheus ${context.version.text} only supports the v2 Alertmanager API`);
    else if (supports(context, '2.11.0', `${path}.apiVersion`, 'api_version')) out.api_version = apiVersion;
  }

  const relabelings: Array<Record<string, unknown>> = [{ action: 'keep', source_labels: ['__meta_kubernetes_service_name'], regex: am.name ?? '' }];
  if (typeof am.port === 'number') {
    relabelings.push({ action: 'keep', source_labels: ['__meta_kubernetes_pod_container_port_number'], regex: String(am.port) });
  } else if (am.port) {
    const portLabel = role === 'endpointslice' ? '__meta_kubernetes_endpointslice_port_name' : '__meta_kubernetes_endpoint_port_name';
    relabelings.push({ action: 'keep', source_labels: [portLabel], regex: am.port });
  }
  for (const problem of validateRelabelConfigs(am.relabelings, `${path}.relabelings`, context)) context.findings.add(problem);
  for (const problem of validateRelabelConfigs(am.alertRelabelings, `${path}.alertRelabelings`, context)) context.findings.add(problem);
  relabelings.push(...renderRelabelConfigs(am.relabelings));
  out.relabel_configs = relabelings;
  if (am.alertRelabelings && am.alertRelabelings.length > 0 && supports(context, '2.51.0', `${path}.alertRelabelings`, 'alert_relabel_configs')) {
    out.alert_relabel_configs = renderRelabelConfigs(am.alertRelabelings);
  }
  return out;
}

/** Go's regexp.QuoteMeta: the label name matched literally. */
function quoteRegex(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}
