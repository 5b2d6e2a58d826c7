import type { Prometheus } from '@promop/crds';
import { parsePrometheusVersion } from '@promop/config-generator';
import { podTlsOf as podTlsOfVersion, type ReferencedKeyValues } from './pod-tls-of.ts';

// The version as the generator reads it from spec.version and hands it on with the files.
const podTlsOf = (object: Prometheus, keyValues: ReferencedKeyValues) => podTlsOfVersion(object, parsePrometheusVersion(object.spec?.version ?? undefined)!, keyValues);

const prometheus = (web: NonNullable<Prometheus['spec']>['web'], version = '3.16.0'): Prometheus => ({
  apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { name: 'main', namespace: 'monitoring' }, spec: { version, web },
});
const cert = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const referenced: ReferencedKeyValues = {
  secrets: [
    { namespace: 'monitoring', name: 'web-tls', data: { 'tls.crt': cert, 'tls.key': 'key' } },
    { namespace: 'team-a', name: 'other-tls', data: { 'tls.crt': 'not this one' } },
  ],
  configMaps: [{ namespace: 'monitoring', name: 'web-cert', data: { 'cert.pem': cert } }],
};

describe('how promop calls the pods of a Prometheus', () => {
  it('over plain HTTP without spec.web.tlsConfig, with httpConfig only, and before Prometheus 2.24', () => {
    expect(podTlsOf(prometheus(undefined), referenced)).toBeUndefined();
    expect(podTlsOf(prometheus({ httpConfig: { http2: false } }), referenced)).toBeUndefined();
    expect(podTlsOf(prometheus({ tlsConfig: { certFile: '/c', keyFile: '/k' } }, '2.23.0'), referenced)).toBeUndefined();
  });

  it('over HTTPS pinning the certificate of spec.web.tlsConfig.cert, from a Secret or a ConfigMap of its own namespace', () => {
    expect(podTlsOf(prometheus({ tlsConfig: { cert: { secret: { name: 'web-tls', key: 'tls.crt' } }, keySecret: { name: 'web-tls', key: 'tls.key' } } }), referenced))
      .toEqual({ servingCertificate: cert, clientCertificateRequired: false });
    expect(podTlsOf(prometheus({ tlsConfig: { cert: { configMap: { name: 'web-cert', key: 'cert.pem' } }, keyFile: '/k', clientAuthType: 'RequireAndVerifyClientCert', clientCAFile: '/ca' } }), referenced))
      .toEqual({ servingCertificate: cert, clientCertificateRequired: true });
  });

  it('pins nothing any pod can present when the certificate cannot be read (never unverified)', () => {
    expect(podTlsOf(prometheus({ tlsConfig: { cert: { secret: { name: 'other-tls', key: 'tls.crt' } }, keyFile: '/k' } }), referenced))
      .toEqual({ servingCertificate: '', clientCertificateRequired: false });
  });

  it('without verifying the certificate when it is a file of the container (certFile), as upstream\'s reloader', () => {
    expect(podTlsOf(prometheus({ tlsConfig: { certFile: '/c', keyFile: '/k', clientAuthType: 'RequireAnyClientCert' } }), referenced))
      .toEqual({ clientCertificateRequired: true });
  });
});
