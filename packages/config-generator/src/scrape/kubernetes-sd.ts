/** The single `kubernetes_sd_configs` entry of a monitor's scrape config. */
import type { NamespaceSelector, ServiceMonitorSpec } from '@promop/crds';
import { supports, type HttpClientContext } from '../http-client/index.ts';
import type { ScrapeContext } from './scrape-context.ts';

/** Options of one SD entry. */
export interface KubernetesSdOptions {
  role: 'endpoints' | 'endpointslice' | 'pod' | 'ingress';
  namespaceSelector: NamespaceSelector | undefined;
  /** The monitor's namespace: the default, and the only one with ignoreNamespaceSelectors. */
  namespace: string;
  /** `{node}` from the monitor or its scrape class, and the version that introduced it for this kind. */
  attachMetadata?: NonNullable<ServiceMonitorSpec['attachMetadata']> & { minimumVersion: string };
  /** Selectors pushed to the API server: label selectors (RoleSelector mechanism), the node field selector (DaemonSet agent). */
  selectors?: Array<{ role: string; label?: string; field?: string }>;
}

/**
 * The namespaces to watch: own namespace when namespace selectors are ignored or none is given,
 * none (= all) for `any: true`, else matchNames verbatim.
 */
export function discoveryNamespaces(selector: NamespaceSelector | undefined, namespace: string, ctx: ScrapeContext): string[] {
  if (ctx.ignoreNamespaceSelectors) return [namespace];
  if (selector?.any) return [];
  const names = selector?.matchNames ?? [];
  return names.length === 0 ? [namespace] : [...names];
}

/** Renders `[{role, namespaces?, api_server…?, attach_metadata?, selectors?}]`. */
export function kubernetesSdConfigs(options: KubernetesSdOptions, ctx: ScrapeContext, hc: HttpClientContext): Record<string, unknown>[] {
  const sd: Record<string, unknown> = { role: options.role };
  const names = discoveryNamespaces(options.namespaceSelector, options.namespace, ctx);
  if (names.length > 0) sd.namespaces = { names };
  // Prometheus-level API server settings come between namespaces and attach_metadata upstream.
  if (ctx.kubernetesSdApiServer) Object.assign(sd, ctx.kubernetesSdApiServer);
  if (options.attachMetadata && supports(hc, options.attachMetadata.minimumVersion, 'spec.attachMetadata', 'attach_metadata')) {
    sd.attach_metadata = { node: options.attachMetadata.node ?? false };
  }
  if (options.selectors && options.selectors.length > 0) {
    sd.selectors = options.selectors.map((s) => ({ role: s.role, ...(s.label !== undefined ? { label: s.label } : {}), ...(s.field !== undefined ? { field: s.field } : {}) }));
  }
  return [sd];
}
