/**
 * `digitalOceanSDConfigs` → `digitalocean_sd_configs`: authorization (the API token) or OAuth2, proxy, the two
 * HTTP client flags, TLS, port and refresh interval, in prometheus-operator v0.93's order.
 */
import { opaqueKind, put } from './discovery-kind.ts';
import { duration, port } from './opaque-fields.ts';
import { TOKEN_CLIENT_FIELDS } from './sd-client.ts';

export const digitalOceanDiscovery = opaqueKind({
  field: 'digitalOceanSDConfigs',
  key: 'digitalocean_sd_configs',
  name: 'DigitalOcean',
  since: '2.20.0',
  rules: { port, refreshInterval: duration },
  required: [],
  clientFields: TOKEN_CLIENT_FIELDS,
  write(sd, client) {
    const entry: Record<string, unknown> = {};
    client.authorization(entry);
    client.oauth2(entry);
    client.proxy(entry);
    client.followRedirects(entry);
    client.enableHttp2(entry);
    client.tls(entry);
    put(entry, 'port', sd.port);
    put(entry, 'refresh_interval', sd.refreshInterval);
    return entry;
  },
});
