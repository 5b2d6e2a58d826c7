/**
 * The generator's input for one Prometheus, gathered from the caches. Candidates are every monitor and rule of
 * the cluster: the generator applies the Prometheus' selectors itself (and says in its verdicts why something is
 * not selected). Secrets are decoded once per object version (the WeakMap forgets a version when the cache
 * replaces it), because a reconcile would otherwise base64-decode every Secret of the cluster.
 */
import type { V1ConfigMap, V1Secret } from '@kubernetes/client-node';
import type { GeneratorInput, KeyValueSource } from '@promop/config-generator';
import type { Prometheus } from '@promop/crds';
import type { ClusterCaches } from '../kube/index.ts';

const decodedSecrets = new WeakMap<V1Secret, KeyValueSource>();

function secretSource(secret: V1Secret): KeyValueSource {
  let source = decodedSecrets.get(secret);
  if (!source) {
    const data: Record<string, string> = {};
    for (const [key, value] of Object.entries(secret.data ?? {})) data[key] = Buffer.from(value, 'base64').toString('utf8');
    source = { namespace: secret.metadata?.namespace ?? '', name: secret.metadata?.name ?? '', data };
    decodedSecrets.set(secret, source);
  }
  return source;
}

function configMapSource(configMap: V1ConfigMap): KeyValueSource {
  return { namespace: configMap.metadata?.namespace ?? '', name: configMap.metadata?.name ?? '', data: { ...configMap.data } };
}

/** Everything `generate()` needs for `prometheus`, from the caches. */
export function generatorInput(prometheus: Prometheus, caches: ClusterCaches): GeneratorInput {
  return {
    prometheus,
    serviceMonitors: [...caches.serviceMonitors.list()],
    podMonitors: [...caches.podMonitors.list()],
    prometheusRules: [...caches.prometheusRules.list()],
    namespaces: caches.namespaces.list().map((namespace) => ({ name: namespace.metadata?.name ?? '', labels: { ...namespace.metadata?.labels } })),
    secrets: caches.secrets.list().map(secretSource),
    configMaps: caches.configMaps.list().map(configMapSource),
  };
}
