/**
 * HTTP client pieces shared by scrape configs (ServiceMonitor, PodMonitor) and Prometheus-level
 * clients (remote_write, remote_read, alertmanagers): authentication, TLS and proxy settings.
 * Each renderer validates its input, reads Secrets through the namespace-confined SecretStore,
 * records problems/warnings in `ctx.findings` and returns plain objects in upstream key order.
 */
export { Findings, supports, type HttpClientContext } from './render-context.ts';
export { readSecretKey, readSecretOrConfigMap, type ResolvedValue } from './secret-refs.ts';
export { renderBasicAuth } from './basic-auth.ts';
export { renderAuthorization } from './authorization.ts';
export { renderOAuth2 } from './oauth2.ts';
export { parseCertificate, parsePrivateKey, renderTlsConfig, tlsFilePaths } from './tls-config.ts';
export { appendProxy, hasProxy } from './proxy.ts';
export { checkAuthExclusivity, type AuthMethods } from './auth-exclusivity.ts';
