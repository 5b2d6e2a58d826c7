/**
 * An Alertmanager's pods as one set for the ShardReloader (shard-reloader.ts): which pods, how to call them, and
 * what proves they run the written configuration (prometheus-client/alertmanager-reload.ts compares Alertmanager's
 * own hash of the file with it).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { PodTls } from '../prometheus-client/pod-tls.ts';
import { prometheusPodUrl } from '../prometheus-client/index.ts';
import type { ReloadContext } from '../reconcile/config-reloader.ts';
import type { PodSet } from './pod-set.ts';
import { podsWithLabels } from './shard-pods.ts';

/** The port of Alertmanager's web listener in its pods. */
const ALERTMANAGER_PORT = 9093;

/** The pods of an Alertmanager: its metadata and the fields that decide how to call them. */
export interface AlertmanagerPods {
  metadata: { namespace: string; name: string };
  spec?: { listenLocal?: boolean; routePrefix?: string };
  /** The labels of its pods (alertmanagerSelectorLabels). */
  selectorLabels: Readonly<Record<string, string>>;
  /** How to call them when they serve HTTPS (`spec.web.tlsConfig`, alertmanager-tls.ts); undefined: plain HTTP. */
  tls?: PodTls | undefined;
}

/** Where the reloader remembers an Alertmanager's pods: apart from any Prometheus of the same name. */
export function alertmanagerReloadKey(namespace: string, name: string): string {
  return `Alertmanager:${namespace}/${name}`;
}

/** Where alertmanagerPodSet finds the pods and, in tests, their port. */
export interface AlertmanagerPodSource {
  pods: { list(namespace?: string): readonly V1Pod[] };
  /** Test only: the port a pod's Alertmanager listens on (default 9093). */
  portOf?: ((pod: V1Pod) => number) | undefined;
}

/** The set of `alertmanager`'s pods that must run `configText`, whose hash is `hash`. */
export function alertmanagerPodSet(alertmanager: AlertmanagerPods, configText: string, hash: string, context: ReloadContext, source: AlertmanagerPodSource): PodSet {
  const { namespace, name } = alertmanager.metadata;
  const spec = alertmanager.spec ?? {};
  return {
    key: alertmanagerReloadKey(namespace, name), index: 0, program: 'Alertmanager', namespace, hash, writtenAt: context.writtenAt, log: context.log,
    ...(context.onRoundEnd ? { onRoundEnd: context.onRoundEnd } : {}),
    listPods: () => podsWithLabels(source.pods.list(namespace), alertmanager.selectorLabels),
    // Alertmanager then listens on the pod's 127.0.0.1 only: a new configuration rolls the pods instead.
    ...(spec.listenLocal === true ? { notCallable: 'spec.listenLocal: Alertmanager is not reachable from promop; a new configuration restarts the pods' } : {}),
    request: (ip, pod) => ({
      program: 'alertmanager',
      baseUrl: prometheusPodUrl(ip, source.portOf?.(pod) ?? ALERTMANAGER_PORT, spec.routePrefix || '/', alertmanager.tls ? 'https' : 'http'),
      expectedConfigText: configText,
      ...(alertmanager.tls ? { tls: alertmanager.tls } : {}),
    }),
  };
}
