/**
 * `eurekaSDConfigs` → `eureka_sd_configs`: basic auth, authorization, OAuth2, proxy, the two HTTP client flags,
 * TLS, refresh interval and server, in prometheus-operator v0.93's order.
 */
import { checkServerUrl, HTTP_URL_RULE, opaqueKind, put } from './discovery-kind.ts';
import { duration, text } from './opaque-fields.ts';
import { ALL_CLIENT_FIELDS } from './sd-client.ts';

export const eurekaDiscovery = opaqueKind({
  field: 'eurekaSDConfigs',
  key: 'eureka_sd_configs',
  name: 'Eureka',
  since: '2.21.0',
  rules: { server: text({ pattern: HTTP_URL_RULE }), refreshInterval: duration },
  required: ['server'],
  clientFields: ALL_CLIENT_FIELDS,
  write(sd, client, path, hc) {
    const entry: Record<string, unknown> = {};
    checkServerUrl(sd.server ?? '', `${path}.server`, hc);
    client.basicAuth(entry);
    client.authorization(entry);
    client.oauth2(entry);
    client.proxy(entry);
    client.followRedirects(entry);
    client.enableHttp2(entry);
    client.tls(entry);
    put(entry, 'refresh_interval', sd.refreshInterval);
    entry.server = sd.server;
    return entry;
  },
});
