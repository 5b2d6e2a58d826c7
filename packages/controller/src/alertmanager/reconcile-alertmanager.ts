/**
 * Runs an Alertmanager: its configuration Secret (the platform's base configuration, from `spec.configSecret`, or
 * a configuration that sends nothing when that Secret does not exist), the governing Service and the StatefulSet
 * (alertmanager-children.ts), then its status from the StatefulSet. Level-based like the Prometheus reconciler:
 * every call makes the cluster match the object as the cache holds it.
 *
 * Not yet: the teams' AlertmanagerConfigs (the CRD is not served), a reload without restarting the pods (a new
 * configuration rolls them, see alertmanager-children.ts), and a check of the configuration by Alertmanager's own
 * reader before it ships (the base configuration is the platform's, read as YAML only).
 */
import type { V1Secret, V1StatefulSet } from '@kubernetes/client-node';
import { API_VERSIONS, GROUP, type Alertmanager } from '@promop/crds';
import { load } from 'js-yaml';
import type { Logger } from 'pino';
import type { PartialObjectMetadata } from '../kube/watched-cache.ts';
import type { ChildWriter } from '../kube/child-writer.ts';
import type { CacheReader, ReconcilerEvents, ReconcilerStatus } from '../reconcile/reconciler-ports.ts';
import { splitKey } from '../reconcile/key.ts';
import type { ProcessOutcome } from '../reconcile/work-queue.ts';
import {
  ALERTMANAGER_CONFIG_KEY, ALERTMANAGER_SERVICE_NAME, DEFAULT_ALERTMANAGER_CONFIG, alertmanagerSelectorLabels, buildAlertmanagerService,
  buildAlertmanagerStatefulSet, buildConfigSecret, configHash, configSecretName, generatedConfigSecretName,
} from './alertmanager-children.ts';

/** Reason of Reconciled=False when the platform's configuration cannot be used (the running one stays). */
export const INVALID_CONFIGURATION_REASON = 'InvalidConfiguration';

export interface AlertmanagerReconcilerDeps {
  alertmanagers: CacheReader<Alertmanager>;
  /** promop's own Secrets (metadata): the current generated configuration Secret, for its replace. */
  ownedSecrets: CacheReader<PartialObjectMetadata>;
  children: Pick<ChildWriter, 'read' | 'writeSecret' | 'applyService' | 'applyStatefulSet'>;
  status: ReconcilerStatus;
  events: ReconcilerEvents;
  log: Logger;
  now?: () => Date;
}

type Condition = NonNullable<NonNullable<Alertmanager['status']>['conditions']>[number];
type Status = NonNullable<Alertmanager['status']>;

/** The base configuration, or why it cannot be used (never quoting the Secret's content: it holds credentials). */
type BaseConfig = { ok: true; text: string; note?: string } | { ok: false; message: string };

export class AlertmanagerReconciler {
  readonly #deps: AlertmanagerReconcilerDeps;

  constructor(deps: AlertmanagerReconcilerDeps) {
    this.#deps = deps;
  }

  /** Makes the cluster match Alertmanager `key` (`namespace/name`). */
  async reconcile(key: string): Promise<ProcessOutcome> {
    const { namespace, name } = splitKey(key);
    const alertmanager = this.#deps.alertmanagers.get(name, namespace);
    // Gone: the garbage collector deletes the children through their owner references.
    if (!alertmanager || alertmanager.metadata.deletionTimestamp) return 'done';
    if (alertmanager.spec?.paused === true) {
      await this.#writeStatus(alertmanager, { ...alertmanager.status, paused: true } as Status);
      return 'done';
    }
    const base = await this.#baseConfig(alertmanager);
    if (!base.ok) {
      await this.#writeStatus(alertmanager, this.#status(alertmanager, undefined, { status: 'False', reason: INVALID_CONFIGURATION_REASON, message: base.message }));
      await this.#deps.events.record({
        type: 'Warning', reason: INVALID_CONFIGURATION_REASON, action: 'Reconciling', note: base.message,
        regarding: { apiVersion: `${GROUP}/${API_VERSIONS.Alertmanager}`, kind: 'Alertmanager', namespace, name, uid: alertmanager.metadata.uid ?? '' },
      });
      return 'done';
    }
    const generated = generatedConfigSecretName(name);
    await this.#deps.children.writeSecret(buildConfigSecret(alertmanager, base.text), this.#deps.ownedSecrets.get(generated, namespace));
    // The namespace's Service is owned by every Alertmanager that uses it (not those naming a Service of their own).
    const owners = this.#deps.alertmanagers.list(namespace).filter((each) => !each.spec?.serviceName && !each.metadata.deletionTimestamp);
    if (!alertmanager.spec?.serviceName) await this.#deps.children.applyService(buildAlertmanagerService(namespace, owners));
    const statefulSet = await this.#deps.children.applyStatefulSet(buildAlertmanagerStatefulSet(alertmanager, configHash(base.text)));
    await this.#writeStatus(alertmanager, this.#status(alertmanager, statefulSet, { status: 'True', reason: 'Reconciled', message: base.note ?? '' }));
    return 'done';
  }

  /** The platform's configuration: the configSecret's alertmanager.yaml, read as YAML to catch a broken one early. */
  async #baseConfig(alertmanager: Alertmanager): Promise<BaseConfig> {
    const secretName = configSecretName(alertmanager);
    const secret: V1Secret | undefined = await this.#deps.children.read('Secret', alertmanager.metadata.namespace, secretName);
    if (!secret) {
      return { ok: true, text: DEFAULT_ALERTMANAGER_CONFIG, note: `spec.configSecret: Secret ${secretName} does not exist; running a configuration that sends no notification` };
    }
    const encoded = secret.data?.[ALERTMANAGER_CONFIG_KEY];
    if (encoded === undefined) return { ok: false, message: `spec.configSecret: Secret ${secretName} has no key ${ALERTMANAGER_CONFIG_KEY}` };
    const text = Buffer.from(encoded, 'base64').toString('utf8');
    try {
      const parsed: unknown = load(text);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return { ok: false, message: `spec.configSecret: key ${ALERTMANAGER_CONFIG_KEY} of Secret ${secretName} is not a YAML mapping` };
      }
    } catch (error) {
      const mark = (error as { mark?: { line?: number; column?: number } }).mark;
      const where = mark?.line === undefined ? '' : ` at line ${mark.line + 1}, column ${(mark.column ?? 0) + 1}`;
      return { ok: false, message: `spec.configSecret: key ${ALERTMANAGER_CONFIG_KEY} of Secret ${secretName} is not valid YAML${where}` };
    }
    return { ok: true, text };
  }

  /** The status for `alertmanager` with `statefulSet` as stored (undefined: keep the counts the status has). */
  #status(alertmanager: Alertmanager, statefulSet: V1StatefulSet | undefined, reconciled: { status: 'True' | 'False'; reason: string; message: string }): Status {
    const previous = alertmanager.status ?? {};
    const replicas = statefulSet?.status?.replicas ?? previous.replicas ?? 0;
    const available = statefulSet?.status?.availableReplicas ?? previous.availableReplicas ?? 0;
    const wanted = alertmanager.spec?.replicas ?? 1;
    const availability = available >= wanted && wanted > 0
      ? { status: 'True' as const, reason: 'AllReplicasAvailable', message: '' }
      : available > 0
        ? { status: 'Degraded' as const, reason: 'SomeReplicasUnavailable', message: `${available} of ${wanted} pods are available` }
        : { status: 'False' as const, reason: 'NoReplicasAvailable', message: `none of ${wanted} pods is available` };
    return {
      paused: false,
      replicas,
      updatedReplicas: statefulSet?.status?.updatedReplicas ?? previous.updatedReplicas ?? 0,
      availableReplicas: available,
      unavailableReplicas: Math.max(0, replicas - available),
      selector: Object.entries(alertmanagerSelectorLabels(alertmanager.metadata.name)).map(([label, value]) => `${label}=${value}`).join(','),
      conditions: [this.#condition(alertmanager, 'Available', availability), this.#condition(alertmanager, 'Reconciled', reconciled)],
    };
  }

  /** A condition, keeping its lastTransitionTime while its status stays. */
  #condition(alertmanager: Alertmanager, type: 'Available' | 'Reconciled', value: { status: Condition['status']; reason: string; message: string }): Condition {
    const previous = alertmanager.status?.conditions?.find((condition) => condition.type === type);
    const now = (this.#deps.now?.() ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const generation = alertmanager.metadata.generation;
    return {
      type,
      status: value.status,
      reason: value.reason,
      ...(value.message ? { message: value.message } : {}),
      lastTransitionTime: previous?.status === value.status ? previous.lastTransitionTime : now,
      ...(generation === undefined ? {} : { observedGeneration: generation }),
    };
  }

  /** Writes `status` unless the object already has it (an idle cluster sees no write). */
  async #writeStatus(alertmanager: Alertmanager, status: Status): Promise<void> {
    if (JSON.stringify(comparable(alertmanager.status)) === JSON.stringify(comparable(status))) return;
    const { namespace, name } = alertmanager.metadata;
    await this.#deps.status.apply({ kind: 'Alertmanager', namespace, name }, status);
    this.#deps.log.debug({ alertmanager: `${namespace}/${name}` }, 'Alertmanager status written');
  }
}

/** A status with its keys in one order, for comparing the stored one with the one to write. */
function comparable(status: Status | undefined): unknown {
  if (!status) return undefined;
  const conditions = [...(status.conditions ?? [])].sort((a, b) => a.type.localeCompare(b.type)).map((condition) => Object.fromEntries(Object.entries(condition).sort(([a], [b]) => a.localeCompare(b))));
  return Object.fromEntries(Object.entries({ ...status, conditions }).sort(([a], [b]) => a.localeCompare(b)));
}

/** Which Alertmanager a child of promop's belongs to, from its controller owner reference. */
export function alertmanagerOwnerOf(metadata: { namespace?: string; ownerReferences?: { kind: string; name: string; controller?: boolean; apiVersion: string }[] } | undefined): string | undefined {
  const owner = metadata?.ownerReferences?.find((reference) => reference.controller && reference.kind === 'Alertmanager' && reference.apiVersion.startsWith(`${GROUP}/`));
  return owner && metadata?.namespace ? `${metadata.namespace}/${owner.name}` : undefined;
}

export { ALERTMANAGER_SERVICE_NAME };
