/**
 * `openstackSDConfigs` → `openstack_sd_configs`, in prometheus-operator v0.93's key order: role (lower-cased),
 * region, identity endpoint, the user and domain and project names and IDs, the password and application
 * credential secret (read from Secrets in the ScrapeConfig's namespace), all tenants, refresh interval, port,
 * availability, then TLS. OpenStack has no other HTTP client setting: gophercloud makes its own requests.
 */
import { readSecretKey } from '../../http-client/index.ts';
import { checkServerUrl, HTTP_URL_RULE, opaqueKind, put, requireVersion } from './discovery-kind.ts';
import { duration, flag, port, secretKey, text } from './opaque-fields.ts';

const nonEmpty = () => text({ nonEmpty: true });

// Prometheus reads only the lower-case spellings; prometheus-operator's CRD also admits the capitalised ones and
// writes them unchanged, which Prometheus refuses ("unknown availability"), so they are refused here instead.
const AVAILABILITIES = ['public', 'internal', 'admin'];

export const openStackDiscovery = opaqueKind({
  field: 'openstackSDConfigs',
  key: 'openstack_sd_configs',
  name: 'OpenStack',
  since: '2.0.0',
  rules: {
    role: text({ oneOf: ['Instance', 'Hypervisor', 'LoadBalancer'] }),
    region: nonEmpty(),
    identityEndpoint: text({ pattern: HTTP_URL_RULE }),
    username: nonEmpty(),
    userid: nonEmpty(),
    password: secretKey,
    domainName: nonEmpty(),
    domainID: nonEmpty(),
    projectName: nonEmpty(),
    projectID: nonEmpty(),
    applicationCredentialName: nonEmpty(),
    applicationCredentialId: nonEmpty(),
    applicationCredentialSecret: secretKey,
    allTenants: flag,
    refreshInterval: duration,
    port,
    availability: text({ oneOf: ['Public', 'public', 'Admin', 'admin', 'Internal', 'internal'] }),
  },
  required: ['role', 'region'],
  clientFields: ['tlsConfig'],
  write(sd, client, path, hc) {
    const entry: Record<string, unknown> = {};
    // Each key below is unknown to the releases before it, which refuse the whole file.
    if (sd.role === 'LoadBalancer') requireVersion(hc, '3.2.0', `${path}.role`, 'the LoadBalancer role');
    if (sd.allTenants !== undefined) requireVersion(hc, '2.5.0', `${path}.allTenants`, 'allTenants');
    if (client.has('tlsConfig')) requireVersion(hc, '2.5.0', `${path}.tlsConfig`, 'tlsConfig in OpenStack discovery');
    for (const field of ['applicationCredentialName', 'applicationCredentialId', 'applicationCredentialSecret'] as const) {
      if (sd[field] !== undefined) requireVersion(hc, '2.7.0', `${path}.${field}`, field);
    }
    if (sd.availability !== undefined) {
      if (!AVAILABILITIES.includes(sd.availability)) {
        hc.findings.problem(`${path}.availability`, `Prometheus accepts only the lower-case spelling: use ${sd.availability.toLowerCase()}`);
      } else requireVersion(hc, '2.20.0', `${path}.availability`, 'availability');
    }
    if (sd.identityEndpoint !== undefined) checkServerUrl(sd.identityEndpoint, `${path}.identityEndpoint`, hc);
    entry.role = (sd.role ?? '').toLowerCase();
    entry.region = sd.region;
    put(entry, 'identity_endpoint', sd.identityEndpoint);
    put(entry, 'username', sd.username);
    put(entry, 'userid', sd.userid);
    if (sd.password) entry.password = readSecretKey(sd.password, `${path}.password`, hc) ?? '';
    put(entry, 'domain_name', sd.domainName);
    put(entry, 'domain_id', sd.domainID);
    put(entry, 'project_name', sd.projectName);
    put(entry, 'project_id', sd.projectID);
    put(entry, 'application_credential_name', sd.applicationCredentialName);
    put(entry, 'application_credential_id', sd.applicationCredentialId);
    if (sd.applicationCredentialSecret) {
      entry.application_credential_secret = readSecretKey(sd.applicationCredentialSecret, `${path}.applicationCredentialSecret`, hc) ?? '';
    }
    put(entry, 'all_tenants', sd.allTenants);
    put(entry, 'refresh_interval', sd.refreshInterval);
    put(entry, 'port', sd.port);
    put(entry, 'availability', sd.availability);
    client.tls(entry);
    return entry;
  },
});
