import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateValidatorCode, VALIDATORS_DECLARATION } from './validator-code.ts';

const GENERATED_DIR = join(dirname(fileURLToPath(import.meta.url)), 'generated');

describe('src/generated/validators.js', () => {
  it('is what the schemas compile to (run `pnpm --filter @promop/crds gen:validators` when this fails)', () => {
    // Compared as one boolean plus the first differing line: the file is about 1 MB, too big for a readable diff.
    const expected = generateValidatorCode();
    const committed = readFileSync(join(GENERATED_DIR, 'validators.js'), 'utf8');
    const expectedLines = expected.split('\n');
    const committedLines = committed.split('\n');
    const first = expectedLines.findIndex((line, index) => line !== committedLines[index]);
    expect({ firstDifferingLine: first === -1 && expectedLines.length === committedLines.length ? null : first + 1 }).toEqual({ firstDifferingLine: null });
    expect(readFileSync(join(GENERATED_DIR, 'validators.d.ts'), 'utf8')).toBe(VALIDATORS_DECLARATION);
  });
});
