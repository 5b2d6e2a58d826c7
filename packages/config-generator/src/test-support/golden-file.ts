/** Golden files of the generator's tests (imported by *.test.ts only): compare, or rewrite with UPDATE_GOLDEN=1. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Expects `text` to equal golden file `name` in `dir` (after rewriting it with `text` when UPDATE_GOLDEN=1). */
export function expectGoldenFile(dir: string, name: string, text: string): void {
  const path = join(dir, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, text);
  }
  expect(existsSync(path) ? readFileSync(path, 'utf8') : `missing golden file ${name}; run with UPDATE_GOLDEN=1`).toBe(text);
}
