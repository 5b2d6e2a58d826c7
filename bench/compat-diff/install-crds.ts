/** The CRDs of a directory applied to a comparison's control plane, and waited for until the API server serves them. */
import { execFileSync } from 'node:child_process';
import type { TestEnv } from '@promop/testkit';
import { kubectl } from '../side-by-side/operators.ts';

/** Applies every CRD in `directory` (server-side, taking over fields another manager set) and waits until all are Established. */
export function installCrds(env: Pick<TestEnv, 'kubeconfigPath'>, directory: string): void {
  execFileSync(kubectl(), ['--kubeconfig', env.kubeconfigPath, 'apply', '--server-side', '--force-conflicts', '-f', directory], { stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync(kubectl(), ['--kubeconfig', env.kubeconfigPath, 'wait', '--for=condition=Established', 'crd', '--all', '--timeout=120s'], { stdio: ['ignore', 'ignore', 'inherit'] });
}
