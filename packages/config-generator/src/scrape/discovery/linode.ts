/**
 * `linodeSDConfigs` → `linode_sd_configs`: authorization (the API token) or OAuth2, proxy, TLS, port, region
 * (Prometheus 2.52+), enable_http2, tag separator, refresh interval and follow_redirects, in prometheus-operator
 * v0.93's order.
 */
import { opaqueKind, put, requireVersion } from './discovery-kind.ts';
import { duration, port, text } from './opaque-fields.ts';
import { TOKEN_CLIENT_FIELDS } from './sd-client.ts';

export const linodeDiscovery = opaqueKind({
  field: 'linodeSDConfigs',
  key: 'linode_sd_configs',
  name: 'Linode',
  since: '2.28.0',
  rules: { region: text({ nonEmpty: true }), port, tagSeparator: text({ nonEmpty: true }), refreshInterval: duration },
  required: [],
  clientFields: TOKEN_CLIENT_FIELDS,
  write(sd, client, path, hc) {
    const entry: Record<string, unknown> = {};
    // Older releases refuse the key; dropping it would discover every region instead of one.
    if (sd.region !== undefined) requireVersion(hc, '2.52.0', `${path}.region`, 'region');
    client.authorization(entry);
    client.oauth2(entry);
    client.proxy(entry);
    client.tls(entry);
    put(entry, 'port', sd.port);
    put(entry, 'region', sd.region);
    client.enableHttp2(entry);
    put(entry, 'tag_separator', sd.tagSeparator);
    put(entry, 'refresh_interval', sd.refreshInterval);
    client.followRedirects(entry);
    return entry;
  },
});
