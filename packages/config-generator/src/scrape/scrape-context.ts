/**
 * What rendering one monitor depends on besides the monitor itself. Engineer-facing contract:
 * the Prometheus-level code computes these knobs once per Prometheus and calls
 * renderServiceMonitor / renderPodMonitor for every selected monitor.
 */
import type { Prometheus, PrometheusAgent, PrometheusSpec, ScrapeKind } from '@promop/crds';
import type { FieldProblem } from '../model.ts';
import type { NameValidationScheme } from '../values/prometheus-names.ts';
import type { PrometheusVersion } from '../prometheus-version.ts';
import type { SecretStore } from '../secret-store.ts';
import type { TopologySharding } from './sharding.ts';

/** The monitor kinds this module renders (for enforcement exclusions). */
export type MonitorKind = ScrapeKind;

/**
 * Inputs shared by all monitors rendered for one Prometheus. The enforced limits and label are the Prometheus'
 * own fields, copied when set (an empty enforcedNamespaceLabel means no enforcement).
 */
export interface ScrapeContext
  extends Pick<
    PrometheusSpec,
    | 'enforcedNamespaceLabel' | 'enforcedSampleLimit' | 'enforcedTargetLimit' | 'enforcedLabelLimit' | 'enforcedLabelNameLengthLimit'
    | 'enforcedLabelValueLengthLimit' | 'enforcedKeepDroppedTargets' | 'enforcedBodySizeLimit'
  > {
  /** The Prometheus (or PrometheusAgent) being configured: its scrapeInterval, podTargetLabels and scrapeClasses are read. */
  prometheus: Prometheus | PrometheusAgent;
  /** Parsed spec.version: fields it does not support are dropped with a warning. */
  version: PrometheusVersion;
  /** Label names the Prometheus accepts (nameValidationSchemeFor its version and spec.nameValidationScheme). */
  nameValidationScheme: NameValidationScheme;
  /** Secrets/ConfigMaps; monitors only ever read their own namespace. */
  secrets: SecretStore;
  /** spec.serviceDiscoveryRole lowercased (default `endpoints`); a ServiceMonitor may override it. */
  serviceDiscoveryRole: 'endpoints' | 'endpointslice';
  /** spec.excludedFromEnforcement, evaluated: true when the monitor is exempt from the enforced label. */
  excludedFromEnforcement: (kind: MonitorKind, namespace: string, name: string) => boolean;
  overrideHonorLabels: boolean;
  overrideHonorTimestamps: boolean;
  /** When true, monitors, Probes and ScrapeConfigs only discover targets in their own namespace. */
  ignoreNamespaceSelectors: boolean;
  /** spec.arbitraryFSAccessThroughSMs.deny: no monitor, Probe or ScrapeConfig may name files in the Prometheus pod (file-access.ts). */
  denyFileSystemAccess: boolean;
  /**
   * spec.apiserverConfig, already rendered by the caller as the keys it adds to every
   * kubernetes_sd_configs entry (`api_server`, then its basic_auth / authorization / tls_config…),
   * in that order. Undefined: in-cluster discovery.
   */
  kubernetesSdApiServer?: Record<string, unknown>;
  /** spec.shards (at least 1): the hashmod modulus. */
  shards: number;
  /**
   * The shard (0-based) this config is rendered for: written into the sharding keep rule in place
   * of prometheus-operator's `$(SHARD)` placeholder (promop has no config-reloader to substitute
   * it). Undefined keeps the `$(SHARD)` placeholder (byte-compatible with upstream output): the
   * caller must then replace it in each shard's copy (see prometheus/sharding.ts substituteShard),
   * since Prometheus would scrape nothing with the placeholder left in.
   */
  shard?: number;
  /** Zone-aware sharding (spec.shardingStrategy mode Topology with zones); absent: by address alone. */
  topology?: TopologySharding;
  /**
   * A DaemonSet agent (`spec.mode: DaemonSet`): each pod discovers the pods of its own node only (a field selector on
   * `spec.nodeName` with the node name placeholder) and no job is sharded, as prometheus-operator renders that mode.
   */
  nodeLocal?: boolean;
}

/** The outcome of rendering one monitor: all its scrape configs, or why it is rejected. */
export type MonitorRendering =
  | {
      ok: true;
      /** One scrape config per endpoint, plain objects in upstream key order (serialise with toPrometheusYaml). */
      scrapeConfigs: Record<string, unknown>[];
      /** TLS files this monitor needs: file name (under CERTS_DIR) → PEM text. */
      tlsAssets: Record<string, string>;
      /** Fields dropped for the configured Prometheus version, deprecated fields used, … */
      warnings: string[];
    }
  | {
      ok: false;
      /** Every problem found, in field order; the first is the verdict's reason. */
      problems: FieldProblem[];
      warnings: string[];
    };
