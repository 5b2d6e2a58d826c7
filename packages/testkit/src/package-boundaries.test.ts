/**
 * The workspace's package boundaries, checked on every source file of packages/*, e2e/ and bench/:
 *
 * - a relative import (static `import`, `export ... from`, `import()`) never leaves the package of the file that
 *   writes it: reaching into another package's files by path hides a dependency from pnpm, from the package's own
 *   `exports` and from the image staging, which ships only what the operator's packages declare;
 * - another workspace package is imported by its name and a path it declares in `exports`;
 * - every workspace package a file imports is declared in its package.json (dependencies or devDependencies), so
 *   pnpm sees the whole graph and `pnpm install` can report a cycle;
 * - the operator's packages never take a test package (`@promop/testkit`, `@promop/e2e`) in `dependencies`.
 *
 * bench/ has no package.json of its own: it belongs to the workspace root package, like scripts/.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './tools.ts';

interface PackageManifest {
  name: string;
  exports?: string | Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** A workspace package: its directory relative to the repository root ('' for the root) and its manifest. */
interface WorkspacePackage {
  dir: string;
  manifest: PackageManifest;
}

interface SourceFile {
  /** Relative to the repository root, '/'-separated. */
  path: string;
  text: string;
}

/** The packages whose code is the product: they must never need a test package at run time. */
const PRODUCT_PACKAGES = ['@promop/crds', '@promop/prometheus-lang', '@promop/config-generator', '@promop/controller'];
const TEST_PACKAGES = ['@promop/testkit', '@promop/e2e'];

/** Folders scanned for sources, relative to the repository root. */
const SCANNED_ROOTS = ['packages', 'e2e', 'bench'];
const SOURCE_FILE = /\.(ts|mts|cts|js|mjs|cjs)$/;

function workspacePackages(): WorkspacePackage[] {
  const read = (dir: string): WorkspacePackage => ({ dir, manifest: JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as PackageManifest });
  const packageDirs = readdirSync(join(REPO_ROOT, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(REPO_ROOT, 'packages', entry.name, 'package.json')))
    .map((entry) => `packages/${entry.name}`);
  return [read(''), read('e2e'), ...packageDirs.map(read)];
}

function sourceFiles(): SourceFile[] {
  const files: SourceFile[] = [];
  for (const root of SCANNED_ROOTS) {
    for (const entry of readdirSync(join(REPO_ROOT, root), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !SOURCE_FILE.test(entry.name)) continue;
      const path = relative(REPO_ROOT, join(entry.parentPath, entry.name)).split(sep).join('/');
      if (path.split('/').includes('node_modules')) continue;
      files.push({ path, text: readFileSync(join(REPO_ROOT, path), 'utf8') });
    }
  }
  return files;
}

/**
 * Every module specifier the file imports: static imports (also `import type`), `export ... from`, `import()` and
 * `require()` with a literal. TypeScript's own scanner, so a specifier in a comment or a string is not one.
 */
function importedSpecifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
}

/** The package that owns `path` (relative to the root): the deepest workspace package directory containing it. */
function ownerOf(path: string, packages: readonly WorkspacePackage[]): WorkspacePackage {
  const owners = packages.filter((pkg) => pkg.dir === '' || path === pkg.dir || path.startsWith(`${pkg.dir}/`));
  return owners.reduce((deepest, pkg) => (pkg.dir.length > deepest.dir.length ? pkg : deepest));
}

/** `@promop/crds/kinds` → the package name and its subpath in `exports` form (`./kinds`, or `.`). */
function splitPackageSpecifier(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split('/');
  const nameParts = specifier.startsWith('@') ? 2 : 1;
  const rest = parts.slice(nameParts).join('/');
  return { name: parts.slice(0, nameParts).join('/'), subpath: rest === '' ? '.' : `./${rest}` };
}

function declaresSubpath(manifest: PackageManifest, subpath: string): boolean {
  const { exports } = manifest;
  if (exports === undefined) return false;
  if (typeof exports === 'string') return subpath === '.';
  return Object.keys(exports).some((key) => {
    const star = key.indexOf('*');
    if (star === -1) return key === subpath;
    return subpath.startsWith(key.slice(0, star)) && subpath.endsWith(key.slice(star + 1));
  });
}

/** The boundary violations of `files`, one readable line each (`file: import 'x': why`). */
function boundaryViolations(files: readonly SourceFile[], packages: readonly WorkspacePackage[]): string[] {
  const byName = new Map(packages.map((pkg) => [pkg.manifest.name, pkg]));
  const violations: string[] = [];
  for (const file of files) {
    const owner = ownerOf(file.path, packages);
    const declared = { ...owner.manifest.dependencies, ...owner.manifest.devDependencies };
    for (const specifier of importedSpecifiers(file.text)) {
      const report = (why: string) => violations.push(`${file.path}: import '${specifier}': ${why}`);
      if (specifier.startsWith('.')) {
        const target = relative(REPO_ROOT, resolve(REPO_ROOT, dirname(file.path), specifier)).split(sep).join('/');
        const targetOwner = ownerOf(target, packages);
        if (target.startsWith('..') || targetOwner !== owner) {
          report(`leaves ${owner.manifest.name} for ${targetOwner.manifest.name} by a relative path; import it as '${targetOwner.manifest.name}/…' through a path its package.json exports`);
        }
        continue;
      }
      const { name, subpath } = splitPackageSpecifier(specifier);
      const imported = byName.get(name);
      if (imported === undefined) continue; // not a workspace package: pnpm resolves it
      if (!declaresSubpath(imported.manifest, subpath)) report(`${name} does not declare '${subpath}' in its package.json exports`);
      if (imported !== owner && declared[name] === undefined) report(`${name} is not in ${owner.dir || '.'}/package.json (dependencies or devDependencies)`);
    }
  }
  for (const pkg of packages) {
    if (!PRODUCT_PACKAGES.includes(pkg.manifest.name)) continue;
    for (const testPackage of TEST_PACKAGES) {
      if (pkg.manifest.dependencies?.[testPackage] !== undefined) violations.push(`${pkg.dir}/package.json: ${testPackage} in dependencies (tests only: devDependencies)`);
    }
  }
  return violations;
}

describe('package boundaries', () => {
  const packages = workspacePackages();

  it('hold for every source file of packages/*, e2e/ and bench/', () => {
    const files = sourceFiles();
    // A scan that finds nothing would pass for the wrong reason.
    expect(files.length).toBeGreaterThan(300);
    expect(boundaryViolations(files, packages)).toEqual([]);
  });

  describe('are enforced: each kind of crossing is reported', () => {
    const check = (path: string, text: string) => boundaryViolations([{ path, text }], packages);

    it('a relative import into another package, written as import, export-from or import()', () => {
      expect(check('e2e/fuzz/x.ts', "import { generate } from '../../packages/config-generator/src/generate.ts';")).toEqual([
        expect.stringContaining('leaves @promop/e2e for @promop/config-generator by a relative path'),
      ]);
      expect(check('packages/controller/src/x.ts', "export { GROUP } from '../../crds/src/group.ts';")).toEqual([
        expect.stringContaining('leaves @promop/controller for @promop/crds'),
      ]);
      expect(check('bench/x.bench.ts', "const m = await import('../e2e/src/story.ts');")).toEqual([expect.stringContaining('leaves promop for @promop/e2e')]);
    });

    it('a relative import that stays inside its package is fine, also in comments and strings elsewhere', () => {
      expect(check('packages/controller/src/kube/x.ts', "import { a } from '../reconcile/a.ts';\n// from '../../../e2e/x.ts'\nconst s = \"import('../../../e2e/x.ts')\";")).toEqual([]);
    });

    it('a workspace package the importing package does not declare', () => {
      expect(check('packages/crds/src/x.test.ts', "import { generate } from '@promop/config-generator';")).toEqual([
        expect.stringContaining('@promop/config-generator is not in packages/crds/package.json'),
      ]);
    });

    it('a path the imported package does not export', () => {
      expect(check('e2e/chaos/x.ts', "import type { Kind } from '@promop/crds/src/names.ts';")).toEqual([
        expect.stringContaining("@promop/crds does not declare './src/names.ts' in its package.json exports"),
      ]);
    });
  });
});
