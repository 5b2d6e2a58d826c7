/**
 * The Prometheus image, from the prometheus and promtool that `pnpm tools` builds, laid out like the upstream
 * image (quay.io/prometheus/prometheus) so promop's StatefulSet runs it unchanged: binaries in /bin, a default
 * configuration in /etc/prometheus, data in /prometheus, user nobody.
 *
 * What the upstream image has and this one lacks: busybox (a shell, wget). promop only execs into the container
 * for `spec.listenLocal` probes (`sh -c wget ...`), which therefore cannot pass with this image.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { parsePrometheusVersion, type PrometheusVersion } from '@promop/config-generator';
import { prometheusImage } from '@promop/controller/workload/prometheus-container';
import { toolPath } from '@promop/testkit';
import type { ImageRecipe } from './image-cache.ts';
import { accountFiles, directory, hostFile, ROOT, textFile, type Account } from './image-files.ts';
import { PROMETHEUS_IMAGE, PROMETHEUS_VERSION } from './image-names.ts';
import { DEFAULT_PATH_ENV, type ImageConfig } from './oci-archive.ts';

const NOBODY: Account = { name: 'nobody', uid: 65534, gid: 65534, home: '/nonexistent' };

/** A configuration that loads and scrapes Prometheus itself, for running the image by hand. promop mounts its own. */
const DEFAULT_CONFIG = `# The configuration of a Prometheus started without one; promop's pods pass their own --config.file.
global:
  scrape_interval: 15s
scrape_configs:
  - job_name: prometheus
    static_configs:
      - targets: ['localhost:9090']
`;

/** The upstream image's entrypoint, command, user and working directory. */
export function prometheusImageConfig(version: PrometheusVersion): ImageConfig {
  return {
    entrypoint: ['/bin/prometheus'],
    cmd: ['--config.file=/etc/prometheus/prometheus.yml', '--storage.tsdb.path=/prometheus'],
    user: `${NOBODY.uid}:${NOBODY.gid}`,
    workingDir: '/prometheus',
    env: [DEFAULT_PATH_ENV],
    exposedPorts: ['9090/tcp'],
    labels: { 'org.opencontainers.image.title': 'prometheus', 'org.opencontainers.image.version': version.text },
  };
}

/** The default version's image configuration. */
export const PROMETHEUS_IMAGE_CONFIG: ImageConfig = prometheusImageConfig(PROMETHEUS_VERSION);

/** prometheus, and promtool when it was built. */
function binaries(): { inImage: string; hostPath: string }[] {
  const found = [{ inImage: '/bin/prometheus', hostPath: toolPath('prometheus') }];
  try {
    found.push({ inImage: '/bin/promtool', hostPath: toolPath('promtool') });
  } catch {
    // promtool is a convenience in the image (exec'ing `promtool check config`); promop never runs it there.
  }
  return found;
}

/** The recipe of PROMETHEUS_IMAGE. Throws when the built prometheus is not the version the image name promises. */
export function prometheusImageRecipe(): ImageRecipe {
  return {
    name: PROMETHEUS_IMAGE,
    archiveFile: 'prometheus.tar',
    inputs: async () => binaries().map(({ hostPath }) => ({ file: hostPath })),
    async describe() {
      const programs = binaries();
      await expectVersion(programs[0]!.hostPath);
      return { name: PROMETHEUS_IMAGE, config: PROMETHEUS_IMAGE_CONFIG, files: await prometheusFiles(programs) };
    },
  };
}

/**
 * The image of the Prometheus release before the default (`prometheus-previous`, see tools/build.sh), named as
 * promop's StatefulSet names that version's image. The version is what the binary reports, so the pin in
 * tools/build.sh stays the only place it is written.
 */
export function previousPrometheusImageRecipe(): ImageRecipe {
  const hostPath = toolPath('prometheus-previous');
  const version = reportedVersion(execFileSync(hostPath, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  const parsed = version === undefined ? undefined : parsePrometheusVersion(version);
  if (!parsed) throw new Error(`${hostPath} --version names no version`);
  const name = prometheusImage({}, parsed);
  return {
    name,
    archiveFile: 'prometheus-previous.tar',
    inputs: async () => [{ file: hostPath }],
    describe: async () => ({ name, config: prometheusImageConfig(parsed), files: await prometheusFiles([{ inImage: '/bin/prometheus', hostPath }]) }),
  };
}

async function prometheusFiles(programs: { inImage: string; hostPath: string }[]) {
  return [
    ...(await Promise.all(programs.map(({ inImage, hostPath }) => hostFile(inImage, hostPath)))),
    textFile('/etc/prometheus/prometheus.yml', DEFAULT_CONFIG),
    // The only place Prometheus writes; promop mounts its data volume here.
    directory('/prometheus', NOBODY),
    ...accountFiles([{ name: 'root', ...ROOT, home: '/root' }, NOBODY]),
  ];
}

/** `prometheus --version` prints `prometheus, version 3.16.0 (branch: ...)`. */
function reportedVersion(output: string): string | undefined {
  return /version (\S+)/.exec(output)?.[1];
}

async function expectVersion(prometheus: string): Promise<void> {
  const { stdout, stderr } = await promisify(execFile)(prometheus, ['--version']);
  const expected = `${PROMETHEUS_VERSION.major}.${PROMETHEUS_VERSION.minor}.${PROMETHEUS_VERSION.patch}`;
  const actual = reportedVersion(stdout + stderr);
  if (actual !== expected) throw new Error(`${prometheus} is version ${actual ?? 'unknown'}, but the image would be named ${PROMETHEUS_IMAGE}; run \`pnpm tools\``);
}
