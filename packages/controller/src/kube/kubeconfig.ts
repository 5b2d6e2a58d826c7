/**
 * Which cluster promop talks to, and as whom, found the way kubectl and client-go find it; one loader for every
 * command. `promop explain` and `promop diff` resolve it once (`loadClusterConnection`); `promop run` keeps a
 * `Kubeconfig` (`loadKubeconfig`) that its RawApi asks for credentials on every request, so rotating ones stay
 * fresh: a `tokenFile` and the in-cluster ServiceAccount token (which the kubelet rotates) are read again after a
 * minute, as client-go does; an exec plugin's credential is kept until its `expirationTimestamp` (or, without
 * one, until the API server answers 401). Not client-node's KubeConfig: importing client-node costs more CPU and
 * memory (docs/performance.md, P3) than these commands or the operator should spend on it.
 *
 * Where: `--kubeconfig`, else the files of `$KUBECONFIG` merged (the first file that sets a value wins), else
 * `~/.kube/config`, else the in-cluster ServiceAccount; `promop run` puts the in-cluster ServiceAccount before
 * `~/.kube/config` (controller-runtime's order, as an operator in a pod must not pick up a stray file).
 * `--context`, else the current context.
 *
 * Supported: client certificates (file or data), bearer tokens (inline or `tokenFile`), basic auth, exec
 * credential plugins (client.authentication.k8s.io v1 and v1beta1: cloud providers' `aws eks get-token`,
 * `gke-gcloud-auth-plugin`, `kubelogin`...), impersonation (`as`, `as-groups`), `certificate-authority[-data]`,
 * `insecure-skip-tls-verify` and `tls-server-name`. Not supported, and said so with the plugin's name: the
 * removed `auth-provider` plugins (oidc, gcp, azure), and `proxy-url`.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { RequestOptions } from 'node:https';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { load } from 'js-yaml';
import type { KubeAccess } from './raw-api.ts';
/** How to reach the API server and authenticate, resolved from a kubeconfig or the pod's ServiceAccount. */
export interface ClusterConnection {
  /** Where it came from, for messages: `context "kind-dev" of /home/me/.kube/config`, or `in-cluster`. */
  source: string;
  server: string;
  /** The namespace of the context (kubectl's default for `-n`), else `default`. */
  namespace: string;
  /** PEM certificates to trust; undefined: the system's. */
  ca?: string;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
  /** Client certificate and key (PEM). */
  clientCertificate?: { cert: string; key: string };
  /** HTTP headers that authenticate and impersonate (Authorization, Impersonate-User...). */
  headers: Record<string, string | string[]>;
}

/** The kubeconfig cannot be read, or what it names cannot be used: a message for the user, not a bug. */
export class KubeconfigError extends Error {
  override name = 'KubeconfigError';
}

/** Where to look, as kubectl's flags and environment say. */
export interface KubeconfigOptions {
  kubeconfig?: string | undefined;
  context?: string | undefined;
  /** `process.env` by default. */
  env?: NodeJS.ProcessEnv;
  /** In a pod, the ServiceAccount before `~/.kube/config` (`promop run`); default false (kubectl's order). */
  inClusterBeforeHome?: boolean;
  /** Test only: where the ServiceAccount is mounted (default /var/run/secrets/kubernetes.io/serviceaccount). */
  inClusterDir?: string;
  /** Test only: the clock (ms since the epoch) that decides when a token file is read again and a credential expired. */
  now?: () => number;
}

const IN_CLUSTER_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
/** client-go reads a token file again after a minute (its cachingTokenSource). */
const TOKEN_FILE_REREAD_MS = 60_000;

/** Resolves the connection once (`promop explain`, `promop diff`); throws KubeconfigError with a sentence saying what is wrong. */
export async function loadClusterConnection(options: KubeconfigOptions = {}): Promise<ClusterConnection> {
  return (await loadKubeconfig(options)).connection();
}

/**
 * The kubeconfig `promop run` keeps: the cluster and a credential source, both checked here (a file that cannot
 * be read, an unknown context or an auth-provider is a KubeconfigError now, not at the first request). The first
 * credential is fetched here too, so a broken exec plugin or token file stops `promop run` at start.
 */
export async function loadKubeconfig(options: KubeconfigOptions = {}): Promise<Kubeconfig> {
  const env = options.env ?? process.env;
  const inClusterDir = options.inClusterDir ?? IN_CLUSTER_DIR;
  const now = options.now ?? Date.now;
  const inPod = Boolean(env.KUBERNETES_SERVICE_HOST && env.KUBERNETES_SERVICE_PORT);
  const explicitFiles = options.kubeconfig !== undefined
    ? [options.kubeconfig]
    : env.KUBECONFIG
      ? env.KUBECONFIG.split(delimiter).filter((file) => file !== '')
      : undefined;
  if (!explicitFiles && inPod && options.inClusterBeforeHome) return checked(await inClusterKubeconfig(env, inClusterDir, now));
  const files = explicitFiles ?? [join(env.HOME ?? homedir(), '.kube', 'config')];
  const documents: { file: string; config: KubeconfigFile }[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      // $KUBECONFIG may name files that do not exist (kubectl skips them); --kubeconfig must exist.
      if (error.code === 'ENOENT' && options.kubeconfig === undefined) return undefined;
      throw new KubeconfigError(`cannot read the kubeconfig ${file}: ${error.code ?? error.message}`);
    });
    if (text !== undefined) documents.push({ file, config: parseKubeconfig(text, file) });
  }
  if (documents.length === 0) {
    if (!explicitFiles && inPod) return checked(await inClusterKubeconfig(env, inClusterDir, now));
    throw new KubeconfigError(
      `no kubeconfig found (looked at ${files.join(', ')}): pass --kubeconfig, set KUBECONFIG, or run in a pod with a ServiceAccount`,
    );
  }
  return checked(await kubeconfigFrom(mergeKubeconfigs(documents), options.context, env, now));
}

/** `kubeconfig` once its first credential was fetched (errors surface at load, not at the first request). */
async function checked(kubeconfig: Kubeconfig): Promise<Kubeconfig> {
  await kubeconfig.credentials();
  return kubeconfig;
}

/** The cluster half of a connection: where, and which server certificate to trust. */
interface ClusterEndpoint {
  server: string;
  ca?: string;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
}

/** What authenticates one request: headers and, maybe, a client certificate. */
export interface Credentials {
  headers: Record<string, string | string[]>;
  clientCertificate?: { cert: string; key: string };
}

/** Where the credentials of each request come from; `current()` is cheap when nothing rotated. */
interface CredentialSource {
  current(): Promise<Credentials>;
  /** The API server refused them (401): fetch new ones next time. */
  invalidate(): void;
}

/**
 * A loaded kubeconfig: the structural `KubeAccess` RawApi reads (client-node's KubeConfig has the same two
 * methods, so tests pass either), plus what `promop run` reports about where it came from.
 */
export class Kubeconfig implements KubeAccess {
  /** Where it came from, for messages: `context "kind-dev" of /home/me/.kube/config`, or `in-cluster ServiceAccount`. */
  readonly source: string;
  /** The namespace of the context, or the pod's own in a cluster; else `default`. */
  readonly namespace: string;
  readonly inCluster: boolean;
  readonly #endpoint: ClusterEndpoint;
  readonly #credentials: CredentialSource;

  constructor(init: { source: string; namespace: string; inCluster: boolean; endpoint: ClusterEndpoint; credentials: CredentialSource }) {
    this.source = init.source;
    this.namespace = init.namespace;
    this.inCluster = init.inCluster;
    this.#endpoint = init.endpoint;
    this.#credentials = init.credentials;
  }

  getCurrentCluster(): { server: string } {
    return { server: this.#endpoint.server };
  }

  /** The credentials for the next request (a rotated token or an exec credential past its expiry fetched anew). */
  credentials(): Promise<Credentials> {
    return this.#credentials.current();
  }

  /** Sets TLS options and authentication headers on `options` (client-node's KubeConfig method of the same name). */
  async applyToHTTPSOptions(options: RequestOptions): Promise<void> {
    const { headers, clientCertificate } = await this.#credentials.current();
    const endpoint = this.#endpoint;
    if (endpoint.ca !== undefined) options.ca = endpoint.ca;
    if (endpoint.tlsServerName !== undefined) options.servername = endpoint.tlsServerName;
    options.rejectUnauthorized = !endpoint.insecureSkipTlsVerify;
    if (clientCertificate) {
      options.cert = clientCertificate.cert;
      options.key = clientCertificate.key;
    }
    options.headers = { ...(options.headers as Record<string, string> | undefined), ...headers };
  }

  /** The API server answered 401: the next request fetches fresh credentials (token file, exec plugin). */
  onUnauthorized(): void {
    this.#credentials.invalidate();
  }

  /** A snapshot of the endpoint and the current credentials (the CLI's one-shot commands). */
  async connection(): Promise<ClusterConnection> {
    const { headers, clientCertificate } = await this.#credentials.current();
    const { server, ca, insecureSkipTlsVerify, tlsServerName } = this.#endpoint;
    return {
      source: this.source, server, namespace: this.namespace,
      ...(ca !== undefined ? { ca } : {}),
      insecureSkipTlsVerify,
      ...(tlsServerName !== undefined ? { tlsServerName } : {}),
      ...(clientCertificate ? { clientCertificate } : {}),
      headers,
    };
  }
}

/** One kubeconfig file as written (only the fields promop reads). */
interface KubeconfigFile {
  'current-context'?: string;
  clusters?: { name: string; cluster?: Record<string, unknown> }[];
  users?: { name: string; user?: Record<string, unknown> }[];
  contexts?: { name: string; context?: Record<string, unknown> }[];
}

/** Named entries remember the file they came from: relative paths in them are relative to that file. */
interface Named {
  file: string;
  fields: Record<string, unknown>;
}

interface MergedKubeconfig {
  currentContext: string | undefined;
  clusters: Map<string, Named>;
  users: Map<string, Named>;
  contexts: Map<string, Named>;
  files: string[];
}

function parseKubeconfig(text: string, file: string): KubeconfigFile {
  let parsed: unknown;
  try {
    parsed = load(text);
  } catch (error) {
    throw new KubeconfigError(`${file}: not valid YAML: ${(error as { reason?: string }).reason ?? 'cannot be parsed'}`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new KubeconfigError(`${file}: not a kubeconfig (expected a mapping)`);
  return parsed as KubeconfigFile;
}

/** kubectl's merge: the first file to set current-context or to name an entry wins. */
function mergeKubeconfigs(documents: readonly { file: string; config: KubeconfigFile }[]): MergedKubeconfig {
  const merged: MergedKubeconfig = { currentContext: undefined, clusters: new Map(), users: new Map(), contexts: new Map(), files: documents.map((d) => d.file) };
  for (const { file, config } of documents) {
    merged.currentContext ||= config['current-context'] || undefined;
    const add = (target: Map<string, Named>, entries: { name: string }[] | undefined, key: string) => {
      for (const entry of Array.isArray(entries) ? entries : []) {
        if (typeof entry?.name !== 'string' || target.has(entry.name)) continue;
        const fields = (entry as Record<string, unknown>)[key];
        target.set(entry.name, { file, fields: typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>) : {} });
      }
    };
    add(merged.clusters, config.clusters, 'cluster');
    add(merged.users, config.users, 'user');
    add(merged.contexts, config.contexts, 'context');
  }
  return merged;
}

async function kubeconfigFrom(config: MergedKubeconfig, contextFlag: string | undefined, env: NodeJS.ProcessEnv, now: () => number): Promise<Kubeconfig> {
  const where = config.files.join(', ');
  const contextName = contextFlag ?? config.currentContext;
  if (!contextName) throw new KubeconfigError(`no current context in ${where}: pass --context or run kubectl config use-context`);
  const context = config.contexts.get(contextName);
  if (!context) throw new KubeconfigError(`context "${contextName}" not found in ${where}`);
  const clusterName = stringField(context.fields, 'cluster');
  const cluster = clusterName === undefined ? undefined : config.clusters.get(clusterName);
  if (!cluster) throw new KubeconfigError(`context "${contextName}" names cluster "${clusterName ?? ''}", which ${where} does not define`);
  const server = stringField(cluster.fields, 'server');
  if (!server) throw new KubeconfigError(`cluster "${clusterName}" has no server in ${where}`);
  if (cluster.fields['proxy-url'] !== undefined) throw new KubeconfigError(`cluster "${clusterName}": proxy-url is not supported by promop yet`);
  const userName = stringField(context.fields, 'user');
  const user = userName === undefined ? undefined : config.users.get(userName);
  if (userName !== undefined && userName !== '' && !user) throw new KubeconfigError(`context "${contextName}" names user "${userName}", which ${where} does not define`);
  const endpoint: ClusterEndpoint = { server: server.replace(/\/+$/, ''), insecureSkipTlsVerify: cluster.fields['insecure-skip-tls-verify'] === true };
  const ca = await pemFrom(cluster, 'certificate-authority-data', 'certificate-authority');
  if (ca !== undefined) endpoint.ca = ca;
  const tlsServerName = stringField(cluster.fields, 'tls-server-name');
  if (tlsServerName) endpoint.tlsServerName = tlsServerName;
  return new Kubeconfig({
    source: `context "${contextName}" of ${where}`,
    namespace: stringField(context.fields, 'namespace') || 'default',
    inCluster: false,
    endpoint,
    credentials: user ? await userCredentials(user, userName!, endpoint.server, env, now) : fixedCredentials({ headers: {} }),
  });
}

function fixedCredentials(credentials: Credentials): CredentialSource {
  return { current: () => Promise.resolve(credentials), invalidate: () => {} };
}

/**
 * The credential source of a kubeconfig user, as client-go chooses: a client certificate and a token (inline,
 * else `tokenFile`, read again every minute) or basic auth; an exec plugin only when neither a token nor a client
 * certificate is given. Impersonation headers go with every request.
 */
async function userCredentials(user: Named, userName: string, server: string, env: NodeJS.ProcessEnv, now: () => number): Promise<CredentialSource> {
  const fields = user.fields;
  if (fields['auth-provider'] !== undefined) {
    const provider = (fields['auth-provider'] as { name?: unknown } | null)?.name;
    throw new KubeconfigError(
      `user "${userName}" uses the auth-provider plugin "${typeof provider === 'string' ? provider : '?'}", which Kubernetes removed and promop does not support: use an exec credential plugin (e.g. kubelogin for oidc and azure, gke-gcloud-auth-plugin for gcp)`,
    );
  }
  const impersonation: Record<string, string | string[]> = {};
  const as = stringField(fields, 'as');
  if (as) impersonation['Impersonate-User'] = as;
  const groups = fields['as-groups'];
  if (Array.isArray(groups) && groups.length > 0) impersonation['Impersonate-Group'] = groups.map(String);
  const cert = await pemFrom(user, 'client-certificate-data', 'client-certificate');
  const key = await pemFrom(user, 'client-key-data', 'client-key');
  const clientCertificate = cert !== undefined && key !== undefined ? { cert, key } : undefined;
  const withCertificate = (headers: Record<string, string | string[]>): Credentials => ({ headers: { ...headers, ...impersonation }, ...(clientCertificate ? { clientCertificate } : {}) });
  const token = stringField(fields, 'token');
  if (token) return fixedCredentials(withCertificate({ Authorization: `Bearer ${token}` }));
  const tokenFile = stringField(fields, 'tokenFile');
  if (tokenFile) {
    const path = isAbsolute(tokenFile) ? tokenFile : join(dirname(user.file), tokenFile);
    return tokenFileCredentials(path, `cannot read user "${userName}" tokenFile`, now, (bearer) => withCertificate({ Authorization: `Bearer ${bearer}` }));
  }
  const username = stringField(fields, 'username');
  if (username !== undefined) {
    return fixedCredentials(withCertificate({ Authorization: `Basic ${Buffer.from(`${username}:${stringField(fields, 'password') ?? ''}`).toString('base64')}` }));
  }
  if (typeof fields.exec === 'object' && fields.exec !== null && !clientCertificate) {
    return execCredentials(fields.exec as Record<string, unknown>, userName, server, env, now, impersonation);
  }
  return fixedCredentials(withCertificate({}));
}

/**
 * A bearer token read from `path`, read again once it is a minute old (the kubelet rotates a projected
 * ServiceAccount token long before it expires). A read that fails after a first success keeps the token it had:
 * the file is being replaced, and the old token is still valid for a while.
 */
function tokenFileCredentials(path: string, cannotRead: string, now: () => number, credentialsOf: (token: string) => Credentials): CredentialSource {
  let cached: { credentials: Credentials; readAt: number } | undefined;
  let reading: Promise<Credentials> | undefined;
  const read = async (): Promise<Credentials> => {
    try {
      const token = (await readFile(path, 'utf8')).trim();
      if (token === '') throw new KubeconfigError(`${cannotRead} ${path}: the file is empty`);
      cached = { credentials: credentialsOf(token), readAt: now() };
    } catch (error) {
      if (!cached) throw error instanceof KubeconfigError ? error : new KubeconfigError(`${cannotRead} ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      cached.readAt = now();
    }
    return cached.credentials;
  };
  return {
    current: () => {
      if (cached && now() - cached.readAt < TOKEN_FILE_REREAD_MS) return Promise.resolve(cached.credentials);
      return (reading ??= read().finally(() => { reading = undefined; }));
    },
    invalidate: () => {
      if (cached) cached.readAt = -Infinity;
    },
  };
}

/**
 * An exec credential plugin's credential, kept until its `expirationTimestamp` (client-go's rule; without one,
 * until the API server answers 401). Concurrent requests wait for one run of the plugin.
 */
function execCredentials(exec: Record<string, unknown>, userName: string, server: string, env: NodeJS.ProcessEnv, now: () => number, impersonation: Record<string, string | string[]>): CredentialSource {
  let cached: { credentials: Credentials; expiresAt: number } | undefined;
  let running: Promise<Credentials> | undefined;
  const run = async (): Promise<Credentials> => {
    const credential = await runExecPlugin(exec, userName, server, env);
    const credentials: Credentials = {
      headers: { ...(credential.token ? { Authorization: `Bearer ${credential.token}` } : {}), ...impersonation },
      ...(credential.clientCertificate ? { clientCertificate: credential.clientCertificate } : {}),
    };
    cached = { credentials, expiresAt: credential.expiresAt ?? Infinity };
    return credentials;
  };
  return {
    current: () => {
      if (cached && now() < cached.expiresAt) return Promise.resolve(cached.credentials);
      return (running ??= run().finally(() => { running = undefined; }));
    },
    invalidate: () => {
      cached = undefined;
    },
  };
}

/** Runs an exec credential plugin (client.authentication.k8s.io) and reads the ExecCredential it prints. */
async function runExecPlugin(exec: Record<string, unknown>, userName: string, server: string, env: NodeJS.ProcessEnv): Promise<{ token?: string; clientCertificate?: { cert: string; key: string }; expiresAt?: number }> {
  const command = stringField(exec, 'command');
  if (!command) throw new KubeconfigError(`user "${userName}": exec has no command`);
  const apiVersion = stringField(exec, 'apiVersion') ?? 'client.authentication.k8s.io/v1';
  if (apiVersion !== 'client.authentication.k8s.io/v1' && apiVersion !== 'client.authentication.k8s.io/v1beta1') {
    throw new KubeconfigError(`user "${userName}": exec apiVersion ${apiVersion} is not supported (client.authentication.k8s.io/v1 or v1beta1)`);
  }
  const args = Array.isArray(exec.args) ? exec.args.map(String) : [];
  const extraEnv = Object.fromEntries((Array.isArray(exec.env) ? exec.env : []).map((entry: { name?: unknown; value?: unknown }) => [String(entry.name), String(entry.value ?? '')]));
  const interactive = stringField(exec, 'interactiveMode') !== 'Never' && process.stdin.isTTY === true;
  const info = { apiVersion, kind: 'ExecCredential', spec: { interactive, ...(exec.provideClusterInfo === true ? { cluster: { server } } : {}) } };
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = execFile(command, args, { env: { ...env, ...extraEnv, KUBERNETES_EXEC_INFO: JSON.stringify(info) }, maxBuffer: 4 * 1024 * 1024, timeout: 60_000 }, (error, out) => {
      if (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const hint = code === 'ENOENT' ? `: ${command} is not on the PATH${stringField(exec, 'installHint') ? ` (${stringField(exec, 'installHint')})` : ''}` : `: ${error.message.split('\n')[0]}`;
        reject(new KubeconfigError(`user "${userName}": the exec credential plugin failed${hint}`));
      } else resolve(out);
    });
    // The plugin may prompt on stderr (a browser login, a PIN); its stdout is the credential.
    child.stderr?.pipe(process.stderr);
    if (interactive) process.stdin.pipe(child.stdin!);
    else child.stdin?.end();
  });
  let status: Record<string, unknown> | undefined;
  try {
    status = (JSON.parse(stdout) as { status?: Record<string, unknown> }).status;
  } catch {
    throw new KubeconfigError(`user "${userName}": the exec credential plugin printed no ExecCredential JSON`);
  }
  const token = stringField(status ?? {}, 'token');
  const cert = stringField(status ?? {}, 'clientCertificateData');
  const key = stringField(status ?? {}, 'clientKeyData');
  if (!token && !(cert && key)) throw new KubeconfigError(`user "${userName}": the exec credential plugin returned neither a token nor a client certificate`);
  const expiration = stringField(status ?? {}, 'expirationTimestamp');
  const expiresAt = expiration === undefined ? undefined : Date.parse(expiration);
  if (expiresAt !== undefined && Number.isNaN(expiresAt)) throw new KubeconfigError(`user "${userName}": the exec credential plugin's expirationTimestamp "${expiration}" is not a time`);
  return { ...(token ? { token } : {}), ...(cert && key ? { clientCertificate: { cert, key } } : {}), ...(expiresAt !== undefined ? { expiresAt } : {}) };
}

/** The pod's ServiceAccount, as client-go's rest.InClusterConfig reads it; its token is read again as it rotates. */
async function inClusterKubeconfig(env: NodeJS.ProcessEnv, dir: string, now: () => number): Promise<Kubeconfig> {
  const credentials = tokenFileCredentials(join(dir, 'token'), 'in-cluster: cannot read the ServiceAccount token', now, (token) => ({ headers: { Authorization: `Bearer ${token}` } }));
  await credentials.current();
  const read = (name: string) => readFile(join(dir, name), 'utf8');
  let ca: string;
  try {
    ca = await read('ca.crt');
  } catch (error) {
    throw new KubeconfigError(`in-cluster: cannot read the cluster's CA ${dir}/ca.crt: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const host = env.KUBERNETES_SERVICE_HOST!;
  return new Kubeconfig({
    source: 'in-cluster ServiceAccount',
    namespace: (await read('namespace').catch(() => 'default')).trim() || 'default',
    inCluster: true,
    endpoint: { server: `https://${host.includes(':') ? `[${host}]` : host}:${env.KUBERNETES_SERVICE_PORT}`, ca, insecureSkipTlsVerify: false },
    credentials,
  });
}

/** PEM text from `<field>-data` (base64) or the file `<field>` (relative to the kubeconfig file). */
async function pemFrom(entry: Named, dataField: string, fileField: string): Promise<string | undefined> {
  const data = stringField(entry.fields, dataField);
  if (data) return Buffer.from(data, 'base64').toString('utf8');
  const file = stringField(entry.fields, fileField);
  return file ? readFileOf(entry, file, fileField) : undefined;
}

async function readFileOf(entry: Named, file: string, what: string): Promise<string> {
  const path = isAbsolute(file) ? file : join(dirname(entry.file), file);
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new KubeconfigError(`cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function stringField(fields: Record<string, unknown>, name: string): string | undefined {
  const value = fields[name];
  return typeof value === 'string' ? value : undefined;
}
