/**
 * `gceSDConfigs` → `gce_sd_configs`: project, zone, filter, refresh interval, port and tag separator, in
 * prometheus-operator v0.93's order. GCE discovery has no HTTP client settings: Prometheus signs in with the
 * credentials file named by GOOGLE_APPLICATION_CREDENTIALS in its container.
 */
import { opaqueKind, put } from './discovery-kind.ts';
import { duration, port, text } from './opaque-fields.ts';

export const gceDiscovery = opaqueKind({
  field: 'gceSDConfigs',
  key: 'gce_sd_configs',
  name: 'GCE',
  since: '2.0.0',
  rules: { project: text({ nonEmpty: true }), zone: text({ nonEmpty: true }), filter: text({ nonEmpty: true }), refreshInterval: duration, port, tagSeparator: text({ nonEmpty: true }) },
  required: ['project', 'zone'],
  clientFields: [],
  write(sd) {
    const entry: Record<string, unknown> = { project: sd.project, zone: sd.zone };
    put(entry, 'filter', sd.filter);
    put(entry, 'refresh_interval', sd.refreshInterval);
    put(entry, 'port', sd.port);
    put(entry, 'tag_separator', sd.tagSeparator);
    return entry;
  },
});
