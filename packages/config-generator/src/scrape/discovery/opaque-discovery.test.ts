/**
 * The discovery kinds whose CRD lists are opaque (EC2, Azure, GCE, OpenStack, DigitalOcean, Kuma, Eureka, Docker,
 * Linode, Hetzner, Nomad, Docker Swarm, PuppetDB, Lightsail, OVHcloud, Scaleway, IONOS): goldens under test/golden/scrape/sd-*.yaml in prometheus-operator v0.93's key order, accepted by
 * the real promtool; the checks the CRD would make at `kubectl apply` and Prometheus makes when it loads them, each
 * at its field path; credentials read only from the ScrapeConfig's namespace and never echoed.
 */
import type { ScrapeConfig } from '@promop/crds';
import { renderScrapeConfig } from '../scrape-config.ts';
import { SecretStore } from '../../secret-store.ts';
import { describeGoldens, TEST_CONFIG_MAPS, TEST_SECRETS, testContext, type GoldenCaseBase } from '../../test-support/scrape-harness.ts';

function scrapeConfig(spec: Record<string, unknown>, namespace = 'default'): ScrapeConfig {
  return { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'ScrapeConfig', metadata: { name: 'sd', namespace }, spec: spec as ScrapeConfig['spec'] };
}

const creds = (key: string) => ({ name: 'creds', key });
const basicAuth = { username: creds('user'), password: creds('password') };
const bearer = { credentials: creds('token') };
const ca = { ca: { secret: { name: 'tls', key: 'ca.crt' } } };
const oauth2 = { clientId: { secret: creds('client-id') }, clientSecret: creds('client-secret'), tokenUrl: 'https://auth.example.com/token', scopes: ['sd'] };
const proxy = { proxyUrl: 'http://proxy.example.com:3128', noProxy: 'localhost' };

// Scaleway's client refuses a secret key that is not a UUID when Prometheus loads the file.
const SCALEWAY_SECRET = '0b6a4b52-0f0e-4f3c-9d1a-7c5e2f1a3b4c';
const withScalewaySecret = {
  secrets: new SecretStore([...TEST_SECRETS, { namespace: 'default', name: 'scaleway', data: { 'secret-key': SCALEWAY_SECRET, empty: '' } }], TEST_CONFIG_MAPS),
};

interface GoldenCase extends GoldenCaseBase {
  spec: Record<string, unknown>;
}

const cases: GoldenCase[] = [
  {
    name: 'sd-ec2',
    spec: {
      ec2SDConfigs: [
        {
          region: 'eu-west-1', accessKey: creds('user'), secretKey: creds('password'), roleARN: 'arn:aws:iam::123456789012:role/prometheus', port: 9100, refreshInterval: '1m',
          filters: [{ name: 'tag:team', values: ['a', 'b'] }, { name: 'instance-state-name', values: ['running'] }], ...proxy, followRedirects: false, enableHTTP2: true, tlsConfig: ca,
        },
        {},
      ],
    },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    // Filters (2.3) are kept; the HTTP client settings (2.41) are dropped with a warning, as prometheus-operator does.
    name: 'sd-ec2-v2.40',
    spec: { ec2SDConfigs: [{ region: 'us-east-1', filters: [{ name: 'tag:a', values: ['x'] }], followRedirects: true, tlsConfig: { serverName: 'ec2' } }] },
    version: 'v2.40.0',
    warnings: [
      'spec.ec2SDConfigs[0].followRedirects: ignored because Prometheus v2.40.0 does not support "follow_redirects" (needs v2.41.0 or later)',
      'spec.ec2SDConfigs[0].tlsConfig: ignored because Prometheus v2.40.0 does not support "tls_config" (needs v2.41.0 or later)',
    ],
  },
  {
    name: 'sd-azure',
    spec: {
      azureSDConfigs: [
        { subscriptionID: '11111111-2222', tenantID: 'tenant', clientID: 'client', clientSecret: creds('client-secret'), resourceGroup: 'rg', refreshInterval: '5m', port: 9100, ...proxy, tlsConfig: ca, followRedirects: true, enableHTTP2: false },
        { environment: 'AzureChinaCloud', authenticationMethod: 'ManagedIdentity', subscriptionID: '3333', clientID: 'identity' },
        { authenticationMethod: 'SDK', subscriptionID: '4444' },
        { authenticationMethod: 'WorkloadIdentity', subscriptionID: '5555', oauth2 },
      ],
    },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    name: 'sd-openstack',
    spec: {
      openstackSDConfigs: [
        {
          role: 'Instance', region: 'RegionOne', identityEndpoint: 'https://keystone.example.com:5000/v3', username: 'prometheus', userid: 'u-1', password: creds('password'),
          domainName: 'Default', domainID: 'd-1', projectName: 'monitoring', projectID: 'p-1', applicationCredentialName: 'sd', applicationCredentialId: 'ac-1',
          applicationCredentialSecret: creds('client-secret'), allTenants: true, refreshInterval: '2m', port: 9100, availability: 'internal', tlsConfig: ca,
        },
        { role: 'Hypervisor', region: 'RegionTwo' },
        { role: 'LoadBalancer', region: 'RegionOne', availability: 'admin' },
      ],
    },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  { name: 'sd-gce', spec: { gceSDConfigs: [{ project: 'my-project', zone: 'europe-west1-b', filter: 'labels.team=a', refreshInterval: '2m', port: 9100, tagSeparator: ';' }, { project: 'p', zone: 'z' }] } },
  {
    name: 'sd-digitalocean',
    spec: { digitalOceanSDConfigs: [{ authorization: bearer, ...proxy, followRedirects: true, enableHTTP2: true, tlsConfig: ca, port: 9100, refreshInterval: '1m' }, { oauth2 }] },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    name: 'sd-kuma',
    spec: { kumaSDConfigs: [{ server: 'https://kuma-control-plane.kuma-system:5676', clientID: 'prometheus', refreshInterval: '30s', fetchTimeout: '2m', basicAuth, ...proxy, tlsConfig: ca, followRedirects: false, enableHTTP2: true }, { server: 'http://kuma:5676', authorization: bearer }] },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    name: 'sd-eureka',
    spec: { eurekaSDConfigs: [{ server: 'http://eureka.example.com:8761/eureka', basicAuth, tlsConfig: ca, ...proxy, followRedirects: true, enableHTTP2: false, refreshInterval: '30s' }, { server: 'https://eureka', oauth2 }] },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    name: 'sd-docker',
    spec: {
      dockerSDConfigs: [
        {
          host: 'tcp://docker.example.com:2376', port: 9100, hostNetworkingHost: 'node-1', matchFirstNetwork: false, filters: [{ name: 'label', values: ['prometheus=true'] }, { name: 'health', values: ['healthy'] }],
          refreshInterval: '1m', authorization: bearer, tlsConfig: ca, ...proxy, followRedirects: true, enableHTTP2: false,
        },
        { host: 'unix:///var/run/docker.sock', basicAuth },
      ],
    },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    name: 'sd-linode',
    spec: { linodeSDConfigs: [{ region: 'eu-west', port: 9100, tagSeparator: ';', refreshInterval: '1m', authorization: bearer, ...proxy, tlsConfig: ca, followRedirects: true, enableHTTP2: true }, { oauth2 }] },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    name: 'sd-hetzner',
    spec: { hetznerSDConfigs: [{ role: 'Hcloud', authorization: bearer, port: 9100, refreshInterval: '1m', labelSelector: 'env=prod', ...proxy, tlsConfig: ca, followRedirects: true, enableHTTP2: false }, { role: 'robot', basicAuth }] },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    name: 'sd-nomad',
    spec: {
      nomadSDConfigs: [
        { server: 'https://nomad.example.com:4646', allowStale: false, namespace: 'apps', region: 'eu', tagSeparator: ';', refreshInterval: '30s', authorization: bearer, ...proxy, tlsConfig: ca, followRedirects: true, enableHTTP2: true },
        { server: 'http://nomad:4646', basicAuth },
      ],
    },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    name: 'sd-dockerswarm',
    spec: {
      dockerSwarmSDConfigs: [
        {
          host: 'tcp://swarm.example.com:2376', role: 'Tasks', port: 9100, filters: [{ name: 'label', values: ['prometheus=true'] }, { name: 'desired-state', values: ['running'] }],
          refreshInterval: '1m', basicAuth, tlsConfig: ca, ...proxy, followRedirects: true, enableHTTP2: false,
        },
        { host: 'unix:///var/run/docker.sock', role: 'Nodes', authorization: bearer },
        { host: 'http://swarm:2375', role: 'Services', oauth2 },
      ],
    },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    name: 'sd-puppetdb',
    spec: {
      puppetDBSDConfigs: [
        { url: 'https://puppetdb.example.com:8081', query: 'resources { type = "Class" and title = "Prometheus::Node_exporter" }', includeParameters: true, port: 9100, refreshInterval: '1m', basicAuth, tlsConfig: ca, ...proxy, followRedirects: true, enableHTTP2: false },
        { url: 'http://puppetdb:8080', query: 'nodes {}', authorization: bearer },
      ],
    },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    name: 'sd-lightsail',
    spec: {
      lightSailSDConfigs: [
        { region: 'eu-west-1', endpoint: 'https://lightsail.eu-west-1.amazonaws.com', accessKey: creds('user'), secretKey: creds('password'), roleARN: 'arn:aws:iam::123456789012:role/prometheus', port: 9100, refreshInterval: '1m', ...proxy, tlsConfig: ca, followRedirects: true, enableHTTP2: false },
        {},
        { authorization: bearer },
      ],
    },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    name: 'sd-ovhcloud',
    spec: {
      ovhcloudSDConfigs: [
        { applicationKey: 'app-key', applicationSecret: creds('client-secret'), consumerKey: creds('token'), service: 'VPS', endpoint: 'ovh-ca', refreshInterval: '2m' },
        { applicationKey: 'app-key', applicationSecret: creds('client-secret'), consumerKey: creds('token'), service: 'DedicatedServer' },
      ],
    },
  },
  {
    name: 'sd-scaleway',
    spec: {
      scalewaySDConfigs: [
        {
          accessKey: 'SCW0123456789ABCDEFG', secretKey: { name: 'scaleway', key: 'secret-key' }, projectID: '11111111-2222-3333-4444-555555555555', role: 'Instance', port: 9100, apiURL: 'https://api.scaleway.com',
          zone: 'nl-ams-1', nameFilter: 'web', tagsFilter: ['prometheus', 'prod'], refreshInterval: '1m', ...proxy, tlsConfig: ca, followRedirects: true, enableHTTP2: false,
        },
        { accessKey: 'SCW0123456789ABCDEFG', secretKey: { name: 'scaleway', key: 'secret-key' }, projectID: '11111111-2222-3333-4444-555555555555', role: 'Baremetal' },
      ],
    },
    ctx: withScalewaySecret,
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    // With OAuth2 the required authorization is left out, as prometheus-operator does.
    name: 'sd-ionos',
    spec: {
      ionosSDConfigs: [
        { datacenterID: '8feda53f-15f0-447f-badf-ebe32dad2fc0', port: 9100, refreshInterval: '1m', authorization: bearer, ...proxy, tlsConfig: ca, followRedirects: true, enableHTTP2: false },
        { datacenterID: 'dc-2', authorization: { credentials: { name: 'absent', key: 'token' } }, oauth2 },
      ],
    },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
  {
    // The oldest release where each kind exists without its newer fields.
    name: 'sd-oldest-releases',
    spec: {
      kumaSDConfigs: [{ server: 'http://kuma:5676' }],
      eurekaSDConfigs: [{ server: 'http://eureka:8761' }],
      dockerSDConfigs: [{ host: 'unix:///var/run/docker.sock' }],
      linodeSDConfigs: [{ authorization: bearer }],
      hetznerSDConfigs: [{ role: 'hcloud', authorization: bearer }],
      nomadSDConfigs: [{ server: 'http://nomad:4646' }],
      openstackSDConfigs: [{ role: 'Instance', region: 'r', availability: 'public', allTenants: false, applicationCredentialId: 'a', applicationCredentialSecret: creds('client-secret') }],
      dockerSwarmSDConfigs: [{ host: 'unix:///var/run/docker.sock', role: 'Services', filters: [{ name: 'name', values: ['web'] }] }],
      puppetDBSDConfigs: [{ url: 'http://puppetdb:8080', query: 'nodes {}' }],
      ionosSDConfigs: [{ datacenterID: 'dc', authorization: bearer }],
      lightSailSDConfigs: [{ region: 'us-east-1', accessKey: creds('user'), secretKey: creds('password') }],
      scalewaySDConfigs: [{ accessKey: 'SCW0123456789ABCDEFG', secretKey: { name: 'scaleway', key: 'secret-key' }, projectID: '11111111-2222-3333-4444-555555555555', role: 'Instance' }],
    },
    ctx: withScalewaySecret,
    version: 'v2.37.0',
  },
];

describeGoldens('opaque discovery goldens', cases, (c, ctx) => renderScrapeConfig(scrapeConfig(c.spec), ctx));

describe('an opaque discovery entry with bad input', () => {
  const problems = (spec: Record<string, unknown>, version = '', namespace = 'default') => {
    const result = renderScrapeConfig(scrapeConfig(spec, namespace), testContext({}, version));
    return result.ok ? [] : result.problems;
  };

  it.each([
    ['an unknown field', { ec2SDConfigs: [{ regoin: 'eu-west-1' }] }, '', 'spec.ec2SDConfigs[0].regoin', 'is not a field of EC2 discovery'],
    ['a port out of range', { gceSDConfigs: [{ project: 'p', zone: 'z', port: 70000 }] }, '', 'spec.gceSDConfigs[0].port', 'from 0 to 65535'],
    ['a missing GCE zone', { gceSDConfigs: [{ project: 'p' }] }, '', 'spec.gceSDConfigs[0].zone', 'is required by GCE discovery'],
    ['a refresh interval that is not a duration', { digitalOceanSDConfigs: [{ refreshInterval: 'often' }] }, '', 'spec.digitalOceanSDConfigs[0].refreshInterval', 'must be a duration'],
    ['an access key without its secret', { ec2SDConfigs: [{ accessKey: creds('user') }] }, '', 'spec.ec2SDConfigs[0].secretKey', 'must be set together'],
    ['an EC2 filter without values', { ec2SDConfigs: [{ filters: [{ name: 'tag:a', values: [] }] }] }, '', 'spec.ec2SDConfigs[0].filters', 'needs at least one value'],
    ['Azure OAuth without a client secret', { azureSDConfigs: [{ subscriptionID: 's', tenantID: 't', clientID: 'c' }] }, '', 'spec.azureSDConfigs[0].clientSecret', 'required with the OAuth authentication method'],
    ['Azure without a subscription', { azureSDConfigs: [{ authenticationMethod: 'ManagedIdentity' }] }, '', 'spec.azureSDConfigs[0].subscriptionID', 'is required by Azure discovery'],
    ['an unknown Azure authentication method', { azureSDConfigs: [{ subscriptionID: 's', authenticationMethod: 'Password' }] }, '', 'spec.azureSDConfigs[0].authenticationMethod', 'must be one of: OAuth, ManagedIdentity, SDK, WorkloadIdentity'],
    ['an unknown Azure cloud', { azureSDConfigs: [{ subscriptionID: 's', authenticationMethod: 'SDK', environment: 'AzureMoon' }] }, '', 'spec.azureSDConfigs[0].environment', 'not an Azure cloud Prometheus knows'],
    ['WorkloadIdentity before Prometheus 3.11', { azureSDConfigs: [{ subscriptionID: 's', authenticationMethod: 'WorkloadIdentity' }] }, 'v3.10.0', 'spec.azureSDConfigs[0].authenticationMethod', 'needs Prometheus v3.11.0 or later'],
    ['a resource group before Prometheus 2.35', { azureSDConfigs: [{ subscriptionID: 's', authenticationMethod: 'ManagedIdentity', resourceGroup: 'rg' }] }, 'v2.34.0', 'spec.azureSDConfigs[0].resourceGroup', 'needs Prometheus v2.35.0'],
    ['DigitalOcean before Prometheus 2.20', { digitalOceanSDConfigs: [{}] }, 'v2.19.0', 'spec.digitalOceanSDConfigs', 'DigitalOcean service discovery needs Prometheus v2.20.0'],
    ['Nomad before Prometheus 2.37', { nomadSDConfigs: [{ server: 'http://nomad:4646' }] }, 'v2.36.0', 'spec.nomadSDConfigs', 'needs Prometheus v2.37.0'],
    ['a Kuma server that is not a URL', { kumaSDConfigs: [{ server: 'kuma:5676' }] }, '', 'spec.kumaSDConfigs[0].server', 'http:// or https:// URL'],
    ['a Eureka server without a host', { eurekaSDConfigs: [{ server: 'http:///eureka' }] }, '', 'spec.eurekaSDConfigs[0].server', 'has no host'],
    ['a missing Nomad server', { nomadSDConfigs: [{ region: 'eu' }] }, '', 'spec.nomadSDConfigs[0].server', 'is required by Nomad discovery'],
    ['a Kuma clientID before Prometheus 2.50', { kumaSDConfigs: [{ server: 'http://kuma:5676', clientID: 'p' }] }, 'v2.49.0', 'spec.kumaSDConfigs[0].clientID', 'needs Prometheus v2.50.0'],
    ['a Docker host without a scheme', { dockerSDConfigs: [{ host: 'docker:2375' }] }, '', 'spec.dockerSDConfigs[0].host', 'daemon address with a scheme'],
    ['matchFirstNetwork before Prometheus 2.54.1', { dockerSDConfigs: [{ host: 'unix:///d.sock', matchFirstNetwork: true }] }, 'v2.54.0', 'spec.dockerSDConfigs[0].matchFirstNetwork', 'needs Prometheus v2.54.1'],
    ['a Linode region before Prometheus 2.52', { linodeSDConfigs: [{ region: 'eu' }] }, 'v2.51.0', 'spec.linodeSDConfigs[0].region', 'needs Prometheus v2.52.0'],
    ['an unknown Hetzner role', { hetznerSDConfigs: [{ role: 'cloud' }] }, '', 'spec.hetznerSDConfigs[0].role', 'must be one of: hcloud, Hcloud, robot, Robot'],
    ['a Hetzner label selector before Prometheus 3.5', { hetznerSDConfigs: [{ role: 'hcloud', labelSelector: 'a=b' }] }, 'v3.4.0', 'spec.hetznerSDConfigs[0].labelSelector', 'needs Prometheus v3.5.0'],
    ['basic auth where the kind has none', { linodeSDConfigs: [{ basicAuth }] }, '', 'spec.linodeSDConfigs[0].basicAuth', 'is not a field of Linode discovery'],
    ['two authentication methods', { kumaSDConfigs: [{ server: 'http://kuma:5676', basicAuth, authorization: bearer }] }, '', 'spec.kumaSDConfigs[0]', 'only one authentication method'],
    ['a TLS field the CRD does not have', { eurekaSDConfigs: [{ server: 'http://e:1', tlsConfig: { caFile: '/etc/ca.crt' } }] }, '', 'spec.eurekaSDConfigs[0].tlsConfig.caFile', 'is not a known field'],
    ['a proxy URL that is not a URL', { nomadSDConfigs: [{ server: 'http://n:1', proxyUrl: 'proxy:3128' }] }, '', 'spec.nomadSDConfigs[0].proxyUrl', 'socks5'],
    ['a missing credentials Secret', { hetznerSDConfigs: [{ role: 'hcloud', authorization: { credentials: { name: 'absent', key: 'token' } } }] }, '', 'spec.hetznerSDConfigs[0].authorization.credentials', 'absent'],
    ['an entry that is not an object', { gceSDConfigs: ['my-project'] }, '', 'spec.gceSDConfigs[0]', 'must be an object'],
    ['a missing OpenStack region', { openstackSDConfigs: [{ role: 'Instance' }] }, '', 'spec.openstackSDConfigs[0].region', 'is required by OpenStack discovery'],
    ['an empty OpenStack region', { openstackSDConfigs: [{ role: 'Instance', region: '' }] }, '', 'spec.openstackSDConfigs[0].region', 'must not be empty'],
    ['an unknown OpenStack role', { openstackSDConfigs: [{ role: 'instance', region: 'r' }] }, '', 'spec.openstackSDConfigs[0].role', 'must be one of: Instance, Hypervisor, LoadBalancer'],
    ['the LoadBalancer role before Prometheus 3.2', { openstackSDConfigs: [{ role: 'LoadBalancer', region: 'r' }] }, 'v3.1.0', 'spec.openstackSDConfigs[0].role', 'needs Prometheus v3.2.0'],
    ['a capitalised OpenStack availability Prometheus refuses', { openstackSDConfigs: [{ role: 'Instance', region: 'r', availability: 'Public' }] }, '', 'spec.openstackSDConfigs[0].availability', 'only the lower-case spelling: use public'],
    ['an OpenStack availability before Prometheus 2.20', { openstackSDConfigs: [{ role: 'Instance', region: 'r', availability: 'public' }] }, 'v2.19.0', 'spec.openstackSDConfigs[0].availability', 'needs Prometheus v2.20.0'],
    ['an application credential before Prometheus 2.7', { openstackSDConfigs: [{ role: 'Instance', region: 'r', applicationCredentialId: 'a' }] }, 'v2.6.0', 'spec.openstackSDConfigs[0].applicationCredentialId', 'needs Prometheus v2.7.0'],
    ['an identity endpoint that is not a URL', { openstackSDConfigs: [{ role: 'Instance', region: 'r', identityEndpoint: 'keystone:5000' }] }, '', 'spec.openstackSDConfigs[0].identityEndpoint', 'http:// or https:// URL'],
    ['an HTTP client field OpenStack does not have', { openstackSDConfigs: [{ role: 'Instance', region: 'r', proxyUrl: 'http://p:1' }] }, '', 'spec.openstackSDConfigs[0].proxyUrl', 'is not a field of OpenStack discovery'],
    ['a missing OpenStack password Secret', { openstackSDConfigs: [{ role: 'Instance', region: 'r', password: { name: 'absent', key: 'password' } }] }, '', 'spec.openstackSDConfigs[0].password', 'absent'],
    ['a missing Docker Swarm role', { dockerSwarmSDConfigs: [{ host: 'unix:///d.sock' }] }, '', 'spec.dockerSwarmSDConfigs[0].role', 'is required by Docker Swarm discovery'],
    ['an unknown Docker Swarm role', { dockerSwarmSDConfigs: [{ host: 'unix:///d.sock', role: 'containers' }] }, '', 'spec.dockerSwarmSDConfigs[0].role', 'must be one of: Services, Tasks, Nodes'],
    ['a Docker Swarm host without a scheme', { dockerSwarmSDConfigs: [{ host: 'swarm:2375', role: 'Nodes' }] }, '', 'spec.dockerSwarmSDConfigs[0].host', 'daemon address with a scheme'],
    ['a Docker Swarm host Go cannot parse', { dockerSwarmSDConfigs: [{ host: 'tcp://swarm:port', role: 'Nodes' }] }, '', 'spec.dockerSwarmSDConfigs[0].host', 'invalid port'],
    ['Docker Swarm before Prometheus 2.20', { dockerSwarmSDConfigs: [{ host: 'unix:///d.sock', role: 'Nodes' }] }, 'v2.19.0', 'spec.dockerSwarmSDConfigs', 'Docker Swarm service discovery needs Prometheus v2.20.0'],
    ['Docker Swarm filters before Prometheus 2.23', { dockerSwarmSDConfigs: [{ host: 'unix:///d.sock', role: 'Nodes', filters: [{ name: 'role', values: ['manager'] }] }] }, 'v2.22.0', 'spec.dockerSwarmSDConfigs[0].filters', 'needs Prometheus v2.23.0'],
    ['a repeated Docker Swarm filter name', { dockerSwarmSDConfigs: [{ host: 'unix:///d.sock', role: 'Nodes', filters: [{ name: 'role', values: ['a'] }, { name: 'role', values: ['b'] }] }] }, '', 'spec.dockerSwarmSDConfigs[0].filters', 'repeats the filter name'],
    ['a PuppetDB URL without a host', { puppetDBSDConfigs: [{ url: 'http:///pdb', query: 'nodes {}' }] }, '', 'spec.puppetDBSDConfigs[0].url', 'has no host'],
    ['a PuppetDB URL that is not http(s)', { puppetDBSDConfigs: [{ url: 'ftp://pdb', query: 'nodes {}' }] }, '', 'spec.puppetDBSDConfigs[0].url', 'http:// or https:// URL'],
    ['a missing PuppetDB query', { puppetDBSDConfigs: [{ url: 'http://pdb:8080' }] }, '', 'spec.puppetDBSDConfigs[0].query', 'is required by PuppetDB discovery'],
    ['PuppetDB before Prometheus 2.31', { puppetDBSDConfigs: [{ url: 'http://pdb:8080', query: 'nodes {}' }] }, 'v2.30.0', 'spec.puppetDBSDConfigs', 'PuppetDB service discovery needs Prometheus v2.31.0'],
    ['a Lightsail secret key without its access key', { lightSailSDConfigs: [{ secretKey: creds('password') }] }, '', 'spec.lightSailSDConfigs[0].accessKey', 'must be set together'],
    ['a Lightsail HTTP client setting before Prometheus 2.41', { lightSailSDConfigs: [{ region: 'r', tlsConfig: ca }] }, 'v2.40.0', 'spec.lightSailSDConfigs[0]', 'needs Prometheus v2.41.0'],
    ['Lightsail before Prometheus 2.27', { lightSailSDConfigs: [{ region: 'r' }] }, 'v2.26.0', 'spec.lightSailSDConfigs', 'Lightsail service discovery needs Prometheus v2.27.0'],
    ['a missing OVHcloud consumer key', { ovhcloudSDConfigs: [{ applicationKey: 'k', applicationSecret: creds('client-secret'), service: 'VPS' }] }, '', 'spec.ovhcloudSDConfigs[0].consumerKey', 'is required by OVHcloud discovery'],
    ['an unknown OVHcloud service', { ovhcloudSDConfigs: [{ applicationKey: 'k', applicationSecret: creds('client-secret'), consumerKey: creds('token'), service: 'vps' }] }, '', 'spec.ovhcloudSDConfigs[0].service', 'must be one of: VPS, DedicatedServer'],
    ['an OVHcloud HTTP client field', { ovhcloudSDConfigs: [{ applicationKey: 'k', applicationSecret: creds('client-secret'), consumerKey: creds('token'), service: 'VPS', tlsConfig: ca }] }, '', 'spec.ovhcloudSDConfigs[0].tlsConfig', 'is not a field of OVHcloud discovery'],
    ['OVHcloud before Prometheus 2.40', { ovhcloudSDConfigs: [{ applicationKey: 'k', applicationSecret: creds('client-secret'), consumerKey: creds('token'), service: 'VPS' }] }, 'v2.39.0', 'spec.ovhcloudSDConfigs', 'OVHcloud service discovery needs Prometheus v2.40.0'],
    ['a missing Scaleway project', { scalewaySDConfigs: [{ accessKey: 'SCW0123456789ABCDEFG', secretKey: creds('password'), role: 'Instance' }] }, '', 'spec.scalewaySDConfigs[0].projectID', 'is required by Scaleway discovery'],
    ['a malformed Scaleway access key', { scalewaySDConfigs: [{ accessKey: 'scw-key', secretKey: creds('password'), projectID: '11111111-2222-3333-4444-555555555555', role: 'Instance' }] }, '', 'spec.scalewaySDConfigs[0].accessKey', 'SCW and 17 upper-case letters or digits'],
    ['a Scaleway project ID that is not a UUID', { scalewaySDConfigs: [{ accessKey: 'SCW0123456789ABCDEFG', secretKey: creds('password'), projectID: 'my-project', role: 'Instance' }] }, '', 'spec.scalewaySDConfigs[0].projectID', 'UUID form'],
    ['a Scaleway secret key that is not a UUID', { scalewaySDConfigs: [{ accessKey: 'SCW0123456789ABCDEFG', secretKey: creds('password'), projectID: '11111111-2222-3333-4444-555555555555', role: 'Instance' }] }, '', 'spec.scalewaySDConfigs[0].secretKey', 'does not hold a Scaleway secret key'],
    ['an unknown Scaleway zone', { scalewaySDConfigs: [{ accessKey: 'SCW0123456789ABCDEFG', secretKey: creds('password'), projectID: '11111111-2222-3333-4444-555555555555', role: 'Instance', zone: 'paris' }] }, '', 'spec.scalewaySDConfigs[0].zone', 'such as fr-par-1'],
    ['a Scaleway API URL with a trailing slash', { scalewaySDConfigs: [{ accessKey: 'SCW0123456789ABCDEFG', secretKey: creds('password'), projectID: '11111111-2222-3333-4444-555555555555', role: 'Instance', apiURL: 'https://api.scaleway.com/' }] }, '', 'spec.scalewaySDConfigs[0].apiURL', 'must not end with a slash'],
    ['an unknown Scaleway role', { scalewaySDConfigs: [{ accessKey: 'SCW0123456789ABCDEFG', secretKey: creds('password'), projectID: '11111111-2222-3333-4444-555555555555', role: 'instance' }] }, '', 'spec.scalewaySDConfigs[0].role', 'must be one of: Instance, Baremetal'],
    ['Scaleway basic auth, which it does not have', { scalewaySDConfigs: [{ accessKey: 'SCW0123456789ABCDEFG', secretKey: creds('password'), projectID: '11111111-2222-3333-4444-555555555555', role: 'Instance', basicAuth }] }, '', 'spec.scalewaySDConfigs[0].basicAuth', 'is not a field of Scaleway discovery'],
    ['a missing IONOS data center', { ionosSDConfigs: [{ authorization: bearer }] }, '', 'spec.ionosSDConfigs[0].datacenterID', 'is required by IONOS discovery'],
    ['a missing IONOS authorization', { ionosSDConfigs: [{ datacenterID: 'd', oauth2 }] }, '', 'spec.ionosSDConfigs[0].authorization', 'is required by IONOS discovery'],
    ['IONOS basic auth, which it does not have', { ionosSDConfigs: [{ datacenterID: 'd', authorization: bearer, basicAuth }] }, '', 'spec.ionosSDConfigs[0].basicAuth', 'is not a field of IONOS discovery'],
    ['IONOS before Prometheus 2.36', { ionosSDConfigs: [{ datacenterID: 'd', authorization: bearer }] }, 'v2.35.0', 'spec.ionosSDConfigs', 'IONOS service discovery needs Prometheus v2.36.0'],
    ['a missing IONOS token Secret', { ionosSDConfigs: [{ datacenterID: 'd', authorization: { credentials: { name: 'absent', key: 'token' } } }] }, '', 'spec.ionosSDConfigs[0].authorization.credentials', 'absent'],
  ] as const)('with %s is rejected at its path', (_what, spec, version, path, words) => {
    const found = problems(spec as Record<string, unknown>, version);
    const problem = found.find((p) => p.path === path);
    expect(problem?.message ?? JSON.stringify(found)).toContain(words);
  });

  it('refuses an OVHcloud or Scaleway Secret key that holds an empty value, which Prometheus refuses to load', () => {
    const spec = {
      ovhcloudSDConfigs: [{ applicationKey: 'k', applicationSecret: { name: 'scaleway', key: 'empty' }, consumerKey: creds('token'), service: 'VPS' }],
      scalewaySDConfigs: [{ accessKey: 'SCW0123456789ABCDEFG', secretKey: { name: 'scaleway', key: 'empty' }, projectID: '11111111-2222-3333-4444-555555555555', role: 'Instance' }],
    };
    const result = renderScrapeConfig(scrapeConfig(spec), testContext(withScalewaySecret));
    expect(result.ok ? [] : result.problems).toEqual([
      { path: 'spec.ovhcloudSDConfigs[0].applicationSecret', message: 'the Secret key is empty, and Prometheus refuses an empty value here' },
      { path: 'spec.scalewaySDConfigs[0].secretKey', message: 'the Secret key is empty, and Prometheus refuses an empty value here' },
    ]);
  });

  it('never puts a credential value into a problem', () => {
    const found = problems({
      ec2SDConfigs: [{ accessKey: creds('user'), secretKey: creds('password'), port: -1 }],
      azureSDConfigs: [{ subscriptionID: 's', clientSecret: creds('client-secret'), environment: 'nowhere' }],
      kumaSDConfigs: [{ server: 'http://k:1', basicAuth, authorization: bearer }],
      // A credential typed inline where a reference belongs is refused without being repeated.
      nomadSDConfigs: [{ server: 'http://n:1', basicAuth: { username: creds('user'), password: 's3cret' } }],
      dockerSDConfigs: [{ host: 'unix:///d', authorization: { credentials: 'tok3n' }, apiKey: 'cl1ent' }],
      openstackSDConfigs: [{ role: 'Instance', region: 'r', password: 's3cret', applicationCredentialSecret: creds('client-secret'), availability: 'nowhere' }],
      dockerSwarmSDConfigs: [{ host: 'unix:///d', role: 'Nodes', oauth2: { ...oauth2, clientSecret: 'cl1ent' } }],
      // A Scaleway secret key that is not a UUID is refused without being repeated.
      scalewaySDConfigs: [{ accessKey: 'SCW0123456789ABCDEFG', secretKey: creds('password'), projectID: '11111111-2222-3333-4444-555555555555', role: 'Instance' }],
      lightSailSDConfigs: [{ accessKey: 's3cret' }],
      ovhcloudSDConfigs: [{ applicationKey: 'k', applicationSecret: 'cl1ent', consumerKey: creds('token'), service: 'VPS' }],
      puppetDBSDConfigs: [{ url: 'http://pdb:1', query: 'q', basicAuth: { username: creds('user'), password: 's3cret' } }],
      ionosSDConfigs: [{ datacenterID: 'd', authorization: { credentials: 'tok3n' } }],
    });
    expect(found.length).toBeGreaterThan(0);
    expect(JSON.stringify(found)).not.toMatch(/s3cret|tok3n|cl1ent|alice/);
  });

  it('never reads a Secret of another namespace: the same references from namespace "other" find nothing there', () => {
    const found = problems(
      {
        ec2SDConfigs: [{ accessKey: creds('user'), secretKey: creds('password') }],
        eurekaSDConfigs: [{ server: 'http://e:1', basicAuth }],
        azureSDConfigs: [{ subscriptionID: 's', tenantID: 't', clientID: 'c', clientSecret: creds('client-secret') }],
        openstackSDConfigs: [{ role: 'Instance', region: 'r', password: creds('password'), applicationCredentialSecret: creds('client-secret') }],
        dockerSwarmSDConfigs: [{ host: 'unix:///d', role: 'Nodes', basicAuth }],
        puppetDBSDConfigs: [{ url: 'http://pdb:1', query: 'q', authorization: bearer }],
        lightSailSDConfigs: [{ accessKey: creds('user'), secretKey: creds('password') }],
        ovhcloudSDConfigs: [{ applicationKey: 'k', applicationSecret: creds('client-secret'), consumerKey: creds('token'), service: 'VPS' }],
        scalewaySDConfigs: [{ accessKey: 'SCW0123456789ABCDEFG', secretKey: creds('password'), projectID: '11111111-2222-3333-4444-555555555555', role: 'Instance' }],
        ionosSDConfigs: [{ datacenterID: 'd', authorization: bearer }],
      },
      '',
      'other',
    );
    expect(found.map((p) => p.path)).toEqual(
      expect.arrayContaining([
        'spec.ec2SDConfigs[0].secretKey', 'spec.eurekaSDConfigs[0].basicAuth.password', 'spec.azureSDConfigs[0].clientSecret', 'spec.openstackSDConfigs[0].password', 'spec.openstackSDConfigs[0].applicationCredentialSecret', 'spec.dockerSwarmSDConfigs[0].basicAuth.password',
        'spec.puppetDBSDConfigs[0].authorization.credentials', 'spec.lightSailSDConfigs[0].secretKey', 'spec.ovhcloudSDConfigs[0].applicationSecret', 'spec.ovhcloudSDConfigs[0].consumerKey',
        'spec.scalewaySDConfigs[0].secretKey', 'spec.ionosSDConfigs[0].authorization.credentials',
      ]),
    );
    expect(JSON.stringify(found)).not.toMatch(/mallory|s3cret|cl1ent/);
  });
});
