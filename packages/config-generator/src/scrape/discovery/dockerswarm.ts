/**
 * `dockerSwarmSDConfigs` → `dockerswarm_sd_configs`: basic auth, authorization, OAuth2, proxy, filters (sorted by
 * name, Prometheus 2.23+), host, TLS, role (lower-cased), port, refresh interval and the two HTTP client flags, in
 * prometheus-operator v0.93's order.
 */
import { goUrlHostError } from '../../values/go-url.ts';
import { DAEMON_ADDRESS_RULE } from './docker.ts';
import { opaqueKind, put, requireVersion } from './discovery-kind.ts';
import { duration, filters, port, renderFilters, text } from './opaque-fields.ts';
import { ALL_CLIENT_FIELDS } from './sd-client.ts';

export const dockerSwarmDiscovery = opaqueKind({
  field: 'dockerSwarmSDConfigs',
  key: 'dockerswarm_sd_configs',
  name: 'Docker Swarm',
  since: '2.20.0',
  rules: { host: text({ nonEmpty: true, pattern: DAEMON_ADDRESS_RULE }), role: text({ oneOf: ['Services', 'Tasks', 'Nodes'] }), port, filters, refreshInterval: duration },
  required: ['host', 'role'],
  clientFields: ALL_CLIENT_FIELDS,
  write(sd, client, path, hc) {
    const entry: Record<string, unknown> = {};
    const hostError = goUrlHostError(sd.host ?? '');
    if (hostError) hc.findings.problem(`${path}.host`, `is not an address Prometheus can read: ${hostError}`);
    const hasFilters = sd.filters !== undefined && sd.filters.length > 0;
    // Dropping the filters would discover every service, task or node of the swarm: refused instead.
    if (hasFilters) requireVersion(hc, '2.23.0', `${path}.filters`, 'filters in Docker Swarm discovery');
    client.basicAuth(entry);
    client.authorization(entry);
    client.oauth2(entry);
    client.proxy(entry);
    if (sd.filters && hasFilters) entry.filters = renderFilters(sd.filters);
    entry.host = sd.host;
    client.tls(entry);
    entry.role = (sd.role ?? '').toLowerCase();
    put(entry, 'port', sd.port);
    put(entry, 'refresh_interval', sd.refreshInterval);
    client.followRedirects(entry);
    client.enableHttp2(entry);
    return entry;
  },
});
