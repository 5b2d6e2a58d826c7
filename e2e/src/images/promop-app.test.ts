/**
 * The promop image ships the app packages' sources without their tests and test helpers. These tests make sure
 * that what is left out is really never imported by what is shipped, and that nothing shipped needs a
 * devDependency, which the production install leaves out.
 */
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '@promop/testkit';
import { PROMOP_APP_PACKAGES, PROMOP_CLI, isShippedSource, promopAppSources } from './promop-app.ts';

interface PackageManifest {
  name: string;
  dependencies?: Record<string, string>;
  exports?: Record<string, string>;
}

const manifests = new Map<string, PackageManifest>(
  PROMOP_APP_PACKAGES.map((pkg) => [pkg, JSON.parse(readFileSync(join(REPO_ROOT, pkg, 'package.json'), 'utf8')) as PackageManifest]),
);
const workspacePackageDirs = new Map([...manifests].map(([dir, manifest]) => [manifest.name, dir]));

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Why `specifier`, imported by the shipped file `file`, would fail in the image; undefined when it is fine. */
function problemWith(file: string, specifier: string, shipped: ReadonlySet<string>): string | undefined {
  if (specifier.startsWith('.')) {
    const target = posix.normalize(posix.join(posix.dirname(file), specifier));
    return shipped.has(target) ? undefined : `${target} is not shipped`;
  }
  if (isBuiltin(specifier)) return undefined;
  const owner = PROMOP_APP_PACKAGES.find((pkg) => file.startsWith(`${pkg}/`))!;
  const name = packageName(specifier);
  if (!manifests.get(owner)!.dependencies?.[name]) return `${name} is not in ${owner}/package.json "dependencies"`;
  const workspaceDir = workspacePackageDirs.get(name);
  if (workspaceDir === undefined) return undefined;
  const exportPath = manifests.get(workspaceDir)!.exports?.[`.${specifier.slice(name.length)}`];
  if (exportPath === undefined) return `${specifier} is not exported by ${name}`;
  const target = posix.normalize(posix.join(workspaceDir, exportPath));
  return shipped.has(target) ? undefined : `${target} (${specifier}) is not shipped`;
}

describe('the sources the promop image ships', () => {
  let sources: string[];
  beforeAll(async () => {
    sources = await promopAppSources(REPO_ROOT);
  });

  it('include the command, every package manifest and entry point, and no test', () => {
    expect(sources).toContain(PROMOP_CLI);
    for (const [dir, manifest] of manifests) {
      expect(sources).toContain(`${dir}/package.json`);
      expect(sources).toContain(posix.join(dir, manifest.exports!['.']!));
    }
    expect(sources.filter((file) => /\.test\.ts$|test-harness|test-support/.test(file))).toEqual([]);
  });

  it('import only shipped files, Node built-ins and their packages\' production dependencies', () => {
    const shipped = new Set(sources);
    const problems: string[] = [];
    for (const file of sources.filter((source) => source.endsWith('.ts'))) {
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      // Static imports, re-exports and literal dynamic imports. Type-only imports count too, though Node erases
      // them: stricter than needed, and it catches a test helper imported for its types today, for a value tomorrow.
      for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
        const problem = problemWith(file, specifier, shipped);
        if (problem) problems.push(`${file} imports '${specifier}': ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('leave out what only tests use', () => {
    expect(isShippedSource('packages/crds/src/test-support/corpus.ts')).toBe(false);
    expect(isShippedSource('packages/config-generator/src/test-support/scrape-harness.ts')).toBe(false);
    expect(isShippedSource('packages/config-generator/src/scrape/monitor-arbitraries.ts')).toBe(false);
    expect(isShippedSource('packages/controller/src/test-support/operator-world.ts')).toBe(false);
    expect(isShippedSource('packages/controller/src/reconcile/test-reconciler-fakes.ts')).toBe(false);
    expect(isShippedSource('packages/controller/src/workload/statefulset.ts')).toBe(true);
  });
});
