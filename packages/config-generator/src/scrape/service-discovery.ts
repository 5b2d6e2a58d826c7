/**
 * A ScrapeConfig's service discovery lists → Prometheus' `*_sd_configs`, in prometheus-operator v0.93's key order:
 * static, file, HTTP, Kubernetes, Consul and DNS discovery here, then the kinds whose CRD lists are opaque
 * (discovery/registry.ts), with the HTTP client settings of the remote ones (auth, TLS, proxy) read from the
 * ScrapeConfig's namespace. The discovery kinds promop does not render are problems at their field, never dropped.
 */
import { checkHttpUrl, goUrlHostError } from '../values/go-url.ts';
import type { ProxyConfig, ScrapeConfig } from '@promop/crds';
import { sortedByKey } from '../go-map-order.ts';
import {
  appendProxy, checkAuthExclusivity, readSecretKey, renderAuthorization, renderBasicAuth, renderOAuth2, renderTlsConfig, supports,
  type HttpClientContext,
} from '../http-client/index.ts';
import { isValidLabelName, labelNameRule, type NameValidationScheme } from '../values/prometheus-names.ts';
import { parseDuration } from '@promop/prometheus-lang';
import { appendOpaqueDiscovery } from './discovery/registry.ts';
import { KUBERNETES_SD_ROLES, kubernetesSdSelectorProblems, type KubernetesSdSelector } from './kubernetes-sd-selectors.ts';

type Spec = ScrapeConfig['spec'];
type HttpSd = NonNullable<Spec['httpSDConfigs']>[number];
type KubernetesSd = NonNullable<Spec['kubernetesSDConfigs']>[number];
type ConsulSd = NonNullable<Spec['consulSDConfigs']>[number];
type Entry = Record<string, unknown>;

/** What the discovery lists depend on besides the ScrapeConfig's spec. */
export interface DiscoveryOptions {
  /** Label names the Prometheus accepts (static config labels are checked against it). */
  nameValidationScheme: NameValidationScheme;
  /**
   * The ScrapeConfig's namespace when the Prometheus sets ignoreNamespaceSelectors: Kubernetes discovery is then
   * confined to it, as ServiceMonitors, PodMonitors and Probes are (prometheus-operator leaves ScrapeConfigs free).
   */
  confineToNamespace?: string;
}

/**
 * The names Prometheus' file discovery accepts (discovery/file's pattern): a .json, .yml or .yaml file, a glob `*`
 * only in the last path element. Any other name makes Prometheus refuse the whole file.
 */
const FILE_SD_NAME = /^[^*]*(\*[^/]*)?\.(json|yml|yaml|JSON|YML|YAML)$/;

/**
 * An HTTP discovery URL Prometheus can read: the check of every http(s) URL Prometheus parses on load, and a host,
 * which HTTP discovery needs ("http:///sd" passes the first).
 */
function checkDiscoveryUrl(url: string, path: string, hc: HttpClientContext): void {
  if (/^https?:\/\/[/?#]/.test(url)) hc.findings.problem(path, `url "${url}" has no host; Prometheus' HTTP discovery needs one`);
  else checkHttpUrl(url, path, hc);
}

/** Appends the `*_sd_configs` keys of `spec` to `cfg`; problems (and unrendered kinds) go to `hc.findings`. */
export function appendServiceDiscovery(cfg: Entry, spec: Spec, hc: HttpClientContext, options: DiscoveryOptions): void {
  const scheme = options.nameValidationScheme;
  const list = <T>(field: string, configs: readonly T[] | undefined, key: string, render: (sd: T, path: string) => Entry) => {
    if (configs && configs.length > 0) cfg[key] = configs.map((sd, i) => render(sd, `spec.${field}[${i}]`));
  };
  list('staticConfigs', spec.staticConfigs, 'static_configs', (sd, path) => {
    for (const label of Object.keys(sd.labels ?? {}).sort()) {
      if (!isValidLabelName(label, scheme)) hc.findings.problem(`${path}.labels`, `"${label}" is not a label name this Prometheus accepts (${labelNameRule(scheme)})`);
    }
    return { targets: [...sd.targets], labels: sortedByKey(sd.labels ?? {}) };
  });
  list('fileSDConfigs', spec.fileSDConfigs, 'file_sd_configs', (sd, path) => {
    sd.files.forEach((file, i) => {
      if (!FILE_SD_NAME.test(file)) {
        hc.findings.problem(`${path}.files[${i}]`, `"${file}" is not a file Prometheus' file discovery reads: it must end in .json, .yml or .yaml, with a * only in its last path element`);
      }
    });
    return withRefresh({ files: [...sd.files] }, sd.refreshInterval, path, hc);
  });
  list('httpSDConfigs', spec.httpSDConfigs, 'http_sd_configs', (sd, path) => {
    const entry: Entry = {};
    appendClientAuth(entry, sd, path, hc, 'tls-before-proxy');
    checkDiscoveryUrl(sd.url, `${path}.url`, hc);
    entry.url = sd.url;
    withRefresh(entry, sd.refreshInterval, path, hc);
    appendClientFlags(entry, sd);
    return entry;
  });
  list('kubernetesSDConfigs', spec.kubernetesSDConfigs, 'kubernetes_sd_configs', (sd, path) => kubernetesSd(sd, path, hc, options.confineToNamespace));
  list('consulSDConfigs', spec.consulSDConfigs, 'consul_sd_configs', (sd, path) => consulSd(sd, path, hc));
  list('dnsSDConfigs', spec.dnsSDConfigs, 'dns_sd_configs', (sd, path) => {
    const entry = withRefresh({ names: [...sd.names] }, sd.refreshInterval, path, hc);
    if (sd.type) {
      const minimum = sd.type === 'NS' ? '2.49.0' : sd.type === 'MX' ? '2.38.0' : undefined;
      if (!minimum || supports(hc, minimum, `${path}.type`, `type: ${sd.type}`)) entry.type = sd.type;
    }
    if (sd.port !== undefined) entry.port = sd.port;
    // Prometheus refuses the whole file for an A/AAAA/MX/NS lookup without a port (SRV records carry their own).
    if (sd.type !== undefined && sd.type !== 'SRV' && !sd.port) {
      hc.findings.problem(`${path}.port`, `is required for ${sd.type} records (only SRV records carry a port)`);
    }
    return entry;
  });
  appendOpaqueDiscovery(cfg, spec, hc);
}

/** `refresh_interval` when set, after checking it is a duration. */
function withRefresh(entry: Entry, refreshInterval: string | undefined, path: string, hc: HttpClientContext): Entry {
  if (refreshInterval === undefined) return entry;
  if (parseDuration(refreshInterval) === undefined) hc.findings.problem(`${path}.refreshInterval`, `"${refreshInterval}" is not a valid duration (examples: 30s, 5m)`);
  entry.refresh_interval = refreshInterval;
  return entry;
}

/** The HTTP client fields of the discovery configs that have one (HTTP, Kubernetes, Consul): each has a subset. */
type SdHttpClient = Partial<
  Pick<HttpSd & KubernetesSd & ConsulSd, 'basicAuth' | 'authorization' | 'oauth2' | 'tlsConfig' | 'followRedirects' | 'enableHTTP2' | keyof ProxyConfig>
>;

/**
 * basic_auth, authorization, then (upstream's order differs per kind) TLS and proxy and OAuth2: HTTP discovery
 * writes TLS, proxy, OAuth2; Consul OAuth2, proxy, TLS; Kubernetes OAuth2 and proxy here, TLS after its flags.
 */
function appendClientAuth(entry: Entry, sd: SdHttpClient, path: string, hc: HttpClientContext, order: 'tls-before-proxy' | 'oauth2-proxy-tls' | 'oauth2-proxy'): void {
  checkAuthExclusivity({ basicAuth: sd.basicAuth, authorization: sd.authorization, oauth2: sd.oauth2 }, path, hc);
  if (sd.basicAuth) entry.basic_auth = renderBasicAuth(sd.basicAuth, `${path}.basicAuth`, hc);
  if (sd.authorization) {
    const rendered = renderAuthorization(sd.authorization, `${path}.authorization`, hc);
    if (rendered) entry.authorization = rendered;
  }
  const tls = () => {
    if (!sd.tlsConfig) return;
    const rendered = renderTlsConfig(sd.tlsConfig, `${path}.tlsConfig`, hc);
    if (rendered) entry.tls_config = rendered;
  };
  const oauth2 = () => {
    if (!sd.oauth2) return;
    const rendered = renderOAuth2(sd.oauth2, `${path}.oauth2`, hc);
    if (rendered) entry.oauth2 = rendered;
  };
  if (order === 'tls-before-proxy') {
    tls();
    appendProxy(entry, sd, path, hc);
    oauth2();
  } else {
    oauth2();
    appendProxy(entry, sd, path, hc);
    if (order === 'oauth2-proxy-tls') tls();
  }
}

function appendClientFlags(entry: Entry, sd: SdHttpClient): void {
  if (sd.followRedirects !== undefined) entry.follow_redirects = sd.followRedirects;
  if (sd.enableHTTP2 !== undefined) entry.enable_http2 = sd.enableHTTP2;
}

function kubernetesSd(sd: KubernetesSd, path: string, hc: HttpClientContext, confineToNamespace: string | undefined): Entry {
  const entry: Entry = {};
  if (sd.apiServer) {
    const hostError = goUrlHostError(sd.apiServer);
    if (hostError) hc.findings.problem(`${path}.apiServer`, `apiServer "${sd.apiServer}" is not a URL Prometheus can read: ${hostError}`);
    entry.api_server = sd.apiServer;
  }
  const role = String(sd.role ?? '').toLowerCase();
  if (!(KUBERNETES_SD_ROLES as readonly string[]).includes(role)) {
    hc.findings.problem(`${path}.role`, `"${sd.role ?? ''}" is not a Kubernetes discovery role (Pod, Service, Endpoints, EndpointSlice, Node or Ingress)`);
  }
  if (role === 'endpointslice' && !supports(hc, '2.21.0', `${path}.role`, 'role: endpointslice')) {
    hc.findings.problem(`${path}.role`, `EndpointSlice discovery needs Prometheus v2.21.0 or later (configured: ${hc.version.text})`);
  }
  entry.role = role;
  appendClientAuth(entry, sd, path, hc, 'oauth2-proxy');
  appendClientFlags(entry, sd);
  if (sd.tlsConfig) {
    const rendered = renderTlsConfig(sd.tlsConfig, `${path}.tlsConfig`, hc);
    if (rendered) entry.tls_config = rendered;
  }
  // Prometheus refuses the pair (its own namespace is only known inside the cluster it runs in).
  if (sd.apiServer && sd.namespaces?.ownNamespace) hc.findings.problem(`${path}.namespaces.ownNamespace`, 'ownNamespace cannot be used together with apiServer (Prometheus refuses the pair)');
  if (confineToNamespace !== undefined) entry.namespaces = confinedNamespaces(sd.namespaces, confineToNamespace, path, hc);
  else if (sd.namespaces) {
    entry.namespaces = { names: [...(sd.namespaces.names ?? [])], ...(sd.namespaces.ownNamespace !== undefined ? { own_namespace: sd.namespaces.ownNamespace } : {}) };
  }
  if (sd.selectors && sd.selectors.length > 0 && supports(hc, '2.17.0', `${path}.selectors`, 'selectors')) {
    const selectors: KubernetesSdSelector[] = sd.selectors.map((selector) => ({
      role: String(selector.role ?? '').toLowerCase(),
      ...(selector.label !== undefined ? { label: selector.label } : {}),
      ...(selector.field !== undefined ? { field: selector.field } : {}),
    }));
    for (const problem of kubernetesSdSelectorProblems(role, selectors, path, hc.version)) hc.findings.add(problem);
    entry.selectors = selectors;
  }
  if (sd.attachMetadata) {
    const minimum = role === 'pod' ? '2.35.0' : role === 'endpoints' || role === 'endpointslice' ? '2.37.0' : undefined;
    if (!minimum) hc.findings.warn(`${path}.attachMetadata: ignored because Prometheus attaches node metadata only for roles Pod, Endpoints and EndpointSlice`);
    else if (supports(hc, minimum, `${path}.attachMetadata`, 'attach_metadata')) entry.attach_metadata = { node: sd.attachMetadata.node ?? false };
  }
  return entry;
}

/**
 * `namespaces: {names: [<own namespace>]}` under ignoreNamespaceSelectors, whatever the ScrapeConfig asked for: no
 * list (every namespace), other namespaces, or ownNamespace (the Prometheus' namespace). A warning in the object's
 * status says what was narrowed, so the team sees why targets elsewhere are not discovered.
 */
function confinedNamespaces(namespaces: KubernetesSd['namespaces'], own: string, path: string, hc: HttpClientContext): Entry {
  const names = namespaces?.names ?? [];
  const escapes: string[] = [];
  if (names.length === 0) escapes.push('every namespace');
  const others = [...new Set(names.filter((name) => name !== own))];
  if (others.length > 0) escapes.push(`namespaces ${others.join(', ')}`);
  if (namespaces?.ownNamespace) escapes.push("the Prometheus' own namespace (ownNamespace)");
  if (escapes.length > 0) {
    hc.findings.warn(`${path}.namespaces: discovery confined to namespace ${own} instead of ${escapes.join(' and ')}, because the Prometheus sets ignoreNamespaceSelectors`);
  }
  return { names: [own] };
}

function consulSd(sd: ConsulSd, path: string, hc: HttpClientContext): Entry {
  const entry: Entry = {};
  appendClientAuth(entry, sd, path, hc, 'oauth2-proxy-tls');
  // Prometheus trims the address before it checks that there is one.
  if (sd.server.trim() === '') hc.findings.problem(`${path}.server`, 'the Consul server address is blank; Prometheus needs one');
  entry.server = sd.server;
  if (sd.pathPrefix !== undefined) entry.path_prefix = sd.pathPrefix;
  if (sd.tokenRef?.name) entry.token = readSecretKey(sd.tokenRef, `${path}.tokenRef`, hc) ?? '';
  if (sd.datacenter !== undefined) entry.datacenter = sd.datacenter;
  if (sd.namespace !== undefined) entry.namespace = sd.namespace;
  if (sd.partition !== undefined) entry.partition = sd.partition;
  if (sd.scheme !== undefined) entry.scheme = sd.scheme.toLowerCase();
  if (sd.services && sd.services.length > 0) entry.services = [...sd.services];
  if (sd.tags && sd.tags.length > 0) entry.tags = [...sd.tags];
  if (sd.tagSeparator !== undefined) entry.tag_separator = sd.tagSeparator;
  if (sd.nodeMeta && Object.keys(sd.nodeMeta).length > 0) entry.node_meta = sortedByKey(sd.nodeMeta);
  if (sd.filter !== undefined) entry.filter = sd.filter;
  if (sd.healthFilter !== undefined) entry.health_filter = sd.healthFilter;
  if (sd.allowStale !== undefined) entry.allow_stale = sd.allowStale;
  withRefresh(entry, sd.refreshInterval, path, hc);
  appendClientFlags(entry, sd);
  return entry;
}
