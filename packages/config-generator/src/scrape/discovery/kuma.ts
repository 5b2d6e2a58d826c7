/**
 * `kumaSDConfigs` → `kuma_sd_configs`: basic auth, authorization, OAuth2, proxy, server, the two HTTP client
 * flags, TLS, refresh interval, fetch timeout and client ID (Prometheus 2.50+), in prometheus-operator v0.93's
 * order.
 */
import { checkServerUrl, HTTP_URL_RULE, opaqueKind, put, requireVersion } from './discovery-kind.ts';
import { duration, text } from './opaque-fields.ts';
import { ALL_CLIENT_FIELDS } from './sd-client.ts';

export const kumaDiscovery = opaqueKind({
  field: 'kumaSDConfigs',
  key: 'kuma_sd_configs',
  name: 'Kuma',
  since: '2.29.0',
  rules: { server: text({ pattern: HTTP_URL_RULE }), clientID: text({ nonEmpty: true }), refreshInterval: duration, fetchTimeout: duration },
  required: ['server'],
  clientFields: ALL_CLIENT_FIELDS,
  write(sd, client, path, hc) {
    const entry: Record<string, unknown> = {};
    checkServerUrl(sd.server ?? '', `${path}.server`, hc);
    if (sd.clientID !== undefined) requireVersion(hc, '2.50.0', `${path}.clientID`, 'clientID');
    client.basicAuth(entry);
    client.authorization(entry);
    client.oauth2(entry);
    client.proxy(entry);
    entry.server = sd.server;
    client.followRedirects(entry);
    client.enableHttp2(entry);
    client.tls(entry);
    put(entry, 'refresh_interval', sd.refreshInterval);
    put(entry, 'fetch_timeout', sd.fetchTimeout);
    put(entry, 'client_id', sd.clientID);
    return entry;
  },
});
