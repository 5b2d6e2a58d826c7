/**
 * `dockerSDConfigs` → `docker_sd_configs`: authorization, OAuth2, proxy, basic auth, filters (sorted by name),
 * host, TLS, port, host networking host (Prometheus 2.30+), match_first_network (2.54.1+), refresh interval and
 * the two HTTP client flags, in prometheus-operator v0.93's order.
 */
import { goUrlHostError } from '../../values/go-url.ts';
import { opaqueKind, put, requireVersion } from './discovery-kind.ts';
import { duration, filters, flag, port, renderFilters, text } from './opaque-fields.ts';
import { ALL_CLIENT_FIELDS } from './sd-client.ts';

/** The CRD's pattern for a Docker daemon address (Docker and Docker Swarm discovery): a URL with a scheme. */
export const DAEMON_ADDRESS_RULE = { regex: /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/.+$/, says: 'must be a daemon address with a scheme, such as unix:///var/run/docker.sock or tcp://docker:2375' };

export const dockerDiscovery = opaqueKind({
  field: 'dockerSDConfigs',
  key: 'docker_sd_configs',
  name: 'Docker',
  since: '2.27.0',
  rules: {
    host: text({ nonEmpty: true, pattern: DAEMON_ADDRESS_RULE }),
    port,
    hostNetworkingHost: text({ nonEmpty: true }),
    matchFirstNetwork: flag,
    filters,
    refreshInterval: duration,
  },
  required: ['host'],
  clientFields: ALL_CLIENT_FIELDS,
  write(sd, client, path, hc) {
    const entry: Record<string, unknown> = {};
    const hostError = goUrlHostError(sd.host ?? '');
    if (hostError) hc.findings.problem(`${path}.host`, `is not an address Prometheus can read: ${hostError}`);
    if (sd.hostNetworkingHost !== undefined) requireVersion(hc, '2.30.0', `${path}.hostNetworkingHost`, 'hostNetworkingHost');
    if (sd.matchFirstNetwork !== undefined) requireVersion(hc, '2.54.1', `${path}.matchFirstNetwork`, 'matchFirstNetwork');
    client.authorization(entry);
    client.oauth2(entry);
    client.proxy(entry);
    client.basicAuth(entry);
    if (sd.filters && sd.filters.length > 0) {
      entry.filters = renderFilters(sd.filters);
    }
    entry.host = sd.host;
    client.tls(entry);
    put(entry, 'port', sd.port);
    put(entry, 'host_networking_host', sd.hostNetworkingHost);
    put(entry, 'match_first_network', sd.matchFirstNetwork);
    put(entry, 'refresh_interval', sd.refreshInterval);
    client.followRedirects(entry);
    client.enableHttp2(entry);
    return entry;
  },
});
