/** Writes crds/*.yaml from the schema literals. Run: `node packages/crds/scripts/generate-crds.ts` (or `pnpm gen:crds`). */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderCrdFiles } from '../src/crd-files.ts';

const crdsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'crds');
mkdirSync(crdsDir, { recursive: true });
const files = renderCrdFiles();
// Remove files of kinds that no longer exist, so crds/ is exactly the generated set.
for (const name of readdirSync(crdsDir)) if (name.endsWith('.yaml') && !files.has(name)) rmSync(join(crdsDir, name));
for (const [name, text] of files) {
  writeFileSync(join(crdsDir, name), text);
  console.log(`crds/${name}: ${Buffer.byteLength(text)} bytes`);
}
