/**
 * `ec2SDConfigs` → `ec2_sd_configs`, in prometheus-operator v0.93's key order: proxy, region, the access key pair
 * (read from Secrets in the ScrapeConfig's namespace), role ARN, refresh interval, port, filters (sorted by name,
 * Prometheus 2.3+), then the HTTP client flags and TLS (Prometheus 2.41+, dropped with a warning before).
 * EC2 has no basic auth, authorization or OAuth2: AWS signs its requests with the key pair or the role.
 */
import { supports } from '../../http-client/index.ts';
import { appendAccessKeyPair } from './aws-key-pair.ts';
import { opaqueKind, put } from './discovery-kind.ts';
import { duration, filters, renderFilters, port, secretKey, text } from './opaque-fields.ts';
import { PROXY_FIELDS } from './sd-client.ts';

export const ec2Discovery = opaqueKind({
  field: 'ec2SDConfigs',
  key: 'ec2_sd_configs',
  name: 'EC2',
  since: '2.0.0',
  rules: { region: text({ nonEmpty: true }), accessKey: secretKey, secretKey, roleARN: text({ nonEmpty: true }), port, refreshInterval: duration, filters },
  required: [],
  clientFields: ['tlsConfig', 'followRedirects', 'enableHTTP2', ...PROXY_FIELDS],
  write(sd, client, path, hc) {
    const entry: Record<string, unknown> = {};
    client.proxy(entry);
    put(entry, 'region', sd.region);
    appendAccessKeyPair(entry, sd, path, hc);
    put(entry, 'role_arn', sd.roleARN);
    put(entry, 'refresh_interval', sd.refreshInterval);
    put(entry, 'port', sd.port);
    if (sd.filters && sd.filters.length > 0 && supports(hc, '2.3.0', `${path}.filters`, 'filters')) {
      entry.filters = renderFilters(sd.filters);
    }
    const httpClientSince = '2.41.0';
    const gate = (field: string, key: string) => supports(hc, httpClientSince, `${path}.${field}`, key);
    if (client.has('followRedirects') && gate('followRedirects', 'follow_redirects')) client.followRedirects(entry);
    if (client.has('enableHTTP2') && gate('enableHTTP2', 'enable_http2')) client.enableHttp2(entry);
    if (client.has('tlsConfig') && gate('tlsConfig', 'tls_config')) client.tls(entry);
    return entry;
  },
});
