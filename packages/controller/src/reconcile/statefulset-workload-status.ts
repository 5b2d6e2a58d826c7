/**
 * The status of a workload promop runs as one StatefulSet of another program (an Alertmanager, a ThanosRuler):
 * replica counts from the StatefulSet, `Available` from how many pods are available against `spec.replicas`, and
 * `Reconciled` as the reconcile decided; each condition keeps its lastTransitionTime while its status stays. Written
 * only when it differs from the stored one, so an idle cluster sees no status write.
 */
import type { V1StatefulSet } from '@kubernetes/client-node';
import type { ReconciledMemory } from './refusal-warnings.ts';
import type { ReconcilerStatus } from './reconciler-ports.ts';

/** What a condition says. */
export interface ConditionValue {
  status: 'True' | 'False' | 'Unknown' | 'Degraded';
  reason: string;
  message: string;
}

/** A condition as these workloads' status schemas declare it. */
export interface WorkloadCondition {
  type: 'Available' | 'Reconciled';
  status: ConditionValue['status'];
  reason: string;
  message?: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

/** The fields of the status that this module decides. */
export interface StatefulSetWorkloadStatus {
  paused: boolean;
  replicas: number;
  updatedReplicas: number;
  availableReplicas: number;
  unavailableReplicas: number;
  conditions: WorkloadCondition[];
}

/** The object as this module reads it. */
interface Workload {
  metadata: { generation?: number | undefined };
  spec?: { replicas?: number | undefined } | undefined;
  status?: {
    replicas?: number | undefined;
    updatedReplicas?: number | undefined;
    availableReplicas?: number | undefined;
    conditions?: readonly { type: string; status: string; lastTransitionTime?: string | undefined }[] | undefined;
  } | undefined;
}

/**
 * The status of `object` with `statefulSet` as stored (undefined: keep the counts the status has, as when the
 * object is refused and nothing was applied), `reconciled` as decided, at `now`.
 */
export function statefulSetWorkloadStatus(object: Workload, statefulSet: V1StatefulSet | undefined, reconciled: ConditionValue, now: Date): StatefulSetWorkloadStatus {
  const previous = object.status ?? {};
  const replicas = statefulSet?.status?.replicas ?? previous.replicas ?? 0;
  const available = statefulSet?.status?.availableReplicas ?? previous.availableReplicas ?? 0;
  const wanted = object.spec?.replicas ?? 1;
  const availability: ConditionValue = available >= wanted && wanted > 0
    ? { status: 'True', reason: 'AllReplicasAvailable', message: '' }
    : available > 0
      ? { status: 'Degraded', reason: 'SomeReplicasUnavailable', message: `${available} of ${wanted} pods are available` }
      : { status: 'False', reason: 'NoReplicasAvailable', message: `none of ${wanted} pods is available` };
  return {
    paused: false,
    replicas,
    updatedReplicas: statefulSet?.status?.updatedReplicas ?? previous.updatedReplicas ?? 0,
    availableReplicas: available,
    unavailableReplicas: Math.max(0, replicas - available),
    conditions: [condition(object, 'Available', availability, now), condition(object, 'Reconciled', reconciled, now)],
  };
}

/** A condition, keeping its lastTransitionTime while its status stays. */
function condition(object: Workload, type: WorkloadCondition['type'], value: ConditionValue, now: Date): WorkloadCondition {
  const previous = object.status?.conditions?.find((each) => each.type === type);
  const generation = object.metadata.generation;
  return {
    type,
    status: value.status,
    reason: value.reason,
    ...(value.message ? { message: value.message } : {}),
    lastTransitionTime: previous?.status === value.status && previous.lastTransitionTime ? previous.lastTransitionTime : now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    ...(generation === undefined ? {} : { observedGeneration: generation }),
  };
}

/** Where and how a status is written: the object's kind, name and stored status, and what last said Reconciled. */
export interface StatusTarget<S> {
  kind: 'Alertmanager' | 'ThanosRuler';
  namespace: string;
  name: string;
  stored: S | undefined;
  writer: ReconcilerStatus;
  reconciled: ReconciledMemory;
}

/**
 * Writes `status` unless the object already has it. True when its Reconciled condition now says something else than
 * this process last wrote (the Warning of a refusal goes out then: refusal-warnings.ts).
 */
export async function writeWorkloadStatus<S extends { conditions?: readonly { type: string; status: string; reason?: string | undefined; message?: string | undefined }[] | undefined }>(target: StatusTarget<S>, status: S): Promise<boolean> {
  const { kind, namespace, name, stored } = target;
  if (JSON.stringify(comparable(stored)) !== JSON.stringify(comparable(status))) {
    await target.writer.apply({ kind, namespace, name }, status);
  }
  const reconciled = (value: S | undefined) => value?.conditions?.find((each) => each.type === 'Reconciled');
  return target.reconciled.changed(`${namespace}/${name}`, reconciled(stored), reconciled(status));
}

/** A status with its keys in one order, for comparing the stored one with the one to write. */
function comparable(status: { conditions?: readonly object[] | undefined } | undefined): unknown {
  if (!status) return undefined;
  const conditions = [...(status.conditions ?? [])]
    .map((each) => Object.fromEntries(Object.entries(each).sort(([a], [b]) => a.localeCompare(b))))
    .sort((a, b) => String(a.type).localeCompare(String(b.type)));
  return Object.fromEntries(Object.entries({ ...status, conditions }).sort(([a], [b]) => a.localeCompare(b)));
}
