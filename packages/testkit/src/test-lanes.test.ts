import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jestArguments, laneOf, LANES, startsSharedControlPlane } from './test-lanes.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** jest.config.js' roots. */
const TEST_ROOTS = ['packages', 'e2e', 'tools', 'bench'];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = TEST_ROOTS.flatMap((root) => testFiles(join(ROOT, root)));
const name = (path: string): string => relative(ROOT, path);

test('the workspace has test files in every lane', () => {
  for (const lane of LANES) expect(files.filter((file) => laneOf(file) === lane).map(name).length).toBeGreaterThan(0);
});

/** The files `file` imports at run time, followed through relative imports (type-only imports start nothing). */
function reachedFiles(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const [, typeOnly, target] of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^'";]*?from\s+'(\.{1,2}\/[^']+)'/gm)) {
    if (typeOnly || !target) continue;
    const path = join(dirname(file), target);
    if (existsSync(path)) reachedFiles(path, seen);
  }
  return seen;
}

const STARTS_NODE_OR_BUILDS_IMAGES = /\b(startNodeCluster|startNodeWorld|buildImages|buildCachedImage)\(/;

test('every file that starts the real node or builds its images, itself or through what it imports, runs in the node lane or alone', () => {
  // Two nodes at once would share the host paths the kubelet and containerd fix, and two image builds one archive.
  const usesNode = files.filter((file) => [...reachedFiles(file)].some((reached) => STARTS_NODE_OR_BUILDS_IMAGES.test(readFileSync(reached, 'utf8'))));
  expect(usesNode.map(name)).toContain('e2e/src/used-by-story.test.ts');
  expect(usesNode.map(name)).toContain('e2e/chaos/load.test.ts');
  expect(usesNode.map(name)).toContain('e2e/chaos/reload-when-back.test.ts');
  // Builds images only through prometheus-operator-images.ts: found by following the imports.
  expect(usesNode.map(name)).toContain('e2e/src/images/prometheus-operator-images.test.ts');
  for (const file of usesNode) expect([name(file), laneOf(file)]).toEqual([name(file), expect.stringMatching(/^(node|quiet)$/)]);
});

test('the node and quiet lanes, which start no shared control plane, hold no file that asks for it', () => {
  for (const file of files.filter((each) => !startsSharedControlPlane(laneOf(each)))) {
    const asks = [...reachedFiles(file)].some((reached) => /\bsharedTestEnv\(\)/.test(readFileSync(reached, 'utf8')));
    expect([name(file), asks]).toEqual([name(file), false]);
  }
});

test('the files with bounds on latency, memory or request rates run in the quiet lane', () => {
  for (const file of ['e2e/chaos/load.test.ts', 'e2e/chaos/leader-failover.test.ts', 'e2e/chaos/api-faults.test.ts']) {
    expect(laneOf(join(ROOT, file))).toBe('quiet');
  }
});

test('jest, given a lane\'s arguments, runs exactly that lane\'s files', () => {
  // Asked of jest itself (--listTests): how it combines several patterns is what the lanes rely on.
  const jest = join(ROOT, 'node_modules', '.bin', 'jest');
  for (const lane of LANES) {
    const listed = execFileSync(jest, ['--listTests', ...jestArguments(lane)], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '--experimental-vm-modules' } });
    const expected = files.filter((file) => laneOf(file) === lane).map(name).sort();
    expect([lane, listed.split('\n').filter(Boolean).map((file) => name(file)).sort()]).toEqual([lane, expected]);
  }
}, 120_000);

test('scripts/test-all.sh runs every lane', () => {
  const script = readFileSync(join(ROOT, 'scripts', 'test-all.sh'), 'utf8');
  expect(script).toContain('packages/testkit/src/test-lanes.ts');
  for (const lane of LANES) expect(script).toMatch(new RegExp(`\\b${lane}\\b`));
});
