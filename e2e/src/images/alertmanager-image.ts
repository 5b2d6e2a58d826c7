/**
 * The Alertmanager image, from the alertmanager that `pnpm tools` builds, laid out like the upstream
 * image (quay.io/prometheus/alertmanager) and named as promop's StatefulSet names the default version, so an
 * Alertmanager without `spec.image` runs it unchanged: binaries in /bin, a default configuration in
 * /etc/alertmanager, data in /alertmanager, user nobody. promop mounts the generated configuration at
 * /etc/alertmanager/config and the storage volume at /alertmanager, and runs the pod as uid 1000 (fsGroup 2000),
 * which needs nothing more from the image: Alertmanager's templates are compiled in.
 *
 * What the upstream image has and this one lacks: amtool (promop never runs it in the pod; leaving it out halves the
 * archive every node start imports) and busybox (a shell, wget).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DEFAULT_ALERTMANAGER_VERSION } from '@promop/config-generator';
import { toolPath } from '@promop/testkit';
import type { ImageRecipe } from './image-cache.ts';
import { accountFiles, directory, hostFile, ROOT, textFile, type Account } from './image-files.ts';
import { DEFAULT_PATH_ENV, type ImageConfig } from './oci-archive.ts';

const NOBODY: Account = { name: 'nobody', uid: 65534, gid: 65534, home: '/nonexistent' };

/**
 * What promop puts in the StatefulSet of an Alertmanager without `spec.image`/`version` (alertmanagerImage in
 * packages/controller/src/alertmanager/alertmanager-children.ts, which the controller does not export):
 * `quay.io/prometheus/alertmanager:v0.35.0`. The alerting step of the used-by story checks the two agree.
 */
export const ALERTMANAGER_IMAGE = `quay.io/prometheus/alertmanager:v${DEFAULT_ALERTMANAGER_VERSION}`;

/** The upstream image's default configuration: for running the image by hand; promop passes its own --config.file. */
const DEFAULT_CONFIG = `# The configuration of an Alertmanager started without one; promop's pods pass their own --config.file.
route:
  receiver: "null"
receivers:
- name: "null"
`;

/** The upstream image's entrypoint, command, user and working directory. */
export const ALERTMANAGER_IMAGE_CONFIG: ImageConfig = {
  entrypoint: ['/bin/alertmanager'],
  cmd: ['--config.file=/etc/alertmanager/alertmanager.yml', '--storage.path=/alertmanager'],
  user: `${NOBODY.uid}:${NOBODY.gid}`,
  workingDir: '/alertmanager',
  env: [DEFAULT_PATH_ENV],
  exposedPorts: ['9093/tcp'],
  labels: { 'org.opencontainers.image.title': 'alertmanager', 'org.opencontainers.image.version': `v${DEFAULT_ALERTMANAGER_VERSION}` },
};

/** The recipe of ALERTMANAGER_IMAGE. Throws when the built alertmanager is not the version the image name promises. */
export function alertmanagerImageRecipe(): ImageRecipe {
  return {
    name: ALERTMANAGER_IMAGE,
    archiveFile: 'alertmanager.tar',
    inputs: async () => [{ file: toolPath('alertmanager') }],
    async describe() {
      const alertmanager = toolPath('alertmanager');
      await expectVersion(alertmanager);
      return {
        name: ALERTMANAGER_IMAGE,
        config: ALERTMANAGER_IMAGE_CONFIG,
        files: [
          await hostFile('/bin/alertmanager', alertmanager),
          directory('/etc/alertmanager'),
          textFile('/etc/alertmanager/alertmanager.yml', DEFAULT_CONFIG),
          // The only place Alertmanager writes (silences, notification log); promop mounts its storage volume here.
          directory('/alertmanager', NOBODY),
          ...accountFiles([{ name: 'root', ...ROOT, home: '/root' }, NOBODY]),
        ],
      };
    },
  };
}

/** `alertmanager --version` prints `alertmanager, version 0.35.0 (branch: ...)`. */
async function expectVersion(alertmanager: string): Promise<void> {
  const { stdout, stderr } = await promisify(execFile)(alertmanager, ['--version']);
  const actual = /version (\S+)/.exec(stdout + stderr)?.[1];
  if (actual !== DEFAULT_ALERTMANAGER_VERSION) {
    throw new Error(`${alertmanager} is version ${actual ?? 'unknown'}, but the image would be named ${ALERTMANAGER_IMAGE}; run \`pnpm tools\``);
  }
}
