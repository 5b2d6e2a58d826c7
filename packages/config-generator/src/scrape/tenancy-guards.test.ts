/**
 * The tenancy guards a platform team sets on a Prometheus hold for every kind a team can write (deliberate
 * differences from prometheus-operator, docs/compatibility.md "Tenancy guards"):
 * - ignoreNamespaceSelectors: no team's Kubernetes discovery leaves the team's namespace, ScrapeConfigs included;
 * - arbitraryFSAccessThroughSMs.deny: no team object makes Prometheus read a file of its container, whatever kind.
 */
import type { PodMonitor, Probe, ScrapeConfig, ServiceMonitor } from '@promop/crds';
import type { MonitorRendering, ScrapeContext } from './scrape-context.ts';
import { renderPodMonitor, renderProbe, renderScrapeConfig, renderServiceMonitor } from './index.ts';
import { FILE_ACCESS_DENIED } from './file-access.ts';
import { SecretStore } from '../secret-store.ts';
import { promtoolCheckConfigs, TEST_CONFIG_MAPS, TEST_SECRETS, testContext as harnessContext, testPrometheus, wrapScrapeConfigs } from '../test-support/scrape-harness.ts';

const TEAM = 'team-a';
const meta = (name: string) => ({ name, namespace: TEAM });

/** The harness' context, with its test Secrets and ConfigMaps in the team's namespace. */
const teamSecrets = new SecretStore(
  TEST_SECRETS.filter((s) => s.namespace === 'default').map((s) => ({ ...s, namespace: TEAM })),
  TEST_CONFIG_MAPS.map((c) => ({ ...c, namespace: TEAM })),
);
const testContext = (overrides: Partial<ScrapeContext> = {}): ScrapeContext => harnessContext({ secrets: teamSecrets, ...overrides });

const serviceMonitor = (spec: Partial<ServiceMonitor['spec']>): ServiceMonitor =>
  ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: meta('sm'), spec: { selector: {}, endpoints: [{ port: 'web' }], ...spec } }) as ServiceMonitor;
const podMonitor = (spec: Partial<PodMonitor['spec']>): PodMonitor =>
  ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor', metadata: meta('pm'), spec: { selector: {}, podMetricsEndpoints: [{ port: 'web' }], ...spec } }) as PodMonitor;
const probe = (spec: Probe['spec']): Probe => ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'Probe', metadata: meta('probe'), spec });
const scrapeConfig = (spec: ScrapeConfig['spec']): ScrapeConfig => ({ apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'ScrapeConfig', metadata: meta('sc'), spec });

/** Every `kubernetes_sd_configs` entry of a rendering. */
function discoveries(result: MonitorRendering): Array<Record<string, unknown>> {
  if (!result.ok) throw new Error(`rejected: ${JSON.stringify(result.problems)}`);
  return result.scrapeConfigs.flatMap((cfg) => (cfg.kubernetes_sd_configs ?? []) as Array<Record<string, unknown>>);
}

describe('a Prometheus with ignoreNamespaceSelectors: true, shared by several teams', () => {
  const confined = testContext({ ignoreNamespaceSelectors: true });

  const escapes: Array<[string, () => MonitorRendering]> = [
    ['a ServiceMonitor selecting any namespace', () => renderServiceMonitor(serviceMonitor({ namespaceSelector: { any: true } }), confined)],
    ['a ServiceMonitor naming team-b', () => renderServiceMonitor(serviceMonitor({ namespaceSelector: { matchNames: ['team-b'] } }), confined)],
    ['a PodMonitor selecting any namespace', () => renderPodMonitor(podMonitor({ namespaceSelector: { any: true } }), confined)],
    ['a Probe over the Ingresses of any namespace', () => renderProbe(probe({ prober: { url: 'blackbox:9115' }, targets: { ingress: { selector: {}, namespaceSelector: { any: true } } } }), confined)],
    ['a ScrapeConfig whose Kubernetes discovery names no namespace (every namespace)', () => renderScrapeConfig(scrapeConfig({ kubernetesSDConfigs: [{ role: 'Pod' }] }), confined)],
    ['a ScrapeConfig whose Kubernetes discovery names team-b', () => renderScrapeConfig(scrapeConfig({ kubernetesSDConfigs: [{ role: 'Endpoints', namespaces: { names: ['team-b', TEAM] } }] }), confined)],
    ["a ScrapeConfig asking for the Prometheus' own namespace", () => renderScrapeConfig(scrapeConfig({ kubernetesSDConfigs: [{ role: 'Service', namespaces: { ownNamespace: true } }] }), confined)],
    ['a ScrapeConfig with discovery through its own API server', () => renderScrapeConfig(scrapeConfig({ kubernetesSDConfigs: [{ role: 'Node', apiServer: 'https://kubernetes.example' }] }), confined)],
  ];

  it.each(escapes)("confines %s to the team's own namespace", (_story, render) => {
    const found = discoveries(render());
    expect(found.length).toBeGreaterThan(0);
    for (const sd of found) expect(sd.namespaces).toEqual({ names: [TEAM] });
  });

  it('writes jobs the real promtool loads', async () => {
    const configs = escapes.map(([, render]) => {
      const result = render();
      if (!result.ok) throw new Error(`rejected: ${JSON.stringify(result.problems)}`);
      return wrapScrapeConfigs(result.scrapeConfigs);
    });
    const result = await promtoolCheckConfigs(configs);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it("says in the ScrapeConfig's status what was narrowed, so the team knows why targets elsewhere are gone", () => {
    const result = renderScrapeConfig(scrapeConfig({ kubernetesSDConfigs: [{ role: 'Pod', namespaces: { names: ['team-b'], ownNamespace: true } }] }), confined);
    expect(result.warnings).toEqual([
      "spec.kubernetesSDConfigs[0].namespaces: discovery confined to namespace team-a instead of namespaces team-b and the Prometheus' own namespace (ownNamespace), because the Prometheus sets ignoreNamespaceSelectors",
    ]);
  });

  it('leaves a ScrapeConfig that already stays home unchanged and unwarned', () => {
    const result = renderScrapeConfig(scrapeConfig({ kubernetesSDConfigs: [{ role: 'Pod', namespaces: { names: [TEAM] } }] }), confined);
    expect(discoveries(result)[0]!.namespaces).toEqual({ names: [TEAM] });
    expect(result.warnings).toEqual([]);
  });

  it('keeps a ScrapeConfig free to discover where it says without the flag, as prometheus-operator does', () => {
    expect(discoveries(renderScrapeConfig(scrapeConfig({ kubernetesSDConfigs: [{ role: 'Pod' }] }), testContext()))[0]!.namespaces).toBeUndefined();
  });
});

describe('a Prometheus with arbitraryFSAccessThroughSMs.deny: true', () => {
  const denied = testContext({ denyFileSystemAccess: true });
  const rejected = (path: string) => ({ ok: false, problems: [{ path, message: FILE_ACCESS_DENIED }] });
  const tlsFile = { caFile: '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt' };
  const tokenFile = '/var/run/secrets/kubernetes.io/serviceaccount/token';

  // The "safe" CRD types of these fields have no file fields; an object read from files (promop render) still may.
  const unpruned = <T>(value: Record<string, unknown>): T => value as T;

  const fileUses: Array<[string, (ctx: ScrapeContext) => MonitorRendering, string, string]> = [
    ['a ServiceMonitor bearer token file', (ctx) => renderServiceMonitor(serviceMonitor({ endpoints: [{ port: 'web', bearerTokenFile: tokenFile }] }), ctx), 'spec.endpoints[0].bearerTokenFile', tokenFile],
    ['a ServiceMonitor TLS key file', (ctx) => renderServiceMonitor(serviceMonitor({ endpoints: [{ port: 'web', tlsConfig: { keyFile: '/etc/prometheus/secrets/other-team/tls.key', cert: { secret: { name: 'tls', key: 'tls.crt' } } } }] }), ctx), 'spec.endpoints[0].tlsConfig.keyFile', '/etc/prometheus/secrets/other-team/tls.key'],
    ['a ServiceMonitor OAuth2 client TLS CA file', (ctx) => renderServiceMonitor(serviceMonitor({ endpoints: [{ port: 'web', oauth2: unpruned({ clientId: { secret: { name: 'creds', key: 'client-id' } }, clientSecret: { name: 'creds', key: 'client-secret' }, tokenUrl: 'https://sso.example/token', tlsConfig: tlsFile }) }] }), ctx), 'spec.endpoints[0].oauth2.tlsConfig.caFile', tlsFile.caFile],
    ['a PodMonitor TLS CA file', (ctx) => renderPodMonitor(podMonitor({ podMetricsEndpoints: [{ port: 'web', tlsConfig: unpruned(tlsFile) }] }), ctx), 'spec.podMetricsEndpoints[0].tlsConfig.caFile', tlsFile.caFile],
    ['a Probe TLS CA file', (ctx) => renderProbe(probe({ prober: { url: 'blackbox:9115' }, targets: { staticConfig: { static: ['https://a.example'] } }, tlsConfig: unpruned(tlsFile) }), ctx), 'spec.tlsConfig.caFile', tlsFile.caFile],
    ['a Probe authorization credentials file', (ctx) => renderProbe(probe({ prober: { url: 'blackbox:9115' }, targets: { staticConfig: { static: ['https://a.example'] } }, authorization: unpruned({ credentialsFile: tokenFile }) }), ctx), 'spec.authorization.credentialsFile', tokenFile],
    ['a ScrapeConfig file discovery', (ctx) => renderScrapeConfig(scrapeConfig({ fileSDConfigs: [{ files: ['/etc/prometheus/secrets/*.json'] }] }), ctx), 'spec.fileSDConfigs[0].files', '/etc/prometheus/secrets/*.json'],
    ['a ScrapeConfig TLS cert file', (ctx) => renderScrapeConfig(scrapeConfig({ staticConfigs: [{ targets: ['a:80'] }], tlsConfig: unpruned({ certFile: '/etc/tls/tls.crt', keySecret: { name: 'tls', key: 'tls.key' } }) }), ctx), 'spec.tlsConfig.certFile', '/etc/tls/tls.crt'],
    ['a ScrapeConfig authorization credentials file', (ctx) => renderScrapeConfig(scrapeConfig({ staticConfigs: [{ targets: ['a:80'] }], authorization: unpruned({ credentialsFile: tokenFile }) }), ctx), 'spec.authorization.credentialsFile', tokenFile],
    ['a ScrapeConfig HTTP discovery TLS CA file', (ctx) => renderScrapeConfig(scrapeConfig({ httpSDConfigs: [{ url: 'https://inventory.example/targets', tlsConfig: unpruned(tlsFile) }] }), ctx), 'spec.httpSDConfigs[0].tlsConfig.caFile', tlsFile.caFile],
    ['a ScrapeConfig Kubernetes discovery credentials file', (ctx) => renderScrapeConfig(scrapeConfig({ kubernetesSDConfigs: [{ role: 'Pod', apiServer: 'https://kubernetes.example', authorization: unpruned({ credentialsFile: tokenFile }) }] }), ctx), 'spec.kubernetesSDConfigs[0].authorization.credentialsFile', tokenFile],
    ['a ScrapeConfig Consul discovery TLS key file', (ctx) => renderScrapeConfig(scrapeConfig({ consulSDConfigs: [{ server: 'consul.example:8500', tlsConfig: unpruned({ keyFile: '/etc/tls/tls.key', cert: { secret: { name: 'tls', key: 'tls.crt' } } }) }] }), ctx), 'spec.consulSDConfigs[0].tlsConfig.keyFile', '/etc/tls/tls.key'],
  ];

  it.each(fileUses)('rejects %s, at its path, with the same reason for every kind', (_story, render, path) => {
    expect(render(denied)).toEqual(expect.objectContaining(rejected(path)));
  });

  it.each(fileUses)('would otherwise write %s into the job (the guard is what keeps it out)', (_story, render, _path, file) => {
    const result = render(testContext());
    expect(result.ok).toBe(true);
    if (result.ok) expect(wrapScrapeConfigs(result.scrapeConfigs)).toContain(file);
  });

  it("still lets the Prometheus owner's scrape class name files for everyone's jobs", () => {
    const prometheus = testPrometheus({ scrapeClasses: [{ name: 'mtls', default: true, tlsConfig: { caFile: '/etc/prometheus/certs/mesh-ca.crt' } }] });
    const ctx: ScrapeContext = testContext({ denyFileSystemAccess: true, prometheus });
    const result = renderScrapeConfig(scrapeConfig({ staticConfigs: [{ targets: ['a:80'] }] }), ctx);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.scrapeConfigs[0]!.tls_config).toEqual({ ca_file: '/etc/prometheus/certs/mesh-ca.crt' });
  });

  it('lets TLS material from Secrets through: only paths in the container are refused', () => {
    const result = renderScrapeConfig(scrapeConfig({ staticConfigs: [{ targets: ['a:80'] }], tlsConfig: { ca: { secret: { name: 'tls', key: 'ca.crt' } } } }), denied);
    expect(result.ok).toBe(true);
  });
});
