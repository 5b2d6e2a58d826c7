/** Which Secrets and ConfigMaps a Prometheus or monitor names: every key selector the schema has, and nothing else. */
import { keyReferences } from './key-references.ts';
import type { PodMonitor, Prometheus, PrometheusAgent, ServiceMonitor } from './types.ts';

describe('the Secrets and ConfigMaps a ServiceMonitor references', () => {
  const monitor: ServiceMonitor = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { name: 'api', namespace: 'team-a' },
    spec: {
      selector: {},
      endpoints: [
        { port: 'web', basicAuth: { username: { name: 'auth', key: 'user' }, password: { name: 'auth', key: 'password' } } },
        { port: 'old', bearerTokenSecret: { name: 'legacy-token', key: 'token' } },
        {
          port: 'tls',
          tlsConfig: { ca: { configMap: { name: 'ca-bundle', key: 'ca.crt' } }, cert: { secret: { name: 'client', key: 'tls.crt' } }, keySecret: { name: 'client', key: 'tls.key' } },
          oauth2: { clientId: { configMap: { name: 'oauth', key: 'id' } }, clientSecret: { name: 'oauth', key: 'secret' }, tokenUrl: 'https://auth.example.com/token' },
        },
        { port: 'unnamed', authorization: { credentials: { key: 'token' } } },
      ],
    },
  };

  it('are every named key selector, each once, with its kind from the schema (a ConfigMap only where the schema says configMap)', () => {
    expect(keyReferences('ServiceMonitor', monitor)).toEqual([
      { kind: 'Secret', name: 'auth' },
      { kind: 'Secret', name: 'legacy-token' },
      { kind: 'ConfigMap', name: 'ca-bundle' },
      { kind: 'Secret', name: 'client' },
      { kind: 'ConfigMap', name: 'oauth' },
      { kind: 'Secret', name: 'oauth' },
    ]);
  });
});

describe('the Secrets a Prometheus references', () => {
  it('include additional configs, remote write credentials and scrape classes, and not the embedded containers\' env', () => {
    const prometheus: Prometheus = {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'Prometheus',
      metadata: { name: 'main', namespace: 'monitoring' },
      spec: {
        additionalScrapeConfigs: { name: 'extra-scrape', key: 'jobs.yaml' },
        remoteWrite: [{ url: 'https://rw.example.com/api/v1/write', basicAuth: { username: { name: 'rw-auth', key: 'user' }, password: { name: 'rw-auth', key: 'password' } } }],
        scrapeClasses: [{ name: 'mtls', tlsConfig: { ca: { secret: { name: 'class-ca', key: 'ca.crt' } } } }],
        containers: [{ name: 'sidecar', env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'not-read-by-promop', key: 'token' } } }] }],
      },
    };
    expect(keyReferences('Prometheus', prometheus).map((ref) => `${ref.kind} ${ref.name}`).sort()).toEqual(['Secret class-ca', 'Secret extra-scrape', 'Secret rw-auth']);
  });

  it('of a PrometheusAgent are found in the same shared fields (remote write, additional scrape configs)', () => {
    const agent: PrometheusAgent = {
      apiVersion: 'monitoring.coreos.com/v1alpha1',
      kind: 'PrometheusAgent',
      metadata: { name: 'agent', namespace: 'monitoring' },
      spec: {
        additionalScrapeConfigs: { name: 'extra-scrape', key: 'jobs.yaml' },
        remoteWrite: [{ url: 'https://rw.example.com/api/v1/write', authorization: { credentials: { name: 'rw-token', key: 'token' } } }],
      },
    };
    expect(keyReferences('PrometheusAgent', agent).map((ref) => `${ref.kind} ${ref.name}`).sort()).toEqual(['Secret extra-scrape', 'Secret rw-token']);
  });

  it('are found inside the blocks whose nested descriptions are dropped: an AlertmanagerConfig receiver\'s HTTP client and an Alertmanager\'s global section', () => {
    const receivers = {
      spec: {
        receivers: [{
          name: 'pager',
          webhookConfigs: [{
            url: 'https://hooks.example/',
            httpConfig: { authorization: { credentials: { name: 'hook-token', key: 'token' } }, tlsConfig: { ca: { configMap: { name: 'hook-ca', key: 'ca.crt' } }, keySecret: { name: 'hook-tls', key: 'tls.key' } } },
          }],
        }],
      },
    };
    expect(keyReferences('AlertmanagerConfig', receivers).map((ref) => `${ref.kind} ${ref.name}`).sort()).toEqual(['ConfigMap hook-ca', 'Secret hook-tls', 'Secret hook-token']);
    const alertmanager = { spec: { alertmanagerConfiguration: { global: { slackApiUrl: { name: 'slack', key: 'url' }, smtp: { authPassword: { name: 'smtp', key: 'password' } } } } } };
    expect(keyReferences('Alertmanager', alertmanager).map((ref) => `${ref.kind} ${ref.name}`).sort()).toEqual(['Secret slack', 'Secret smtp']);
  });

  it('are none for a PodMonitor without credentials', () => {
    const podMonitor: PodMonitor = {
      apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor', metadata: { name: 'pods', namespace: 'team-a' },
      spec: { selector: {}, podMetricsEndpoints: [{ port: 'metrics' }] },
    };
    expect(keyReferences('PodMonitor', podMonitor)).toEqual([]);
  });
});
