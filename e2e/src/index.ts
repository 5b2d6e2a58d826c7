/** The test environment: real tools, a real control plane. Import as `@promop/e2e`. */
export { toolPath, REPO_ROOT, type ToolName } from './tools.ts';
export { runPromtool, type PromtoolResult } from './promtool.ts';
export { startPrometheus, type PrometheusProcess, type PrometheusStartOptions } from './prometheus-process.ts';
export { freePort } from './child-processes.ts';
export { tcpSockets, isLoopback, type ProcessSocket } from './process-sockets.ts';
export { startTestEnv, sharedTestEnv, SHARED_KUBECONFIG_ENV, CONTROLLERS, type TestEnv, type ClusterAccess, type StartOptions } from './test-env.ts';
export {
  readYamlWithGo, readYamlWithGoSync, compileRegexesWithGo, compileRegexesWithGoSync,
  type GoYamlReading, type GoRegexReading, type GoYamlLibrary, type GoRegexReader,
} from './go-check.ts';
