/**
 * The HTTP client pieces on their own, as Prometheus-level callers (remote write, alerting) use
 * them: a context for one namespace, problems and warnings collected in `findings`.
 */
import { parsePrometheusVersion, type PrometheusVersion } from '../prometheus-version.ts';
import { SecretStore } from '../secret-store.ts';
import { TEST_CERT, TEST_CONFIG_MAPS, TEST_KEY, TEST_SECRETS } from '../test-support/scrape-harness.ts';
import { appendProxy, checkAuthExclusivity, Findings, renderAuthorization, renderBasicAuth, renderOAuth2, renderTlsConfig, type HttpClientContext } from './index.ts';

function context(version = 'v3.16.0', namespace = 'default'): HttpClientContext {
  return {
    namespace,
    secrets: new SecretStore(TEST_SECRETS, TEST_CONFIG_MAPS),
    version: parsePrometheusVersion(version) as PrometheusVersion,
    findings: new Findings(),
    tlsAssets: {},
  };
}

describe('basic auth', () => {
  it('inlines username and password from the namespace Secret', () => {
    const ctx = context();
    expect(renderBasicAuth({ username: { name: 'creds', key: 'user' }, password: { name: 'creds', key: 'password' } }, 'spec.basicAuth', ctx)).toEqual({
      username: 'alice',
      password: 's3cret',
    });
    expect(ctx.findings.problems).toEqual([]);
  });

  it('never reads a Secret of another namespace', () => {
    const ctx = context('v3.16.0', 'elsewhere');
    renderBasicAuth({ username: { name: 'creds', key: 'user' }, password: { name: 'creds', key: 'password' } }, 'spec.basicAuth', ctx);
    expect(ctx.findings.problems).toEqual([
      { path: 'spec.basicAuth.username', message: 'Secret "creds" not found in namespace "elsewhere"' },
      { path: 'spec.basicAuth.password', message: 'Secret "creds" not found in namespace "elsewhere"' },
    ]);
  });

  it('rejects a basicAuth without password, as prometheus-operator does, instead of sending an empty one', () => {
    const ctx = context();
    renderBasicAuth({ username: { name: 'creds', key: 'user' } }, 'spec.endpoints[0].basicAuth', ctx);
    expect(ctx.findings.problems).toEqual([
      {
        path: 'spec.endpoints[0].basicAuth.password',
        message: 'basicAuth needs a password (a Secret name and key); without one the credentials would be sent with an empty password',
      },
    ]);
  });
});

describe('authorization', () => {
  it('defaults the type to Bearer', () => {
    const ctx = context();
    expect(renderAuthorization({ credentials: { name: 'creds', key: 'token' } }, 'a', ctx)).toEqual({ type: 'Bearer', credentials: 'tok3n' });
  });

  it('keeps a credentials file where files are allowed', () => {
    expect(renderAuthorization({ type: 'Token', credentialsFile: '/var/run/token' }, 'a', context())).toEqual({ type: 'Token', credentials_file: '/var/run/token' });
  });

  it('is dropped with a warning before Prometheus 2.26', () => {
    const ctx = context('v2.25.0');
    expect(renderAuthorization({ credentials: { name: 'creds', key: 'token' } }, 'spec.authorization', ctx)).toBeUndefined();
    expect(ctx.findings.warnings).toEqual(['spec.authorization: ignored because Prometheus v2.25.0 does not support "authorization" (needs v2.26.0 or later)']);
  });
});

describe('oauth2', () => {
  const spec = {
    clientId: { configMap: { name: 'ca', key: 'ca.crt' } },
    clientSecret: { name: 'creds', key: 'client-secret' },
    tokenUrl: 'https://auth/token',
    proxyUrl: 'http://proxy:8080',
    tlsConfig: { insecureSkipVerify: true },
  };

  it('renders the client credentials with proxy and TLS', () => {
    const ctx = context();
    expect(Object.keys(renderOAuth2(spec, 'o', ctx) ?? {})).toEqual(['client_id', 'client_secret', 'token_url', 'proxy_url', 'tls_config']);
  });

  it('drops proxy and TLS before 2.43 but keeps the rest', () => {
    const ctx = context('v2.40.0');
    expect(Object.keys(renderOAuth2(spec, 'o', ctx) ?? {})).toEqual(['client_id', 'client_secret', 'token_url']);
    expect(ctx.findings.warnings).toHaveLength(2);
  });

  it('needs a token URL', () => {
    const ctx = context();
    expect(renderOAuth2({ ...spec, tokenUrl: '' }, 'o', ctx)).toBeUndefined();
    expect(ctx.findings.problems).toEqual([{ path: 'o.tokenUrl', message: 'tokenUrl is required' }]);
  });
});

describe('TLS config', () => {
  it('turns Secret and ConfigMap material into asset files named as prometheus-operator names them', () => {
    const ctx = context();
    const rendered = renderTlsConfig(
      { ca: { configMap: { name: 'ca', key: 'ca.crt' } }, cert: { secret: { name: 'tls', key: 'tls.crt' } }, keySecret: { name: 'tls', key: 'tls.key' } },
      't',
      ctx,
    );
    expect(rendered).toEqual({
      ca_file: '/etc/prometheus/certs/1_default_ca_ca.crt',
      cert_file: '/etc/prometheus/certs/0_default_tls_tls.crt',
      key_file: '/etc/prometheus/certs/0_default_tls_tls.key',
    });
    expect(ctx.tlsAssets).toEqual({ '1_default_ca_ca.crt': TEST_CERT, '0_default_tls_tls.crt': TEST_CERT, '0_default_tls_tls.key': TEST_KEY });
  });

  it('refuses a reference to both a Secret and a ConfigMap', () => {
    const ctx = context();
    renderTlsConfig({ ca: { secret: { name: 'tls', key: 'ca.crt' }, configMap: { name: 'ca', key: 'ca.crt' } } }, 't', ctx);
    expect(ctx.findings.problems).toEqual([{ path: 't.ca', message: 'only one of secret and configMap can be set' }]);
  });

  it('refuses an unknown TLS version and keeps insecure_skip_verify first', () => {
    const ctx = context();
    // The CRD's enum refuses TLS14 (so does the type); the check still guards objects that skipped the schema.
    // @ts-expect-error TLS14 is not one of the CRD's TLS versions
    expect(renderTlsConfig({ minVersion: 'TLS14' }, 't', ctx)).toBeUndefined();
    expect(ctx.findings.problems).toEqual([{ path: 't.minVersion', message: 'minVersion must be one of TLS10, TLS11, TLS12, TLS13, not "TLS14"' }]);
    expect(Object.keys(renderTlsConfig({ serverName: 'x', insecureSkipVerify: true }, 't', context()) ?? {})).toEqual(['insecure_skip_verify', 'server_name']);
  });
});

describe('proxy settings', () => {
  it('appends the keys in upstream order with connect headers sorted and inlined', () => {
    const target: Record<string, unknown> = {};
    appendProxy(
      target,
      { proxyUrl: 'http://p:1', noProxy: 'localhost', proxyConnectHeader: { 'X-B': [{ name: 'creds', key: 'token' }], 'X-A': [{ name: 'creds', key: 'user' }] } },
      'p',
      context(),
    );
    expect(target).toEqual({ proxy_url: 'http://p:1', no_proxy: 'localhost', proxy_connect_header: { 'X-A': ['alice'], 'X-B': ['tok3n'] } });
    expect(Object.keys(target.proxy_connect_header as object)).toEqual(['X-A', 'X-B']);
  });

  it('refuses a proxy URL together with the environment proxy', () => {
    const ctx = context();
    appendProxy({}, { proxyUrl: 'http://p:1', proxyFromEnvironment: true }, 'p', ctx);
    expect(ctx.findings.problems).toEqual([{ path: 'p', message: 'proxyUrl and proxyFromEnvironment are mutually exclusive' }]);
  });
});

describe('authentication methods', () => {
  it('allow one at most', () => {
    const ctx = context();
    expect(checkAuthExclusivity({ basicAuth: {}, oauth2: undefined }, 'e', ctx)).toBe(true);
    expect(checkAuthExclusivity({ oauth2: {}, bearerTokenFile: '/t' }, 'e', ctx)).toBe(false);
    expect(ctx.findings.problems).toEqual([{ path: 'e', message: 'only one authentication method can be set, found oauth2 and bearerTokenFile' }]);
  });
});
