/**
 * A ThanosRuler's pods as one set for the ShardReloader (shard-reloader.ts runs it like an Alertmanager's): which
 * pods, how to call them, and what proves they evaluate the written rule files (prometheus-client/
 * thanos-ruler-reload.ts compares GET /api/v1/rules with them, thanos rule's external labels left out).
 */
import { createHash } from 'node:crypto';
import type { V1Pod } from '@kubernetes/client-node';
import { prometheusPodUrl } from '../prometheus-client/index.ts';
import type { PodTls } from '../prometheus-client/pod-tls.ts';
import type { ReloadContext } from '../reconcile/config-reloader.ts';
import type { PodSet } from './pod-set.ts';
import { podsWithLabels } from './shard-pods.ts';

/** The port of thanos rule's HTTP listener in its pods. */
const THANOS_RULER_PORT = 10902;
/** The external label thanos rule carries besides `spec.labels` (the pod's name; thanos-ruler-children.ts). */
const REPLICA_LABEL = 'thanos_ruler_replica';

/** The pods of a ThanosRuler: its metadata and the fields that decide how to call them. */
export interface ThanosRulerPods {
  metadata: { namespace: string; name: string };
  spec?: { listenLocal?: boolean; routePrefix?: string; labels?: Record<string, string> };
  /** The labels of its pods (thanosRulerSelectorLabels). */
  selectorLabels: Readonly<Record<string, string>>;
  /** How to call them when they serve HTTPS (`spec.web.tlsConfig`, thanos-ruler-rendering.ts); undefined: plain HTTP. */
  tls?: PodTls | undefined;
}

/** Where the reloader remembers a ThanosRuler's pods: apart from any other workload of the same name. */
export function thanosRulerReloadKey(namespace: string, name: string): string {
  return `ThanosRuler:${namespace}/${name}`;
}

/** Where thanosRulerPodSet finds the pods and, in tests, their port. */
export interface ThanosRulerPodSource {
  pods: { list(namespace?: string): readonly V1Pod[] };
  /** Test only: the port a pod's thanos rule listens on (default 10902). */
  portOf?: ((pod: V1Pod) => number) | undefined;
}

/** The set of `thanosRuler`'s pods that must evaluate `ruleFiles` (path in the pod → text). */
export function thanosRulerPodSet(thanosRuler: ThanosRulerPods, ruleFiles: Readonly<Record<string, string>>, context: ReloadContext, source: ThanosRulerPodSource): PodSet {
  const { namespace, name } = thanosRuler.metadata;
  const spec = thanosRuler.spec ?? {};
  const hash = createHash('sha256').update(JSON.stringify(Object.entries(ruleFiles).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))).digest('hex').slice(0, 16);
  return {
    key: thanosRulerReloadKey(namespace, name), index: 0, program: 'Thanos Ruler', namespace, hash, writtenAt: context.writtenAt, log: context.log,
    ...(context.onRoundEnd ? { onRoundEnd: context.onRoundEnd } : {}),
    listPods: () => podsWithLabels(source.pods.list(namespace), thanosRuler.selectorLabels),
    ...(spec.listenLocal === true ? { notCallable: 'spec.listenLocal: thanos rule serves HTTP on localhost only, so promop cannot reload it; its pods read the rule files when they start' } : {}),
    request: (ip, pod) => ({
      program: 'thanos-ruler',
      baseUrl: prometheusPodUrl(ip, source.portOf?.(pod) ?? THANOS_RULER_PORT, spec.routePrefix || '/', thanosRuler.tls ? 'https' : 'http'),
      ...(thanosRuler.tls ? { tls: thanosRuler.tls } : {}),
      expectedRuleFiles: ruleFiles,
      externalLabels: [REPLICA_LABEL, ...Object.keys(spec.labels ?? {})],
    }),
  };
}
