/**
 * `scalewaySDConfigs` → `scaleway_sd_configs`: access key, secret key (read from a Secret in the ScrapeConfig's
 * namespace), project ID, role (lower-cased), port, API URL, zone, name filter, tags filter, refresh interval, proxy,
 * TLS and the two HTTP client flags, in prometheus-operator v0.93's order. Prometheus builds its Scaleway client when
 * it loads the file, and the client refuses malformed keys, IDs, zones and API URLs: those checks are made here.
 */
import { goUrlHostError } from '../../values/go-url.ts';
import { HTTP_URL_RULE, opaqueKind, put, readNonEmptySecret } from './discovery-kind.ts';
import { duration, port, secretKey, text, type FieldRule } from './opaque-fields.ts';
import { PROXY_FIELDS } from './sd-client.ts';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A list of at least one non-empty string, each once (the CRD's set). */
const tags: FieldRule<string[]> = {
  fault(value) {
    if (!Array.isArray(value) || value.length === 0) return 'must be a list of at least one tag';
    if (value.some((tag) => typeof tag !== 'string' || tag === '')) return 'tags must be non-empty strings';
    return new Set(value).size === value.length ? undefined : 'must not repeat a tag';
  },
};

export const scalewayDiscovery = opaqueKind({
  field: 'scalewaySDConfigs',
  key: 'scaleway_sd_configs',
  name: 'Scaleway',
  since: '2.26.0',
  rules: {
    accessKey: text({ nonEmpty: true, pattern: { regex: /^SCW[A-Z0-9]{17}$/, says: 'must be a Scaleway access key: SCW and 17 upper-case letters or digits' } }),
    secretKey,
    projectID: text({ nonEmpty: true, pattern: { regex: UUID, says: 'must be a project ID in UUID form (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)' } }),
    role: text({ oneOf: ['Instance', 'Baremetal'] }),
    port,
    apiURL: text({ pattern: HTTP_URL_RULE }),
    zone: text({ nonEmpty: true, pattern: { regex: /^[a-z]{2}-[a-z]{3,7}-[0-9]{1,2}$/, says: 'must be a Scaleway zone such as fr-par-1' } }),
    nameFilter: text({ nonEmpty: true }),
    tagsFilter: tags,
    refreshInterval: duration,
  },
  required: ['accessKey', 'secretKey', 'projectID', 'role'],
  clientFields: ['tlsConfig', 'followRedirects', 'enableHTTP2', ...PROXY_FIELDS],
  write(sd, client, path, hc) {
    const entry: Record<string, unknown> = {};
    if (sd.apiURL !== undefined) {
      const hostError = goUrlHostError(sd.apiURL);
      if (hostError) hc.findings.problem(`${path}.apiURL`, `is not a URL Prometheus can read: ${hostError}`);
      else if (sd.apiURL.endsWith('/')) hc.findings.problem(`${path}.apiURL`, 'must not end with a slash (the Scaleway client refuses it)');
    }
    entry.access_key = sd.accessKey;
    const secret = sd.secretKey && readNonEmptySecret(sd.secretKey, `${path}.secretKey`, hc);
    // The value is not repeated: it is a credential.
    if (secret && !UUID.test(secret)) hc.findings.problem(`${path}.secretKey`, 'the Secret key does not hold a Scaleway secret key (a UUID), which the Scaleway client refuses');
    entry.secret_key = secret ?? '';
    entry.project_id = sd.projectID;
    entry.role = (sd.role ?? '').toLowerCase();
    put(entry, 'port', sd.port);
    put(entry, 'api_url', sd.apiURL);
    put(entry, 'zone', sd.zone);
    put(entry, 'name_filter', sd.nameFilter);
    if (sd.tagsFilter && sd.tagsFilter.length > 0) entry.tags_filter = [...sd.tagsFilter];
    put(entry, 'refresh_interval', sd.refreshInterval);
    client.proxy(entry);
    client.tls(entry);
    client.followRedirects(entry);
    client.enableHttp2(entry);
    return entry;
  },
});
