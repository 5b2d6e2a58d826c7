import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jestArguments, laneOf, LANES } from './test-lanes.ts';

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

test('every file that starts the real node or builds its images runs in the node lane or alone', () => {
  // Two nodes at once would share the host paths the kubelet and containerd fix, and two image builds one archive.
  const usesNode = files.filter((file) => /\b(startNodeCluster|startNodeWorld|buildImages|buildCachedImage)\(/.test(readFileSync(file, 'utf8')) || name(file).startsWith('e2e/src/images/'));
  expect(usesNode.map(name)).toContain('e2e/src/used-by-story.test.ts');
  expect(usesNode.map(name)).toContain('e2e/chaos/load.test.ts');
  for (const file of usesNode) expect([name(file), laneOf(file)]).toEqual([name(file), expect.stringMatching(/^(node|quiet)$/)]);
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
