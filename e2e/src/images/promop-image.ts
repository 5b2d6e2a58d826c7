/**
 * The operator image without a distribution: the official Node 24 binary and the shared libraries it links
 * against, /etc/passwd and /etc/group for the nonroot user, an empty /tmp, and /app as promop-app.ts stages it.
 * The root Dockerfile builds the same image on distroless; dockerfile-agreement.test.ts keeps the two in step.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '@promop/testkit';
import type { CacheInput, ImageRecipe } from './image-cache.ts';
import { accountFiles, directory, hostFile, hostTree, ROOT, type Account } from './image-files.ts';
import { PROMOP_IMAGE, PROMOP_VERSION } from './image-names.ts';
import { DEFAULT_PATH_ENV, type ImageConfig } from './oci-archive.ts';
import { PROMOP_CLI, promopAppSources, promopInstallManifests, stagePromopApp } from './promop-app.ts';
import { PROMOP_NODE_FLAGS, PROMOP_PROCESS_ENV } from './promop-process-settings.ts';
import { sharedLibraries } from './shared-libraries.ts';

const run = promisify(execFile);

/** distroless' nonroot user, the chart's runAsUser/runAsGroup. */
const NONROOT: Account = { name: 'nonroot', uid: 65532, gid: 65532, home: '/home/nonroot' };

/** Where the image's Node is: where the official Node images put it. */
export const NODE_IN_IMAGE = '/usr/local/bin/node';

/** The runtime configuration of the promop image, here and in the Dockerfile. */
export const PROMOP_IMAGE_CONFIG: ImageConfig = {
  // Node's flags before the script, and the environment below: promop-process-settings.ts says which and why.
  entrypoint: [NODE_IN_IMAGE, ...PROMOP_NODE_FLAGS, `/app/${PROMOP_CLI}`],
  cmd: ['run'],
  user: `${NONROOT.uid}:${NONROOT.gid}`,
  workingDir: '/app',
  env: [DEFAULT_PATH_ENV, 'NODE_ENV=production', ...Object.entries(PROMOP_PROCESS_ENV).map(([name, value]) => `${name}=${value}`)],
  // `promop run` serves /metrics, /healthz and /readyz on :8080 by default.
  exposedPorts: ['8080/tcp'],
  labels: { 'org.opencontainers.image.title': 'promop', 'org.opencontainers.image.version': PROMOP_VERSION },
};

/** The Node major version promop supports and ships. */
const NODE_MAJOR = 24;

/**
 * The Node binary to ship: the one scripts/node-env.sh installs (the official build, at the version it pins), or
 * else the running Node when it has the right major version.
 */
export async function nodeBinaryForImage(repoRoot: string = REPO_ROOT): Promise<{ path: string; version: string }> {
  const candidates = [join(repoRoot, '.node', 'node_modules', 'node', 'bin', 'node'), process.execPath];
  for (const path of candidates.filter((candidate) => existsSync(candidate))) {
    const version = (await run(path, ['--version'])).stdout.trim();
    if (version.startsWith(`v${NODE_MAJOR}.`)) return { path, version };
  }
  throw new Error(`no Node ${NODE_MAJOR} binary found (looked at ${candidates.join(', ')}); run \`. scripts/node-env.sh\``);
}

/** The recipe of PROMOP_IMAGE. */
export function promopImageRecipe(repoRoot: string = REPO_ROOT): ImageRecipe {
  return {
    name: PROMOP_IMAGE,
    archiveFile: 'promop.tar',
    async inputs() {
      const node = await nodeBinaryForImage(repoRoot);
      const libraries = await sharedLibraries(node.path);
      const appFiles = [...promopInstallManifests(), ...(await promopAppSources(repoRoot))];
      const pnpmVersion = (await run('pnpm', ['--version'])).stdout.trim();
      return [
        { fact: `node ${node.version}` },
        { file: node.path },
        ...libraries.flatMap((library): CacheInput[] => [{ fact: `library ${library.path}` }, { file: library.hostPath }]),
        { fact: `pnpm ${pnpmVersion}` },
        ...appFiles.map((file) => ({ file: join(repoRoot, file) })),
      ];
    },
    async describe(scratchDir) {
      const node = await nodeBinaryForImage(repoRoot);
      const libraries = await sharedLibraries(node.path);
      const appDir = join(scratchDir, 'app');
      await stagePromopApp(repoRoot, appDir);
      return {
        name: PROMOP_IMAGE,
        config: PROMOP_IMAGE_CONFIG,
        files: [
          await hostFile(NODE_IN_IMAGE, node.path),
          ...(await Promise.all(libraries.map((library) => hostFile(library.path, library.hostPath)))),
          ...accountFiles([{ name: 'root', ...ROOT, home: '/root' }, NONROOT]),
          // Writable by anyone, sticky, as on any system; with a read-only root filesystem the pod mounts an emptyDir here.
          directory('/tmp', ROOT, 0o1777),
          ...(await hostTree('/app', appDir)),
        ],
      };
    },
  };
}
