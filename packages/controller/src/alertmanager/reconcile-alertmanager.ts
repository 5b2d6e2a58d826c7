/**
 * Runs an Alertmanager: its configuration Secret (the platform's base configuration from `spec.configSecret`, or
 * one that sends nothing when that Secret does not exist, with the teams' selected AlertmanagerConfigs merged in by
 * the generator), the governing Service and the StatefulSet (alertmanager-children.ts), then its status from the
 * StatefulSet, and each AlertmanagerConfig's binding (accepted, or rejected with the reason) in that object's
 * status. Level-based like the Prometheus reconciler: every call makes the cluster match the caches.
 *
 * A new configuration reaches running pods as Prometheus' does, through the one reloader of both programs
 * (reload/shard-reloader.ts): each pod is nudged so the kubelet copies the Secret now, reloaded with POST
 * /-/reload, and verified to run exactly the written text; `status.configStatus` names the pods that do. No pod
 * restarts, so silences and the notification log stay where they are. A pod that cannot be reloaded (Alertmanager
 * refused the text, or is unreachable) makes Reconciled False with the reason and the reconcile is retried.
 *
 * Children are written as a Prometheus' are (reconcile/child-writes.ts): one that holds its body already gets no
 * request, so a reconcile for an AlertmanagerConfig that changes nothing in this Alertmanager's files writes
 * nothing. A write the API server refuses for what the user wrote (422, 400: an invalid toleration in the
 * StatefulSet) ends as Reconciled False with its message, and the running pods stay.
 */
import type { V1StatefulSet } from '@kubernetes/client-node';
import { API_VERSIONS, GROUP, PLURALS, type Alertmanager, type AlertmanagerConfig } from '@promop/crds';
import type { V1Namespace } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { ReferencedObjects } from '../kube/referenced-objects.ts';
import { ReferencesMemo } from '../reconcile/references.ts';
import { alertmanagerReferences, renderAlertmanagerConfiguration } from './alertmanager-rendering.ts';
import { VerdictRecorder } from '../reconcile/verdict-recorder.ts';
import { ReconciledMemory, recordWarning } from '../reconcile/refusal-warnings.ts';
import type { ReconcilerCaches } from '../reconcile/reconciler-ports.ts';
import type { PartialObjectMetadata } from '../kube/watched-cache.ts';
import type { ChildWriter } from '../kube/child-writer.ts';
import { apiErrorOf, isUserCaused } from '../kube/api-error.ts';
import { ChildWrites } from '../reconcile/child-writes.ts';
import { KnownContents } from '../reconcile/known-contents.ts';
import type { CacheReader, ReconcilerEvents, ReconcilerStatus } from '../reconcile/reconciler-ports.ts';
import { splitKey } from '../reconcile/key.ts';
import type { ProcessOutcome } from '../reconcile/work-queue.ts';
import {
  ALERTMANAGER_CONFIG_KEY, alertmanagerSelectorLabels, buildAlertmanagerService,
  buildAlertmanagerStatefulSet, buildClusterTlsSecret, buildConfigSecret, buildWebConfigSecret,
} from './alertmanager-children.ts';
import { alertmanagerPodTls, alertmanagerTlsOf, alertmanagerWebConfigSecretName, clusterTlsSecretName, type AlertmanagerTls } from './alertmanager-tls.ts';
import { CUSTOM_SERVICE_RECHECK_MS, customGoverningServiceProblem, serviceNameProblem } from '../workload/governing-service.ts';
import type { ShardReloader } from '../reload/shard-reloader.ts';
import { alertmanagerReloadKey } from '../reload/alertmanager-pod-set.ts';
import { shardFilesHash } from '../reconcile/expected-shard-files.ts';
import { MAX_SECRET_DATA_BYTES, formatBytes, secretDataBytes } from '../workload/secret-size.ts';
import { statefulSetWorkloadStatus, writeWorkloadStatus, type ConditionValue } from '../reconcile/statefulset-workload-status.ts';
import { StatefulSetApply, type StatefulSetApplyChildren } from '../reconcile/statefulset-apply.ts';

/** Reason of Reconciled=False when a ready pod could not be made to run the written configuration. */
export const RELOAD_FAILED_REASON = 'ReloadFailed';

/** Reason of Reconciled=False when the platform's configuration cannot be used (the running one stays). */
export const INVALID_CONFIGURATION_REASON = 'InvalidConfiguration';

/** Reason of Reconciled=False when the API server refused a child for what the user wrote (a Prometheus' reason too). */
export const RECONCILIATION_FAILED_REASON = 'ReconciliationFailed';

export interface AlertmanagerReconcilerDeps {
  alertmanagers: CacheReader<Alertmanager>;
  alertmanagerConfigs: CacheReader<AlertmanagerConfig>;
  namespaces: CacheReader<V1Namespace>;
  /** promop's own Secrets (metadata): the current generated configuration Secret, for its replace. */
  ownedSecrets: CacheReader<PartialObjectMetadata>;
  /** Every cache: the verdict recorder reads the AlertmanagerConfigs' current status from them. */
  caches: ReconcilerCaches;
  /** The data of the configSecrets and of the Secrets the AlertmanagerConfigs reference (the Alertmanagers' own instance). */
  referenced: Pick<ReferencedObjects, 'resolve'>;
  children: Pick<ChildWriter, 'writeSecret' | 'writeConfigMap' | 'read' | 'mergePatch' | 'readService' | 'applyService' | 'applyStatefulSet' | 'delete'> & StatefulSetApplyChildren;
  /** Makes the running pods load the written configuration (the reloader the Prometheus reconciler uses too). */
  reloader: Pick<ShardReloader, 'reloadAlertmanager' | 'forget'>;
  status: ReconcilerStatus;
  events: ReconcilerEvents;
  /** Reconciles an Alertmanager again after `delayMs` (a binding write that met a newer version). */
  requeue: (key: string, delayMs: number) => void;
  log: Logger;
  now?: () => Date;
  /** How soon an Alertmanager whose spec.serviceName governs none of its pods is reconciled again (default CUSTOM_SERVICE_RECHECK_MS). */
  customServiceRecheckMs?: number;
}

type Status = NonNullable<Alertmanager['status']>;

/** What the writes of an Alertmanager's children left. */
interface WrittenChildren {
  /** The configuration's keyed hash, which the pods are checked against. */
  hash: string;
  statefulSet: V1StatefulSet;
  /** When the configuration Secret was changed, if it was. */
  writtenAt?: Date;
}

export class AlertmanagerReconciler {
  readonly #deps: AlertmanagerReconcilerDeps;
  /** Writes each Alertmanager's bindings into its AlertmanagerConfigs' status, beside the work queue. */
  readonly #verdicts: VerdictRecorder;
  /** The references of unchanged AlertmanagerConfigs, kept between reconciles. */
  readonly #referencesMemo = new ReferencesMemo();
  /** What each Alertmanager's Reconciled condition last said: a refusal's Warning Event goes out when it changes. */
  readonly #reconciled = new ReconciledMemory();
  /**
   * The StatefulSet's apply, replacing without its pods one whose fields fixed at creation changed or that
   * prometheus-operator created for the same Alertmanager, as a Prometheus' (statefulset-apply.ts).
   */
  readonly #statefulSets: StatefulSetApply;
  /** Each child's write, skipped when it is up to date. */
  readonly #writes: ChildWrites;
  /** What promop wrote into each Alertmanager's Secrets (their cache holds metadata only), by Alertmanager key. */
  readonly #known = new Map<string, KnownContents>();

  constructor(deps: AlertmanagerReconcilerDeps) {
    this.#deps = deps;
    this.#statefulSets = new StatefulSetApply(deps.children, 'Alertmanager');
    this.#writes = new ChildWrites({ caches: deps.caches, children: deps.children });
    this.#verdicts = new VerdictRecorder({
      naming: { kind: 'Alertmanager', resource: PLURALS.Alertmanager, apiVersion: `${GROUP}/${API_VERSIONS.Alertmanager}` },
      caches: deps.caches, status: deps.status, events: deps.events, requeue: deps.requeue, log: deps.log, now: deps.now ?? (() => new Date()),
    });
  }

  /** Starts no binding write after this call; resolves once those in flight ended. */
  stopBindingWrites(): Promise<void> {
    return this.#verdicts.stop();
  }

  /** Makes the cluster match Alertmanager `key` (`namespace/name`). */
  async reconcile(key: string): Promise<ProcessOutcome> {
    const { namespace, name } = splitKey(key);
    const log = this.#deps.log.child({ alertmanager: key });
    const alertmanager = this.#deps.alertmanagers.get(name, namespace);
    // Gone: the garbage collector deletes the children through their owner references; its bindings go here.
    if (!alertmanager || alertmanager.metadata.deletionTimestamp) {
      if (this.#verdicts.mayHaveBindings(key)) this.#verdicts.hand(key, [], log);
      this.#deps.reloader.forget(alertmanagerReloadKey(namespace, name));
      this.#reconciled.forget(key);
      this.#statefulSets.forget(key);
      this.#known.delete(key);
      return 'done';
    }
    if (alertmanager.spec?.paused === true) {
      await this.#writeStatus(alertmanager, { ...alertmanager.status, paused: true } as Status);
      return 'done';
    }
    const alertmanagerConfigs = this.#deps.alertmanagerConfigs.list();
    const data = await this.#deps.referenced.resolve(alertmanagerReferences(this.#deps.alertmanagers.list(), alertmanagerConfigs, this.#referencesMemo));
    const { configSecret: base, output: result } = renderAlertmanagerConfiguration(alertmanager, {
      alertmanagerConfigs,
      namespaces: this.#deps.namespaces.list().map((each) => ({ name: each.metadata?.name ?? '', labels: each.metadata?.labels ?? {} })),
      secrets: data.secrets,
      configMaps: data.configMaps,
    });
    this.#verdicts.hand(key, result.verdicts, log, alertmanager);
    if (!result.ok) return this.#refuse(alertmanager, `${result.problem.path}: ${result.problem.message}`, log);
    const serviceName = alertmanager.spec?.serviceName;
    if (serviceName) {
      // Checked as prometheus-operator checks it, before anything is written (workload/governing-service.ts).
      const problem = serviceNameProblem(serviceName)
        ?? customGoverningServiceProblem(namespace, serviceName, await this.#deps.children.readService(namespace, serviceName), alertmanagerSelectorLabels(name));
      if (problem) {
        // The Service is the user's, which promop does not watch: looked at again until it governs the pods.
        this.#deps.requeue(key, this.#deps.customServiceRecheckMs ?? CUSTOM_SERVICE_RECHECK_MS);
        return this.#refuse(alertmanager, `${problem.path}: ${problem.message}`, log);
      }
    }
    const bytes = secretDataBytes({ ...result.tlsAssets, [ALERTMANAGER_CONFIG_KEY]: result.text });
    if (bytes > MAX_SECRET_DATA_BYTES) {
      return this.#refuse(alertmanager, `spec: the configuration and the TLS files its receivers name are ${formatBytes(bytes)}, more than the 1 MiB a Secret can hold`, log);
    }
    // Checked by the rendering above (alertmanagerSpecProblems): both files can be written.
    const tls = alertmanagerTlsOf(alertmanager.spec ?? {});
    const tlsFiles: AlertmanagerTls = tls.ok ? tls.value : { web: undefined, cluster: undefined };
    let written: WrittenChildren;
    try {
      written = await this.#writeChildren(key, alertmanager, result.text, result.tlsAssets, tlsFiles, log);
    } catch (error) {
      const api = apiErrorOf(error);
      if (!api || !isUserCaused(api)) throw error;
      const child = (error as { child?: string }).child;
      return this.#refuse(alertmanager, `${child ? `${child}: ` : ''}${api.message}`, log, RECONCILIATION_FAILED_REASON);
    }
    const { hash, statefulSet, writtenAt } = written;
    const orphanCheckMs = await this.#statefulSets.replaceGoneOrphans(key, log);
    if (orphanCheckMs !== undefined) this.#deps.requeue(key, orphanCheckMs);
    const reload = await this.#deps.reloader.reloadAlertmanager(
      {
        metadata: { namespace, name }, ...(alertmanager.spec ? { spec: alertmanager.spec } : {}), selectorLabels: alertmanagerSelectorLabels(name),
        tls: alertmanagerPodTls(tlsFiles, namespace, data),
      },
      result.text, hash, { log, onRoundEnd: () => this.#deps.requeue(key, 0), ...(writtenAt ? { writtenAt } : {}) },
    );
    const note = base.state === 'missing' ? `spec.configSecret: Secret ${base.name} does not exist; running a configuration that sends no notification` : '';
    const reconciled = reload.state === 'failed'
      ? { status: 'False' as const, reason: RELOAD_FAILED_REASON, message: reload.message }
      : { status: 'True' as const, reason: 'Reconciled', message: note };
    await this.#writeStatus(alertmanager, { ...this.#status(alertmanager, statefulSet, reconciled), configStatus: reload.status });
    // A failed reload is retried by the reloader, with a backoff of its own; its rounds requeue the key.
    return 'done';
  }

  /**
   * Writes the configuration Secret, the governing Service, the TLS Secrets and the StatefulSet of `alertmanager`,
   * each only when it does not hold its body already; then deletes the TLS Secrets no field names any more. Throws
   * the API error of a refused write, with the child it was for.
   */
  async #writeChildren(key: string, alertmanager: Alertmanager, text: string, tlsAssets: Record<string, string>, tls: AlertmanagerTls, log: Logger): Promise<WrittenChildren> {
    const { namespace, name } = alertmanager.metadata;
    const { children, caches } = this.#deps;
    let known = this.#known.get(key);
    if (!known) this.#known.set(key, (known = new KnownContents()));
    const config = await this.#writes.writeData('Secret', buildConfigSecret(alertmanager, text, tlsAssets), known, log);
    // The namespace's Service is owned by every Alertmanager that uses it (not those naming a Service of their own).
    if (!alertmanager.spec?.serviceName) {
      const owners = this.#deps.alertmanagers.list(namespace).filter((each) => !each.spec?.serviceName && !each.metadata.deletionTimestamp);
      const service = buildAlertmanagerService(namespace, owners);
      await this.#writes.applyOne('Service', service, caches.ownedServices.get(service.metadata?.name ?? '', namespace), (body) => children.applyService(body), log);
    }
    const tlsSecrets = [
      { secretName: alertmanagerWebConfigSecretName(name), build: tls.web && (() => buildWebConfigSecret(alertmanager, tls.web!.text)) },
      { secretName: clusterTlsSecretName(name), build: tls.cluster && (() => buildClusterTlsSecret(alertmanager, tls.cluster!.text)) },
    ];
    const stale: string[] = [];
    for (const { secretName, build } of tlsSecrets) {
      if (build) await this.#writes.writeData('Secret', build(), known, log);
      else if (this.#deps.ownedSecrets.get(secretName, namespace)) stale.push(secretName);
    }
    // Keyed with the Secret's uid, as a Prometheus shard's hash is: the text holds credentials, and the hash is
    // published in the pods and the status, where more people read than can read the Secret.
    const hash = shardFilesHash(config.stored.metadata?.uid ?? '', text, {}, tlsAssets);
    const desired = buildAlertmanagerStatefulSet(alertmanager, hash);
    const write = async (body: V1StatefulSet, current: V1StatefulSet | undefined) =>
      (await this.#writes.applyOne('StatefulSet', body, current, (each) => children.applyStatefulSet(each), log)).stored;
    const statefulSet = await this.#statefulSets.apply(key, desired, caches.ownedStatefulSets.get(desired.metadata?.name ?? '', namespace), write, log);
    // Deleted once the StatefulSet no longer mounts them: a pod of the old template made meanwhile still finds them.
    for (const secretName of stale) {
      await children.delete('Secret', namespace, secretName);
      known.forget('Secret', namespace, secretName);
    }
    return { hash, statefulSet, ...(config.changed ? { writtenAt: new Date() } : {}) };
  }

  /**
   * Reconciled=False with `message` and, when that is news, a Warning Event: the configuration cannot be used, the
   * running one stays.
   */
  async #refuse(alertmanager: Alertmanager, message: string, log: Logger, reason = INVALID_CONFIGURATION_REASON): Promise<ProcessOutcome> {
    const { namespace, name } = alertmanager.metadata;
    const changed = await this.#writeStatus(alertmanager, this.#status(alertmanager, undefined, { status: 'False', reason, message }));
    if (!changed) return 'done';
    await recordWarning(this.#deps.events, {
      type: 'Warning', reason, action: 'Reconciling', note: message,
      regarding: { apiVersion: `${GROUP}/${API_VERSIONS.Alertmanager}`, kind: 'Alertmanager', namespace, name, uid: alertmanager.metadata.uid ?? '' },
    }, log);
    return 'done';
  }

  /** Resolves once the bindings handed so far are written (tests, and a clean stop). */
  bindingsSettled(key?: string): Promise<void> {
    return this.#verdicts.settled(key);
  }

  /** The status for `alertmanager` with `statefulSet` as stored (undefined: keep the counts the status has). */
  #status(alertmanager: Alertmanager, statefulSet: V1StatefulSet | undefined, reconciled: ConditionValue): Status {
    return {
      ...statefulSetWorkloadStatus(alertmanager, statefulSet, reconciled, this.#deps.now?.() ?? new Date()),
      selector: Object.entries(alertmanagerSelectorLabels(alertmanager.metadata.name)).map(([label, value]) => `${label}=${value}`).join(','),
      // Kept until a reload reports again (a refused configuration changes nothing in the pods).
      ...(alertmanager.status?.configStatus ? { configStatus: alertmanager.status.configStatus } : {}),
    } as Status;
  }

  /** Writes `status` unless the object has it; true when its Reconciled condition says something new. */
  #writeStatus(alertmanager: Alertmanager, status: Status): Promise<boolean> {
    const { namespace, name } = alertmanager.metadata;
    return writeWorkloadStatus({ kind: 'Alertmanager', namespace, name, stored: alertmanager.status, writer: this.#deps.status, reconciled: this.#reconciled }, status);
  }
}

/** Which Alertmanager a child of promop's belongs to, from its controller owner reference. */
export function alertmanagerOwnerOf(metadata: { namespace?: string; ownerReferences?: { kind: string; name: string; controller?: boolean; apiVersion: string }[] } | undefined): string | undefined {
  const owner = metadata?.ownerReferences?.find((reference) => reference.controller && reference.kind === 'Alertmanager' && reference.apiVersion.startsWith(`${GROUP}/`));
  return owner && metadata?.namespace ? `${metadata.namespace}/${owner.name}` : undefined;
}

