/**
 * A scrape class is part of the Prometheus: Secrets it references are the Prometheus' own, so a
 * monitor in any namespace that uses the class gets the same credentials and CA.
 */
import { renderServiceMonitor } from './index.ts';
import { TEST_CERT, testContext, testPrometheus, testServiceMonitor } from '../test-support/scrape-harness.ts';

const prometheus = testPrometheus({
  scrapeClasses: [
    {
      name: 'shared',
      default: true,
      tlsConfig: { ca: { secret: { name: 'tls', key: 'ca.crt' } } },
      authorization: { credentials: { name: 'creds', key: 'token' } },
    },
  ],
});

describe('a scrape class with Secret references, used by a monitor of another namespace', () => {
  it('reads the Secrets from the Prometheus namespace, not the monitor namespace', () => {
    // Namespace "other" has a Secret "creds" of its own (user mallory) and no Secret "tls".
    const rendering = renderServiceMonitor(testServiceMonitor({ endpoints: [{ port: 'web' }] }, 'api', 'other'), testContext({ prometheus }));
    expect(rendering).toMatchObject({ ok: true, tlsAssets: { '0_default_tls_ca.crt': TEST_CERT } });
    if (!rendering.ok) return;
    expect(rendering.scrapeConfigs[0]).toMatchObject({
      tls_config: { ca_file: '/etc/prometheus/certs/0_default_tls_ca.crt' },
      authorization: { type: 'Bearer', credentials: 'tok3n' },
    });
  });

  it('keeps reading the endpoint own Secrets from the monitor namespace', () => {
    const monitor = testServiceMonitor({ endpoints: [{ port: 'web', authorization: { credentials: { name: 'creds', key: 'user' } } }] }, 'api', 'other');
    const rendering = renderServiceMonitor(monitor, testContext({ prometheus }));
    expect(rendering.ok && rendering.scrapeConfigs[0]?.authorization).toEqual({ type: 'Bearer', credentials: 'mallory' });
  });

  // prometheus-operator adds the class' authorization here too, and Prometheus refuses a job with two methods.
  it.each([
    ['basicAuth', { basicAuth: { username: { name: 'creds', key: 'user' }, password: { name: 'creds', key: 'password' } } }, 'basic_auth'],
    ['oauth2', { oauth2: { clientId: { secret: { name: 'creds', key: 'client-id' } }, clientSecret: { name: 'creds', key: 'client-secret' }, tokenUrl: 'https://auth.example.com/token' } }, 'oauth2'],
  ])('does not add its authorization to an endpoint with its own %s', (_, auth, key) => {
    const rendering = renderServiceMonitor(testServiceMonitor({ endpoints: [{ port: 'web', ...auth }] }), testContext({ prometheus }));
    expect(rendering.ok && Object.keys(rendering.scrapeConfigs[0] ?? {}).filter((k) => ['authorization', 'basic_auth', 'oauth2'].includes(k))).toEqual([key]);
  });
});
