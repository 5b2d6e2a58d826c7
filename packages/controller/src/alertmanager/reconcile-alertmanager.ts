/**
 * The Alertmanager reconciler, first step: promop serves the Alertmanager kind (so kube-prometheus' manifests, and
 * the Alertmanager objects of a cluster taken over from prometheus-operator, apply and stay stored), but does not
 * run Alertmanager pods yet. Rather than leave the object silent, it says so where the user looks: the object's
 * status (Reconciled and Available False, reason NotSupported) and, once per generation, a Warning Event. Nothing
 * else is written: pods of an Alertmanager another operator ran before keep running untouched.
 */
import { API_VERSIONS, GROUP, type Alertmanager } from '@promop/crds';
import type { Logger } from 'pino';
import type { CacheReader, ReconcilerEvents, ReconcilerStatus } from '../reconcile/reconciler-ports.ts';
import { splitKey } from '../reconcile/key.ts';
import type { ProcessOutcome } from '../reconcile/work-queue.ts';

/** The reason of both conditions while promop does not run Alertmanager. */
export const NOT_SUPPORTED_REASON = 'NotSupported';

/** What the conditions say, in one sentence the user can act on. */
export const NOT_SUPPORTED_MESSAGE =
  'promop stores Alertmanager objects but does not run Alertmanager yet: no StatefulSet, Service or configuration is created for it (see docs/compatibility.md)';

export interface AlertmanagerReconcilerDeps {
  alertmanagers: CacheReader<Alertmanager>;
  status: ReconcilerStatus;
  events: ReconcilerEvents;
  log: Logger;
  now?: () => Date;
}

type Condition = NonNullable<NonNullable<Alertmanager['status']>['conditions']>[number];

export class AlertmanagerReconciler {
  readonly #deps: AlertmanagerReconcilerDeps;

  constructor(deps: AlertmanagerReconcilerDeps) {
    this.#deps = deps;
  }

  /** Reports `key` (`namespace/name`) as not run by promop, unless its status already says so for its generation. */
  async reconcile(key: string): Promise<ProcessOutcome> {
    const { namespace, name } = splitKey(key);
    const alertmanager = this.#deps.alertmanagers.get(name, namespace);
    if (!alertmanager || alertmanager.metadata.deletionTimestamp) return 'done';
    const generation = alertmanager.metadata.generation;
    const current = alertmanager.status?.conditions ?? [];
    const upToDate = (type: string) => current.some((condition) =>
      condition.type === type && condition.status === 'False' && condition.reason === NOT_SUPPORTED_REASON && condition.observedGeneration === generation);
    const paused = alertmanager.spec?.paused === true;
    if (upToDate('Reconciled') && upToDate('Available') && (alertmanager.status?.paused ?? false) === paused) return 'done';

    const now = (this.#deps.now?.() ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const condition = (type: 'Reconciled' | 'Available'): Condition => {
      const previous = current.find((each) => each.type === type);
      const unchanged = previous?.status === 'False' && previous.reason === NOT_SUPPORTED_REASON;
      return {
        type,
        status: 'False',
        reason: NOT_SUPPORTED_REASON,
        message: NOT_SUPPORTED_MESSAGE,
        lastTransitionTime: unchanged ? previous.lastTransitionTime : now,
        ...(generation === undefined ? {} : { observedGeneration: generation }),
      };
    };
    const written = await this.#deps.status.apply({ kind: 'Alertmanager', namespace, name }, {
      paused,
      replicas: 0,
      updatedReplicas: 0,
      availableReplicas: 0,
      unavailableReplicas: 0,
      conditions: [condition('Available'), condition('Reconciled')],
    });
    if (!written) return 'done';
    this.#deps.log.info({ alertmanager: key }, 'Alertmanager stored but not run: status says NotSupported');
    await this.#deps.events.record({
      type: 'Warning',
      reason: NOT_SUPPORTED_REASON,
      action: 'Reconciling',
      regarding: { apiVersion: `${GROUP}/${API_VERSIONS.Alertmanager}`, kind: 'Alertmanager', namespace, name, uid: alertmanager.metadata.uid ?? '' },
      note: NOT_SUPPORTED_MESSAGE,
    });
    return 'done';
  }
}
