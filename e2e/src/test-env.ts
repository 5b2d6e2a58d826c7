/**
 * A real Kubernetes control plane for tests: etcd + kube-apiserver (RBAC enforced) +
 * kube-controller-manager, on 127.0.0.1 random ports. (Being written; the API below is stable.)
 */
import type { KubeConfig } from '@kubernetes/client-node';

/** Ways to talk to a running control plane. */
export interface ClusterAccess {
  /** https://127.0.0.1:<port> */
  apiServerUrl: string;
  /** An admin kubeconfig file (client certificate in system:masters). */
  kubeconfigPath: string;
  /** A client as the admin. */
  kubeConfig(): KubeConfig;
  /** A client that impersonates ServiceAccount `namespace/name` (RBAC applies to it). */
  kubeConfigFor(serviceAccount: { namespace: string; name: string }): KubeConfig;
}

/** A control plane this process started; `stop()` ends every process it started. */
export interface TestEnv extends ClusterAccess {
  stop(): Promise<void>;
}

/** Starts etcd, kube-apiserver and kube-controller-manager. */
export declare function startTestEnv(): Promise<TestEnv>;
/** In a jest test: the control plane jest's global setup started for the whole run. */
export declare function sharedTestEnv(): ClusterAccess;
