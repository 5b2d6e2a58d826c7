/**
 * `azureSDConfigs` → `azure_sd_configs`: basic auth, authorization, OAuth2 and proxy, then environment,
 * authentication method, subscription, tenant, client ID and secret (read from a Secret in the ScrapeConfig's
 * namespace), resource group, refresh interval and port, as prometheus-operator v0.93 orders them; then
 * follow_redirects, enable_http2 and tls_config, which prometheus-operator drops (and it also drops the auth and
 * proxy keys when `environment` is set): promop writes what the user set (docs/compatibility.md, ScrapeConfigs).
 */
import { readSecretKey } from '../../http-client/index.ts';
import { opaqueKind, put, requireVersion } from './discovery-kind.ts';
import { duration, port, secretKey, text } from './opaque-fields.ts';
import { ALL_CLIENT_FIELDS } from './sd-client.ts';

const AUTHENTICATION_METHODS = ['OAuth', 'ManagedIdentity', 'SDK', 'WorkloadIdentity'] as const;

// The cloud names Prometheus knows (upper-cased before the lookup); another one fails when discovery starts.
const ENVIRONMENTS = ['AZURECHINACLOUD', 'AZURECLOUD', 'AZUREGERMANCLOUD', 'AZUREPUBLICCLOUD', 'AZUREUSGOVERNMENT', 'AZUREUSGOVERNMENTCLOUD'];

export const azureDiscovery = opaqueKind({
  field: 'azureSDConfigs',
  key: 'azure_sd_configs',
  name: 'Azure',
  since: '2.0.0',
  rules: {
    environment: text({ nonEmpty: true }),
    authenticationMethod: text({ oneOf: AUTHENTICATION_METHODS }),
    subscriptionID: text({ nonEmpty: true }),
    tenantID: text({ nonEmpty: true }),
    clientID: text({ nonEmpty: true }),
    clientSecret: secretKey,
    resourceGroup: text({ nonEmpty: true }),
    refreshInterval: duration,
    port,
  },
  required: ['subscriptionID'],
  clientFields: ALL_CLIENT_FIELDS,
  write(sd, client, path, hc) {
    const entry: Record<string, unknown> = {};
    const method = sd.authenticationMethod ?? 'OAuth';
    if (method === 'SDK') requireVersion(hc, '2.52.0', `${path}.authenticationMethod`, 'SDK authentication');
    if (method === 'WorkloadIdentity') requireVersion(hc, '3.11.0', `${path}.authenticationMethod`, 'WorkloadIdentity authentication');
    if (sd.resourceGroup !== undefined) requireVersion(hc, '2.35.0', `${path}.resourceGroup`, 'resourceGroup');
    // Prometheus reads the HTTP client settings of Azure discovery since 2.31; older releases refuse the keys.
    if (ALL_CLIENT_FIELDS.some((field) => client.has(field))) requireVersion(hc, '2.31.0', path, 'an HTTP client setting in Azure discovery');
    if (sd.environment !== undefined && !ENVIRONMENTS.includes(sd.environment.toUpperCase())) {
      hc.findings.problem(`${path}.environment`, `"${sd.environment}" is not an Azure cloud Prometheus knows (AzurePublicCloud, AzureChinaCloud, AzureGermanCloud, AzureUSGovernment...)`);
    }
    // OAuth (the default) signs in as an application: Prometheus refuses the entry without all three.
    if (method === 'OAuth') {
      if (!sd.tenantID) hc.findings.problem(`${path}.tenantID`, 'is required with the OAuth authentication method');
      if (!sd.clientID) hc.findings.problem(`${path}.clientID`, 'is required with the OAuth authentication method');
      if (!sd.clientSecret) hc.findings.problem(`${path}.clientSecret`, 'is required with the OAuth authentication method');
    }
    client.basicAuth(entry);
    client.authorization(entry);
    client.oauth2(entry);
    client.proxy(entry);
    put(entry, 'environment', sd.environment);
    put(entry, 'authentication_method', sd.authenticationMethod);
    put(entry, 'subscription_id', sd.subscriptionID);
    put(entry, 'tenant_id', sd.tenantID);
    put(entry, 'client_id', sd.clientID);
    if (sd.clientSecret) entry.client_secret = readSecretKey(sd.clientSecret, `${path}.clientSecret`, hc) ?? '';
    put(entry, 'resource_group', sd.resourceGroup);
    put(entry, 'refresh_interval', sd.refreshInterval);
    put(entry, 'port', sd.port);
    client.followRedirects(entry);
    client.enableHttp2(entry);
    client.tls(entry);
    return entry;
  },
});
