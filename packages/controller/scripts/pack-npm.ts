/**
 * Packs the promop command as one npm package, `promop-<version>.tgz`, installable with `npm install -g` (or run
 * with `npx`) and giving the commands `promop` and `kubectl-promop` (so `kubectl promop ...` works as a plugin).
 *
 * Node refuses to strip types from a .ts file under node_modules, so the package ships JavaScript: tsc compiles the
 * sources reachable from the command (src/cli.ts) and the library entry (src/index.ts), following imports into
 * @promop/crds, @promop/prometheus-lang and @promop/config-generator, with `.ts` import paths rewritten to `.js`
 * (tests, fixtures and everything else nothing imports stay out). The three workspace packages travel inside the
 * tarball as bundled dependencies (node_modules/@promop/crds, .../prometheus-lang, .../config-generator, each with
 * its compiled dist/), so one tarball is the whole command; the npm packages they all import (client-node, ajv,
 * js-yaml...) are ordinary dependencies, with the versions of the workspace's package.json files, listed only when
 * the compiled code imports them.
 *
 * Run: `node packages/controller/scripts/pack-npm.ts [--out <dir>]` (default: the current directory); prints the
 * tarball's path. Needs `npm` on the PATH (for `npm pack`).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PACKAGES = join(REPO_ROOT, 'packages');

/** The workspace packages in the tarball: the command's own, and the three it bundles. */
const WORKSPACE = {
  controller: { dir: 'controller', entries: ['src/cli.ts', 'src/index.ts'] },
  crds: { dir: 'crds', entries: ['src/index.ts'] },
  prometheusLang: { dir: 'prometheus-lang', entries: ['src/index.ts'] },
  configGenerator: { dir: 'config-generator', entries: ['src/index.ts'] },
} as const;

/** Files tsc does not emit (plain JavaScript the sources import), copied next to their compiled importers. */
const COPIED_JS = ['crds/src/generated/validators.js'];

interface PackageJson {
  name: string;
  version: string;
  description?: string;
  type?: string;
  dependencies?: Record<string, string>;
  engines?: Record<string, string>;
  exports?: Record<string, string>;
}

/**
 * The workspace package's `exports`, pointed at the compiled files (`./src/kinds.ts` → `./dist/kinds.js`): the
 * command imports subpaths too (`@promop/crds/kinds`). Entries with no compiled file (test kits) are left out.
 */
function compiledExports(manifest: PackageJson, target: string): Record<string, string> {
  const entries = Object.entries(manifest.exports ?? { '.': './src/index.ts' })
    .map(([subpath, file]) => [subpath, file.replace(/^\.\/src\//, './dist/').replace(/\.ts$/, '.js')] as const)
    .filter(([, file]) => existsSync(join(target, file)));
  return Object.fromEntries(entries);
}

/** Packs into `outDir` and returns the tarball's path. */
export function packNpm(outDir: string): string {
  const staging = mkdtempSync(join(tmpdir(), 'promop-pack-'));
  try {
    const compiled = join(staging, 'compiled');
    compile(compiled);
    const root = join(staging, 'promop');
    const controllerJson = readJson(join(PACKAGES, 'controller', 'package.json'));
    // The command's own files at the package root; the bundled packages under node_modules/@promop/.
    copyTree(join(compiled, 'controller', 'src'), join(root, 'dist'));
    const bundled: string[] = [];
    for (const pkg of [WORKSPACE.crds, WORKSPACE.prometheusLang, WORKSPACE.configGenerator]) {
      const manifest = readJson(join(PACKAGES, pkg.dir, 'package.json'));
      const target = join(root, 'node_modules', ...manifest.name.split('/'));
      copyTree(join(compiled, pkg.dir, 'src'), join(target, 'dist'));
      writeJson(join(target, 'package.json'), {
        name: manifest.name,
        version: manifest.version,
        description: manifest.description,
        type: 'module',
        exports: compiledExports(manifest, target),
        dependencies: usedDependencies(join(target, 'dist')),
      });
      bundled.push(manifest.name);
    }
    const rootJson = readJson(join(REPO_ROOT, 'package.json'));
    writeJson(join(root, 'package.json'), {
      name: 'promop',
      version: controllerJson.version,
      description: 'promop, a Prometheus operator for Kubernetes: the promop command (explain, diff, render, run) and kubectl plugin',
      type: 'module',
      bin: { promop: './dist/cli.js', 'kubectl-promop': './dist/cli.js', 'kubectl_complete-promop': './dist/cli.js' },
      exports: { '.': './dist/index.js' },
      files: ['dist'],
      engines: rootJson.engines,
      // Every npm package any of the three imports, installed next to the bundled ones so they find them too; npm
      // packs a bundled dependency only when it is also a dependency.
      dependencies: {
        ...usedDependencies(join(root, 'dist')),
        ...Object.assign({}, ...bundled.map((name) => usedDependencies(join(root, 'node_modules', ...name.split('/'), 'dist')))),
        ...Object.fromEntries(bundled.map((name) => [name, controllerJson.version])),
      },
      bundleDependencies: bundled,
    });
    mkdirSync(outDir, { recursive: true });
    const out = execFileSync('npm', ['pack', '--pack-destination', resolve(outDir), '--json'], { cwd: root, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
    const [packed] = JSON.parse(out) as { filename: string }[];
    if (!packed) throw new Error(`npm pack printed no tarball: ${out}`);
    return join(resolve(outDir), packed.filename);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** tsc: the entries and what they import, to `<out>/<package dir>/src/...js`; fails on any type error. */
function compile(out: string): void {
  const entries = Object.values(WORKSPACE).flatMap((pkg) => pkg.entries.map((entry) => join(PACKAGES, pkg.dir, entry)));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2024,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    allowImportingTsExtensions: true,
    rewriteRelativeImportExtensions: true,
    verbatimModuleSyntax: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    types: ['node'],
    rootDir: PACKAGES,
    outDir: out,
    sourceMap: false,
    declaration: false,
    newLine: ts.NewLineKind.LineFeed,
  };
  const program = ts.createProgram(entries, options);
  const emitted = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  if (diagnostics.length > 0) {
    const text = ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => REPO_ROOT, getNewLine: () => '\n' });
    throw new Error(`tsc failed, nothing packed:\n${text}`);
  }
  for (const file of COPIED_JS) {
    mkdirSync(dirname(join(out, file)), { recursive: true });
    copyFileSync(join(PACKAGES, file), join(out, file));
  }
  // Emitted files must stay inside the workspace packages: anything else means an import left them.
  for (const path of walk(out)) {
    const top = relative(out, path).split(sep)[0]!;
    if (!Object.values(WORKSPACE).some((pkg) => pkg.dir === top)) throw new Error(`tsc emitted ${relative(out, path)}, outside the packed packages`);
  }
}

/**
 * The npm packages the JavaScript under `dir` imports (static, dynamic and `require` with a literal name), with the
 * version the workspace declares for each. An import no workspace package declares is an error.
 */
function usedDependencies(dir: string): Record<string, string> {
  const declared = new Map<string, string>();
  for (const pkg of Object.values(WORKSPACE)) {
    for (const [name, version] of Object.entries(readJson(join(PACKAGES, pkg.dir, 'package.json')).dependencies ?? {})) {
      if (!version.startsWith('workspace:')) declared.set(name, version);
    }
  }
  const used: Record<string, string> = {};
  const builtins = new Set(builtinModules);
  for (const file of walk(dir).filter((path) => path.endsWith('.js'))) {
    const text = readFileSync(file, 'utf8');
    // A package name starts with a letter, a digit, `_` or `@` (the JSON a validator embeds has `"from":{…` too).
    for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s+)['"]([@a-zA-Z0-9_][^'"]*)['"]/gm)) {
      const specifier = match[1]!;
      if (specifier.startsWith('node:') || builtins.has(specifier) || specifier.startsWith('@promop/')) continue;
      const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
      const version = declared.get(name);
      if (!version) throw new Error(`${relative(dir, file)} imports ${specifier}, which no workspace package.json declares`);
      used[name] = version;
    }
  }
  return Object.fromEntries(Object.entries(used).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function walk(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

function copyTree(from: string, to: string): void {
  for (const file of walk(from)) {
    const target = join(to, relative(from, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
}

function readJson(path: string): PackageJson {
  return JSON.parse(readFileSync(path, 'utf8')) as PackageJson;
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: '.' } } });
  const tarball = packNpm(values.out!);
  console.log(`${tarball} (${Math.round(statSync(tarball).size / 1024)} KiB)`);
}
