/**
 * The kinds each program's configuration is made from, read from the registry of kinds: a Prometheus or
 * PrometheusAgent from its workload and the kinds it selects, an Alertmanager from itself and the kinds it selects.
 * What `explain` takes and what the commands list, per program. Imports nothing but the registry (a table of names),
 * so commands.ts, loaded for `--help`, may import it.
 */
import {
  KINDS, PROMETHEUS_SELECTED_KINDS, PROMETHEUS_WORKLOAD_KINDS, SELECTED_KINDS, WORKLOAD_KINDS, kindsSelectedBy,
  type Kind, type PrometheusSelectedKind, type SelectedKind, type WorkloadKind,
} from '@promop/crds/kinds';

/** A workload kind whose pods run Alertmanager. */
export type AlertmanagerWorkloadKind = { [K in WorkloadKind]: (typeof KINDS)[K] extends { program: 'alertmanager' } ? K : never }[WorkloadKind];
/** A kind Alertmanagers select: the teams' alerting objects. */
export type AlertmanagerSelectedKind = Exclude<SelectedKind, PrometheusSelectedKind>;

/** The workload kinds whose pods run Alertmanager. */
export const ALERTMANAGER_WORKLOAD_KINDS: readonly AlertmanagerWorkloadKind[] = WORKLOAD_KINDS.filter(
  (kind): kind is AlertmanagerWorkloadKind => KINDS[kind].program === 'alertmanager',
);

/** The kinds Alertmanagers select, in the registry's order. */
export const ALERTMANAGER_SELECTED_KINDS: readonly AlertmanagerSelectedKind[] = SELECTED_KINDS.filter(
  (kind): kind is AlertmanagerSelectedKind => ALERTMANAGER_WORKLOAD_KINDS.some((workload) => kindsSelectedBy(workload).includes(kind)),
);

/** The kinds a Prometheus or PrometheusAgent configuration is made from, the teams' kinds first. */
export const PROMETHEUS_SOURCE_KINDS: readonly Kind[] = [...PROMETHEUS_SELECTED_KINDS, ...PROMETHEUS_WORKLOAD_KINDS];

/** The kinds an Alertmanager configuration is made from, the teams' kinds first. */
export const ALERTMANAGER_SOURCE_KINDS: readonly Kind[] = [...ALERTMANAGER_SELECTED_KINDS, ...ALERTMANAGER_WORKLOAD_KINDS];

/** The workload kinds whose pods run thanos rule. */
export const THANOS_RULER_WORKLOAD_KINDS: readonly WorkloadKind[] = WORKLOAD_KINDS.filter((kind) => KINDS[kind].program === 'thanos-ruler');

/** The kinds a ThanosRuler's rule files are made from, the teams' kinds first. */
export const THANOS_RULER_SOURCE_KINDS: readonly Kind[] = [
  ...SELECTED_KINDS.filter((kind) => THANOS_RULER_WORKLOAD_KINDS.some((workload) => kindsSelectedBy(workload).includes(kind))),
  ...THANOS_RULER_WORKLOAD_KINDS,
];

/** Whether `kind` is a workload kind whose pods run thanos rule. */
export function isThanosRulerWorkloadKind(kind: Kind): boolean {
  return THANOS_RULER_WORKLOAD_KINDS.includes(kind as WorkloadKind);
}

/** Whether `kind` is one an Alertmanager configuration is made from. */
export function isAlertmanagerSourceKind(kind: Kind): kind is AlertmanagerSelectedKind | AlertmanagerWorkloadKind {
  return ALERTMANAGER_SOURCE_KINDS.includes(kind);
}

/** Whether `kind` is one a Prometheus or PrometheusAgent selects (`explain` judges those with the Prometheus' code). */
export function isPrometheusSelectedKind(kind: Kind): kind is PrometheusSelectedKind {
  return (PROMETHEUS_SELECTED_KINDS as readonly Kind[]).includes(kind);
}
