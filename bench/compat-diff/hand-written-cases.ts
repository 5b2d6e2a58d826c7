/**
 * Hand-written cases: every Probe and ScrapeConfig field at least once (prober settings, static and Ingress targets
 * with relabelings, auth and TLS from Secrets, limits, scrape classes, metricRelabelings, each discovery kind promop
 * renders), and ServiceMonitor/PodMonitor/Prometheus settings where the two generators are most likely to part.
 * References point at the planted Secrets `creds` and `tls` and ConfigMap `ca` (planted-objects.ts).
 */
import { podMonitor, probe, scrapeConfig, serviceMonitor, type CompatCase } from './case.ts';

const creds = (key: string) => ({ name: 'creds', key });
const tls = (key: string) => ({ name: 'tls', key });
const prober = { url: 'blackbox-exporter:9115' };
const relabel = [
  { sourceLabels: ['__address__'], targetLabel: 'target_host', regex: '([^:]+)(?::\\d+)?', replacement: '$1', action: 'replace' },
  { targetLabel: 'team', replacement: 'a' },
  { sourceLabels: ['__meta_x'], regex: 'drop-me', action: 'drop' },
];
const metricRelabel = [{ sourceLabels: ['__name__'], regex: 'go_.*', action: 'drop' }, { regex: 'pod_(.+)', action: 'labelmap', replacement: 'p_$1' }];
const fullTls = { ca: { secret: tls('ca.crt') }, cert: { secret: tls('tls.crt') }, keySecret: tls('tls.key'), serverName: 'example.com', insecureSkipVerify: true, minVersion: 'TLS12', maxVersion: 'TLS13' };
const caFromConfigMap = { ca: { configMap: { name: 'ca', key: 'ca.crt' } } };
const oauth2 = {
  clientId: { secret: creds('client-id') },
  clientSecret: creds('client-secret'),
  tokenUrl: 'https://auth.example.com/token',
  scopes: ['a', 'b'],
  endpointParams: { audience: 'x' },
  tlsConfig: caFromConfigMap,
};
const scrapeClasses = [
  { name: 'default-class', default: true, relabelings: [{ targetLabel: 'cluster', replacement: 'c1' }], metricRelabelings: [{ sourceLabels: ['__name__'], regex: 'x_.*', action: 'drop' }], tlsConfig: { insecureSkipVerify: true } },
  { name: 'authorized', authorization: { type: 'Bearer', credentials: creds('token') }, attachMetadata: { node: true } },
];

const probeCases: CompatCase[] = [
  { name: 'probe-static-minimal', objects: [probe('p', { prober, targets: { staticConfig: { static: ['https://example.com'] } } })] },
  {
    name: 'probe-static-full',
    objects: [
      probe('p', {
        jobName: 'blackbox',
        prober: { url: 'blackbox:9115', scheme: 'https', path: '/custom-probe', proxyUrl: 'http://proxy:3128', noProxy: 'localhost', proxyConnectHeader: { 'X-Token': [creds('token')] } },
        module: 'http_2xx',
        targets: { staticConfig: { static: ['a.example.com', 'b.example.com:443'], labels: { env: 'prod', namespace: 'override' }, relabelingConfigs: relabel } },
        interval: '15s',
        scrapeTimeout: '10s',
        params: [{ name: 'foo', values: ['1', '2'] }, { name: 'module', values: ['ignored'] }],
        metricRelabelings: metricRelabel,
        followRedirects: false,
        enableHttp2: true,
        sampleLimit: 100,
        targetLimit: 10,
        labelLimit: 20,
        labelNameLengthLimit: 30,
        labelValueLengthLimit: 40,
        keepDroppedTargets: 5,
        scrapeProtocols: ['OpenMetricsText1.0.0', 'PrometheusText0.0.4'],
        fallbackScrapeProtocol: 'PrometheusText0.0.4',
        nativeHistogramBucketLimit: 10,
        nativeHistogramMinBucketFactor: '1.1',
        scrapeClassicHistograms: true,
        convertClassicHistogramsToNHCB: true,
      }),
    ],
  },
  { name: 'probe-basic-auth-tls', objects: [probe('p', { prober, basicAuth: { username: creds('user'), password: creds('password') }, tlsConfig: fullTls, targets: { staticConfig: { static: ['x'] } } })] },
  { name: 'probe-authorization', objects: [probe('p', { prober, authorization: { type: 'Token', credentials: creds('token') }, tlsConfig: caFromConfigMap, targets: { staticConfig: { static: ['x'] } } })] },
  { name: 'probe-bearer-secret', objects: [probe('p', { prober, bearerTokenSecret: creds('token'), targets: { staticConfig: { static: ['x'] } } })] },
  { name: 'probe-oauth2', objects: [probe('p', { prober, oauth2, targets: { staticConfig: { static: ['x'] } } })] },
  {
    name: 'probe-ingress',
    objects: [
      probe('p', {
        prober,
        module: 'http_2xx',
        targets: { ingress: { selector: { matchLabels: { probe: 'yes' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['internal'] }] }, relabelingConfigs: relabel } },
      }),
    ],
  },
  { name: 'probe-ingress-any-namespace', objects: [probe('p', { prober, targets: { ingress: { selector: {}, namespaceSelector: { any: true } } } })] },
  { name: 'probe-ingress-match-names', objects: [probe('p', { prober, targets: { ingress: { namespaceSelector: { matchNames: ['web', 'shop'] } } } })] },
  { name: 'probe-static-and-ingress', objects: [probe('p', { prober, targets: { staticConfig: { static: ['x'] }, ingress: { selector: {} } } })] },
  { name: 'probe-no-targets', objects: [probe('p', { prober })] },
  { name: 'probe-empty-static', objects: [probe('p', { prober, targets: { staticConfig: { static: [] } } })] },
  { name: 'probe-no-prober', objects: [probe('p', { targets: { staticConfig: { static: ['x'] } } })] },
  { name: 'probe-prober-with-scheme-in-url', objects: [probe('p', { prober: { url: 'http://blackbox:9115' }, targets: { staticConfig: { static: ['x'] } } })] },
  { name: 'probe-scrape-class', prometheusSpec: { scrapeClasses }, objects: [probe('default', { prober, targets: { staticConfig: { static: ['x'] } } }), probe('auth', { prober, scrapeClass: 'authorized', targets: { staticConfig: { static: ['x'] } } })] },
  { name: 'probe-enforced', prometheusSpec: { enforcedNamespaceLabel: 'namespace', enforcedSampleLimit: 50, enforcedTargetLimit: 5, enforcedLabelLimit: 7, enforcedLabelNameLengthLimit: 8, enforcedLabelValueLengthLimit: 9, enforcedKeepDroppedTargets: 3 }, objects: [probe('p', { prober, sampleLimit: 100, targetLimit: 1, targets: { staticConfig: { static: ['x'], relabelingConfigs: relabel } } }), probe('q', { prober, targets: { ingress: { selector: {} } } })] },
  { name: 'probe-sharded', prometheusSpec: { shards: 3 }, objects: [probe('p', { prober, targets: { staticConfig: { static: ['x'] } } }), probe('q', { prober, targets: { ingress: { selector: {} } } })] },
  { name: 'probe-v2', prometheusSpec: { version: 'v2.45.0' }, objects: [probe('p', { prober, keepDroppedTargets: 5, scrapeProtocols: ['PrometheusProto'], enableHttp2: false, targets: { staticConfig: { static: ['x'] } } })] },
  { name: 'probe-job-label-with-interval-override', prometheusSpec: { scrapeTimeout: '20s' }, objects: [probe('p', { prober, jobName: 'my job', interval: '10s', targets: { staticConfig: { static: ['x'] } } })] },
  { name: 'probe-timeout-over-interval', objects: [probe('p', { prober, interval: '10s', scrapeTimeout: '20s', targets: { staticConfig: { static: ['x'] } } })] },
  { name: 'probe-missing-secret', objects: [probe('p', { prober, basicAuth: { username: { name: 'absent', key: 'user' }, password: creds('password') }, targets: { staticConfig: { static: ['x'] } } })] },
  // Ingress selectors Kubernetes would refuse (prometheus-operator does not check a Probe's; docs/compatibility.md, Probes).
  { name: 'probe-ingress-bad-keys', objects: [probe('p', { prober, targets: { ingress: { selector: { matchLabels: { ' ': 'x' }, matchExpressions: [{ key: 'a b', operator: 'Exists' }, { key: '🙂', operator: 'NotIn', values: ['y'] }] } } } })] },
  { name: 'probe-ingress-bad-values', objects: [probe('p', { prober, targets: { ingress: { selector: { matchLabels: { channel: 'a(b' }, matchExpressions: [{ key: 'version', operator: 'In', values: ['v1', 'v2.0+beta'] }] } } } })] },
  { name: 'probe-ingress-unknown-operator', objects: [probe('p', { prober, targets: { ingress: { selector: { matchLabels: { probe: 'yes' }, matchExpressions: [{ key: 'tier', operator: 'Equals', values: ['web'] }] } } } })] },
  { name: 'probe-ingress-in-without-values', objects: [probe('p', { prober, targets: { ingress: { selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: [] }] } } } })] },
  { name: 'probe-ingress-exists-with-values', objects: [probe('p', { prober, targets: { ingress: { selector: { matchExpressions: [{ key: 'tier', operator: 'Exists', values: ['web'] }] } } } })] },
];

const scrapeConfigCases: CompatCase[] = [
  { name: 'sc-static-minimal', objects: [scrapeConfig('s', { staticConfigs: [{ targets: ['a:9100'] }] })] },
  {
    name: 'sc-static-full',
    objects: [
      scrapeConfig('s', {
        jobName: 'nodes',
        staticConfigs: [{ targets: ['a:9100', 'b:9100'], labels: { env: 'prod' } }, { targets: ['c:9100'] }],
        relabelings: relabel,
        metricRelabelings: metricRelabel,
        metricsPath: '/m',
        scrapeInterval: '15s',
        scrapeTimeout: '5s',
        scrapeProtocols: ['PrometheusProto', 'OpenMetricsText1.0.0'],
        fallbackScrapeProtocol: 'PrometheusText1.0.0',
        honorTimestamps: false,
        trackTimestampsStaleness: true,
        honorLabels: true,
        params: { a: ['1'], b: ['2', '3'] },
        scheme: 'HTTPS',
        enableCompression: false,
        enableHTTP2: false,
        basicAuth: { username: creds('user'), password: creds('password') },
        tlsConfig: fullTls,
        sampleLimit: 1,
        targetLimit: 2,
        labelLimit: 3,
        labelNameLengthLimit: 4,
        labelValueLengthLimit: 5,
        keepDroppedTargets: 6,
        bodySizeLimit: '10MB',
        nativeHistogramBucketLimit: 7,
        nativeHistogramMinBucketFactor: '2',
        scrapeClassicHistograms: true,
        convertClassicHistogramsToNHCB: false,
        proxyUrl: 'http://proxy:3128',
        noProxy: 'a,b',
        proxyFromEnvironment: false,
        proxyConnectHeader: { h: [creds('header')] },
      }),
    ],
  },
  { name: 'sc-authorization-oauth2', objects: [scrapeConfig('a', { staticConfigs: [{ targets: ['x:1'] }], authorization: { credentials: creds('token') } }), scrapeConfig('o', { staticConfigs: [{ targets: ['x:1'] }], oauth2 })] },
  { name: 'sc-file-sd', objects: [scrapeConfig('s', { fileSDConfigs: [{ files: ['/etc/targets/*.json', '/x.yaml'], refreshInterval: '1m' }, { files: ['/y.yml'] }] })] },
  {
    name: 'sc-http-sd',
    objects: [
      scrapeConfig('s', {
        httpSDConfigs: [
          { url: 'http://sd.example.com/targets', refreshInterval: '30s', basicAuth: { username: creds('user'), password: creds('password') }, tlsConfig: caFromConfigMap, followRedirects: true, enableHTTP2: false, proxyUrl: 'http://p:1' },
          { url: 'https://sd2.example.com', authorization: { type: 'Bearer', credentials: creds('token') } },
          { url: 'https://sd3.example.com', oauth2 },
        ],
      }),
    ],
  },
  {
    name: 'sc-kubernetes-sd',
    objects: [
      scrapeConfig('s', {
        kubernetesSDConfigs: [
          { role: 'Pod', namespaces: { ownNamespace: true, names: ['a', 'b'] }, attachMetadata: { node: true }, selectors: [{ role: 'Pod', label: 'app=x', field: 'spec.nodeName=n' }] },
          { role: 'Endpoints', apiServer: 'https://kube.example.com', basicAuth: { username: creds('user'), password: creds('password') }, tlsConfig: fullTls },
          { role: 'EndpointSlice', authorization: { credentials: creds('token') } },
          { role: 'Service', namespaces: { ownNamespace: false } },
          { role: 'Node', followRedirects: false, enableHTTP2: true },
          { role: 'Ingress', oauth2, proxyUrl: 'http://p:1' },
        ],
      }),
    ],
  },
  {
    name: 'sc-consul-sd',
    objects: [
      scrapeConfig('s', {
        consulSDConfigs: [
          {
            server: 'consul:8500', pathPrefix: '/c', tokenRef: creds('token'), datacenter: 'dc1', namespace: 'ns', partition: 'part', scheme: 'https',
            services: ['a', 'b'], tags: ['t1'], tagSeparator: ';', nodeMeta: { rack: 'r1', zone: 'z' }, filter: 'Service.Tags contains "x"', healthFilter: 'Checks.Status == "passing"', allowStale: true, refreshInterval: '1m',
            basicAuth: { username: creds('user'), password: creds('password') }, tlsConfig: caFromConfigMap, followRedirects: true, enableHTTP2: true, proxyUrl: 'http://p:1', noProxy: 'x',
          },
          { server: 'consul2:8500', authorization: { credentials: creds('token') } },
          { server: 'consul3:8500', oauth2 },
        ],
      }),
    ],
  },
  {
    name: 'sc-dns-sd',
    objects: [
      scrapeConfig('s', {
        dnsSDConfigs: [{ names: ['_prometheus._tcp.example.com'], refreshInterval: '30s' }, { names: ['a.example.com', 'b.example.com'], type: 'A', port: 9100 }, { names: ['mx.example.com'], type: 'MX', port: 25 }, { names: ['s.example.com'], type: 'SRV' }],
      }),
    ],
  },
  { name: 'sc-dns-a-without-port', objects: [scrapeConfig('s', { dnsSDConfigs: [{ names: ['a.example.com'], type: 'A' }] })] },
  { name: 'sc-several-sd-kinds', objects: [scrapeConfig('s', { staticConfigs: [{ targets: ['x:1'] }], fileSDConfigs: [{ files: ['/f.json'] }], dnsSDConfigs: [{ names: ['d'] }], kubernetesSDConfigs: [{ role: 'Node' }] })] },
  { name: 'sc-no-targets', objects: [scrapeConfig('s', { metricsPath: '/x' })] },
  { name: 'sc-scrape-class', prometheusSpec: { scrapeClasses }, objects: [scrapeConfig('d', { staticConfigs: [{ targets: ['x:1'] }], relabelings: relabel }), scrapeConfig('a', { scrapeClass: 'authorized', kubernetesSDConfigs: [{ role: 'Pod' }] })] },
  { name: 'sc-enforced', prometheusSpec: { enforcedNamespaceLabel: 'tenant', enforcedSampleLimit: 50, enforcedBodySizeLimit: '5MB', enforcedKeepDroppedTargets: 2 }, objects: [scrapeConfig('s', { staticConfigs: [{ targets: ['x:1'] }], sampleLimit: 100, bodySizeLimit: '10MB', relabelings: relabel }), scrapeConfig('t', { staticConfigs: [{ targets: ['x:1'] }] })] },
  { name: 'sc-sharded', prometheusSpec: { shards: 2 }, objects: [scrapeConfig('s', { staticConfigs: [{ targets: ['x:1'] }] }), scrapeConfig('h', { staticConfigs: [{ targets: ['x:1'] }], relabelings: [{ sourceLabels: ['__address__'], modulus: 4, targetLabel: '__tmp_hash', action: 'hashmod' }] })] },
  { name: 'sc-v2', prometheusSpec: { version: 'v2.45.0' }, objects: [scrapeConfig('s', { staticConfigs: [{ targets: ['x:1'] }], scrapeProtocols: ['PrometheusText1.0.0', 'PrometheusProto'], fallbackScrapeProtocol: 'PrometheusText0.0.4', enableCompression: false, keepDroppedTargets: 1, trackTimestampsStaleness: true, kubernetesSDConfigs: [{ role: 'EndpointSlice' }] })] },
  { name: 'sc-honor-overrides', prometheusSpec: { overrideHonorLabels: true, overrideHonorTimestamps: true }, objects: [scrapeConfig('s', { staticConfigs: [{ targets: ['x:1'] }], honorLabels: true, honorTimestamps: true })] },
  { name: 'sc-global-limits', prometheusSpec: { sampleLimit: 1000, targetLimit: 20, labelLimit: 30, keepDroppedTargets: 4, bodySizeLimit: '2MB' }, objects: [scrapeConfig('s', { staticConfigs: [{ targets: ['x:1'] }], sampleLimit: 3 })] },
  { name: 'sc-timeout-over-interval', objects: [scrapeConfig('s', { staticConfigs: [{ targets: ['x:1'] }], scrapeInterval: '5s', scrapeTimeout: '10s' })] },
  { name: 'sc-static-labels-non-legacy', objects: [scrapeConfig('s', { staticConfigs: [{ targets: ['x:1'], labels: { 'service.name': 'a' } }] })] },
  // The discovery kinds whose CRD lists promop keeps opaque (scrape/discovery/), one case each.
  {
    name: 'sc-ec2-sd',
    objects: [scrapeConfig('s', { ec2SDConfigs: [{ region: 'eu-west-1', accessKey: creds('user'), secretKey: creds('password'), roleARN: 'arn:aws:iam::1:role/p', port: 9100, refreshInterval: '1m', filters: [{ name: 'tag:b', values: ['x'] }, { name: 'tag:a', values: ['y', 'z'] }], proxyUrl: 'http://proxy:3128', followRedirects: true, enableHTTP2: false, tlsConfig: caFromConfigMap }, {}] })],
  },
  {
    // Without environment and client settings: prometheus-operator drops those (docs/compatibility.md, ScrapeConfigs).
    name: 'sc-azure-sd',
    objects: [scrapeConfig('s', { azureSDConfigs: [{ subscriptionID: 'sub', tenantID: 't', clientID: 'c', clientSecret: creds('client-secret'), resourceGroup: 'rg', refreshInterval: '5m', port: 9100, basicAuth: { username: creds('user'), password: creds('password') } }, { authenticationMethod: 'ManagedIdentity', subscriptionID: 'sub2' }] })],
  },
  { name: 'sc-gce-sd', objects: [scrapeConfig('s', { gceSDConfigs: [{ project: 'p', zone: 'europe-west1-b', filter: 'labels.a=b', refreshInterval: '2m', port: 9100, tagSeparator: ';' }] })] },
  {
    name: 'sc-openstack-sd',
    objects: [
      scrapeConfig('s', {
        openstackSDConfigs: [
          {
            role: 'Instance', region: 'RegionOne', identityEndpoint: 'https://keystone:5000/v3', username: 'u', userid: 'uid', password: creds('password'), domainName: 'Default', domainID: 'd', projectName: 'p', projectID: 'pid',
            applicationCredentialName: 'ac', applicationCredentialId: 'acid', applicationCredentialSecret: creds('client-secret'), allTenants: true, refreshInterval: '2m', port: 9100, availability: 'internal', tlsConfig: caFromConfigMap,
          },
          { role: 'Hypervisor', region: 'RegionTwo' },
          { role: 'LoadBalancer', region: 'r', availability: 'admin' },
        ],
      }),
      // The CRD admits a capitalised availability, which prometheus-operator writes unchanged and Prometheus refuses.
      scrapeConfig('capitalised', { openstackSDConfigs: [{ role: 'Instance', region: 'r', availability: 'Public' }] }),
    ],
  },
  { name: 'sc-digitalocean-sd', objects: [scrapeConfig('s', { digitalOceanSDConfigs: [{ authorization: { credentials: creds('token') }, proxyUrl: 'http://proxy:3128', followRedirects: true, enableHTTP2: true, tlsConfig: fullTls, port: 9100, refreshInterval: '1m' }, { oauth2 }] })] },
  { name: 'sc-kuma-sd', objects: [scrapeConfig('s', { kumaSDConfigs: [{ server: 'https://kuma:5676', clientID: 'p', refreshInterval: '30s', fetchTimeout: '2m', basicAuth: { username: creds('user'), password: creds('password') }, tlsConfig: caFromConfigMap, followRedirects: false, enableHTTP2: true }] })] },
  { name: 'sc-eureka-sd', objects: [scrapeConfig('s', { eurekaSDConfigs: [{ server: 'http://eureka:8761/eureka', authorization: { credentials: creds('token') }, tlsConfig: caFromConfigMap, proxyUrl: 'http://proxy:3128', followRedirects: true, enableHTTP2: false, refreshInterval: '30s' }] })] },
  {
    name: 'sc-docker-sd',
    objects: [scrapeConfig('s', { dockerSDConfigs: [{ host: 'tcp://docker:2376', port: 9100, hostNetworkingHost: 'node', matchFirstNetwork: false, filters: [{ name: 'label', values: ['a=b'] }, { name: 'health', values: ['healthy'] }], refreshInterval: '1m', basicAuth: { username: creds('user'), password: creds('password') }, tlsConfig: caFromConfigMap, followRedirects: true, enableHTTP2: false }, { host: 'unix:///var/run/docker.sock', oauth2 }] })],
  },
  { name: 'sc-linode-sd', objects: [scrapeConfig('s', { linodeSDConfigs: [{ region: 'eu-west', port: 9100, tagSeparator: ';', refreshInterval: '1m', authorization: { credentials: creds('token') }, tlsConfig: caFromConfigMap, followRedirects: true, enableHTTP2: true }] })] },
  { name: 'sc-hetzner-sd', objects: [scrapeConfig('s', { hetznerSDConfigs: [{ role: 'Hcloud', authorization: { credentials: creds('token') }, port: 9100, refreshInterval: '1m', labelSelector: 'env=prod', tlsConfig: caFromConfigMap, followRedirects: true, enableHTTP2: false }, { role: 'robot', basicAuth: { username: creds('user'), password: creds('password') } }] })] },
  { name: 'sc-nomad-sd', objects: [scrapeConfig('s', { nomadSDConfigs: [{ server: 'https://nomad:4646', allowStale: false, namespace: 'apps', region: 'eu', tagSeparator: ';', refreshInterval: '30s', authorization: { credentials: creds('token') }, proxyUrl: 'http://proxy:3128', tlsConfig: caFromConfigMap, followRedirects: true, enableHTTP2: true }] })] },
  // v2.40: prometheus-operator v0.93 refuses every ScrapeConfig for an older Prometheus (its OVHcloud check runs
  // whatever the object holds). EC2's TLS is dropped with a warning on both sides; a Hetzner labelSelector refused.
  {
    name: 'sc-dockerswarm-sd',
    objects: [
      scrapeConfig('s', {
        dockerSwarmSDConfigs: [
          { host: 'tcp://swarm:2376', role: 'Tasks', port: 9100, filters: [{ name: 'label', values: ['a=b'] }, { name: 'desired-state', values: ['running'] }], refreshInterval: '1m', basicAuth: { username: creds('user'), password: creds('password') }, tlsConfig: caFromConfigMap, proxyUrl: 'http://proxy:3128', followRedirects: true, enableHTTP2: false },
          { host: 'unix:///var/run/docker.sock', role: 'Nodes', authorization: { credentials: creds('token') } },
          { host: 'http://swarm:2375', role: 'Services', oauth2 },
        ],
      }),
    ],
  },
  {
    name: 'sc-puppetdb-sd',
    objects: [
      scrapeConfig('s', {
        puppetDBSDConfigs: [
          { url: 'https://puppetdb:8081', query: 'nodes { deactivated is null }', includeParameters: true, port: 9100, refreshInterval: '1m', basicAuth: { username: creds('user'), password: creds('password') }, tlsConfig: caFromConfigMap, proxyUrl: 'http://proxy:3128', followRedirects: false, enableHTTP2: true },
          { url: 'http://puppetdb:8080', query: 'nodes {}', oauth2 },
        ],
      }),
    ],
  },
  {
    name: 'sc-lightsail-sd',
    objects: [
      scrapeConfig('s', {
        lightSailSDConfigs: [
          { region: 'eu-west-1', endpoint: 'https://lightsail.example.com', accessKey: creds('user'), secretKey: creds('password'), roleARN: 'arn:aws:iam::1:role/p', port: 9100, refreshInterval: '1m', proxyUrl: 'http://proxy:3128', tlsConfig: caFromConfigMap, followRedirects: true, enableHTTP2: false },
          { authorization: { credentials: creds('token') } },
        ],
      }),
    ],
  },
  {
    name: 'sc-ovhcloud-sd',
    objects: [
      scrapeConfig('s', {
        ovhcloudSDConfigs: [
          { applicationKey: 'k', applicationSecret: creds('client-secret'), consumerKey: creds('token'), service: 'VPS', endpoint: 'ovh-ca', refreshInterval: '2m' },
          { applicationKey: 'k2', applicationSecret: creds('client-secret'), consumerKey: creds('token'), service: 'DedicatedServer' },
        ],
      }),
    ],
  },
  {
    // The planted Secrets hold no UUID, so Scaleway's client (and promop) refuse the secret key: the difference is
    // explained by promtool refusing prometheus-operator's job. A Secret holding a UUID is compared in the goldens.
    name: 'sc-scaleway-sd',
    objects: [
      scrapeConfig('s', {
        scalewaySDConfigs: [
          {
            accessKey: 'SCW0123456789ABCDEFG', secretKey: creds('password'), projectID: '11111111-2222-3333-4444-555555555555', role: 'Instance', port: 9100, apiURL: 'https://api.scaleway.com', zone: 'fr-par-2',
            nameFilter: 'web', tagsFilter: ['a', 'b'], refreshInterval: '1m', proxyUrl: 'http://proxy:3128', tlsConfig: caFromConfigMap, followRedirects: true, enableHTTP2: false,
          },
        ],
      }),
    ],
  },
  {
    name: 'sc-ionos-sd',
    objects: [
      scrapeConfig('s', {
        ionosSDConfigs: [
          { datacenterID: 'dc-1', port: 9100, refreshInterval: '1m', authorization: { credentials: creds('token') }, proxyUrl: 'http://proxy:3128', tlsConfig: caFromConfigMap, followRedirects: true, enableHTTP2: false },
          { datacenterID: 'dc-2', authorization: { credentials: creds('token') }, oauth2 },
        ],
      }),
    ],
  },
  { name: 'sc-opaque-sd-v2-40', prometheusSpec: { version: 'v2.40.0' }, objects: [scrapeConfig('s', { ec2SDConfigs: [{ region: 'r', tlsConfig: caFromConfigMap }], linodeSDConfigs: [{ authorization: { credentials: creds('token') } }] }), scrapeConfig('h', { hetznerSDConfigs: [{ role: 'hcloud', labelSelector: 'a=b' }] })] },
];

const monitorCases: CompatCase[] = [
  {
    name: 'sm-all-fields',
    objects: [
      serviceMonitor('s', {
        selector: { matchLabels: { app: 'web' } },
        jobLabel: 'app.kubernetes.io/name',
        targetLabels: ['team'],
        podTargetLabels: ['pod-team'],
        sampleLimit: 1, targetLimit: 2, labelLimit: 3, labelNameLengthLimit: 4, labelValueLengthLimit: 5, keepDroppedTargets: 6, bodySizeLimit: '1MB',
        scrapeProtocols: ['PrometheusProto'], fallbackScrapeProtocol: 'PrometheusText0.0.4', nativeHistogramBucketLimit: 3, nativeHistogramMinBucketFactor: '1.5', scrapeClassicHistograms: true, convertClassicHistogramsToNHCB: true,
        attachMetadata: { node: true },
        endpoints: [
          { port: 'web', path: '/m', scheme: 'https', params: { a: ['b'] }, interval: '10s', scrapeTimeout: '5s', honorLabels: true, honorTimestamps: false, trackTimestampsStaleness: true, enableHttp2: false, followRedirects: false, filterRunning: false, tlsConfig: fullTls, basicAuth: { username: creds('user'), password: creds('password') }, relabelings: relabel, metricRelabelings: metricRelabel, proxyUrl: 'http://p:1' },
          { targetPort: 8080, authorization: { credentials: creds('token') } },
          { targetPort: 'metrics', oauth2, noProxy: 'x', proxyConnectHeader: { h: [creds('header')] } },
          { port: 'web', bearerTokenSecret: creds('token') },
        ],
      }),
    ],
  },
  { name: 'sm-endpointslice-role-selector', prometheusSpec: { serviceDiscoveryRole: 'EndpointSlice' }, objects: [serviceMonitor('s', { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a', 'b'] }, { key: 'x', operator: 'Exists' }] }, selectorMechanism: 'RoleSelector', namespaceSelector: { any: true }, endpoints: [{ port: 'web' }] })] },
  { name: 'pm-all-fields', objects: [podMonitor('p', { selector: { matchLabels: { app: 'x' } }, jobLabel: 'app', podTargetLabels: ['team'], sampleLimit: 10, attachMetadata: { node: false }, selectorMechanism: 'RoleSelector', podMetricsEndpoints: [{ port: 'web', path: '/m', relabelings: relabel, tlsConfig: caFromConfigMap }, { portNumber: 9100, filterRunning: false, basicAuth: { username: creds('user'), password: creds('password') } }, { targetPort: 'metrics' }] })] },
  // The same unreadable selectors in ServiceMonitors and PodMonitors: prometheus-operator refuses them (LabelSelectorAsSelector).
  { name: 'sm-selector-unknown-operator', objects: [serviceMonitor('s', { selector: { matchExpressions: [{ key: 'tier', operator: 'Equals', values: ['web'] }] }, endpoints: [{ port: 'web' }] })] },
  { name: 'sm-selector-bad-key', objects: [serviceMonitor('s', { selector: { matchLabels: { ' ': 'x' } }, endpoints: [{ port: 'web' }] })] },
  { name: 'pm-selector-unknown-operator', objects: [podMonitor('p', { selector: { matchExpressions: [{ key: 'tier', operator: 'Equals', values: ['web'] }] }, podMetricsEndpoints: [{ port: 'web' }] })] },
  { name: 'pm-selector-bad-value', objects: [podMonitor('p', { selector: { matchLabels: { channel: 'a(b' } }, podMetricsEndpoints: [{ port: 'web' }] })] },
  { name: 'monitors-global-protocols-v2', prometheusSpec: { version: 'v2.55.1', scrapeProtocols: ['PrometheusText1.0.0', 'OpenMetricsText1.0.0'], bodySizeLimit: '5MB', enforcedBodySizeLimit: '2MB' }, objects: [serviceMonitor('s', { selector: {}, endpoints: [{ port: 'web' }] })] },
  {
    name: 'prometheus-global-fields',
    prometheusSpec: {
      externalLabels: { cluster: 'c', region: 'r' },
      replicaExternalLabelName: 'replica',
      prometheusExternalLabelName: '',
      scrapeTimeout: '10s',
      queryLogFile: '/tmp/q.log',
      scrapeFailureLogFile: 'fail.log',
      ruleQueryOffset: '1m',
      keepDroppedTargets: 2,
      labelLimit: 5,
      nameValidationScheme: 'Legacy',
      nameEscapingScheme: 'Underscores',
      convertClassicHistogramsToNHCB: true,
      scrapeClassicHistograms: true,
      scrapeNativeHistograms: true,
    },
    objects: [serviceMonitor('s', { selector: {}, endpoints: [{ port: 'web' }] }), scrapeConfig('c', { staticConfigs: [{ targets: ['x:1'] }] })],
  },
];

/** Topology sharding and the TSDB settings: every kind's sharding rules, the zone label, storage.tsdb per version. */
const shardingAndTsdbCases: CompatCase[] = [
  {
    name: 'topology-sharding-every-kind',
    prometheusSpec: { shards: 4, shardingStrategy: { mode: 'Topology', topology: { values: ['zone-a', 'zone-b'] } } },
    objects: [
      serviceMonitor('s', { selector: { matchLabels: { app: 'x' } }, endpoints: [{ port: 'web' }] }),
      podMonitor('p', { selector: { matchLabels: { app: 'x' } }, attachMetadata: { node: false }, podMetricsEndpoints: [{ port: 'web' }] }),
      probe('b', { prober, targets: { staticConfig: { static: ['https://example.com'] } } }),
      scrapeConfig('c', { staticConfigs: [{ targets: ['x:1'] }] }),
      scrapeConfig('k', { kubernetesSDConfigs: [{ role: 'Pod' }], relabelings: [{ targetLabel: '__tmp_topology', replacement: 'zone-a' }] }),
    ],
  },
  {
    name: 'topology-sharding-label-name',
    prometheusSpec: { shards: 2, serviceDiscoveryRole: 'EndpointSlice', shardingStrategy: { mode: 'Topology', topology: { values: ['zone-a'], externalLabelName: 'az' } } },
    objects: [serviceMonitor('s', { selector: {}, attachMetadata: { node: true }, endpoints: [{ port: 'web' }] })],
  },
  { name: 'topology-sharding-no-label', prometheusSpec: { shards: 3, shardingStrategy: { mode: 'Topology', topology: { values: ['zone-a', 'zone-b', 'zone-c'], externalLabelName: '' } } }, objects: [podMonitor('p', { selector: {}, podMetricsEndpoints: [{ port: 'web' }] })] },
  { name: 'sharding-address-mode', prometheusSpec: { shards: 2, shardingStrategy: { mode: 'Address' } }, objects: [serviceMonitor('s', { selector: {}, endpoints: [{ port: 'web' }] })] },
  { name: 'tsdb-all-v3-16', prometheusSpec: { tsdb: { outOfOrderTimeWindow: '30m', staleSeriesCompactionThreshold: '500m', chunkEncoding: { floats: 'Xor2' } } }, objects: [serviceMonitor('s', { selector: {}, endpoints: [{ port: 'web' }] })] },
  { name: 'tsdb-all-v3-10', prometheusSpec: { version: 'v3.10.0', retention: '7d', tsdb: { outOfOrderTimeWindow: '1h', staleSeriesCompactionThreshold: 1, chunkEncoding: { floats: 'Xor' } } }, objects: [] },
  { name: 'tsdb-window-v2-55', prometheusSpec: { version: 'v2.55.1', tsdb: { outOfOrderTimeWindow: '5m', staleSeriesCompactionThreshold: '0.25' } }, objects: [] },
];

/** Every hand-written case. */
export const HAND_WRITTEN_CASES: readonly CompatCase[] = [...probeCases, ...scrapeConfigCases, ...monitorCases, ...shardingAndTsdbCases];
