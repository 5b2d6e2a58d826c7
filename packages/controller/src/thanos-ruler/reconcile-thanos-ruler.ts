/**
 * Runs a ThanosRuler: the rule files of the PrometheusRules it selects (the generator's thanos-ruler module, one
 * verdict per object written as a binding into its status, with a Warning Event when rejected), the three Secrets
 * its pods mount (the remote write file of a stateless ruler among them, its credentials read from the ruler's
 * namespace), the governing Service and the StatefulSet (thanos-ruler-children.ts), then its status from the
 * StatefulSet. Level-based like the other reconcilers: every call makes the cluster match the caches.
 *
 * New rule files reach running pods as a Prometheus' do, through the one reloader (reload/shard-reloader.ts): each
 * pod is nudged so the kubelet copies the ConfigMaps now, reloaded with POST /-/reload, and verified to list the
 * written rule groups from the written files (GET /api/v1/rules). No pod restarts. A ThanosRuler promop cannot run
 * (no query endpoint, a field promop does not render yet, a `serviceName` Service that does not govern its pods) is
 * refused: Reconciled False with the reason and a Warning Event, and nothing is written, so what runs keeps running.
 * A child the API server refuses for what the user wrote (422, 400: an invalid toleration in the StatefulSet) ends
 * the same way, with the API server's message, instead of a retry that fails alike.
 */
import type { V1Namespace, V1StatefulSet } from '@kubernetes/client-node';
import { RenderMemo } from '@promop/config-generator';
import { API_VERSIONS, GROUP, PLURALS, type PrometheusRule, type ThanosRuler } from '@promop/crds';
import type { Logger } from 'pino';
import type { ChildWriter } from '../kube/child-writer.ts';
import { apiErrorOf, isUserCaused } from '../kube/api-error.ts';
import type { PartialObjectMetadata } from '../kube/watched-cache.ts';
import { ChildWrites } from '../reconcile/child-writes.ts';
import { shardFilesHash } from '../reconcile/expected-shard-files.ts';
import { splitKey } from '../reconcile/key.ts';
import { KnownContents } from '../reconcile/known-contents.ts';
import type { CacheReader, ReconcilerCaches, ReconcilerEvents, ReconcilerStatus } from '../reconcile/reconciler-ports.ts';
import { ReconciledMemory, recordWarning } from '../reconcile/refusal-warnings.ts';
import { VerdictRecorder } from '../reconcile/verdict-recorder.ts';
import type { ProcessOutcome } from '../reconcile/work-queue.ts';
import type { ShardReloader } from '../reload/shard-reloader.ts';
import { thanosRulerReloadKey } from '../reload/thanos-ruler-pod-set.ts';
import { CUSTOM_SERVICE_RECHECK_MS, customGoverningServiceProblem, serviceNameProblem } from '../workload/governing-service.ts';
import {
  RULE_CONFIGMAP_THANOS_RULER_LABEL, buildThanosRulerRuleConfigMaps, buildThanosRulerSecrets, buildThanosRulerService,
  buildThanosRulerStatefulSet, thanosRulerConfigSecretName, thanosRulerSelectorLabels,
} from './thanos-ruler-children.ts';
import { renderThanosRuler, thanosRulerMountedRuleFiles, thanosRulerPodTls, thanosRulerReferences } from './thanos-ruler-rendering.ts';
import type { ReferencedObjects } from '../kube/referenced-objects.ts';
import { statefulSetWorkloadStatus, writeWorkloadStatus, type ConditionValue } from '../reconcile/statefulset-workload-status.ts';
import { StatefulSetApply, type StatefulSetApplyChildren } from '../reconcile/statefulset-apply.ts';

/** Reason of Reconciled=False when the ThanosRuler cannot be run as written (what runs stays). */
export const INVALID_CONFIGURATION_REASON = 'InvalidConfiguration';

/** Reason of Reconciled=False when the API server refused a child for what the user wrote (a Prometheus' reason too). */
export const RECONCILIATION_FAILED_REASON = 'ReconciliationFailed';
/** Reason of Reconciled=False when a ready pod could not be made to load the written rule files. */
export const RELOAD_FAILED_REASON = 'ReloadFailed';

export interface ThanosRulerReconcilerDeps {
  thanosRulers: CacheReader<ThanosRuler>;
  prometheusRules: CacheReader<PrometheusRule>;
  namespaces: CacheReader<V1Namespace>;
  /** promop's own ConfigMaps and Secrets (metadata): the current children, for their replace and the stale rule ConfigMaps. */
  ownedConfigMaps: CacheReader<PartialObjectMetadata>;
  ownedSecrets: CacheReader<PartialObjectMetadata>;
  /** The data of the Secrets and ConfigMaps the rulers' remote write endpoints reference (the rulers' own instance). */
  referenced: Pick<ReferencedObjects, 'resolve'>;
  /** Every cache: the verdict recorder reads the PrometheusRules' current status from them. */
  caches: ReconcilerCaches;
  children: Pick<ChildWriter, 'writeSecret' | 'writeConfigMap' | 'read' | 'mergePatch' | 'readService' | 'applyService' | 'applyStatefulSet' | 'delete'> & StatefulSetApplyChildren;
  /** Makes the running pods load the written rule files (the reloader the other workloads use too). */
  reloader: Pick<ShardReloader, 'reloadThanosRuler' | 'forget'>;
  status: ReconcilerStatus;
  events: ReconcilerEvents;
  /** Reconciles a ThanosRuler again after `delayMs` (a binding write that met a newer version). */
  requeue: (key: string, delayMs: number) => void;
  log: Logger;
  now?: () => Date;
}

type Status = NonNullable<ThanosRuler['status']>;
type Rendered = ReturnType<typeof renderThanosRuler>;
/** The ruler's command line and what it mounts, once its fields were found usable. */
type RunCommand = Extract<Rendered['command'], { ok: true }>['value'];

export class ThanosRulerReconciler {
  readonly #deps: ThanosRulerReconcilerDeps;
  readonly #verdicts: VerdictRecorder;
  /** Rule files of unchanged PrometheusRules, kept between reconciles. */
  readonly #memo = new RenderMemo();
  /** What each ThanosRuler's Reconciled condition last said: a refusal's Warning Event goes out when it changes. */
  readonly #reconciled = new ReconciledMemory();
  /** Writes of the rule ConfigMaps and Secrets, skipped when they hold the body already, as a Prometheus' are. */
  readonly #writes: ChildWrites;
  /** What each ThanosRuler's ConfigMaps and Secrets hold (their cache has metadata only), by ThanosRuler key. */
  readonly #known = new Map<string, KnownContents>();
  /**
   * The StatefulSet's apply, replacing without its pods one whose fields fixed at creation changed or that
   * prometheus-operator created for the same ThanosRuler, as a Prometheus' (statefulset-apply.ts).
   */
  readonly #statefulSets: StatefulSetApply;

  constructor(deps: ThanosRulerReconcilerDeps) {
    this.#deps = deps;
    this.#statefulSets = new StatefulSetApply(deps.children, 'ThanosRuler');
    this.#writes = new ChildWrites({ caches: { ownedSecrets: deps.ownedSecrets, ownedConfigMaps: deps.ownedConfigMaps }, children: deps.children });
    this.#verdicts = new VerdictRecorder({
      naming: { kind: 'ThanosRuler', resource: PLURALS.ThanosRuler, apiVersion: `${GROUP}/${API_VERSIONS.ThanosRuler}` },
      caches: deps.caches, status: deps.status, events: deps.events, requeue: deps.requeue, log: deps.log, now: deps.now ?? (() => new Date()),
    });
  }

  /** Starts no binding write after this call; resolves once those in flight ended. */
  stopBindingWrites(): Promise<void> {
    return this.#verdicts.stop();
  }

  /** Resolves once the bindings handed so far are written (tests, and a clean stop). */
  bindingsSettled(key?: string): Promise<void> {
    return this.#verdicts.settled(key);
  }

  /** Makes the cluster match ThanosRuler `key` (`namespace/name`). */
  async reconcile(key: string): Promise<ProcessOutcome> {
    const { namespace, name } = splitKey(key);
    const log = this.#deps.log.child({ thanosRuler: key });
    const thanosRuler = this.#deps.thanosRulers.get(name, namespace);
    // Gone: the garbage collector deletes the children through their owner references; its bindings go here.
    if (!thanosRuler || thanosRuler.metadata.deletionTimestamp) {
      if (this.#verdicts.mayHaveBindings(key)) this.#verdicts.hand(key, [], log);
      this.#deps.reloader.forget(thanosRulerReloadKey(namespace, name));
      this.#reconciled.forget(key);
      this.#known.delete(key);
      this.#statefulSets.forget(key);
      return 'done';
    }
    if (thanosRuler.spec?.paused === true) {
      await this.#writeStatus(thanosRuler, { ...thanosRuler.status, paused: true } as Status);
      return 'done';
    }
    // The references of every ruler, not this one's only: what is not resolved is forgotten (referenced-objects.ts).
    const data = await this.#deps.referenced.resolve(thanosRulerReferences(this.#deps.thanosRulers.list()));
    const { rules, remoteWrite, command, problems, warnings } = renderThanosRuler(thanosRuler, {
      secrets: data.secrets,
      configMaps: data.configMaps,
      prometheusRules: this.#deps.prometheusRules.list(),
      namespaces: this.#deps.namespaces.list().map((each) => ({ name: each.metadata?.name ?? '', labels: each.metadata?.labels ?? {} })),
      memo: this.#memo,
    });
    this.#memo.forgetUnusedSequences?.();
    // The PrometheusRules' verdicts stand whatever becomes of the ruler: each object is judged alone.
    this.#verdicts.hand(key, rules.verdicts, log, thanosRuler);
    if (problems.length > 0 || !command.ok) return this.#refuse(thanosRuler, problems.map((problem) => `${problem.path}: ${problem.message}`).join('; '), log);
    const serviceName = thanosRuler.spec?.serviceName;
    if (serviceName) {
      // Checked as prometheus-operator checks it, before anything is written (workload/governing-service.ts).
      const problem = serviceNameProblem(serviceName)
        ?? customGoverningServiceProblem(namespace, serviceName, await this.#deps.children.readService(namespace, serviceName), thanosRulerSelectorLabels(name));
      if (problem) {
        // The Service is the user's, which promop does not watch: looked at again until it governs the pods.
        this.#deps.requeue(key, CUSTOM_SERVICE_RECHECK_MS);
        return this.#refuse(thanosRuler, `${problem.path}: ${problem.message}`, log);
      }
    }

    let written: { statefulSet: V1StatefulSet; changed: boolean };
    try {
      written = await this.#writeChildren(key, thanosRuler, rules, remoteWrite, command.value, log);
    } catch (error) {
      // What the user wrote that the API server refuses (an invalid toleration in the StatefulSet): said in status.
      const api = apiErrorOf(error);
      if (!api || !isUserCaused(api)) throw error;
      const child = (error as { child?: string }).child;
      return this.#refuse(thanosRuler, `${child ? `${child}: ` : ''}${api.message}`, log, RECONCILIATION_FAILED_REASON);
    }
    const { statefulSet, changed: rulesChanged } = written;
    const orphanCheckMs = await this.#statefulSets.replaceGoneOrphans(key, log);
    if (orphanCheckMs !== undefined) this.#deps.requeue(key, orphanCheckMs);
    const files = thanosRulerMountedRuleFiles(rules);
    const reload = await this.#deps.reloader.reloadThanosRuler(
      {
        metadata: { namespace, name }, ...(thanosRuler.spec ? { spec: thanosRuler.spec } : {}), selectorLabels: thanosRulerSelectorLabels(name),
        tls: thanosRulerPodTls(command.value, namespace, data),
      },
      files, { log, onRoundEnd: () => this.#deps.requeue(key, 0), ...(rulesChanged ? { writtenAt: new Date() } : {}) },
    );
    const reconciled = reload.state === 'failed'
      ? { status: 'False' as const, reason: RELOAD_FAILED_REASON, message: reload.message }
      // What was left out for the ruler's Thanos release is said where a Prometheus says its own.
      : { status: 'True' as const, reason: 'Reconciled', message: warnings.join('; ') };
    await this.#writeStatus(thanosRuler, this.#status(thanosRuler, statefulSet, reconciled));
    return 'done';
  }

  /**
   * Writes the rule ConfigMaps, the Secrets, the governing Service and the StatefulSet of `thanosRuler`, each only
   * when it does not hold its body already, then deletes the rule ConfigMaps it no longer mounts; `changed` when a
   * rule ConfigMap changed. Throws the API error of a refused write, with the child it was for.
   */
  async #writeChildren(key: string, thanosRuler: ThanosRuler, rules: Rendered['rules'], remoteWrite: Rendered['remoteWrite'], command: RunCommand, log: Logger): Promise<{ statefulSet: V1StatefulSet; changed: boolean }> {
    const { namespace, name } = thanosRuler.metadata;
    const configMaps = buildThanosRulerRuleConfigMaps(thanosRuler, rules.ruleConfigMaps);
    // Reconciled on every PrometheusRule change anywhere: a child that holds its body already is not written again.
    let known = this.#known.get(key);
    if (!known) this.#known.set(key, (known = new KnownContents()));
    let rulesChanged = false;
    for (const configMap of configMaps) {
      if ((await this.#writes.writeData('ConfigMap', configMap, known, log)).changed) rulesChanged = true;
    }
    let remoteWriteHash: string | undefined;
    for (const secret of buildThanosRulerSecrets(thanosRuler, remoteWrite, command.web)) {
      const { stored } = await this.#writes.writeData('Secret', secret, known, log);
      if (secret.metadata?.name === thanosRulerConfigSecretName(name)) remoteWriteHash = shardFilesHash(stored.metadata?.uid ?? '', remoteWrite.text, {}, {});
    }
    // The namespace's Service is owned by every ThanosRuler that uses it (not those naming a Service of their own).
    const owners = this.#deps.thanosRulers.list(namespace).filter((each) => !each.spec?.serviceName && !each.metadata.deletionTimestamp);
    if (!thanosRuler.spec?.serviceName) {
      const service = buildThanosRulerService(namespace, owners);
      await this.#writes.applyOne('Service', service, this.#deps.caches.ownedServices.get(service.metadata?.name ?? '', namespace), (each) => this.#deps.children.applyService(each), log);
    }
    const desiredStatefulSet = buildThanosRulerStatefulSet(thanosRuler, command, configMaps.map((each) => each.metadata!.name!), remoteWriteHash);
    const write = async (body: V1StatefulSet, current: V1StatefulSet | undefined) =>
      (await this.#writes.applyOne('StatefulSet', body, current, (each) => this.#deps.children.applyStatefulSet(each), log)).stored;
    const statefulSet = await this.#statefulSets.apply(key, desiredStatefulSet, this.#deps.caches.ownedStatefulSets.get(desiredStatefulSet.metadata?.name ?? '', namespace), write, log);
    // Stale rule ConfigMaps go after the StatefulSet stopped mounting them, as upstream deletes them after the writes.
    const wanted = new Set(configMaps.map((each) => each.metadata!.name!));
    for (const stale of this.#deps.ownedConfigMaps.list(namespace)) {
      const staleName = stale.metadata?.name ?? '';
      if (stale.metadata?.labels?.[RULE_CONFIGMAP_THANOS_RULER_LABEL] === name && !wanted.has(staleName)) {
        await this.#deps.children.delete('ConfigMap', namespace, staleName);
        known.forget('ConfigMap', namespace, staleName);
      }
    }
    return { statefulSet, changed: rulesChanged };
  }

  /** Reconciled=False with `message` and, when that is news, a Warning Event; what runs stays. */
  async #refuse(thanosRuler: ThanosRuler, message: string, log: Logger, reason = INVALID_CONFIGURATION_REASON): Promise<ProcessOutcome> {
    const { namespace, name } = thanosRuler.metadata;
    const changed = await this.#writeStatus(thanosRuler, this.#status(thanosRuler, undefined, { status: 'False', reason, message }));
    if (!changed) return 'done';
    await recordWarning(this.#deps.events, {
      type: 'Warning', reason, action: 'Reconciling', note: message,
      regarding: { apiVersion: `${GROUP}/${API_VERSIONS.ThanosRuler}`, kind: 'ThanosRuler', namespace, name, uid: thanosRuler.metadata.uid ?? '' },
    }, log);
    return 'done';
  }

  /** The status for `thanosRuler` with `statefulSet` as stored (undefined: keep the counts the status has). */
  #status(thanosRuler: ThanosRuler, statefulSet: V1StatefulSet | undefined, reconciled: ConditionValue): Status {
    return { ...statefulSetWorkloadStatus(thanosRuler, statefulSet, reconciled, this.#deps.now?.() ?? new Date()) } as Status;
  }

  /** Writes `status` unless the object has it; true when its Reconciled condition says something new. */
  #writeStatus(thanosRuler: ThanosRuler, status: Status): Promise<boolean> {
    const { namespace, name } = thanosRuler.metadata;
    return writeWorkloadStatus({ kind: 'ThanosRuler', namespace, name, stored: thanosRuler.status, writer: this.#deps.status, reconciled: this.#reconciled }, status);
  }
}

/** Which ThanosRuler a child of promop's belongs to, from its controller owner reference. */
export function thanosRulerOwnerOf(metadata: { namespace?: string; ownerReferences?: { kind: string; name: string; controller?: boolean; apiVersion: string }[] } | undefined): string | undefined {
  const owner = metadata?.ownerReferences?.find((reference) => reference.controller && reference.kind === 'ThanosRuler' && reference.apiVersion.startsWith(`${GROUP}/`));
  return owner && metadata?.namespace ? `${metadata.namespace}/${owner.name}` : undefined;
}
