/**
 * Where prometheus-operator's own files are: its Go module, which tools/build-prometheus-operator.sh downloads into
 * Go's module cache when it builds the operator and its config-reloader (tools/prometheus-operator/go.mod pins it).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '@promop/testkit';

const MODULE = 'github.com/prometheus-operator/prometheus-operator';

/** The module's directory in Go's module cache (read-only). */
export function prometheusOperatorModuleDir(): string {
  return execFileSync('go', ['list', '-m', '-f', '{{.Dir}}', MODULE], {
    cwd: join(REPO_ROOT, 'tools', 'prometheus-operator'), encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod' },
  }).trim();
}

/** Its CustomResourceDefinitions as the release ships them (`example/prometheus-operator-crd/`). */
export function prometheusOperatorCrdDirectory(): string {
  return join(prometheusOperatorModuleDir(), 'example', 'prometheus-operator-crd');
}
