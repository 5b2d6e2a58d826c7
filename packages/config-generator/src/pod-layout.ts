/**
 * Where things live inside the Prometheus (and Alertmanager) pod, and the names of the objects that carry them.
 * The generator writes these paths into prometheus.yaml and the controller mounts volumes at the
 * same paths: this module is the one place both read them from.
 */
import type { PrometheusWorkloadKind } from '@promop/crds';

/**
 * Where an Alertmanager pod reads its generated configuration Secret: alertmanager.yaml, and beside it the TLS
 * material its receivers reference (one Secret, so the kubelet swaps configuration and certificates in one step).
 */
export const ALERTMANAGER_CONFIG_DIR = '/etc/alertmanager/config';
/** The configuration's file (and key of the generated Secret) in that directory. */
export const ALERTMANAGER_CONFIG_FILE = 'alertmanager.yaml';
/**
 * Where an Alertmanager pod reads the notification templates of `spec.alertmanagerConfiguration.templates`
 * (prometheus-operator's path). promop copies each into the generated configuration Secret under its key and mounts
 * that same volume here too, so a template and the configuration naming it reach the pod in one update.
 */
export const ALERTMANAGER_TEMPLATES_DIR = '/etc/alertmanager/templates';
/** Directory of TLS material taken from Secrets/ConfigMaps (the tls-assets Secret is mounted here). */
export const CERTS_DIR = '/etc/prometheus/certs';
/** Parent directory of the rule ConfigMap mounts. */
export const RULES_DIR = '/etc/prometheus/rules';
/** Directory where the config Secret is mounted; Prometheus reads prometheus.yaml from it. */
export const CONFIG_DIR = '/etc/prometheus/config';
/** Key of prometheus.yaml inside the config Secret. */
export const CONFIG_FILE_NAME = 'prometheus.yaml';
/**
 * How many scrape-file Secrets the pods of a shard mount, each an `optional` source of the config volume, whether
 * or not they exist: a fixed list, so the pod spec never changes as the configuration grows or shrinks. A
 * configuration uses as many of them as its size calls for (SCRAPE_FILE_TIERS), up to all 256: files of at most
 * 900 KiB then hold 225 MiB of scrape jobs (how many ServiceMonitors that is: docs/performance.md, "Capacity"). The
 * cost of the count is one kubelet watch per name and pod; Secrets exist only for the slots in use.
 */
export const SCRAPE_FILE_SLOTS = 256;

/**
 * The name of the scrape file of slot `slot` in CONFIG_DIR (and its key in the slot's Secret):
 * `scrape-<slot, at least two digits>-<hash of its content>.yaml`. The name changes exactly when the content does, which
 * is what lets promop prove from prometheus.yaml alone which version of each file Prometheus was told to read.
 */
export function scrapeFileName(slot: number, contentHash: string): string {
  return `scrape-${String(slot).padStart(2, '0')}-${contentHash}.yaml`;
}
/** Parent directory of the `spec.secrets` mounts (users name these paths in hand-written config). */
export const SECRETS_DIR = '/etc/prometheus/secrets';
/** Parent directory of the `spec.configMaps` mounts. */
export const CONFIGMAPS_DIR = '/etc/prometheus/configmaps';
/**
 * The environment variable of a DaemonSet agent's pods holding the node's name (downward API `spec.nodeName`), and
 * the placeholder the generator writes where each pod's own node name belongs. prometheus-operator writes the same
 * placeholder and its config-reloader sidecar expands it in each pod; promop has no such sidecar, so each node needs
 * its own copy of prometheus.yaml with the name filled in before Prometheus reads it.
 */
export const NODE_NAME_ENV = 'NODE_NAME';
export const NODE_NAME_PLACEHOLDER = `$(${NODE_NAME_ENV})`;
/** TSDB data directory. */
export const STORAGE_DIR = '/prometheus';
/** Directory of the log files named without a directory (`queryLogFile`, `scrapeFailureLogFile`), an emptyDir. */
export const LOG_DIR = '/var/log/prometheus';

/** Whether a log file setting is a bare file name, which goes to LOG_DIR (prometheus-operator's rule). */
export function inLogDirectory(file: string | null | undefined): file is string {
  return typeof file === 'string' && file !== '' && !file.includes('/');
}

/**
 * The kinds promop runs Prometheus pods for: a server, or an agent (agent mode); the registry's Prometheus-family
 * workload kinds (an Alertmanager is a workload of another program).
 */
export type WorkloadKind = PrometheusWorkloadKind;

/**
 * The prefix of every object promop creates for each kind, prometheus-operator's: `prometheus-<name>` for a
 * Prometheus, `prom-agent-<name>` for a PrometheusAgent, so a server and an agent of the same name never share a
 * child.
 */
export const NAME_PREFIXES: Readonly<Record<WorkloadKind, string>> = { Prometheus: 'prometheus', PrometheusAgent: 'prom-agent' };

/** Every object promop creates for a Prometheus (or agent, with `kind`) is prefixed like prometheus-operator's. */
export function prefixedName(prometheusName: string, kind: WorkloadKind = 'Prometheus'): string {
  return `${NAME_PREFIXES[kind]}-${prometheusName}`;
}

/** The rule ConfigMap with index `index`. */
export function ruleConfigMapName(prometheusName: string, index: number): string {
  return `${prefixedName(prometheusName)}-rulefiles-${index}`;
}

/** The Secret holding TLS material referenced by monitors. */
export function tlsAssetsSecretName(prometheusName: string, kind: WorkloadKind = 'Prometheus'): string {
  return `${prefixedName(prometheusName, kind)}-tls-assets-0`;
}

/**
 * The file name of one piece of TLS material in the certs directory, as prometheus-operator
 * names it: `<0 for Secret|1 for ConfigMap>_<namespace>_<name>_<key>`.
 */
export function tlsAssetFileName(source: 'secret' | 'configMap', namespace: string, name: string, key: string): string {
  return `${source === 'secret' ? 0 : 1}_${namespace}_${name}_${key}`;
}
