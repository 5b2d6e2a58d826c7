/**
 * `/app` of the promop image: the workspace packages the operator is made of (sources without their tests) and a
 * production-only node_modules. One function stages it, for both the image built here and the root Dockerfile
 * (through stage-promop-app.ts), so the two ship the same files.
 *
 * The staged tree keeps the repository's layout (`packages/<name>/src`, pnpm's `node_modules/.pnpm` and the
 * per-package symlinks), so workspace imports such as `@promop/crds` resolve as they do in the repository. The
 * workspace packages must stay outside node_modules: Node refuses to strip types from a .ts file whose real path
 * is under node_modules, and pnpm links them with symlinks to `packages/<name>`.
 *
 * Only Node built-ins here: the Dockerfile runs this before anything is installed.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The workspace packages of the operator, relative to the repository root. */
export const PROMOP_APP_PACKAGES = ['packages/crds', 'packages/prometheus-lang', 'packages/config-generator', 'packages/controller'] as const;

/** The operator's command, relative to /app. */
export const PROMOP_CLI = 'packages/controller/src/cli.ts';

/**
 * Files under the packages' `src/` that production code never imports, so the image leaves them out. The
 * import-closure test in promop-app.test.ts fails if a shipped file imports one of them.
 */
const NOT_SHIPPED: readonly { pattern: RegExp; why: string }[] = [
  { pattern: /\.test\.ts$/, why: 'tests' },
  { pattern: /\.type-test\.ts$/, why: 'compile-time type tests' },
  { pattern: /\/test-support\//, why: "test helpers (the packages' test-support/ folders; @promop/config-generator's and @promop/prometheus-lang's are their ./test-support exports)" },
  { pattern: /\/test-[^/]*\.ts$/, why: 'test fixtures beside their tests (reconcile/test-reconciler-fakes.ts)' },
  { pattern: /-arbitraries\.ts$/, why: 'fast-check generators; fast-check is a dev dependency' },
  { pattern: /-differential\.ts$/, why: 'differential checks against the real promtool; they need the test kit (@promop/testkit)' },
  { pattern: /^packages\/controller\/src\/chart\//, why: 'chart-file generation for the chart tests and scripts' },
];

/** Files of the repository root that `pnpm install` needs and the image does not. */
const INSTALL_ONLY_FILES = ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml'] as const;

/**
 * pnpm's bookkeeping, which records absolute paths and times (it would make each staging differ) and is only read
 * by later pnpm runs, and the `.bin` shell shims, useless in an image without a shell.
 */
const PNPM_STATE = /^(\.modules\.yaml|\.pnpm-workspace-state.*\.json|\.pnpm\/lock\.yaml)$|(^|\/)\.bin$/;

/**
 * Files in node_modules that Node never loads when running: type declarations (for the type checker) and source
 * maps (read only with --enable-source-maps). A large share of the dependencies' bytes.
 */
const NOT_LOADED_AT_RUN_TIME = /\.d\.[cm]?ts$|\.map$/;

/** True when `repoPath` (relative to the repository root, `/`-separated) is a source file the image ships. */
export function isShippedSource(repoPath: string): boolean {
  return !NOT_SHIPPED.some(({ pattern }) => pattern.test(repoPath));
}

/** The package.json and shipped sources of each app package, relative to the repository root, sorted. */
export async function promopAppSources(repoRoot: string): Promise<string[]> {
  const sources: string[] = [];
  for (const pkg of PROMOP_APP_PACKAGES) {
    sources.push(`${pkg}/package.json`);
    const files = await readdir(join(repoRoot, pkg, 'src'), { recursive: true, withFileTypes: true });
    for (const file of files) {
      if (!file.isFile()) continue;
      const repoPath = relative(repoRoot, join(file.parentPath, file.name)).split(sep).join('/');
      if (isShippedSource(repoPath)) sources.push(repoPath);
    }
  }
  return sources.sort();
}

/** The files `pnpm install` reads in the staging directory, relative to the repository root. */
export function promopInstallManifests(): string[] {
  return [...INSTALL_ONLY_FILES, ...PROMOP_APP_PACKAGES.map((pkg) => `${pkg}/package.json`)];
}

/**
 * Stages /app in `appDir` (created; it must not exist yet): copies the app packages' manifests and the lockfile,
 * installs their production dependencies from the local pnpm store, copies the sources, then removes what the
 * running operator never reads. Needs no network: `pnpm install` (or `pnpm fetch`) must have filled the store.
 */
export async function stagePromopApp(repoRoot: string, appDirectory: string): Promise<void> {
  const appDir = resolve(appDirectory);
  await mkdir(dirname(appDir), { recursive: true });
  await mkdir(appDir); // throws when it exists: never install over a tree of unknown content
  for (const file of promopInstallManifests()) await copyInto(repoRoot, appDir, file);
  await installProductionDependencies(repoRoot, appDir);
  for (const file of await promopAppSources(repoRoot)) await copyInto(repoRoot, appDir, file);
  for (const file of INSTALL_ONLY_FILES) await rm(join(appDir, file));
  await pruneNodeModules(appDir);
  await checkSymlinksStayInside(appDir);
}

/**
 * `pnpm install`, production dependencies of the operator only:
 * - `--filter-prod @promop/controller...`: the controller and the workspace packages it depends on, following
 *   `dependencies` only (not the devDependency on @promop/testkit);
 * - `--prod`: no devDependencies; `--frozen-lockfile`: exactly the lockfile's versions;
 * - `--offline`: from the store only; `--store-dir`: the repository's store, named because pnpm picks a store per
 *   filesystem and the staging directory may be on another one;
 * - `--ignore-scripts`: no dependency runs code at install time (none of the operator's needs to).
 */
async function installProductionDependencies(repoRoot: string, appDir: string): Promise<void> {
  const controller = JSON.parse(await readFile(join(repoRoot, 'packages/controller/package.json'), 'utf8')) as { name: string };
  const { stdout: storeDir } = await pnpm(['store', 'path'], repoRoot);
  const args = ['install', '--prod', '--frozen-lockfile', '--offline', '--ignore-scripts', `--filter-prod=${controller.name}...`, `--store-dir=${storeDir.trim()}`];
  await pnpm(args, appDir);
}

async function pnpm(args: string[], cwd: string): Promise<{ stdout: string }> {
  try {
    return await run('pnpm', args, { cwd, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`pnpm ${args.join(' ')} (in ${cwd}) failed:\n${stdout}${stderr}`.trim());
  }
}

/** Removes pnpm's state, `.bin` shims, type declarations and source maps from every node_modules in `appDir`. */
async function pruneNodeModules(appDir: string): Promise<void> {
  const nodeModulesDirs = ['node_modules', ...PROMOP_APP_PACKAGES.map((pkg) => `${pkg}/node_modules`)];
  for (const nodeModules of nodeModulesDirs) {
    const base = join(appDir, nodeModules);
    // Not followed: symlinks, so each file is visited once, in the .pnpm directory that holds it.
    for (const entry of await readdir(base, { recursive: true, withFileTypes: true })) {
      const path = relative(base, join(entry.parentPath, entry.name)).split(sep).join('/');
      const prune = PNPM_STATE.test(path) || (entry.isFile() && NOT_LOADED_AT_RUN_TIME.test(entry.name));
      if (prune) await rm(join(base, path), { recursive: true, force: true });
    }
  }
}

/** Every symlink in `appDir` must be relative and point inside it, or it would dangle once copied into /app. */
async function checkSymlinksStayInside(appDir: string): Promise<void> {
  for (const entry of await readdir(appDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isSymbolicLink()) continue;
    const link = join(entry.parentPath, entry.name);
    const target = await readlink(link);
    const resolved = resolve(dirname(link), target);
    if (target.startsWith('/') || !resolved.startsWith(appDir + sep)) throw new Error(`${link} -> ${target} points outside the app`);
  }
}

/**
 * The files and symlinks of a staged tree, relative to it and sorted; directories are implied. What the image
 * and the Dockerfile must both ship.
 */
export async function listStagedTree(appDir: string): Promise<string[]> {
  const entries = await readdir(appDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(appDir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

async function copyInto(repoRoot: string, appDir: string, repoPath: string): Promise<void> {
  await mkdir(dirname(join(appDir, repoPath)), { recursive: true });
  await copyFile(join(repoRoot, repoPath), join(appDir, repoPath));
}
