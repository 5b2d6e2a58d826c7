/**
 * The two operators under test: how each is built or found, which CRDs it brings, how it is started against a
 * control plane, and how it stores a Prometheus' configuration.
 *
 * - promop: `promop run`, as a child Node process with the Node flags and environment of its image
 *   (e2e/src/images/promop-process-settings.ts, one source for both, so the RSS measured is the RSS shipped), its
 *   CRDs from crds/, with its defaults (leader election on, as the chart runs it: a Lease renewal every 2 s,
 *   counted apart from the other writes).
 * - prometheus-operator v0.93.1: `cmd/operator` built from its Go module (tools/build-prometheus-operator.sh), its
 *   CRDs from the same module (example/prometheus-operator-crd/). It has no --kubeconfig flag: KUBECONFIG.
 *
 * Each runs with its own client certificate in group system:masters, so both are unconstrained by RBAC alike and
 * the audit log tells their requests apart from the benchmark's by user name.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT, toolPath, startProcess, type ManagedProcess } from '@promop/testkit';
import { prometheusOperatorCrdDirectory } from '@promop/e2e/prometheus-operator';
import { PROMOP_NODE_FLAGS, PROMOP_PROCESS_ENV } from '@promop/e2e/promop-process-settings';
import type { ConfigLayout } from './config-watch.ts';

/** One operator as the benchmark drives it. */
export interface OperatorUnderTest {
  /** Short name, used in the table and file names. */
  id: 'promop' | 'prometheus-operator';
  /** The user name of its client certificate (what the audit log records). */
  user: string;
  /** Makes sure the operator exists (builds it if needed); returns a version string for the report. */
  prepare(): string;
  /** Directory of the CRDs to install before it starts. */
  crdDirectory(): string;
  /** Starts it with `kubeconfig`, serving its metrics on 127.0.0.1:`port`, logging to `logFile`. */
  start(kubeconfig: string, port: number, logFile: string): ManagedProcess;
  /** Where it writes the configuration of a Prometheus. */
  layout: ConfigLayout;
}

/** `node --cpu-prof` output directory for promop, when a profile is wanted. */
export interface PromopOptions {
  cpuProfileDirectory?: string;
}

/** The profiler's sampling interval (µs) under --cpu-prof. */
const CPU_PROFILE_INTERVAL_US = 10_000;

const PROMOP_CLI = join(REPO_ROOT, 'packages', 'controller', 'src', 'cli.ts');

/**
 * promop stores `prometheus.yaml` in Secret `prometheus-<name>`; once the jobs pass 256 KiB they move to scrape
 * files, each in Secret `prometheus-<name>-scrape-<slot>` under its own name `scrape-<slot, 2 digits>-<hash>.yaml`,
 * and prometheus.yaml lists them under scrape_config_files. The configuration is complete when every listed file is
 * there (promop writes the files first, then prometheus.yaml).
 */
const promopLayout: ConfigLayout = async (prometheus, read) => {
  const main = await read(`prometheus-${prometheus}`, 'prometheus.yaml');
  if (!main) return undefined;
  const files = [main];
  for (const [, fileName, slot] of main.text.matchAll(/^- \S*\/(scrape-(\d+)-[0-9a-f]+\.yaml)$/gm)) {
    const file = await read(`prometheus-${prometheus}-scrape-${Number(slot)}`, fileName as string);
    if (!file) return undefined;
    files.push(file);
  }
  return files;
};

/** prometheus-operator gzips the whole configuration into key `prometheus.yaml.gz` of Secret `prometheus-<name>`. */
const prometheusOperatorLayout: ConfigLayout = async (prometheus, read) => {
  const file = await read(`prometheus-${prometheus}`, 'prometheus.yaml.gz');
  return file ? [file] : undefined;
};

export function promop(options: PromopOptions = {}): OperatorUnderTest {
  return {
    id: 'promop',
    user: 'bench:promop',
    prepare: () => {
      const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
      const dirty = execFileSync('git', ['status', '--porcelain', '--', 'packages'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim() !== '';
      return `promop ${commit}${dirty ? ' (with uncommitted changes in packages/)' : ''}, node ${process.version}`;
    },
    crdDirectory: () => join(REPO_ROOT, 'crds'),
    start: (kubeconfig, port, logFile) => startProcess('promop', process.execPath, [
      ...PROMOP_NODE_FLAGS,
      // Sampling every 10 ms rather than node's 1 ms: at 1 ms the sampler alone uses more CPU while idle than the
      // settle rule allows, so a profiled promop would never "settle" and the run would wait out every step.
      ...(options.cpuProfileDirectory ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDirectory}`, `--cpu-prof-interval=${CPU_PROFILE_INTERVAL_US}`] : []),
      PROMOP_CLI, 'run', '--kubeconfig', kubeconfig, '--metrics-address', `127.0.0.1:${port}`,
      // No Nodes exist; the pod networks would otherwise come from their podCIDRs. No pod ever runs anyway.
      '--pod-network', '10.244.0.0/16',
    ], logFile, { ...process.env, ...PROMOP_PROCESS_ENV }),
    layout: promopLayout,
  };
}

export function prometheusOperator(): OperatorUnderTest {
  const binary = (): string => toolPath('prometheus-operator');
  return {
    id: 'prometheus-operator',
    user: 'bench:prometheus-operator',
    prepare: () => {
      execFileSync('bash', [join(REPO_ROOT, 'tools', 'build-prometheus-operator.sh')], { stdio: ['ignore', 'inherit', 'inherit'] });
      return execFileSync(binary(), ['--version'], { encoding: 'utf8' }).split('\n')[0]?.trim() ?? '';
    },
    // The module is in Go's module cache once the wrapper module has been built.
    crdDirectory: prometheusOperatorCrdDirectory,
    start: (kubeconfig, port, logFile) => startProcess('prometheus-operator', binary(), [
      `--web.listen-address=127.0.0.1:${port}`,
      '--log-level=info',
    ], logFile, { ...process.env, KUBECONFIG: kubeconfig }),
    layout: prometheusOperatorLayout,
  };
}

/** kubectl of the repository's tools. */
export function kubectl(): string {
  return toolPath('kubectl');
}
