import type { ThanosRuler } from '@promop/crds';
import type { KeyValueSource } from '../model.ts';
import { TEST_CERT, TEST_KEY } from '../test-support/index.ts';
import { generateThanosRulerRemoteWrite } from './thanos-ruler-remote-write.ts';

const CERTS = '/etc/thanos/certs';

const ruler = (spec: Record<string, unknown>): ThanosRuler =>
  ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'ThanosRuler', metadata: { namespace: 'monitoring', name: 'r', uid: 'u' }, spec } as ThanosRuler);

const secrets: KeyValueSource[] = [
  { namespace: 'monitoring', name: 'auth', data: { user: 'ruler', password: 's3cr3t' } },
  { namespace: 'monitoring', name: 'client', data: { 'tls.crt': TEST_CERT, 'tls.key': TEST_KEY } },
  { namespace: 'other', name: 'stolen', data: { password: 'not-yours' } },
];
const configMaps = [{ namespace: 'monitoring', name: 'ca', data: { 'ca.crt': TEST_CERT } }];

const generate = (spec: Record<string, unknown>) => generateThanosRulerRemoteWrite({ thanosRuler: ruler(spec), secrets, configMaps, certsDir: CERTS });

describe('the remote write file of a ThanosRuler', () => {
  it('is upstream\'s empty list without spec.remoteWrite', () => {
    expect(generate({})).toEqual({ text: 'remote_write: []\n', tlsAssets: {}, problems: [], warnings: [] });
  });

  it('renders each endpoint as a Prometheus\' remote_write, credentials from the ruler\'s namespace, TLS files under the ruler\'s certificate directory', () => {
    const file = generate({
      remoteWrite: [{
        url: 'https://receive.example:19291/api/v1/receive', name: 'central',
        basicAuth: { username: { name: 'auth', key: 'user' }, password: { name: 'auth', key: 'password' } },
        tlsConfig: { ca: { configMap: { name: 'ca', key: 'ca.crt' } }, cert: { secret: { name: 'client', key: 'tls.crt' } }, keySecret: { name: 'client', key: 'tls.key' }, minVersion: 'TLS12' },
        writeRelabelConfigs: [{ sourceLabels: ['__name__'], regex: 'debug_.*', action: 'drop' }],
      }],
    });
    expect(file.problems).toEqual([]);
    const caFile = Object.keys(file.tlsAssets).find((name) => name.endsWith('ca.crt'))!;
    expect(file.text).toBe([
      'remote_write:',
      '- url: https://receive.example:19291/api/v1/receive',
      '  name: central',
      '  write_relabel_configs:',
      '  - source_labels:',
      '    - __name__',
      '    regex: debug_.*',
      '    action: drop',
      '  basic_auth:',
      '    username: ruler',
      '    password: s3cr3t',
      '  tls_config:',
      `    ca_file: ${CERTS}/${caFile}`,
      `    cert_file: ${CERTS}/${Object.keys(file.tlsAssets).find((name) => name.endsWith('tls.crt'))}`,
      `    key_file: ${CERTS}/${Object.keys(file.tlsAssets).find((name) => name.endsWith('tls.key'))}`,
      '    min_version: TLS12',
      '',
    ].join('\n'));
    expect(file.tlsAssets[caFile]).toBe(TEST_CERT);
  });

  it('refuses what it cannot read, at its path, and reads no Secret of another namespace', () => {
    const file = generate({ remoteWrite: [{ url: 'http://x', basicAuth: { username: { name: 'auth', key: 'user' }, password: { name: 'stolen', key: 'password' } } }, { url: 'not a url' }] });
    expect(file.problems.map((problem) => problem.path)).toEqual(['spec.remoteWrite[0].basicAuth.password', 'spec.remoteWrite[1].url']);
    expect(file.text).toBe('remote_write: []\n');
    expect(JSON.stringify(file)).not.toContain('not-yours');
  });

  it('clears what the ruler\'s Thanos release cannot read, as upstream, with a warning each', () => {
    const endpoint = { url: 'http://x', sendNativeHistograms: true, roundRobinDNS: true, messageVersion: 'V2.0', tlsConfig: { minVersion: 'TLS12', maxVersion: 'TLS13' }, sigv4: { region: 'eu-west-1', externalId: 'e' } };
    const old = generate({ version: 'v0.27.0', remoteWrite: [endpoint] });
    expect(old.problems).toEqual([]);
    expect(old.text).toBe('remote_write:\n- url: http://x\n  tls_config: {}\n  sigv4:\n    region: eu-west-1\n');
    expect(old.warnings.map((warning) => warning.split(':')[0])).toEqual([
      'spec.remoteWrite[0].sigv4.externalId', 'spec.remoteWrite[0].roundRobinDNS', 'spec.remoteWrite[0].messageVersion',
      'spec.remoteWrite[0].tlsConfig.maxVersion', 'spec.remoteWrite[0].sendNativeHistograms', 'spec.remoteWrite[0].tlsConfig.minVersion',
    ]);
    expect(old.warnings[1]).toBe('spec.remoteWrite[0].roundRobinDNS: ignored because thanos rule v0.27.0 does not support it (needs v0.38.0 or later)');
    // The default release reads all of them but sigv4's external id, which no Thanos release has.
    const current = generate({ remoteWrite: [endpoint] });
    expect(current.text).toContain('protobuf_message: io.prometheus.write.v2.Request');
    expect(current.text).toContain('round_robin_dns: true');
    expect(current.text).not.toContain('external_id');
    expect(current.warnings).toEqual(['spec.remoteWrite[0].sigv4.externalId: ignored because thanos rule v0.42.2 does not support it (no Thanos release supports it)']);
  });

  it('refuses an Azure AD method the release lacks (dropping it would send the samples without credentials), and a release without remote write', () => {
    const workload = generate({ remoteWrite: [{ url: 'http://x', azureAd: { workloadIdentity: { clientId: '00000000-0000-0000-0000-000000000001', tenantId: '00000000-0000-0000-0000-000000000002' } } }] });
    expect(workload.problems.map((problem) => problem.path)).toEqual(['spec.remoteWrite[0].azureAd.workloadIdentity']);
    const sdk = generate({ version: 'v0.35.0', remoteWrite: [{ url: 'http://x', azureAd: { sdk: {} } }] });
    expect(sdk.problems).toEqual([{ path: 'spec.remoteWrite[0].azureAd.sdk', message: 'thanos rule v0.35.0 cannot authenticate this way (needs v0.36.0 or later)' }]);
    const managed = generate({ version: 'v0.39.0', remoteWrite: [{ url: 'http://x', azureAd: { managedIdentity: {} } }] });
    expect(managed.problems.map((problem) => problem.path)).toEqual(['spec.remoteWrite[0].azureAd.managedIdentity.clientId']);
    expect(generate({ version: 'v0.23.0', remoteWrite: [{ url: 'http://x' }] }).problems).toEqual([{ path: 'spec.remoteWrite', message: 'needs Thanos v0.24.0 or later (this ruler runs v0.23.0)' }]);
  });
});
