/**
 * A Thanos Query pod, as a platform runs one beside promop's Prometheus: promop renders the sidecars (each shard's
 * StoreAPI on the governing Service's `grpc` port), the platform runs Query. It finds every sidecar through the
 * governing Service's DNS SRV record, `_grpc._tcp.prometheus-operated.<namespace>.svc.cluster.local` (one record per
 * Ready pod of every shard, each naming the pod's own DNS name), which the node's CoreDNS serves: pods that come and
 * go (a shard added, a pod rescheduled with a new IP) are followed without changing Query's arguments. The headless
 * Service has no cluster IP to point at, and pod IPs would be stale after the first restart.
 */
import type { V1Pod, V1Service } from '@kubernetes/client-node';
import { GOVERNING_SERVICE_NAME, THANOS_GRPC_PORT, THANOS_HTTP_PORT } from '@promop/controller/workload';
import { CLUSTER_DOMAIN } from './node/node-config.ts';

/** The Query pod's name and its `app` label. */
export const THANOS_QUERY = 'thanos-query';
/** Query's HTTP API (Prometheus' query API) port. */
export const THANOS_QUERY_HTTP_PORT = THANOS_HTTP_PORT;

/** What the Query pod needs to know. */
export interface ThanosQueryOptions {
  /** The Prometheus' namespace (where its governing Service is); the pod runs there too. */
  namespace: string;
  /** The Thanos image (the node's THANOS_IMAGE). */
  image: string;
  /** `--query.replica-label` values: labels whose series Query merges as replicas of one another. */
  replicaLabels?: readonly string[];
}

/** The DNS SRV name of every sidecar's gRPC port behind the governing Service of `namespace`. */
export function sidecarsSrvName(namespace: string): string {
  return `_grpc._tcp.${GOVERNING_SERVICE_NAME}.${namespace}.svc.${CLUSTER_DOMAIN}`;
}

/**
 * The Query pod: restricted security settings (non-root, read-only root, no capabilities; Query writes nothing),
 * DNS re-resolved every 5 seconds instead of Thanos' 30 so that a sidecar that just turned Ready is queried soon,
 * and Ready once Query serves its HTTP API.
 */
export function thanosQueryPod(options: ThanosQueryOptions): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: THANOS_QUERY, namespace: options.namespace, labels: { app: THANOS_QUERY } },
    spec: {
      automountServiceAccountToken: false,
      securityContext: { runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{
        name: 'query',
        image: options.image,
        imagePullPolicy: 'IfNotPresent',
        args: [
          'query',
          `--http-address=0.0.0.0:${THANOS_QUERY_HTTP_PORT}`,
          `--grpc-address=0.0.0.0:${THANOS_GRPC_PORT}`,
          // Thanos 0.42 deprecates --endpoint for this: the endpoints as configuration, here given inline.
          `--endpoint.sd-config=endpoints:\n- address: dnssrv+${sidecarsSrvName(options.namespace)}\n`,
          '--store.sd-dns-interval=5s',
          ...(options.replicaLabels ?? []).map((label) => `--query.replica-label=${label}`),
        ],
        ports: [{ name: 'http', containerPort: THANOS_QUERY_HTTP_PORT }, { name: 'grpc', containerPort: THANOS_GRPC_PORT }],
        readinessProbe: { httpGet: { path: '/-/ready', port: 'http' }, periodSeconds: 2 },
        securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
      }],
    },
  };
}

/** A Service `thanos-query` in front of the Query pod's HTTP API, the address rule evaluators query. */
export function thanosQueryService(namespace: string): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: THANOS_QUERY, namespace },
    spec: { selector: { app: THANOS_QUERY }, ports: [{ name: 'http', port: THANOS_QUERY_HTTP_PORT, targetPort: 'http' }] },
  };
}

/** The Query Service's address inside the cluster, `thanos-query.<namespace>.svc.cluster.local:10902`. */
export function thanosQueryAddress(namespace: string): string {
  return `${THANOS_QUERY}.${namespace}.svc.${CLUSTER_DOMAIN}:${THANOS_QUERY_HTTP_PORT}`;
}
