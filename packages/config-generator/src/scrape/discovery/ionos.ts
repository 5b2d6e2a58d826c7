/**
 * `ionosSDConfigs` → `ionos_sd_configs`: authorization (or OAuth2), proxy, TLS, data center ID, the two HTTP client
 * flags, port and refresh interval, in prometheus-operator v0.93's order.
 *
 * The CRD requires `authorization` and also says it cannot be set with `oauth2`; prometheus-operator settles this
 * by leaving the authorization out when OAuth2 is set, and so does promop (it then neither checks nor reads it).
 */
import type { DiscoveryKind } from './discovery-kind.ts';
import { opaqueKind, put } from './discovery-kind.ts';
import { duration, port, text } from './opaque-fields.ts';
import { TOKEN_CLIENT_FIELDS } from './sd-client.ts';

const ionosEntry = opaqueKind({
  field: 'ionosSDConfigs',
  key: 'ionos_sd_configs',
  name: 'IONOS',
  since: '2.36.0',
  rules: { datacenterID: text({ nonEmpty: true }), port, refreshInterval: duration },
  required: ['datacenterID'],
  clientFields: TOKEN_CLIENT_FIELDS,
  write(sd, client, _path, _hc) {
    const entry: Record<string, unknown> = {};
    client.authorization(entry);
    client.oauth2(entry);
    client.proxy(entry);
    client.tls(entry);
    entry.datacenter_id = sd.datacenterID;
    client.followRedirects(entry);
    client.enableHttp2(entry);
    put(entry, 'port', sd.port);
    put(entry, 'refresh_interval', sd.refreshInterval);
    return entry;
  },
});

const isSet = (value: unknown) => value !== undefined && value !== null;

export const ionosDiscovery: DiscoveryKind = {
  ...ionosEntry,
  render(entry, path, hc) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return ionosEntry.render(entry, path, hc);
    const { authorization, ...withoutAuthorization } = entry as Record<string, unknown>;
    if (!isSet(authorization)) {
      hc.findings.problem(`${path}.authorization`, 'is required by IONOS discovery');
      return undefined;
    }
    return ionosEntry.render(isSet(withoutAuthorization.oauth2) ? withoutAuthorization : entry, path, hc);
  },
};
