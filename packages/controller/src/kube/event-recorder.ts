/**
 * Writes events.k8s.io/v1 Events: `reportingController: promop`, regarding the resource the Event is about and
 * related to the Prometheus that judged it. Notes are the generator's messages (paths and sentences about
 * user input); they never contain a Secret value, because the generator's messages name Secrets and keys, not
 * contents. Failing to write an Event must not fail a reconcile: the caller logs and carries on.
 */
import type { V1ObjectReference } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { namespacedPath, rawApiOf, type KubeAccess, type RawApi } from './raw-api.ts';

/** The controller name Events carry (events.k8s.io/v1 `reportingController`). */
export const REPORTING_CONTROLLER = 'promop';
/** Reason of the Warning for a resource that promop rejected (prometheus-operator's). */
export const INVALID_CONFIGURATION_REASON = 'InvalidConfiguration';
/** Action of that Warning (prometheus-operator's). */
export const SELECTING_ACTION = 'SelectingConfigurationResources';

/** The API server refuses notes longer than this (events.k8s.io/v1 validation). */
const MAX_NOTE_LENGTH = 1024;

/** One Event to write. */
export interface EventSpec {
  type: 'Normal' | 'Warning';
  reason: string;
  action: string;
  regarding: V1ObjectReference & { namespace: string; name: string };
  related?: V1ObjectReference;
  note: string;
}

/** Creates Events. */
export class EventRecorder {
  readonly #api: RawApi;
  readonly #instance: string;

  /** `access`: the RawApi every writer of `promop run` shares, or a kubeconfig (a RawApi of its own is made). */
  constructor(access: RawApi | KubeAccess, instance = process.env.POD_NAME ?? hostname()) {
    this.#api = rawApiOf(access);
    this.#instance = instance;
  }

  /** Creates one Event in the namespace of `regarding`. Throws the API error. */
  async record(event: EventSpec): Promise<void> {
    const { namespace, name } = event.regarding;
    const note = event.note.length > MAX_NOTE_LENGTH ? `${event.note.slice(0, MAX_NOTE_LENGTH - 3)}...` : event.note;
    await this.#api.create(namespacedPath('/apis/events.k8s.io/v1', namespace, 'events'), {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      // The name must be unique; client-go uses `<object>.<unix nanos in hex>`, a random suffix serves the same.
      metadata: { name: `${name}.${randomBytes(8).toString('hex')}`, namespace },
      // MicroTime: the API server parses it only with six fractional digits.
      eventTime: new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'),
      type: event.type,
      reason: event.reason,
      action: event.action,
      note,
      regarding: event.regarding,
      ...(event.related ? { related: event.related } : {}),
      reportingController: REPORTING_CONTROLLER,
      reportingInstance: this.#instance,
    });
  }
}
