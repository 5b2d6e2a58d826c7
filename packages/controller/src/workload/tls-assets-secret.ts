/**
 * The TLS assets Secret: certificates and keys that monitors reference from Secrets and ConfigMaps, copied into
 * one Secret the pod mounts at CERTS_DIR (the file names are the ones the generator wrote into prometheus.yaml).
 * prometheus-operator splits large sets over `-tls-assets-<i>` Secrets; promop writes only `-tls-assets-0` and
 * reports a set over 1 MiB as a problem (thousands of certificates; not seen in practice so far).
 */
import type { V1Secret } from '@kubernetes/client-node';
import { tlsAssetsSecretName, type GeneratorOutput } from '@promop/config-generator';
import { workloadKind, type PrometheusWorkload } from './workload-kind.ts';
import type { BuildResult } from './build-result.ts';
import { PROMETHEUS_NAME_LABEL, managedByLabels } from './labels.ts';
import { prometheusOwnerReference } from './owner-reference.ts';
import { MAX_SECRET_DATA_BYTES, base64Data, formatBytes, secretDataBytes } from './secret-size.ts';

/** The `prometheus-<name>-tls-assets-0` Secret; always written (possibly empty) because the pod mounts it. */
export function buildTlsAssetsSecret(prometheus: PrometheusWorkload, output: Pick<GeneratorOutput, 'tlsAssets'>): BuildResult<V1Secret> {
  const { name, namespace } = prometheus.metadata;
  const bytes = secretDataBytes(output.tlsAssets);
  if (bytes > MAX_SECRET_DATA_BYTES) {
    return {
      ok: false,
      problems: [{ path: 'spec', message: `the TLS material referenced by the selected monitors is ${formatBytes(bytes)}, more than the 1 MiB a Secret can hold` }],
    };
  }
  // Sorted keys: the same assets give byte-identical objects, so an unchanged Secret is never rewritten.
  const sorted = Object.fromEntries(Object.entries(output.tlsAssets).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    ok: true,
    value: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: tlsAssetsSecretName(name, workloadKind(prometheus)),
        namespace,
        labels: { ...managedByLabels(), [PROMETHEUS_NAME_LABEL]: name },
        ownerReferences: [prometheusOwnerReference(prometheus)],
      },
      type: 'Opaque',
      data: base64Data(sorted),
    },
  };
}
