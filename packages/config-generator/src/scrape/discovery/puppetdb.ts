/**
 * `puppetDBSDConfigs` → `puppetdb_sd_configs`: basic auth, authorization, OAuth2, proxy, URL, query, include
 * parameters, port, refresh interval, follow_redirects, TLS and enable_http2, in prometheus-operator v0.93's order.
 */
import { checkServerUrl, HTTP_URL_RULE, opaqueKind, put } from './discovery-kind.ts';
import { duration, flag, port, text } from './opaque-fields.ts';
import { ALL_CLIENT_FIELDS } from './sd-client.ts';

export const puppetDbDiscovery = opaqueKind({
  field: 'puppetDBSDConfigs',
  key: 'puppetdb_sd_configs',
  name: 'PuppetDB',
  since: '2.31.0',
  rules: { url: text({ pattern: HTTP_URL_RULE }), query: text({ nonEmpty: true }), includeParameters: flag, refreshInterval: duration, port },
  required: ['url', 'query'],
  clientFields: ALL_CLIENT_FIELDS,
  write(sd, client, path, hc) {
    const entry: Record<string, unknown> = {};
    // Prometheus refuses a URL without a host ("host is missing in URL").
    checkServerUrl(sd.url ?? '', `${path}.url`, hc);
    client.basicAuth(entry);
    client.authorization(entry);
    client.oauth2(entry);
    client.proxy(entry);
    entry.url = sd.url;
    entry.query = sd.query;
    put(entry, 'include_parameters', sd.includeParameters);
    put(entry, 'port', sd.port);
    put(entry, 'refresh_interval', sd.refreshInterval);
    client.followRedirects(entry);
    client.tls(entry);
    client.enableHttp2(entry);
    return entry;
  },
});
