/**
 * The images the test node imports into containerd: each archive is a valid OCI image layout with the right name
 * and config, and what it holds runs — the promop image's Node and /app in a chroot as its own user, the Go
 * programs and Prometheus from the extracted layer. Uses the archives in .cache/images when their inputs are
 * unchanged (a few seconds); a cold build takes about half a minute.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, startProcess, stopProcess, toolPath, waitUntil, REPO_ROOT } from '@promop/testkit';
import { extractOciArchive, type ExtractedImage } from './extract-oci-archive.ts';
import { buildCachedImage } from './image-cache.ts';
import { EXAMPLE_APP_IMAGE, PAUSE_IMAGE, PROMETHEUS_IMAGE, PROMETHEUS_VERSION, PROMOP_IMAGE, WEBHOOK_RECEIVER_IMAGE } from './image-names.ts';
import { ALERTMANAGER_IMAGE, ALERTMANAGER_IMAGE_CONFIG } from './alertmanager-image.ts';
import { buildImages, imageRecipes, type BuiltImages } from './images.ts';
import { hostPlatform, type ImageConfig } from './oci-archive.ts';
import { PROMETHEUS_IMAGE_CONFIG } from './prometheus-image.ts';
import { PROMOP_IMAGE_CONFIG } from './promop-image.ts';
import { THANOS_IMAGE, THANOS_IMAGE_CONFIG } from './thanos-image.ts';

const run = promisify(execFile);
type Role = keyof BuiltImages;
const ROLES: Role[] = ['pause', 'prometheus', 'previousPrometheus', 'exampleApp', 'promop', 'alertmanager', 'webhookReceiver', 'thanos'];
// The previous Prometheus' name follows from the binary's version; its own test below checks that.
const NAMES: Record<Exclude<Role, 'previousPrometheus'>, string> = {
  pause: PAUSE_IMAGE, prometheus: PROMETHEUS_IMAGE, exampleApp: EXAMPLE_APP_IMAGE, promop: PROMOP_IMAGE, alertmanager: ALERTMANAGER_IMAGE, webhookReceiver: WEBHOOK_RECEIVER_IMAGE,
  thanos: THANOS_IMAGE,
};

const scratch = mkdtempSync(join(tmpdir(), 'promop-images-test-'));
let images: BuiltImages;
/** Each image, its archive verified and its layer unpacked into `rootfs`. */
const opened = {} as Record<Role, { image: ExtractedImage; rootfs: string; layer: string }>;

beforeAll(async () => {
  images = await buildImages();
  for (const role of ROLES) {
    const dir = join(scratch, role);
    const rootfs = join(dir, 'rootfs');
    mkdirSync(rootfs, { recursive: true });
    const image = await extractOciArchive(images[role].archive, dir);
    await run('tar', ['-xf', image.layers[0]!, '-C', rootfs]);
    opened[role] = { image, rootfs, layer: image.layers[0]! };
  }
}, 600_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `tar -tv` of a layer as `mode uid/gid path` lines. */
async function layerListing(layer: string): Promise<string[]> {
  const { stdout } = await run('tar', ['--numeric-owner', '-tvf', layer], { maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim().split('\n').map((line) => {
    const [mode, owner, , , , ...path] = line.split(/\s+/);
    return `${mode} ${owner} ${path.join(' ')}`;
  });
}

function expectRuntimeConfig(image: ExtractedImage, expected: ImageConfig): void {
  const actual = image.config.config;
  expect(actual.Entrypoint).toEqual(expected.entrypoint);
  expect(actual.Cmd).toEqual(expected.cmd);
  expect(actual.User).toBe(expected.user);
  expect(actual.WorkingDir).toBe(expected.workingDir);
  expect(actual.Env).toEqual(expected.env);
  expect(Object.keys(actual.ExposedPorts ?? {})).toEqual(expected.exposedPorts ?? []);
}

describe.each(ROLES)('the %s image archive', (role) => {
  it('is an OCI image layout whose digests and sizes match its blobs, named for containerd', () => {
    const { image } = opened[role];
    const name = role === 'previousPrometheus' ? images.previousPrometheus.name : NAMES[role];
    expect(image.name).toBe(name);
    expect(images[role].name).toBe(name);
    expect(image.platform).toEqual(hostPlatform());
    expect(image.manifestDigest).toBe(images[role].manifestDigest);
    expect(image.layers).toHaveLength(1);
  });
});

describe('the image names', () => {
  it('are the ones the StatefulSet and the chart refer to', () => {
    expect(PROMETHEUS_IMAGE).toBe(`quay.io/prometheus/prometheus:v${PROMETHEUS_VERSION.major}.${PROMETHEUS_VERSION.minor}.${PROMETHEUS_VERSION.patch}`);
    expect(PROMOP_IMAGE).toMatch(/^localhost\/promop\/promop:\d+\.\d+\.\d+/);
  });
});

describe('an image built twice from the same inputs', () => {
  it('has the same digest', async () => {
    const again = await buildCachedImage(imageRecipes().pause, join(scratch, 'rebuilt'));
    expect(again.cached).toBe(false);
    expect(again.manifestDigest).toBe(images.pause.manifestDigest);
  });
});

describe('the pause image', () => {
  it('runs /pause as 65535 until SIGTERM, then exits 0', async () => {
    const { image, rootfs } = opened.pause;
    expect(image.config.config).toMatchObject({ Entrypoint: ['/pause'], User: '65535:65535' });
    const pause = startProcess('pause', join(rootfs, 'pause'), [], join(scratch, 'pause.log'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pause.child.exitCode).toBeNull();
    await stopProcess(pause, 5_000);
    expect(await pause.exited).toBe('0');
  });
});

describe('the example app image', () => {
  it('serves checkout metrics whose 5xx ratio fires the example alert (> 0.05)', async () => {
    const { image, rootfs } = opened.exampleApp;
    expect(image.config.config).toMatchObject({ Entrypoint: ['/example-app'], User: '65534:65534', ExposedPorts: { '8080/tcp': {} } });
    const port = await freePort();
    // A high rate so that half a second gives enough requests for the ratio to settle.
    const app = startProcess('example-app', join(rootfs, 'example-app'), [`-listen-address=127.0.0.1:${port}`, '-requests-per-second=1000'], join(scratch, 'example-app.log'));
    try {
      await waitUntil('example-app', app, async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok === true, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      const count = (code: string) => Number(new RegExp(`^http_requests_total\\{code="${code}",method="POST",path="/checkout"\\} (\\d+)$`, 'm').exec(metrics)?.[1]);
      const ratio = count('500') / (count('200') + count('500'));
      expect(ratio).toBeGreaterThan(0.09);
      expect(ratio).toBeLessThan(0.11);
      expect(metrics).toMatch(/^checkout_build_info\{version="1\.0\.0"\} 1$/m);
      expect(metrics).toMatch(/^# TYPE http_requests_total counter$/m);
    } finally {
      await stopProcess(app, 5_000);
    }
    expect(await app.exited).toBe('0');
  });
});

describe('the prometheus image', () => {
  it('is laid out like the upstream image, with its configuration and runtime settings', async () => {
    const { image, rootfs, layer } = opened.prometheus;
    expectRuntimeConfig(image, PROMETHEUS_IMAGE_CONFIG);
    const listing = await layerListing(layer);
    expect(listing).toEqual(expect.arrayContaining(['-rwxr-xr-x 0/0 bin/prometheus', '-rw-r--r-- 0/0 etc/prometheus/prometheus.yml', 'drwxr-xr-x 65534/65534 prometheus/']));
    const { stdout } = await run(join(rootfs, 'bin', 'prometheus'), ['--version']);
    expect(stdout).toContain(`version ${PROMETHEUS_VERSION.major}.${PROMETHEUS_VERSION.minor}.${PROMETHEUS_VERSION.patch} `);
  });

  it('holds a default configuration that promtool accepts', async () => {
    const { rootfs, layer } = opened.prometheus;
    if (!(await layerListing(layer)).includes('-rwxr-xr-x 0/0 bin/promtool')) return; // promtool was not built
    await run(join(rootfs, 'bin', 'promtool'), ['check', 'config', join(rootfs, 'etc', 'prometheus', 'prometheus.yml')]);
  });
});

describe('the alertmanager image', () => {
  it('is laid out like the upstream image, with the version its name promises and a configuration amtool accepts', async () => {
    const { image, rootfs, layer } = opened.alertmanager;
    expectRuntimeConfig(image, ALERTMANAGER_IMAGE_CONFIG);
    const listing = await layerListing(layer);
    expect(listing).toEqual(expect.arrayContaining(['-rwxr-xr-x 0/0 bin/alertmanager', '-rw-r--r-- 0/0 etc/alertmanager/alertmanager.yml', 'drwxr-xr-x 65534/65534 alertmanager/']));
    const { stdout, stderr } = await run(join(rootfs, 'bin', 'alertmanager'), ['--version']);
    expect(ALERTMANAGER_IMAGE).toBe(`quay.io/prometheus/alertmanager:v${/version (\S+)/.exec(stdout + stderr)?.[1]}`);
    await run(toolPath('amtool'), ['check-config', join(rootfs, 'etc', 'alertmanager', 'alertmanager.yml')]);
  });
});

describe('the thanos image', () => {
  it('holds /bin/thanos, the version its name promises, as its entrypoint', async () => {
    const { image, rootfs, layer } = opened.thanos;
    expectRuntimeConfig(image, THANOS_IMAGE_CONFIG);
    expect(await layerListing(layer)).toEqual(expect.arrayContaining(['-rwxr-xr-x 0/0 bin/thanos']));
    const { stdout, stderr } = await run(join(rootfs, 'bin', 'thanos'), ['--version']);
    expect(THANOS_IMAGE).toBe(`quay.io/thanos/thanos:v${/version (\S+)/.exec(stdout + stderr)?.[1]}`);
  });
});

describe('the promop image', () => {
  /**
   * Runs the image's entrypoint with `args` the way a container would, as far as this machine allows: as root,
   * chrooted into the extracted layer as the image's user with only the image's environment, so the image's own
   * loader, libraries and /app are used and nothing outside. Otherwise the image's node runs directly (with the
   * host's loader and libraries).
   */
  async function runEntrypoint(args: string[]): Promise<{ stdout: string }> {
    const { image, rootfs } = opened.promop;
    const [program, ...programArgs] = image.config.config.Entrypoint!;
    const env = Object.fromEntries(image.config.config.Env!.map((entry) => entry.split(/=(.*)/s).slice(0, 2) as [string, string]));
    if (process.getuid?.() === 0) {
      return run('chroot', [`--userspec=${image.config.config.User}`, rootfs, program!, ...programArgs, ...args], { env, timeout: 30_000 });
    }
    const inRootfs = (path: string) => (path.startsWith('/') ? join(rootfs, path) : path);
    return run(inRootfs(program!), [...programArgs.map(inRootfs), ...args], { env, timeout: 30_000 });
  }

  it('has the runtime settings the Dockerfile also declares', () => {
    expectRuntimeConfig(opened.promop.image, PROMOP_IMAGE_CONFIG);
  });

  it('holds only root-owned files, read-only for its user, and a sticky world-writable /tmp', async () => {
    const listing = await layerListing(opened.promop.layer);
    expect(listing.filter((line) => !line.includes(' 0/0 '))).toEqual([]);
    // Owned by root, so the user can write only where group or others may (symlinks' modes mean nothing).
    const writable = listing.filter((line) => !line.startsWith('l') && (line[5] === 'w' || line[8] === 'w'));
    expect(writable).toEqual(['drwxrwxrwt 0/0 tmp/']);
  });

  it('runs `promop --help` as its user with its own Node and libraries', async () => {
    const { stdout } = await runEntrypoint(['--help']);
    expect(stdout).toContain('Usage: promop <command>');
  });

  it('renders the example manifests with `promop render -f`', async () => {
    const manifests = join(opened.promop.rootfs, 'tmp', 'manifests');
    cpSync(join(REPO_ROOT, 'examples', 'team-monitoring'), manifests, { recursive: true });
    const inContainer = process.getuid?.() === 0 ? '/tmp/manifests' : manifests;
    const { stdout } = await runEntrypoint(['render', '-f', inContainer]);
    expect(stdout).toContain('job_name: serviceMonitor/team-a/');
  });
});

test('the previous Prometheus image is named by the version its binary reports, one the default is not', async () => {
  const { rootfs, image } = opened.previousPrometheus;
  const { stdout } = await run(join(rootfs, 'bin', 'prometheus'), ['--version']);
  const version = /version (\S+)/.exec(stdout)?.[1];
  expect(image.name).toBe(`quay.io/prometheus/prometheus:v${version}`);
  expect(image.name).not.toBe(PROMETHEUS_IMAGE);
  expect(image.config.config?.User).toBe(PROMETHEUS_IMAGE_CONFIG.user);
});
