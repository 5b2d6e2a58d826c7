/**
 * How promop calls a Prometheus that serves HTTPS (`spec.web.tlsConfig`): which serving certificate it accepts and
 * which client certificate it presents. The TLS options here go into the connect options of an undici Agent.
 *
 * Server verification: promop dials pods by IP, and serving certificates seldom name pod IPs, so the usual host
 * name check cannot apply, and the CRD has no field for a CA that signed the serving certificate (`client_ca` is
 * the CA of *client* certificates). What promop knows is the certificate itself: `spec.web.tlsConfig.cert`, read
 * from the Prometheus' namespace. So it pins it: the pod must present exactly that certificate, within its validity
 * (the certificate is its own trust anchor: `allowPartialTrustChain`). With `certFile` (a file of the container
 * promop cannot read) nothing is pinned and the certificate is not verified, as prometheus-operator's
 * config-reloader never verifies it (docs/security.md).
 */
import { X509Certificate } from 'node:crypto';
import type { PeerCertificate } from 'node:tls';

/** TLS towards one Prometheus pod. */
export interface PodTls {
  /**
   * PEM of the serving certificate the pod must present (its first certificate); undefined: not verified (`certFile`).
   * A string without a certificate verifies no pod.
   */
  servingCertificate?: string;
  /** The pod refuses clients without a certificate (`RequireAnyClientCert`, `RequireAndVerifyClientCert`). */
  clientCertificateRequired?: boolean;
}

/** promop's own client certificate and key (PEM), presented to pods that ask for one. */
export interface ClientCertificate {
  cert: string;
  key: string;
}

/** The first certificate of a PEM bundle (the leaf), or undefined when there is none. */
export function leafCertificate(pem: string): X509Certificate | undefined {
  const block = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem)?.[0];
  if (!block) return undefined;
  try {
    return new X509Certificate(block);
  } catch {
    return undefined;
  }
}

/** Connect options of `tls.connect` (undici passes them on) for `tls`, presenting `client` when given. */
export function tlsConnectOptions(tls: PodTls, client: ClientCertificate | undefined): Record<string, unknown> {
  const clientOptions = client ? { cert: client.cert, key: client.key } : {};
  if (tls.servingCertificate === undefined) {
    // certFile: promop cannot read the certificate, so it cannot know which one to expect (see above).
    return { rejectUnauthorized: false, ...clientOptions };
  }
  const leaf = leafCertificate(tls.servingCertificate);
  if (!leaf) {
    // The Secret or ConfigMap holds no certificate (or is missing): no pod can be verified, so none is called.
    return { rejectUnauthorized: true, checkServerIdentity: () => new Error('spec.web.tlsConfig.cert holds no certificate promop can read'), ...clientOptions };
  }
  const pinned = leaf.raw;
  return {
    ca: leaf.toString(),
    allowPartialTrustChain: true,
    rejectUnauthorized: true,
    // Replaces the host name check (pods are dialed by IP): the chain check above proved the pod holds the key of a
    // certificate that is the pinned one or chains to it; this makes sure it is the pinned one.
    checkServerIdentity: (_host: string, peer: PeerCertificate) =>
      peer.raw?.equals(pinned) ? undefined : new Error('the pod presented another certificate than spec.web.tlsConfig.cert holds'),
    ...clientOptions,
  };
}
