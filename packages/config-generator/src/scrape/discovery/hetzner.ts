/**
 * `hetznerSDConfigs` → `hetzner_sd_configs`: basic auth (Robot API), authorization (Cloud API token), OAuth2,
 * proxy, role (lower-cased), the two HTTP client flags, TLS, port, refresh interval and label selector
 * (Prometheus 3.5+), in prometheus-operator v0.93's order.
 */
import { opaqueKind, put, requireVersion } from './discovery-kind.ts';
import { duration, port, text } from './opaque-fields.ts';
import { ALL_CLIENT_FIELDS } from './sd-client.ts';

export const hetznerDiscovery = opaqueKind({
  field: 'hetznerSDConfigs',
  key: 'hetzner_sd_configs',
  name: 'Hetzner',
  since: '2.21.0',
  rules: { role: text({ oneOf: ['hcloud', 'Hcloud', 'robot', 'Robot'] }), port, refreshInterval: duration, labelSelector: text({ nonEmpty: true }) },
  required: ['role'],
  clientFields: ALL_CLIENT_FIELDS,
  write(sd, client, path, hc) {
    const entry: Record<string, unknown> = {};
    // Older releases refuse the key; dropping it would discover every server instead of the selected ones.
    if (sd.labelSelector !== undefined) requireVersion(hc, '3.5.0', `${path}.labelSelector`, 'labelSelector');
    client.basicAuth(entry);
    client.authorization(entry);
    client.oauth2(entry);
    client.proxy(entry);
    entry.role = (sd.role ?? '').toLowerCase();
    client.followRedirects(entry);
    client.enableHttp2(entry);
    client.tls(entry);
    put(entry, 'port', sd.port);
    put(entry, 'refresh_interval', sd.refreshInterval);
    put(entry, 'label_selector', sd.labelSelector);
    return entry;
  },
});
