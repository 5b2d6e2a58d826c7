/**
 * prometheus-operator's images, as the takeover test imports them into the node: named as upstream publishes
 * them (the operator's default config-reloader image among them), each holding its one program where upstream's
 * image and the operator's pod template look for it, runnable as nobody. Uses the cached archives when the
 * binaries are unchanged.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { extractOciArchive } from './extract-oci-archive.ts';
import { hostPlatform } from './oci-archive.ts';
import { buildPrometheusOperatorImages, type PrometheusOperatorImages } from './prometheus-operator-images.ts';

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'promop-po-images-test-'));
let images: PrometheusOperatorImages;

beforeAll(async () => {
  images = await buildPrometheusOperatorImages();
}, 300_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each([
  ['operator', 'quay.io/prometheus-operator/prometheus-operator:v0.93.1', '/bin/operator'],
  ['configReloader', 'quay.io/prometheus-operator/prometheus-config-reloader:v0.93.1', '/bin/prometheus-config-reloader'],
] as const)('the prometheus-operator %s image', (role, name, program) => {
  it(`is ${name}, runs ${program} as nobody, and that program is v0.93.1`, async () => {
    const dir = join(scratch, role);
    const rootfs = join(dir, 'rootfs');
    mkdirSync(rootfs, { recursive: true });
    const image = await extractOciArchive(images[role].archive, dir);
    expect(image.name).toBe(name);
    expect(images[role].name).toBe(name);
    expect(image.platform).toEqual(hostPlatform());
    expect(image.config.config.Entrypoint).toEqual([program]);
    expect(image.config.config.User).toBe('65534:65534');
    await run('tar', ['-xf', image.layers[0]!, '-C', rootfs]);
    const { stdout, stderr } = await run(join(rootfs, program), ['--version']);
    expect(stdout + stderr).toMatch(/version 0\.93\.1 /);
  }, 120_000);
});
