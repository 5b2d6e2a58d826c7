/**
 * The renderers every notifier of a receiver shares, and Alertmanager's `global` section with them: the HTTP
 * client (`http_config`: one authentication method, OAuth2, proxy) after the checks of upstream's
 * HTTPConfig.Validate, and `tls_config`, whose material read from the object's namespace becomes files of the
 * generated configuration Secret (`context.tlsAssets`, named as upstream names them) beside alertmanager.yaml in
 * ALERTMANAGER_CONFIG_DIR. The material is parsed first, so a CA that is no certificate or a key that does not
 * match its certificate is reported on the object instead of failing the reload of every team's configuration.
 */
import type { OAuth2, SafeTLSConfig, SecretKeySelector } from '@promop/crds';
import { compareCodePoints, sortedByKey } from '../go-map-order.ts';
import { keyPath } from '../values/field-path.ts';
import { parseCertificate, parsePrivateKey } from '../http-client/index.ts';
import { ALERTMANAGER_CONFIG_DIR, tlsAssetFileName } from '../pod-layout.ts';
import { ReceiverFields, compact, urlReason, type HttpConfig, type Output } from './receiver-fields.ts';

type ProxyFields = Pick<HttpConfig, 'proxyUrl' | 'noProxy' | 'proxyFromEnvironment' | 'proxyConnectHeader'>;

const TLS_VERSIONS = ['TLS10', 'TLS11', 'TLS12', 'TLS13'];

/** The pieces of a receiver's rendering that Alertmanager's `global` section shares (its HTTP client, TLS, Secrets and URLs). */
export interface SharedRenderers {
  httpConfig(http: HttpConfig | undefined, path: string): Record<string, unknown> | undefined;
  tlsConfig(tls: SafeTLSConfig | undefined, path: string): Record<string, unknown> | undefined;
  /** A Secret key's value (a problem when it is missing). */
  secret(ref: SecretKeySelector | undefined, path: string): string | undefined;
  /** A URL from a Secret, checked as Alertmanager parses it; `trim` drops surrounding white space first. */
  secretUrl(ref: SecretKeySelector | undefined, path: string, trim: boolean): string | undefined;
  /** A problem when `url` is not an http(s) URL Alertmanager can use. */
  checkUrl(url: string | undefined, path: string): void;
}

/** The field reading and checks of ReceiverFields, with the HTTP client and TLS a notifier sends through. */
export class ReceiverRenderers extends ReceiverFields implements SharedRenderers {
  /** The shared HTTP client (convertHTTPConfig), after the checks of upstream's HTTPConfig.Validate. */
  httpConfig(http: HttpConfig | undefined, path: string): Output | undefined {
    if (!http) return undefined;
    const methods = (['authorization', 'basicAuth', 'oauth2', 'bearerTokenSecret'] as const).filter((method) => http[method] !== undefined);
    if (methods.length > 1) this.problem(path, `only one authentication method can be set, found ${methods.join(' and ')}`);

    let authorization: Output | undefined;
    if (http.authorization) {
      const at = `${path}.authorization`;
      const type = http.authorization.type ?? '';
      if (type.trim().toLowerCase() === 'basic') this.problem(`${at}.type`, 'authorization type "Basic" is not allowed; use basicAuth instead');
      if (!http.authorization.credentials) this.problem(`${at}.credentials`, 'authorization needs credentials (a Secret key)');
      const credentials = this.secret(http.authorization.credentials, `${at}.credentials`);
      if (credentials) authorization = { type: type || 'Bearer', credentials };
    }

    let basicAuth: Output | undefined;
    if (http.basicAuth) {
      const at = `${path}.basicAuth`;
      if (!http.basicAuth.username) this.problem(`${at}.username`, 'basicAuth needs a username (a Secret key)');
      if (!http.basicAuth.password) this.problem(`${at}.password`, 'basicAuth needs a password (a Secret key)');
      const username = this.secret(http.basicAuth.username, `${at}.username`) ?? '';
      const password = this.secret(http.basicAuth.password, `${at}.password`) ?? '';
      if (username || password) basicAuth = compact({ username, password });
    }

    const proxy = this.proxy({ ...http, proxyUrl: http.proxyURL || http.proxyUrl }, http.proxyURL ? `${path}.proxyURL` : `${path}.proxyUrl`, path);
    return compact({
      authorization,
      basic_auth: basicAuth,
      oauth2: http.oauth2 && this.oauth2(http.oauth2, `${path}.oauth2`),
      bearer_token: this.secret(http.bearerTokenSecret, `${path}.bearerTokenSecret`),
      tls_config: this.tlsConfig(http.tlsConfig, `${path}.tlsConfig`),
      follow_redirects: http.followRedirects,
      enable_http2: http.enableHttp2,
      ...proxy,
    });
  }

  private oauth2(oauth2: OAuth2, path: string): Output {
    if (!oauth2.tokenUrl) this.problem(`${path}.tokenUrl`, 'oauth2 needs a tokenUrl');
    const { secret, configMap } = oauth2.clientId ?? {};
    if (!secret && !configMap) this.problem(`${path}.clientId`, 'oauth2 needs a clientId from a Secret or a ConfigMap');
    if (secret && configMap) this.problem(`${path}.clientId`, 'clientId takes a Secret or a ConfigMap, not both');
    const clientId = secret ? this.secret(secret, `${path}.clientId.secret`) : this.configMapValue(configMap, `${path}.clientId.configMap`);
    // Upstream does not pass the OAuth2 tlsConfig to Alertmanager; promop does the same and says so.
    if (oauth2.tlsConfig) this.warn(`${path}.tlsConfig: ignored, as prometheus-operator ignores it for Alertmanager receivers`);
    return compact({
      client_id: clientId ?? '',
      client_secret: this.secret(oauth2.clientSecret, `${path}.clientSecret`) ?? '',
      scopes: oauth2.scopes ? [...oauth2.scopes] : undefined,
      token_url: oauth2.tokenUrl ?? '',
      endpoint_params: oauth2.endpointParams ? sortedByKey(oauth2.endpointParams) : undefined,
      ...this.proxy(oauth2, `${path}.proxyUrl`, path),
    });
  }

  /** Proxy fields with the rules Alertmanager applies when it loads them; `urlPath` is the field the URL came from. */
  private proxy(spec: ProxyFields, urlPath: string, path: string): Output {
    const proxyUrl = spec.proxyUrl || undefined;
    const fromEnvironment = spec.proxyFromEnvironment === true;
    const headerNames = Object.keys(spec.proxyConnectHeader ?? {}).sort(compareCodePoints);
    if (proxyUrl !== undefined) {
      const reason = urlReason(proxyUrl, ['http', 'https', 'socks5']);
      if (reason) this.problem(urlPath, `"${proxyUrl}" is not a proxy URL Alertmanager can use: ${reason}`);
    }
    if (headerNames.length > 0 && !fromEnvironment && proxyUrl === undefined) this.problem(`${path}.proxyConnectHeader`, 'proxyConnectHeader needs proxyUrl or proxyFromEnvironment');
    if (fromEnvironment && proxyUrl !== undefined) this.problem(path, 'proxyUrl and proxyFromEnvironment cannot both be set');
    if (fromEnvironment && spec.noProxy) this.problem(`${path}.noProxy`, 'noProxy cannot be used with proxyFromEnvironment (the environment decides)');
    if (spec.noProxy && proxyUrl === undefined && !fromEnvironment) this.problem(`${path}.noProxy`, 'noProxy needs proxyUrl');
    let headers: Record<string, string[]> | undefined;
    for (const name of headerNames) {
      const at = keyPath(`${path}.proxyConnectHeader`, name);
      const refs = spec.proxyConnectHeader?.[name] ?? [];
      if (refs.length === 0) this.problem(at, 'a proxy connect header needs at least one Secret key for its value');
      headers ??= {};
      headers[name] = refs.map((ref, i) => this.secret(ref, `${at}[${i}]`) ?? '');
    }
    return compact({
      proxy_url: proxyUrl,
      no_proxy: spec.noProxy,
      proxy_from_environment: fromEnvironment ? true : undefined,
      proxy_connect_header: headers,
    });
  }

  /** `tls_config`: TLS material from Secrets or ConfigMaps becomes files beside alertmanager.yaml. */
  tlsConfig(tls: SafeTLSConfig | undefined, path: string): Output | undefined {
    if (!tls) return undefined;
    const min = tls.minVersion === undefined ? -1 : TLS_VERSIONS.indexOf(tls.minVersion);
    const max = tls.maxVersion === undefined ? -1 : TLS_VERSIONS.indexOf(tls.maxVersion);
    if (min >= 0 && max >= 0 && max < min) this.problem(path, `maxVersion ${tls.maxVersion} is lower than minVersion ${tls.minVersion}`);
    const ca = this.tlsMaterial(tls.ca, `${path}.ca`);
    const cert = this.tlsMaterial(tls.cert, `${path}.cert`);
    const key = tls.keySecret ? this.tlsMaterial({ secret: tls.keySecret }, `${path}.keySecret`) : undefined;
    if (ca && !parseCertificate(ca.value)) this.problem(`${path}.ca`, 'does not hold a PEM-encoded certificate');
    const certificate = cert ? parseCertificate(cert.value) : undefined;
    if (cert && !certificate) this.problem(`${path}.cert`, 'does not hold a PEM-encoded certificate');
    const privateKey = key ? parsePrivateKey(key.value) : undefined;
    if (key && !privateKey) this.problem(`${path}.keySecret`, 'does not hold a PEM-encoded private key');
    if (certificate && privateKey && !certificate.checkPrivateKey(privateKey)) this.problem(`${path}.keySecret`, 'the private key does not match the client certificate');
    // Alertmanager refuses one without the other when it loads the file.
    const certSet = tls.cert?.secret !== undefined || tls.cert?.configMap !== undefined;
    if (certSet && tls.keySecret === undefined) this.problem(path, 'a client certificate (cert) needs a client key (keySecret)');
    if (!certSet && tls.keySecret !== undefined) this.problem(path, 'a client key (keySecret) needs a client certificate (cert)');
    return compact({
      ca_file: ca?.file,
      cert_file: cert?.file,
      key_file: key?.file,
      server_name: tls.serverName,
      insecure_skip_verify: tls.insecureSkipVerify,
      min_version: tls.minVersion,
      max_version: tls.maxVersion,
    });
  }

  /** The content of a Secret or ConfigMap key for a TLS file, recorded as a file of the configuration Secret. */
  private tlsMaterial(ref: SafeTLSConfig['ca'], path: string): { value: string; file: string } | undefined {
    if (!ref || (ref.secret === undefined && ref.configMap === undefined)) return undefined;
    if (ref.secret !== undefined && ref.configMap !== undefined) {
      this.problem(path, 'names both a Secret and a ConfigMap; give one');
      return undefined;
    }
    const source = ref.secret !== undefined ? 'secret' as const : 'configMap' as const;
    const selector = (ref.secret ?? ref.configMap)!;
    const value = source === 'secret' ? this.secret(ref.secret, `${path}.secret`) : this.configMapValue(ref.configMap, `${path}.configMap`);
    if (value === undefined) return undefined;
    const name = tlsAssetFileName(source, this.context.namespace, selector.name ?? '', selector.key);
    this.context.tlsAssets[name] = value;
    return { value, file: `${ALERTMANAGER_CONFIG_DIR}/${name}` };
  }
}
