/**
 * `nomadSDConfigs` → `nomad_sd_configs`: basic auth, authorization, OAuth2, proxy, server, allow_stale,
 * namespace, refresh interval, region, tag separator, the two HTTP client flags and TLS, in prometheus-operator
 * v0.93's order.
 */
import { checkServerUrl, HTTP_URL_RULE, opaqueKind, put } from './discovery-kind.ts';
import { duration, flag, text } from './opaque-fields.ts';
import { ALL_CLIENT_FIELDS } from './sd-client.ts';

export const nomadDiscovery = opaqueKind({
  field: 'nomadSDConfigs',
  key: 'nomad_sd_configs',
  name: 'Nomad',
  since: '2.37.0',
  rules: {
    allowStale: flag,
    namespace: text({ nonEmpty: true }),
    refreshInterval: duration,
    region: text({ nonEmpty: true }),
    server: text({ pattern: HTTP_URL_RULE }),
    tagSeparator: text({ nonEmpty: true }),
  },
  required: ['server'],
  clientFields: ALL_CLIENT_FIELDS,
  write(sd, client, path, hc) {
    const entry: Record<string, unknown> = {};
    checkServerUrl(sd.server ?? '', `${path}.server`, hc);
    client.basicAuth(entry);
    client.authorization(entry);
    client.oauth2(entry);
    client.proxy(entry);
    entry.server = sd.server;
    put(entry, 'allow_stale', sd.allowStale);
    put(entry, 'namespace', sd.namespace);
    put(entry, 'refresh_interval', sd.refreshInterval);
    put(entry, 'region', sd.region);
    put(entry, 'tag_separator', sd.tagSeparator);
    client.followRedirects(entry);
    client.enableHttp2(entry);
    client.tls(entry);
    return entry;
  },
});
