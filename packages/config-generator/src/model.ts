/**
 * The generator's input and output: the contract between the pure core (this package) and the
 * imperative shell (`@promop/controller`, the `promop render` CLI). Everything here is plain data
 * so the same input always gives byte-identical output.
 */
import type { RenderMemo } from './render-memo.ts';
import type { PrometheusVersion } from './prometheus-version.ts';
import type { Kind, Prometheus, PrometheusAgent, ServiceMonitor, PodMonitor, Probe, PrometheusRule, ScrapeConfig } from '@promop/crds';

/** The kinds the generator reports verdicts for: every kind of the registry. */
export type ResourceKind = Kind;

/** Identifies one resource in verdicts, logs, status and Events. */
export interface ResourceRef {
  kind: ResourceKind;
  namespace: string;
  name: string;
}

/** A Namespace as the selectors see it. */
export interface NamespaceInfo {
  name: string;
  labels: Record<string, string>;
}

/**
 * A Secret or ConfigMap that a resource may reference. Values are already decoded text
 * (the shell base64-decodes Secret data). Only the referencing resource's own namespace is ever
 * looked up, so a cross-namespace reference cannot be expressed.
 */
export interface KeyValueSource {
  namespace: string;
  name: string;
  data: Record<string, string>;
}

/** Everything one rendering of one Prometheus depends on. */
export interface GeneratorInput {
  /** A Prometheus server, or a PrometheusAgent (agent mode: no rules, no alerting, see prometheus/agent-mode.ts). */
  prometheus: Prometheus | PrometheusAgent;
  /** Candidates: the generator applies the Prometheus' selectors itself. */
  serviceMonitors: ServiceMonitor[];
  podMonitors: PodMonitor[];
  /** Absent: none (callers that predate Probes). */
  probes?: Probe[];
  /** Absent: none. */
  scrapeConfigs?: ScrapeConfig[];
  /**
   * The cluster labels pods with `topology.kubernetes.io/zone` (Kubernetes 1.35+, PodTopologyLabelsAdmission), so
   * topology sharding reads a target's zone from its pod rather than from its node (which needs node metadata in
   * the ServiceMonitor and PodMonitor jobs), as prometheus-operator decides by the cluster's version. Absent: false.
   */
  podTopologyLabels?: boolean;
  prometheusRules: PrometheusRule[];
  namespaces: NamespaceInfo[];
  secrets: KeyValueSource[];
  configMaps: KeyValueSource[];
  /**
   * Renderings kept from previous calls with the same memo (render-memo.ts): unchanged monitors and rules are not
   * rendered again. The output is the same with or without it.
   */
  memo?: RenderMemo;
}

/** A problem with a user's input: where it is and a sentence the user understands. */
export interface FieldProblem {
  /** JSON path inside the resource, e.g. `spec.endpoints[0].interval`. */
  path: string;
  message: string;
}

/** What the generator decided about one candidate resource, and why. */
export type Verdict =
  | {
      resource: ResourceRef;
      selected: false;
      /** Which selector excluded it and why, e.g. `serviceMonitorNamespaceSelector {team: a} does not match namespace "b" (labels: {team: b})`. */
      reason: string;
    }
  | {
      resource: ResourceRef;
      selected: true;
      accepted: true;
      /** Non-fatal notes, e.g. a field dropped because spec.version does not support it. */
      warnings: string[];
    }
  | {
      resource: ResourceRef;
      selected: true;
      accepted: false;
      /** The first problem found, as `<path>: <sentence>`. */
      reason: string;
      problems: FieldProblem[];
      warnings: string[];
    };

/** One ConfigMap's worth of rule files (at most 512 KiB of content). */
export interface RuleConfigMap {
  /** `prometheus-<prometheus name>-rulefiles-<i>`. */
  name: string;
  /** File name (`<namespace>-<name>-<uid>.yaml`) → file text. */
  files: Record<string, string>;
}

/**
 * A file of generated scrape jobs that prometheus.yaml lists in `scrape_config_files` (Prometheus 2.43+), used when
 * the jobs are too many to stay inline. Each is carried by the Secret of its slot (see SCRAPE_FILE_SLOTS).
 */
export interface ScrapeFile {
  /** Which of the SCRAPE_FILE_SLOTS Secrets carries it: a monitor's is a hash of its identity modulo the number of files (which grows with the configuration), unless that slot is full. */
  slot: number;
  /** `scrape-<slot>-<hash>.yaml` (scrapeFileName): the file in the config directory; changes exactly when `text` does. */
  name: string;
  /** `scrape_configs:` and the jobs, at most SCRAPE_FILE_MAX_BYTES. */
  text: string;
  /** The names of its jobs, in file order: what Prometheus must report loaded. */
  jobNames: string[];
}

/** The result of rendering one Prometheus. */
export interface GeneratorOutput {
  /**
   * False when the Prometheus itself has a problem (bad spec, missing additionalScrapeConfigs
   * Secret, ...). The controller must then keep the previously applied config and report
   * `prometheusProblems` in the Prometheus' status.
   */
  ok: boolean;
  prometheusProblems: FieldProblem[];
  /** Warnings about the Prometheus itself (e.g. fields its version does not support). */
  prometheusWarnings: string[];
  /**
   * prometheus.yaml text, one per shard; index = shard number. Empty when !ok. When the shard's generated scrape
   * jobs are split over scrape files (`scrapeFiles[shard]` not empty), it holds everything else and names those
   * files in `scrape_config_files`.
   */
  configs: string[];
  /**
   * Per shard (index = shard number), the scrape files its prometheus.yaml names, in that order; an empty list
   * when the jobs are inline in prometheus.yaml (small configs, and Prometheus before 2.43). Empty when !ok.
   */
  scrapeFiles: ScrapeFile[][];
  /** The rule files packed into ConfigMaps; always at least one (possibly empty), but none for an agent. */
  ruleConfigMaps: RuleConfigMap[];
  /** TLS material referenced by monitors: file name under the certs directory → content. */
  tlsAssets: Record<string, string>;
  /** One verdict per candidate ServiceMonitor, PodMonitor, Probe, ScrapeConfig and PrometheusRule, plus one for the Prometheus. */
  verdicts: Verdict[];
  /**
   * The Prometheus version the files were written for, read once from `spec.version` (the default when empty), so
   * the pods' flags and every later decision agree with the files. When `spec.version` does not parse (a problem,
   * so `ok` is false) the monitors were judged against the default version, and this is that default.
   */
  version: PrometheusVersion;
  /**
   * With topology sharding (`spec.shardingStrategy.mode: Topology`), the zone each shard scrapes (index = shard
   * number): its pods run on nodes of that zone (`topology.kubernetes.io/zone` in their node selector). Absent
   * otherwise, and when !ok.
   */
  shardZones?: string[];
}
