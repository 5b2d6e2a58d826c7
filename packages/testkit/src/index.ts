/**
 * `@promop/testkit`: what promop's tests, end-to-end suites and benchmarks share. The real tools and a real control
 * plane (etcd, kube-apiserver, kube-controller-manager), child processes, Prometheus and promtool, Go's YAML and
 * regexp readers, and the small Kubernetes helpers the API-server tests use (CRDs, namespaces, identities, a
 * stand-in kubelet, helm, polling).
 *
 * It depends on no promop package, so every package's tests can use it (as a devDependency) without a dependency
 * cycle; helpers that need a product package's internals stay in that package's own src/test-support/.
 */
export { toolPath, REPO_ROOT, type ToolName } from './tools.ts';
export {
  runPromtool, promtoolVersion, promtoolsAsNewAs, checkConfigsWithEachPromtool, promtoolFailures, PROMTOOLS,
  type PromtoolResult, type PromtoolName, type PromtoolVerdict, type VersionedConfigFile,
} from './promtool.ts';
export { startPrometheus, type PrometheusProcess, type PrometheusStartOptions } from './prometheus-process.ts';
export { startAlertmanager, type AlertmanagerProcess, type AlertmanagerStartOptions } from './alertmanager-process.ts';
export { freePort, isAlive, logTail, startProcess, startUntilReady, stopProcess, waitUntil, type ManagedProcess } from './child-processes.ts';
export { tcpSockets, isLoopback, type ProcessSocket } from './process-sockets.ts';
export { createClientCert, createPki, type Pki, type PkiOptions } from './pki.ts';
export {
  startTestEnv, sharedTestEnv, kubeconfigYaml, SHARED_KUBECONFIG_ENV, CONTROLLERS, NODE_CONTROLLERS,
  type TestEnv, type ClusterAccess, type StartOptions, type ControlPlaneNetwork, type RestartableProcess,
} from './test-env.ts';
export {
  readYamlWithGo, readYamlWithGoSync, compileRegexesWithGo, compileRegexesWithGoSync,
  type GoYamlReading, type GoRegexReading, type GoYamlLibrary, type GoRegexReader,
} from './go-check.ts';
export { applyCrds, committedCrds, CRDS_DIR, untilServed } from './apply-crds.ts';
export { ensureNamespace } from './ensure-namespace.ts';
export { serviceAccountIdentity, type ServiceAccountIdentity } from './service-account-identity.ts';
export { eventually, sleep } from './eventually.ts';
export { helm, withHelmHome, type HelmResult } from './helm.ts';
export { FakeKubelet, PLACEHOLDER_CONFIG, type FakeKubeletOptions } from './fake-kubelet.ts';
export {
  PrometheusPodsFixture, type PrometheusPodsFixtureOptions, type HandMadePodOptions, type PrometheusPodOptions, type PrometheusPod,
  type StartableOperator,
} from './prometheus-pods-fixture.ts';
export { diffConfigs, normalisePrometheusOperatorConfig, parsePromopConfig, type ConfigDifference } from './config-diff.ts';
export { mountBelowRoot } from './mounted-files.ts';
