/**
 * Writes src/generated/validators.js (ajv standalone code of the four CRD schemas) and its declaration.
 * Run: `node packages/crds/scripts/generate-validators.ts` (or `pnpm --filter @promop/crds gen:validators`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateValidatorCode, VALIDATORS_DECLARATION } from '../src/validator-code.ts';

const generatedDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'generated');
mkdirSync(generatedDir, { recursive: true });
const code = generateValidatorCode();
writeFileSync(join(generatedDir, 'validators.js'), code);
writeFileSync(join(generatedDir, 'validators.d.ts'), VALIDATORS_DECLARATION);
console.log(`packages/crds/src/generated/validators.js: ${Buffer.byteLength(code)} bytes`);
