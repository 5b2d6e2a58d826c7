/**
 * `node e2e/src/images/build-images.ts [--out <dir>]`: builds the test node's images (or reuses the cached ones)
 * and prints, for each, its name, archive, size and build time. Import them with
 * `ctr -n k8s.io images import <archive>`.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildImages } from './images.ts';

const { values } = parseArgs({ options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
if (values.help) {
  process.stdout.write('Usage: node e2e/src/images/build-images.ts [--out <dir>]   (default: .cache/images)\n');
  process.exit(0);
}

const started = Date.now();
const images = await buildImages(values.out === undefined ? {} : { outDir: resolve(values.out) });
for (const image of Object.values(images)) {
  const size = `${(image.size / 1e6).toFixed(1)} MB`;
  const time = image.cached ? `cached (${image.milliseconds} ms)` : `built in ${(image.milliseconds / 1000).toFixed(1)} s`;
  process.stdout.write(`${image.name.padEnd(40)} ${size.padStart(9)}  ${time.padEnd(20)}  ${image.archive}\n`);
}
process.stdout.write(`done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
