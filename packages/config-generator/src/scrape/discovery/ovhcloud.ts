/**
 * `ovhcloudSDConfigs` → `ovhcloud_sd_configs`: application key, application secret and consumer key (read from
 * Secrets in the ScrapeConfig's namespace), service, endpoint and refresh interval, in prometheus-operator v0.93's
 * order. OVHcloud has no HTTP client settings: the OVH API client signs its own requests.
 */
import { opaqueKind, put, readNonEmptySecret } from './discovery-kind.ts';
import { duration, secretKey, text } from './opaque-fields.ts';

// The CRD's service names and the ones Prometheus reads.
const SERVICES: Record<string, string> = { VPS: 'vps', DedicatedServer: 'dedicated_server' };

export const ovhCloudDiscovery = opaqueKind({
  field: 'ovhcloudSDConfigs',
  key: 'ovhcloud_sd_configs',
  name: 'OVHcloud',
  since: '2.40.0',
  rules: {
    applicationKey: text({ nonEmpty: true }),
    applicationSecret: secretKey,
    consumerKey: secretKey,
    service: text({ oneOf: Object.keys(SERVICES) }),
    endpoint: text({ nonEmpty: true }),
    refreshInterval: duration,
  },
  required: ['applicationKey', 'applicationSecret', 'consumerKey', 'service'],
  clientFields: [],
  write(sd, _client, path, hc) {
    const entry: Record<string, unknown> = {};
    entry.application_key = sd.applicationKey;
    if (sd.applicationSecret) entry.application_secret = readNonEmptySecret(sd.applicationSecret, `${path}.applicationSecret`, hc) ?? '';
    if (sd.consumerKey) entry.consumer_key = readNonEmptySecret(sd.consumerKey, `${path}.consumerKey`, hc) ?? '';
    entry.service = SERVICES[sd.service ?? ''];
    put(entry, 'endpoint', sd.endpoint);
    put(entry, 'refresh_interval', sd.refreshInterval);
    return entry;
  },
});
