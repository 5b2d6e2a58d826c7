/**
 * How promop must call the pods of a Prometheus that serves HTTPS (`spec.web.tlsConfig`): the serving certificate
 * to pin, read from the Secret or ConfigMap `spec.web.tlsConfig.cert` names in the Prometheus' own namespace (the
 * referenced objects, kube/referenced-objects.ts, which read it because the CRD types it as a key reference), and
 * whether the pods refuse a client without a certificate. See prometheus-client/pod-tls.ts for what is verified.
 */
import type { KeyValueSource, PrometheusVersion } from '@promop/config-generator';
import type { PodTls } from '../prometheus-client/pod-tls.ts';
import { CLIENT_CERT_REQUIRED, webConfigOf, type PrometheusWorkload } from '../workload/index.ts';

/** Decoded data of the referenced Secrets and ConfigMaps. */
export interface ReferencedKeyValues {
  secrets: readonly KeyValueSource[];
  configMaps: readonly KeyValueSource[];
}

/**
 * The TLS of `prometheus`' pods, or undefined when they serve plain HTTP. A serving certificate that cannot be read
 * (Secret, ConfigMap or key missing) is the empty string, which pins nothing any pod can present: promop then
 * refuses to call the pods rather than call them unverified.
 */
export function podTlsOf(prometheus: PrometheusWorkload, version: PrometheusVersion, referenced: ReferencedKeyValues): PodTls | undefined {
  const web = webConfigOf(prometheus, version);
  if (!web.ok || !web.value?.https) return undefined;
  const { certReference, clientAuthType } = web.value;
  const clientCertificateRequired = CLIENT_CERT_REQUIRED.has(clientAuthType);
  if (!certReference) return { clientCertificateRequired };
  const { namespace } = prometheus.metadata;
  const sources = certReference.kind === 'Secret' ? referenced.secrets : referenced.configMaps;
  const source = sources.find((each) => each.namespace === namespace && each.name === certReference.name);
  return { servingCertificate: source?.data[certReference.key] ?? '', clientCertificateRequired };
}
