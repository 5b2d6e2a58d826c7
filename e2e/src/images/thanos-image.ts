/**
 * The Thanos image, from the thanos that `pnpm tools` builds (tools/thanos), laid out like the upstream image
 * (quay.io/thanos/thanos: the program at /bin/thanos as its entrypoint) and named as promop's sidecar container names
 * the default version, so a Prometheus with `spec.thanos` and no `image` runs it unchanged. The same image runs the
 * Thanos Query and ThanosRuler pods of the node tests.
 *
 * What the upstream image has and this one lacks: busybox (a shell, wget). The upstream image names no user (its
 * processes run as root unless the pod says otherwise); this one runs as nobody by default, and promop's pods set
 * their own user anyway. Thanos is built without cgo (tools/build.sh), so the binary needs no C library.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DEFAULT_THANOS_BASE_IMAGE, DEFAULT_THANOS_VERSION } from '@promop/controller/workload';
import { toolPath } from '@promop/testkit';
import type { ImageRecipe } from './image-cache.ts';
import { accountFiles, hostFile, ROOT, type Account } from './image-files.ts';
import { DEFAULT_PATH_ENV, type ImageConfig } from './oci-archive.ts';

const NOBODY: Account = { name: 'nobody', uid: 65534, gid: 65534, home: '/nonexistent' };

/** What promop puts in the sidecar of a Prometheus whose `spec.thanos` names no image: `quay.io/thanos/thanos:v0.42.2`. */
export const THANOS_IMAGE = `${DEFAULT_THANOS_BASE_IMAGE}:${DEFAULT_THANOS_VERSION}`;

/** The upstream image's entrypoint; the user is nobody (see the module comment). */
export const THANOS_IMAGE_CONFIG: ImageConfig = {
  entrypoint: ['/bin/thanos'],
  user: `${NOBODY.uid}:${NOBODY.gid}`,
  env: [DEFAULT_PATH_ENV],
  labels: { 'org.opencontainers.image.title': 'thanos', 'org.opencontainers.image.version': DEFAULT_THANOS_VERSION },
};

/** The recipe of THANOS_IMAGE. Throws when the built thanos is not the version the image name promises. */
export function thanosImageRecipe(): ImageRecipe {
  return {
    name: THANOS_IMAGE,
    archiveFile: 'thanos.tar',
    inputs: async () => [{ file: toolPath('thanos') }],
    async describe() {
      const thanos = toolPath('thanos');
      await expectVersion(thanos);
      return {
        name: THANOS_IMAGE,
        config: THANOS_IMAGE_CONFIG,
        files: [await hostFile('/bin/thanos', thanos), ...accountFiles([{ name: 'root', ...ROOT, home: '/root' }, NOBODY])],
      };
    },
  };
}

/** `thanos --version` prints `thanos, version 0.42.2 (branch: ...)`. */
async function expectVersion(thanos: string): Promise<void> {
  const { stdout, stderr } = await promisify(execFile)(thanos, ['--version']);
  const actual = /version (\S+)/.exec(stdout + stderr)?.[1];
  if (`v${actual}` !== DEFAULT_THANOS_VERSION) {
    throw new Error(`${thanos} is version ${actual ?? 'unknown'}, but the image would be named ${THANOS_IMAGE}; run \`pnpm tools\``);
  }
}
