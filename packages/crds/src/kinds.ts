/**
 * The registry of kinds: every fact about a kind that code elsewhere would otherwise list by hand. The CRD
 * manifests, the validators, the operator's caches, RBAC, the enqueue mapping, the CLI (explain, render, diff,
 * completion) and the per-kind metrics all read this table; `kind-lists.test.ts` fails when a list of kind names
 * appears anywhere else. Adding a kind starts here (docs/architecture.md, "Adding a kind").
 *
 * The table holds names and relations only, no schemas: it is imported by code that must start fast (the CLI),
 * and the schemas (large: Prometheus' above all) stay behind `resource-schemas.ts`, whose per-kind table is typed by
 * `Kind` so that a kind added here without a schema does not compile.
 */
export { GROUP } from './group.ts';

/**
 * What a kind is to promop:
 * - `workload`: an object promop runs pods for (a StatefulSet, its config Secret, its governing Service);
 * - `scrape`: a team's object selected by workloads, rendered into scrape jobs;
 * - `rules`: a team's object selected by workloads, rendered into rule files;
 * - `alerting`: a team's object selected by Alertmanagers, rendered into routes, receivers and inhibit rules.
 */
export type KindRole = 'workload' | 'scrape' | 'rules' | 'alerting';

interface KindFacts {
  /** The resource name in API paths and RBAC rules. */
  readonly plural: string;
  /** The one version it is served at (prometheus-operator serves ScrapeConfig and PrometheusAgent as v1alpha1). */
  readonly version: 'v1' | 'v1alpha1';
  /** kubectl's short name, in the CRD and accepted by `promop explain`. */
  readonly shortName: string;
  readonly role: KindRole;
  /** The property of a snapshot of the cluster (the caches, the generator's input) that lists objects of this kind. */
  readonly list: string;
  /**
   * For workload kinds: the program its pods run. Prometheus and PrometheusAgent share one pod template, config
   * generator and reconciler (the Prometheus family); an Alertmanager and a ThanosRuler are each a family of their own.
   */
  readonly program?: 'prometheus' | 'alertmanager' | 'thanos-ruler';
  /**
   * For selected kinds: the stem of the selector fields on the workload's spec (`serviceMonitor` →
   * `serviceMonitorSelector`, `serviceMonitorNamespaceSelector`) and the workload kinds that have them.
   */
  readonly selectedBy?: { readonly fieldStem: string; readonly workloads: readonly string[] };
}

/** Every kind promop serves, in the order prometheus-operator renders them (workloads, then jobs, then rules). */
export const KINDS = {
  Prometheus: { plural: 'prometheuses', version: 'v1', shortName: 'prom', role: 'workload', program: 'prometheus', list: 'prometheuses' },
  PrometheusAgent: { plural: 'prometheusagents', version: 'v1alpha1', shortName: 'promagent', role: 'workload', program: 'prometheus', list: 'prometheusAgents' },
  Alertmanager: { plural: 'alertmanagers', version: 'v1', shortName: 'am', role: 'workload', program: 'alertmanager', list: 'alertmanagers' },
  ThanosRuler: { plural: 'thanosrulers', version: 'v1', shortName: 'ruler', role: 'workload', program: 'thanos-ruler', list: 'thanosRulers' },
  ServiceMonitor: {
    plural: 'servicemonitors', version: 'v1', shortName: 'smon', role: 'scrape', list: 'serviceMonitors',
    selectedBy: { fieldStem: 'serviceMonitor', workloads: ['Prometheus', 'PrometheusAgent'] },
  },
  PodMonitor: {
    plural: 'podmonitors', version: 'v1', shortName: 'pmon', role: 'scrape', list: 'podMonitors',
    selectedBy: { fieldStem: 'podMonitor', workloads: ['Prometheus', 'PrometheusAgent'] },
  },
  Probe: {
    plural: 'probes', version: 'v1', shortName: 'prb', role: 'scrape', list: 'probes',
    selectedBy: { fieldStem: 'probe', workloads: ['Prometheus', 'PrometheusAgent'] },
  },
  ScrapeConfig: {
    plural: 'scrapeconfigs', version: 'v1alpha1', shortName: 'scfg', role: 'scrape', list: 'scrapeConfigs',
    selectedBy: { fieldStem: 'scrapeConfig', workloads: ['Prometheus', 'PrometheusAgent'] },
  },
  PrometheusRule: {
    plural: 'prometheusrules', version: 'v1', shortName: 'promrule', role: 'rules', list: 'prometheusRules',
    selectedBy: { fieldStem: 'rule', workloads: ['Prometheus', 'ThanosRuler'] },
  },
  AlertmanagerConfig: {
    plural: 'alertmanagerconfigs', version: 'v1alpha1', shortName: 'amcfg', role: 'alerting', list: 'alertmanagerConfigs',
    selectedBy: { fieldStem: 'alertmanagerConfig', workloads: ['Alertmanager'] },
  },
} as const satisfies Record<string, KindFacts>;

type Registry = typeof KINDS;

/** One of the kinds promop serves. */
export type Kind = keyof Registry;
/** A kind promop runs pods for. */
export type WorkloadKind = { [K in Kind]: Registry[K]['role'] extends 'workload' ? K : never }[Kind];
/** A workload kind of the Prometheus family (one pod template, config generator and reconciler). */
export type PrometheusWorkloadKind = { [K in Kind]: Registry[K] extends { program: 'prometheus' } ? K : never }[Kind];
/** A kind workloads select: the teams' objects. */
export type SelectedKind = Exclude<Kind, WorkloadKind>;
/** A kind the Prometheus family selects (everything a Prometheus configuration is made from besides the workload). */
export type PrometheusSelectedKind = { [K in SelectedKind]: 'Prometheus' extends Registry[K]['selectedBy']['workloads'][number] ? K : 'PrometheusAgent' extends Registry[K]['selectedBy']['workloads'][number] ? K : never }[SelectedKind];
/** A selected kind rendered into scrape jobs. */
export type ScrapeKind = { [K in Kind]: Registry[K]['role'] extends 'scrape' ? K : never }[Kind];
/** The snapshot property that lists objects of kind K (`serviceMonitors` for ServiceMonitor). */
export type ListOf<K extends Kind> = Registry[K]['list'];
/** The stem of the selector fields on a workload's spec that select a kind (`serviceMonitor`, `rule`). */
export type SelectorStem = Registry[SelectedKind]['selectedBy']['fieldStem'];

const kindsWhere = <K extends Kind>(test: (facts: KindFacts) => boolean): readonly K[] =>
  Object.freeze((Object.keys(KINDS) as Kind[]).filter((kind) => test(KINDS[kind])) as K[]);

/** Every kind, in the registry's order. */
export const ALL_KINDS: readonly Kind[] = kindsWhere<Kind>(() => true);
/** The workload kinds. */
export const WORKLOAD_KINDS: readonly WorkloadKind[] = kindsWhere<WorkloadKind>((facts) => facts.role === 'workload');
/** The workload kinds of the Prometheus family. */
export const PROMETHEUS_WORKLOAD_KINDS: readonly PrometheusWorkloadKind[] = kindsWhere<PrometheusWorkloadKind>((facts) => facts.program === 'prometheus');
/** The selected kinds, in the order their verdicts and jobs are listed. */
export const SELECTED_KINDS: readonly SelectedKind[] = kindsWhere<SelectedKind>((facts) => facts.role !== 'workload');
/** The selected kinds a Prometheus or PrometheusAgent selects, in the same order. */
export const PROMETHEUS_SELECTED_KINDS: readonly PrometheusSelectedKind[] = kindsWhere<PrometheusSelectedKind>((facts) =>
  facts.selectedBy !== undefined && facts.selectedBy.workloads.some((workload) => (PROMETHEUS_WORKLOAD_KINDS as readonly string[]).includes(workload)));
/** The selected kinds rendered into scrape jobs. */
export const SCRAPE_KINDS: readonly ScrapeKind[] = kindsWhere<ScrapeKind>((facts) => facts.role === 'scrape');

/** The selected kinds a workload of kind `workload` selects (a PrometheusAgent loads no rules). */
export function kindsSelectedBy(workload: PrometheusWorkloadKind): readonly PrometheusSelectedKind[];
export function kindsSelectedBy(workload: WorkloadKind): readonly SelectedKind[];
export function kindsSelectedBy(workload: WorkloadKind): readonly SelectedKind[] {
  return SELECTED_KINDS.filter((kind) => (KINDS[kind].selectedBy.workloads as readonly string[]).includes(workload));
}

type PerKind<Fact extends 'plural' | 'version'> = { readonly [K in Kind]: Registry[K][Fact] };
const perKind = <Fact extends 'plural' | 'version'>(fact: Fact): PerKind<Fact> =>
  Object.freeze(Object.fromEntries(ALL_KINDS.map((kind) => [kind, KINDS[kind][fact]]))) as PerKind<Fact>;

/** Kind → plural, the resource name in API paths and RBAC rules. */
export const PLURALS: PerKind<'plural'> = perKind('plural');

/** Kind → the API version it is served at; use it wherever a path or an apiVersion names a kind. */
export const API_VERSIONS: PerKind<'version'> = perKind('version');

/** Whether `name` is one of the kinds promop serves. */
export function isKind(name: unknown): name is Kind {
  return typeof name === 'string' && Object.hasOwn(KINDS, name);
}

/**
 * The kind a user means by `text` on a command line, as kubectl reads it: the kind, its plural or its short name,
 * in any case (`servicemonitor`, `ServiceMonitors`, `smon`).
 */
export function kindNamed(text: string): Kind | undefined {
  const wanted = text.toLowerCase();
  return ALL_KINDS.find((kind) => kind.toLowerCase() === wanted || KINDS[kind].plural === wanted || KINDS[kind].shortName === wanted);
}
