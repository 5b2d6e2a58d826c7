/** Golden files of the generator's tests (imported by *.test.ts only): compare, or rewrite with UPDATE_GOLDEN=1. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Expects `text` to equal golden file `name` in `dir` (after rewriting it with `text` when UPDATE_GOLDEN=1). */
export function expectGoldenFile(dir: string, name: string, text: string): void {
  const path = join(dir, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, text);
  }
  expect(existsSync(path) ? readFileSync(path, 'utf8') : `missing golden file ${name}; run with UPDATE_GOLDEN=1`).toBe(text);
}

/**
 * The Prometheus release each golden prometheus.yaml under test/golden/prometheus/ and test/golden/agent/ is rendered
 * for, where it is not the default (DEFAULT_PROMETHEUS_VERSION): the release the test sets as `spec.version`. The
 * golden checks give each file to every built promtool as new as its release.
 */
export const GOLDEN_RELEASES: Readonly<Record<string, string>> = {
  'prometheus/global-scrape-protocols-v2.55.yaml': 'v2.55.1',
  'prometheus/otlp-v2.55.yaml': 'v2.55.1',
  'prometheus/storage-retention.yaml': 'v3.11.0',
  'prometheus/tsdb-v2.39.yaml': 'v2.39.0',
  'prometheus/tsdb-v3.10.yaml': 'v3.10.0',
  'prometheus/tsdb-v3.16.yaml': 'v3.16.0',
  'prometheus/version-gating-v2.40.yaml': 'v2.40.0',
  'agent/v2-out-of-order.yaml': 'v2.55.1',
};

/**
 * The release golden `<folder>/<name>` is rendered for. A name ending in `-v<major>.<minor>` must be listed in
 * GOLDEN_RELEASES with that release, so a new version-pinned golden cannot be checked as the default release's.
 */
export function goldenRelease(folder: string, name: string, defaultRelease: string): string {
  const listed = GOLDEN_RELEASES[`${folder}/${name}`];
  const named = /-v(\d+\.\d+)\.yaml$/.exec(name)?.[1];
  if (named !== undefined && !listed?.startsWith(`v${named}.`)) throw new Error(`golden ${folder}/${name} names release ${named}: list it in GOLDEN_RELEASES`);
  return listed ?? defaultRelease;
}
