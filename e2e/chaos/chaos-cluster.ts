/**
 * The world of one chaos scenario: a private control plane (etcd + kube-apiserver, no kube-controller-manager: the
 * scenarios judge promop's own objects, and pods that never run would only add load) with an audit log, promop's
 * CRDs, a `monitoring/main` Prometheus that selects every monitor and rule, and team namespaces. Every promop
 * process runs as a ServiceAccount of its own (impersonated, bound to the chart's ClusterRole), so the audit log
 * tells which process wrote what.
 *
 * `prepareChaosWorld` builds the same world on a control plane started elsewhere: node-world.ts uses it on the
 * real node, whose Prometheus runs as a pod.
 */
import { CoreV1Api, CustomObjectsApi, RbacAuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { CRD_MANAGER_RULES, OPERATOR_CLUSTER_ROLE_RULES } from '@promop/controller';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, untilServed, startTestEnv, type TestEnv } from '@promop/testkit';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PromopNetwork } from './promop-process.ts';

/** Namespace of promop's identities (and of its Lease with --leader-elect and --kubeconfig: `default`). */
export const OPERATOR_NAMESPACE = 'promop-system';
/** Namespace of the Prometheus `main`. */
export const MONITORING = 'monitoring';
/** The Prometheus every scenario reconciles. */
export const PROMETHEUS = 'main';
/** Namespaces the scenarios put ServiceMonitors and PrometheusRules in. */
export const TEAMS = ['team-0', 'team-1', 'team-2', 'team-3'] as const;

const CLUSTER_ROLE = 'promop-chaos';

/** A running chaos world; `stop()` ends the control plane. */
export interface ChaosCluster {
  env: TestEnv;
  /** A client as the cluster admin (the scenario's "teams" and "someone" who edits promop's objects). */
  admin: KubeConfig;
  core: CoreV1Api;
  custom: CustomObjectsApi;
  /** The API server's audit log (audit-log.ts reads it). */
  auditLogPath: string;
  /** Where promop processes run, when not here (the real node's network namespace). */
  promopNetwork?: PromopNetwork;
  /**
   * Creates ServiceAccount `promop-system/<name>` bound to the chart's ClusterRole and writes a kubeconfig that acts
   * as it, against `server` (default: the API server itself; a fault proxy's URL puts the proxy in between; the
   * proxy must present a certificate of the control plane's CA). Returns the file and the audit log's user name.
   */
  identity(name: string, server?: string): Promise<{ kubeconfigPath: string; user: string }>;
  stop(): Promise<void>;
}

/** Starts a chaos world; see the module comment. */
export async function startChaosCluster(): Promise<ChaosCluster> {
  // A directory of our own, so the audit log can live in it; kept after stop() with PROMOP_CHAOS_KEEP=1.
  const dir = mkdtempSync(join(tmpdir(), 'promop-chaos-'));
  const auditLogPath = join(dir, 'audit.log');
  let env: TestEnv;
  try {
    env = await startTestEnv({ controllerManager: false, dir, auditLogPath });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return prepareChaosWorld({
    env,
    auditLogPath,
    stop: async () => {
      await env.stop();
      if (process.env.PROMOP_CHAOS_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
    },
  });
}

/** Where {@link prepareChaosWorld} builds the world. */
export interface ChaosWorldOptions {
  /** A control plane started with `auditLogPath`. */
  env: TestEnv;
  auditLogPath: string;
  /** Ends the control plane (and whatever else the world runs on); called here too when the preparation fails. */
  stop: () => Promise<void>;
  /** More of the Prometheus' spec (the real node's sets its version, ServiceAccount and intervals). */
  prometheusSpec?: Record<string, unknown>;
  /** The API server as promop processes reach it (default `env.apiServerUrl`). */
  promopServer?: string;
  /** Where promop processes run (default: here). */
  promopNetwork?: PromopNetwork;
}

/**
 * On a started control plane: the CRDs, the namespaces, the chart's ClusterRole for promop's identities and the
 * Prometheus `monitoring/main` selecting every monitor and rule.
 */
export async function prepareChaosWorld(options: ChaosWorldOptions): Promise<ChaosCluster> {
  const { env, auditLogPath, stop } = options;
  try {
    const admin = env.kubeConfig();
    const core = admin.makeApiClient(CoreV1Api);
    const custom = admin.makeApiClient(CustomObjectsApi);
    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    await applyCrds(admin);
    for (const name of [OPERATOR_NAMESPACE, MONITORING, ...TEAMS]) await core.createNamespace({ body: { metadata: { name } } });
    await rbac.createClusterRole({ body: { metadata: { name: CLUSTER_ROLE }, rules: [...OPERATOR_CLUSTER_ROLE_RULES, ...CRD_MANAGER_RULES] } });
    await untilServed(() => custom.createNamespacedCustomObject({
      group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: MONITORING,
      body: {
        apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: PROMETHEUS },
        spec: {
          replicas: 1, serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: {}, ruleSelector: {}, ruleNamespaceSelector: {},
          ...options.prometheusSpec,
        },
      },
    }));
    return {
      env,
      admin,
      core,
      custom,
      auditLogPath,
      ...(options.promopNetwork ? { promopNetwork: options.promopNetwork } : {}),
      async identity(name, server = options.promopServer ?? env.apiServerUrl) {
        await core.createNamespacedServiceAccount({ namespace: OPERATOR_NAMESPACE, body: { metadata: { name } } });
        await rbac.createClusterRoleBinding({
          body: {
            metadata: { name: `promop-chaos-${name}` },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: CLUSTER_ROLE },
            subjects: [{ kind: 'ServiceAccount', name, namespace: OPERATOR_NAMESPACE }],
          },
        });
        const user = `system:serviceaccount:${OPERATOR_NAMESPACE}:${name}`;
        const kubeconfigPath = join(env.dir, `${name}.kubeconfig`);
        writeFileSync(kubeconfigPath, impersonatingKubeconfig(server, env, user), { mode: 0o600 });
        return { kubeconfigPath, user };
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A kubeconfig with the admin's client certificate that impersonates `user` (RBAC then applies to `user`). */
function impersonatingKubeconfig(server: string, env: TestEnv, user: string): string {
  const b64 = (file: string): string => readFileSync(file).toString('base64');
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: chaos',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${b64(env.pki.caCert)}`,
    'users:',
    '- name: promop',
    '  user:',
    `    client-certificate-data: ${b64(env.pki.adminCert)}`,
    `    client-key-data: ${b64(env.pki.adminKey)}`,
    `    as: ${user}`,
    'contexts:',
    '- name: chaos',
    '  context: {cluster: chaos, user: promop}',
    'current-context: chaos',
    '',
  ].join('\n');
}
