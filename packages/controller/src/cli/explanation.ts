/**
 * `promop explain`'s answers, computed from a cluster snapshot with the operator's own code (pure: no I/O). Each
 * Prometheus and PrometheusAgent is rendered with `generate()` from exactly the input the operator gives it (reconcile/generator-input.ts),
 * so "selected", "accepted" and their reasons are the generator's verdicts, not a second implementation. Whether the
 * running Prometheus has a resource loaded comes from the status promop writes: the resource's binding (accepted
 * at its current generation) and the Prometheus' `status.configStatus` (which pods run which configuration, by
 * keyed hash), compared with the hash of the configuration rendered now when the config Secret's uid is known.
 */
import { load } from 'js-yaml';
import { generate, ruleFileName, type FieldProblem, type GeneratorOutput, type ResourceKind, type Verdict } from '@promop/config-generator';
import type { ConfigResourceStatus, PrometheusStatus } from '@promop/crds';
import { expectedShardFiles } from '../reconcile/expected-shard-files.ts';
import { KINDS, PROMETHEUS_SELECTED_KINDS, kindsSelectedBy, type ListOf, type PrometheusSelectedKind } from '@promop/crds/kinds';
import { generatorInput, type GeneratorSources } from '../reconcile/generator-input.ts';
import { namingOf, workloadKind, type PrometheusWorkload, type WorkloadKind } from '../workload/workload-kind.ts';
import type { ClusterSnapshot } from './cluster-snapshot.ts';
import { reportedHealth, type ReportedHealth } from '../health/binding-health.ts';

/** The kinds a Prometheus selects (a PrometheusAgent: all but PrometheusRule). */
export type SelectableKind = PrometheusSelectedKind;

/** A monitor or rule as explain names it. */
export interface ResourceName {
  kind: SelectableKind;
  namespace: string;
  name: string;
}

/** Whether the running Prometheus runs a configuration holding the resource (from status). */
export interface LoadState {
  /**
   * `loaded`: every pod runs it; `partly-loaded`: some; `not-loaded`: none yet; `not-written`: promop has not
   * written a configuration with this version of the resource; `changing`: the pods run another configuration
   * than the one rendered now (a change is being applied); `unknown`: status does not say.
   */
  state: 'loaded' | 'partly-loaded' | 'not-loaded' | 'not-written' | 'changing' | 'unknown';
  message: string;
  loadedReplicas?: string[];
  pendingReplicas?: { pod: string; reason: string; message?: string }[];
}

/** A Prometheus or PrometheusAgent, by name. */
export interface WorkloadName {
  kind: WorkloadKind;
  namespace: string;
  name: string;
}

/** What one Prometheus or PrometheusAgent makes of the resource. */
export interface PrometheusJudgement {
  prometheus: WorkloadName;
  selected: boolean;
  /** Not selected: the selector and the unmet requirement, with the labels seen. Rejected: the first problem. */
  reason?: string;
  accepted?: boolean;
  problems?: FieldProblem[];
  warnings?: string[];
  /** The scrape jobs a monitor becomes (`serviceMonitor/<namespace>/<name>/<endpoint>`). */
  scrapeJobs?: string[];
  /** The rule file a PrometheusRule becomes, `<configmap>/<file>` as mounted under /etc/prometheus/rules. */
  ruleFile?: string;
  /** Problems of the Prometheus itself: promop writes nothing for it and its pods keep the previous configuration. */
  prometheusProblems?: FieldProblem[];
  loaded?: LoadState;
  /**
   * What this Prometheus last reported of the resource's targets or rules, as promop wrote it into the binding
   * (`promop run --health-interval`): the Healthy condition and the counts. Absent until a first report.
   */
  health?: ReportedHealth;
}

/** The explanation of one monitor or rule across every Prometheus and PrometheusAgent (rules: every Prometheus). */
export interface ResourceExplanation {
  kind: SelectableKind;
  namespace: string;
  name: string;
  generation?: number;
  labels: Record<string, string>;
  /** The labels of its namespace, which namespace selectors match; null when the Namespace does not exist. */
  namespaceLabels: Record<string, string> | null;
  /** accepted: selected by at least one Prometheus and rejected by none; rejected: by at least one. */
  outcome: 'accepted' | 'rejected' | 'not-selected';
  prometheuses: PrometheusJudgement[];
  notes: string[];
}

/** One resource as a Prometheus sees it, for `explain prometheus`. */
export interface SelectedResource {
  namespace: string;
  name: string;
  state: 'accepted' | 'rejected' | 'not-selected';
  reason?: string;
  problems?: FieldProblem[];
  warnings?: string[];
  scrapeJobs?: string[];
  ruleFile?: string;
}

/** What a Prometheus or PrometheusAgent selects and rejects, per kind (an agent has no PrometheusRules). */
export interface PrometheusExplanation {
  kind: WorkloadKind;
  namespace: string;
  name: string;
  version: string;
  shards: number;
  replicas: number;
  paused: boolean;
  /** The generator's problems with the Prometheus itself (then nothing is written). */
  problems: FieldProblem[];
  warnings: string[];
  /** The running configuration per shard, from status. */
  configuration: LoadState;
  kinds: Partial<Record<SelectableKind, { candidates: number; selected: number; accepted: number; rejected: number; resources: SelectedResource[] }>>;
  notes: string[];
}

/** The uid of each shard's config Secret per Prometheus or PrometheusAgent (workloadKeyOf), when it could be read. */
export type ConfigSecretUids = ReadonlyMap<string, readonly (string | undefined)[]>;

/** The snapshot's lists of the selected kinds. */
type ResourceList = ListOf<PrometheusSelectedKind>;

/** The kinds `workload` selects: a PrometheusAgent evaluates no rules, so it has no PrometheusRule verdicts. */
function kindsOf(workload: PrometheusWorkload): readonly SelectableKind[] {
  return kindsSelectedBy(workloadKind(workload));
}

/** Every Prometheus, then every PrometheusAgent, of the snapshot, each group by namespace and name. */
export function workloadsOf(snapshot: Pick<ClusterSnapshot, 'prometheuses' | 'prometheusAgents'>): PrometheusWorkload[] {
  return [...[...snapshot.prometheuses].sort(byNamespacedName), ...[...snapshot.prometheusAgents].sort(byNamespacedName)];
}

/** Renders `prometheus` (a Prometheus or PrometheusAgent) from the snapshot exactly as the operator's reconcile does. */
export function renderFromSnapshot(snapshot: ClusterSnapshot, prometheus: PrometheusWorkload): GeneratorOutput {
  const lists = [...PROMETHEUS_SELECTED_KINDS.map((kind) => KINDS[kind].list), 'namespaces'] as const;
  const sources = Object.fromEntries(lists.map((list) => [list, { list: () => snapshot[list] }])) as unknown as GeneratorSources;
  const input = generatorInput(prometheus, sources, { secrets: snapshot.secrets, configMaps: snapshot.configMaps });
  return generate(snapshot.podTopologyLabels ? { ...input, podTopologyLabels: true } : input);
}

/** The object named, or undefined. */
export function findResource(snapshot: ClusterSnapshot, target: ResourceName): ClusterSnapshot[ResourceList][number] | undefined {
  const objects: ClusterSnapshot[ResourceList] = snapshot[KINDS[target.kind].list];
  return objects.find((object) => object.metadata.namespace === target.namespace && object.metadata.name === target.name);
}

/**
 * Explains `target` (which must exist in the snapshot) for every Prometheus and PrometheusAgent of the cluster; a
 * PrometheusRule for every Prometheus only (agents evaluate no rules). `outputs` by workloadKeyOf.
 */
export function explainResource(snapshot: ClusterSnapshot, target: ResourceName, uids: ConfigSecretUids, outputs?: ReadonlyMap<string, GeneratorOutput>): ResourceExplanation {
  const object = findResource(snapshot, target);
  if (!object) throw new Error(`bug: ${target.kind} ${target.namespace}/${target.name} is not in the snapshot`);
  const namespace = snapshot.namespaces.find((candidate) => candidate.metadata?.name === target.namespace);
  const judges = workloadsOf(snapshot).filter((workload) => kindsOf(workload).includes(target.kind));
  const judgements = judges.map((prometheus): PrometheusJudgement => {
    const output = outputs?.get(workloadKeyOf(prometheus)) ?? renderFromSnapshot(snapshot, prometheus);
    const verdict = output.verdicts.find((v) => v.resource.kind === target.kind && v.resource.namespace === target.namespace && v.resource.name === target.name);
    const judgement = judge(verdict, output, target, object.metadata.uid);
    const health = reportedHealth(bindingOf(object.status, prometheus));
    if (judgement.selected && judgement.accepted && health) judgement.health = health;
    if (judgement.selected && judgement.accepted) {
      judgement.loaded = output.ok
        ? loadStateOf(prometheus, output, uids.get(workloadKeyOf(prometheus)) ?? [], { binding: bindingOf(object.status, prometheus), generation: object.metadata.generation })
        : { state: 'not-written', message: 'the Prometheus itself has problems: promop writes nothing and its pods keep the previous configuration' };
    }
    return judgement;
  });
  const selected = judgements.filter((judgement) => judgement.selected);
  const outcome = selected.length === 0 ? 'not-selected' : selected.some((judgement) => !judgement.accepted) ? 'rejected' : 'accepted';
  return {
    kind: target.kind,
    namespace: target.namespace,
    name: target.name,
    ...(object.metadata.generation !== undefined ? { generation: object.metadata.generation } : {}),
    labels: { ...object.metadata.labels },
    namespaceLabels: namespace ? { ...namespace.metadata?.labels } : null,
    outcome,
    prometheuses: judgements,
    notes: [
      ...snapshotNotes(snapshot),
      ...(target.kind === 'PrometheusRule' && snapshot.prometheusAgents.length > 0 ? ['PrometheusAgents evaluate no rules: only Prometheus objects are judged'] : []),
    ],
  };
}

/** Explains what `prometheus` (a Prometheus or PrometheusAgent) selects and rejects. */
export function explainPrometheus(snapshot: ClusterSnapshot, prometheus: PrometheusWorkload, uids: readonly (string | undefined)[], output = renderFromSnapshot(snapshot, prometheus)): PrometheusExplanation {
  const kinds = Object.fromEntries(kindsOf(prometheus).map((kind) => {
    const resources = output.verdicts
      .filter((verdict) => verdict.resource.kind === kind)
      .map((verdict): SelectedResource => {
        const uid = kind === 'PrometheusRule' ? snapshot.prometheusRules.find((rule) => rule.metadata.namespace === verdict.resource.namespace && rule.metadata.name === verdict.resource.name)?.metadata.uid : undefined;
        const judgement = judge(verdict, output, { kind, namespace: verdict.resource.namespace, name: verdict.resource.name }, uid);
        const { reason, problems, warnings, scrapeJobs, ruleFile } = judgement;
        return {
          namespace: verdict.resource.namespace,
          name: verdict.resource.name,
          state: !judgement.selected ? 'not-selected' : judgement.accepted ? 'accepted' : 'rejected',
          ...(reason !== undefined ? { reason } : {}),
          ...(problems && problems.length > 1 ? { problems } : {}),
          ...(warnings && warnings.length > 0 ? { warnings } : {}),
          ...(scrapeJobs ? { scrapeJobs } : {}),
          ...(ruleFile ? { ruleFile } : {}),
        };
      });
    const count = (state: SelectedResource['state']) => resources.filter((resource) => resource.state === state).length;
    return [kind, { candidates: resources.length, selected: resources.length - count('not-selected'), accepted: count('accepted'), rejected: count('rejected'), resources }];
  })) as PrometheusExplanation['kinds'];
  const spec = prometheus.spec ?? {};
  return {
    kind: workloadKind(prometheus),
    namespace: prometheus.metadata.namespace,
    name: prometheus.metadata.name,
    version: spec.version ?? '(default)',
    shards: Math.max(1, output.configs.length || (spec.shards ?? 1)),
    replicas: spec.replicas ?? 1,
    paused: spec.paused === true,
    problems: output.prometheusProblems,
    warnings: output.prometheusWarnings,
    configuration: output.ok
      ? loadStateOf(prometheus, output, uids)
      : { state: 'not-written', message: 'promop writes nothing while the Prometheus has problems: its pods keep the previous configuration' },
    kinds,
    notes: snapshotNotes(snapshot),
  };
}

/** The judgement of one verdict, with the jobs or rule file it became. */
function judge(verdict: Verdict | undefined, output: GeneratorOutput, target: ResourceName, uid: string | undefined): PrometheusJudgement {
  const prometheus = output.verdicts[0]!.resource;
  const base = { prometheus: { kind: prometheus.kind as WorkloadKind, namespace: prometheus.namespace, name: prometheus.name } };
  // The generator gives every candidate a verdict; none means the Prometheus rendered nothing for it.
  if (!verdict) return { ...base, selected: false, reason: 'not judged: the Prometheus could not be rendered' };
  if (!verdict.selected) return { ...base, selected: false, reason: verdict.reason };
  const judgement: PrometheusJudgement = { ...base, selected: true, accepted: verdict.accepted, warnings: verdict.warnings };
  if (!verdict.accepted) return { ...judgement, reason: verdict.reason, problems: verdict.problems };
  if (!output.ok) judgement.prometheusProblems = output.prometheusProblems;
  if (target.kind === 'PrometheusRule') {
    const file = uid === undefined ? undefined : ruleFileName(target.namespace, target.name, uid);
    const configMap = file === undefined ? undefined : output.ruleConfigMaps.find((candidate) => file in candidate.files);
    if (configMap && file) judgement.ruleFile = `${configMap.name}/${file}`;
  } else {
    // A job is named after its object, `<kind in lowerCamelCase>/<namespace>/<name>`, and `/<i>` after that for a
    // monitor's endpoints (a Probe or ScrapeConfig is one job). Names hold no `/`, so no other object's job matches.
    const ownName = `${target.kind.charAt(0).toLowerCase()}${target.kind.slice(1)}/${target.namespace}/${target.name}`;
    const own = (job: string) => job === ownName || job.startsWith(`${ownName}/`);
    judgement.scrapeJobs = jobNames(output).filter(own);
  }
  return judgement;
}

const jobNamesOf = new WeakMap<GeneratorOutput, string[]>();

/** The names of the scrape jobs of shard 0 (every shard has every job: sharding is a relabeling). */
function jobNames(output: GeneratorOutput): string[] {
  let names = jobNamesOf.get(output);
  if (!names) {
    const config = output.configs[0] === undefined ? {} : (load(output.configs[0]) as { scrape_configs?: { job_name?: unknown }[] } | null) ?? {};
    names = [...(config.scrape_configs ?? []).map((job) => String(job.job_name)), ...(output.scrapeFiles[0] ?? []).flatMap((file) => file.jobNames)];
    jobNamesOf.set(output, names);
  }
  return names;
}

type Binding = NonNullable<ConfigResourceStatus['bindings']>[number];

function bindingOf(status: ConfigResourceStatus | undefined, prometheus: PrometheusWorkload): Binding | undefined {
  const resource = namingOf(prometheus).resource;
  return status?.bindings?.find((binding) => binding.resource === resource && binding.namespace === prometheus.metadata.namespace && binding.name === prometheus.metadata.name);
}

/**
 * Whether the pods of `prometheus` run the configuration rendered now. With `resource` (a monitor or rule), first
 * whether promop has recorded this generation of the resource as accepted, i.e. written a configuration with it.
 */
function loadStateOf(prometheus: PrometheusWorkload, output: GeneratorOutput, uids: readonly (string | undefined)[], resource?: { binding: Binding | undefined; generation: number | undefined }): LoadState {
  if (prometheus.spec?.paused === true) return { state: 'unknown', message: 'the Prometheus is paused: promop writes no configuration for it' };
  if (resource) {
    const { binding, generation } = resource;
    const accepted = binding?.conditions?.find((condition) => condition.type === 'Accepted');
    if (!accepted || accepted.status !== 'True' || (generation !== undefined && accepted.observedGeneration !== generation)) {
      const seen = accepted ? `its binding says Accepted=${accepted.status} for generation ${accepted.observedGeneration ?? '?'}` : 'it has no binding of this Prometheus in its status';
      return { state: 'not-written', message: `promop has not written a configuration with generation ${generation ?? '?'} of it yet (${seen}); is promop running?` };
    }
  }
  const statuses: NonNullable<PrometheusStatus['configStatus']> = prometheus.status?.configStatus ?? [];
  const loaded: string[] = [];
  const pending: NonNullable<LoadState['pendingReplicas']> = [];
  const unverified: number[] = [];
  for (let shard = 0; shard < output.configs.length; shard++) {
    const status = statuses.find((entry) => entry.shardID === String(shard));
    if (!status) return { state: 'unknown', message: `the Prometheus' status.configStatus has no entry for shard ${shard}: promop has not reported a reload yet` };
    const uid = uids[shard];
    if (uid === undefined) unverified.push(shard);
    else {
      const expected = expectedShardFiles(output, shard, uid).hash;
      if (status.configHash !== expected) {
        return { state: 'changing', message: `the pods of shard ${shard} run configuration ${status.configHash}, not ${expected}, the one promop renders from the cluster now: a change is being applied` };
      }
    }
    loaded.push(...(status.loadedReplicas ?? []));
    pending.push(...(status.pendingReplicas ?? []).map((entry) => ({ pod: entry.pod, reason: entry.reason, ...(entry.message ? { message: entry.message } : {}) })));
  }
  const how = unverified.length === 0
    ? 'configuration hash verified'
    : `as the Prometheus' status reports; the hash of shard${unverified.length > 1 ? 's' : ''} ${unverified.join(', ')} was not checked (its config Secret cannot be read)`;
  const replicas = { loadedReplicas: loaded, ...(pending.length > 0 ? { pendingReplicas: pending } : {}) };
  const pendingText = pending.map((entry) => `${entry.pod} (${entry.reason}${entry.message ? `: ${entry.message}` : ''})`).join(', ');
  if (loaded.length > 0 && pending.length === 0) return { state: 'loaded', message: `loaded by ${loaded.join(', ')} (${how})`, ...replicas };
  if (loaded.length > 0) return { state: 'partly-loaded', message: `loaded by ${loaded.join(', ')}; not yet by ${pendingText} (${how})`, ...replicas };
  return { state: 'not-loaded', message: pending.length > 0 ? `not loaded yet: ${pendingText}` : 'no pod of this Prometheus runs it yet (no ready pod?)', ...replicas };
}

function snapshotNotes(snapshot: ClusterSnapshot): string[] {
  const notes: string[] = [];
  if (snapshot.prometheuses.length === 0 && snapshot.prometheusAgents.length === 0) notes.push('the cluster has no Prometheus or PrometheusAgent object');
  if (snapshot.unreadable.length > 0) {
    notes.push(`you may not read ${snapshot.unreadable.join(', ')}: verdicts assume every key referenced in them exists`);
  }
  return notes;
}

/** `namespace/name` of an object. */
export function keyOf(object: { metadata: { namespace: string; name: string } }): string {
  return `${object.metadata.namespace}/${object.metadata.name}`;
}

/** The kind, namespace and name of a Prometheus or PrometheusAgent. */
export function workloadNameOf(workload: PrometheusWorkload): WorkloadName {
  return { kind: workloadKind(workload), namespace: workload.metadata.namespace, name: workload.metadata.name };
}

/** `Kind namespace/name` of a Prometheus or PrometheusAgent: a Prometheus and an agent may share a name. */
export function workloadKeyOf(workload: PrometheusWorkload): string {
  return `${workloadKind(workload)} ${keyOf(workload)}`;
}

function byNamespacedName(a: PrometheusWorkload, b: PrometheusWorkload): number {
  return keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0;
}
