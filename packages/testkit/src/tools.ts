/**
 * Finds the real programs the tests run. Lookup order: $PROMOP_TOOLS_DIR, then
 * $KUBEBUILDER_ASSETS (etcd, kube-apiserver, kube-controller-manager, as controller-runtime's
 * envtest lays them out), then the repository's .tools/bin, where `pnpm tools` builds them.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The programs `pnpm tools` builds. */
export type ToolName =
  | 'etcd' | 'kube-apiserver' | 'kube-controller-manager' | 'kubectl' | 'prometheus' | 'promtool' | 'helm'
  // The real node's parts.
  | 'kubelet' | 'kube-proxy' | 'kube-scheduler' | 'containerd' | 'containerd-shim-runc-v2' | 'ctr'
  // The Prometheus release before the default, which the end-to-end test upgrades from, and its promtool, which
  // checks the goldens rendered for that release or older.
  | 'prometheus-previous' | 'promtool-previous'
  // promtool of Prometheus 2.55.1, the last 2.x release (tools/prometheus-v2): checks the goldens rendered for 2.x.
  | 'promtool-v2'
  // Reads YAML with Prometheus' own YAML libraries and compiles regexes with Go's regexp (tools/go-check).
  | 'go-check'
  // prometheus-operator v0.93.1 and its config-reloader sidecar (tools/build-prometheus-operator.sh): the takeover test.
  | 'prometheus-operator' | 'prometheus-config-reloader'
  // Alertmanager 0.35.0 and amtool (tools/alertmanager): amtool check-config reads Alertmanager configurations as Alertmanager does.
  | 'alertmanager' | 'amtool'
  // CoreDNS 1.15.0 (tools/coredns): the test node's cluster DNS, so StatefulSet pods find their peers by name.
  | 'coredns'
  // Thanos 0.42.2 (tools/thanos): the sidecar promop renders for spec.thanos, and thanos query reading it.
  | 'thanos';

/** The repository root (this file is packages/testkit/src/tools.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const ENVTEST_TOOLS: ReadonlySet<ToolName> = new Set(['etcd', 'kube-apiserver', 'kube-controller-manager']);

/** Absolute path of `name`; throws (a set-up bug, not user input) when it was never built. */
export function toolPath(name: ToolName): string {
  const candidates: string[] = [];
  if (process.env.PROMOP_TOOLS_DIR) candidates.push(join(process.env.PROMOP_TOOLS_DIR, name));
  if (process.env.KUBEBUILDER_ASSETS && ENVTEST_TOOLS.has(name)) candidates.push(join(process.env.KUBEBUILDER_ASSETS, name));
  candidates.push(join(REPO_ROOT, '.tools', 'bin', name));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`${name} not found (looked in ${candidates.join(', ')}); run \`pnpm tools\` first`);
  return found;
}
