/**
 * Which cluster `promop explain` and `promop diff` talk to, and as whom, found the way kubectl finds it:
 * `--kubeconfig`, else the files of `$KUBECONFIG` merged (the first file that sets a value wins), else
 * `~/.kube/config`, else the in-cluster ServiceAccount; `--context`, else the current context. Not client-node's
 * KubeConfig: importing client-node costs 0.9 s of CPU, longer than these commands may take altogether.
 *
 * Supported: client certificates (file or data), bearer tokens (inline or `tokenFile`), basic auth, exec
 * credential plugins (client.authentication.k8s.io v1 and v1beta1: cloud providers' `aws eks get-token`,
 * `gke-gcloud-auth-plugin`, `kubelogin`...), impersonation (`as`, `as-groups`), `certificate-authority[-data]`,
 * `insecure-skip-tls-verify` and `tls-server-name`. Not supported, and said so: the removed `auth-provider`
 * plugins and `proxy-url`.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { load } from 'js-yaml';

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
}

const IN_CLUSTER_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Resolves the connection; throws KubeconfigError with a sentence saying what is wrong. */
export async function loadClusterConnection(options: KubeconfigOptions = {}): Promise<ClusterConnection> {
  const env = options.env ?? process.env;
  const files = options.kubeconfig !== undefined
    ? [options.kubeconfig]
    : env.KUBECONFIG
      ? env.KUBECONFIG.split(delimiter).filter((file) => file !== '')
      : [join(env.HOME ?? homedir(), '.kube', 'config')];
  const explicit = options.kubeconfig !== undefined || Boolean(env.KUBECONFIG);
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
    if (!explicit && env.KUBERNETES_SERVICE_HOST && env.KUBERNETES_SERVICE_PORT) return inClusterConnection(env);
    throw new KubeconfigError(
      `no kubeconfig found (looked at ${files.join(', ')}): pass --kubeconfig, set KUBECONFIG, or run in a pod with a ServiceAccount`,
    );
  }
  return connectionFromKubeconfig(mergeKubeconfigs(documents), options.context, env);
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

async function connectionFromKubeconfig(config: MergedKubeconfig, contextFlag: string | undefined, env: NodeJS.ProcessEnv): Promise<ClusterConnection> {
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
  const connection: ClusterConnection = {
    source: `context "${contextName}" of ${where}`,
    server: server.replace(/\/+$/, ''),
    namespace: stringField(context.fields, 'namespace') || 'default',
    insecureSkipTlsVerify: cluster.fields['insecure-skip-tls-verify'] === true,
    headers: {},
  };
  const ca = await pemFrom(cluster, 'certificate-authority-data', 'certificate-authority');
  if (ca !== undefined) connection.ca = ca;
  const tlsServerName = stringField(cluster.fields, 'tls-server-name');
  if (tlsServerName) connection.tlsServerName = tlsServerName;
  if (user) await authenticate(connection, user, userName!, env);
  return connection;
}

async function authenticate(connection: ClusterConnection, user: Named, userName: string, env: NodeJS.ProcessEnv): Promise<void> {
  const fields = user.fields;
  if (fields['auth-provider'] !== undefined) {
    throw new KubeconfigError(`user "${userName}" uses an auth-provider plugin, which Kubernetes removed: use an exec credential plugin (e.g. gke-gcloud-auth-plugin, kubelogin)`);
  }
  const cert = await pemFrom(user, 'client-certificate-data', 'client-certificate');
  const key = await pemFrom(user, 'client-key-data', 'client-key');
  if (cert !== undefined && key !== undefined) connection.clientCertificate = { cert, key };
  const tokenFile = stringField(fields, 'tokenFile');
  let token = stringField(fields, 'token');
  if (!token && tokenFile) token = (await readFileOf(user, tokenFile, `user "${userName}" tokenFile`)).trim();
  const username = stringField(fields, 'username');
  if (token) connection.headers.Authorization = `Bearer ${token}`;
  else if (username !== undefined) connection.headers.Authorization = `Basic ${Buffer.from(`${username}:${stringField(fields, 'password') ?? ''}`).toString('base64')}`;
  if (typeof fields.exec === 'object' && fields.exec !== null && !token && !connection.clientCertificate) {
    const credential = await runExecPlugin(fields.exec as Record<string, unknown>, userName, connection.server, env);
    if (credential.token) connection.headers.Authorization = `Bearer ${credential.token}`;
    if (credential.clientCertificate) connection.clientCertificate = credential.clientCertificate;
  }
  const as = stringField(fields, 'as');
  if (as) connection.headers['Impersonate-User'] = as;
  const groups = fields['as-groups'];
  if (Array.isArray(groups) && groups.length > 0) connection.headers['Impersonate-Group'] = groups.map(String);
}

/** Runs an exec credential plugin (client.authentication.k8s.io) and reads the ExecCredential it prints. */
async function runExecPlugin(exec: Record<string, unknown>, userName: string, server: string, env: NodeJS.ProcessEnv): Promise<{ token?: string; clientCertificate?: { cert: string; key: string } }> {
  const command = stringField(exec, 'command');
  if (!command) throw new KubeconfigError(`user "${userName}": exec has no command`);
  const apiVersion = stringField(exec, 'apiVersion') ?? 'client.authentication.k8s.io/v1';
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
  return { ...(token ? { token } : {}), ...(cert && key ? { clientCertificate: { cert, key } } : {}) };
}

/** The pod's ServiceAccount, as client-go's rest.InClusterConfig reads it. */
async function inClusterConnection(env: NodeJS.ProcessEnv): Promise<ClusterConnection> {
  const read = (name: string) => readFile(join(IN_CLUSTER_DIR, name), 'utf8');
  let token: string;
  try {
    token = (await read('token')).trim();
  } catch (error) {
    throw new KubeconfigError(`in-cluster: cannot read the ServiceAccount token ${IN_CLUSTER_DIR}/token: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const host = env.KUBERNETES_SERVICE_HOST!;
  return {
    source: 'in-cluster ServiceAccount',
    server: `https://${host.includes(':') ? `[${host}]` : host}:${env.KUBERNETES_SERVICE_PORT}`,
    namespace: (await read('namespace').catch(() => 'default')).trim() || 'default',
    ca: await read('ca.crt'),
    insecureSkipTlsVerify: false,
    headers: { Authorization: `Bearer ${token}` },
  };
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
