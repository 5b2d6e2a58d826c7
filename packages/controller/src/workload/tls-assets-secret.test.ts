import { buildTlsAssetsSecret } from './tls-assets-secret.ts';
import { MAX_SECRET_DATA_BYTES } from './secret-size.ts';
import { testPrometheus } from '../test-support/workload-fixtures.ts';

describe('the TLS assets Secret', () => {
  it('is prometheus-<name>-tls-assets-0 with the files base64-encoded, keys sorted', () => {
    const result = buildTlsAssetsSecret(testPrometheus(), { tlsAssets: { '1_ns_cm_ca.crt': 'CA', '0_ns_s_key': 'KEY' } });
    if (!result.ok) throw new Error('not ok');
    expect(result.value.metadata?.name).toBe('prometheus-main-tls-assets-0');
    expect(Object.keys(result.value.data ?? {})).toEqual(['0_ns_s_key', '1_ns_cm_ca.crt']);
    expect(result.value.data?.['0_ns_s_key']).toBe(Buffer.from('KEY').toString('base64'));
    expect(result.value.metadata?.ownerReferences?.[0]?.uid).toBe('0b5cf4a3-2d4e-4f7b-9a51-3c1f0b8e9d21');
  });

  it('exists even without assets, because the pod mounts it', () => {
    const result = buildTlsAssetsSecret(testPrometheus(), { tlsAssets: {} });
    expect(result.ok && result.value.data).toEqual({});
  });

  it('reports material over 1 MiB instead of writing a Secret the API server refuses', () => {
    const half = 'x'.repeat(MAX_SECRET_DATA_BYTES / 2);
    const result = buildTlsAssetsSecret(testPrometheus(), { tlsAssets: { a: half, b: `${half}x` } });
    expect(result.ok).toBe(false);
  });
});
