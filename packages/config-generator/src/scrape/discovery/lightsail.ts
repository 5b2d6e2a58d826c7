/**
 * `lightSailSDConfigs` → `lightsail_sd_configs`: basic auth, authorization, proxy, OAuth2, region, endpoint, port,
 * refresh interval, the access key pair (read from Secrets in the ScrapeConfig's namespace), role ARN, TLS and the
 * two HTTP client flags, in prometheus-operator v0.93's order.
 */
import { appendAccessKeyPair } from './aws-key-pair.ts';
import { opaqueKind, put, requireVersion } from './discovery-kind.ts';
import { duration, port, secretKey, text } from './opaque-fields.ts';
import { ALL_CLIENT_FIELDS } from './sd-client.ts';

export const lightsailDiscovery = opaqueKind({
  field: 'lightSailSDConfigs',
  key: 'lightsail_sd_configs',
  name: 'Lightsail',
  since: '2.27.0',
  rules: { region: text({ nonEmpty: true }), accessKey: secretKey, secretKey, roleARN: text({ nonEmpty: true }), endpoint: text({ nonEmpty: true }), refreshInterval: duration, port },
  required: [],
  clientFields: ALL_CLIENT_FIELDS,
  write(sd, client, path, hc) {
    const entry: Record<string, unknown> = {};
    // Prometheus reads an HTTP client in Lightsail discovery since 2.41; older releases refuse the keys, and
    // dropping an authentication or TLS setting would change what Prometheus talks to.
    if (ALL_CLIENT_FIELDS.some((field) => client.has(field))) requireVersion(hc, '2.41.0', path, 'an HTTP client setting in Lightsail discovery');
    client.basicAuth(entry);
    client.authorization(entry);
    client.proxy(entry);
    client.oauth2(entry);
    put(entry, 'region', sd.region);
    put(entry, 'endpoint', sd.endpoint);
    put(entry, 'port', sd.port);
    put(entry, 'refresh_interval', sd.refreshInterval);
    appendAccessKeyPair(entry, sd, path, hc);
    put(entry, 'role_arn', sd.roleARN);
    client.tls(entry);
    client.followRedirects(entry);
    client.enableHttp2(entry);
    return entry;
  },
});
