import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { unifiedDiff } from './unified-diff.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'promop-diff-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** GNU diff's answer for the same texts (exit 1 means "different"). */
function gnuDiff(oldText: string, newText: string, minimal = false): string {
  writeFileSync(join(dir, 'old'), oldText);
  writeFileSync(join(dir, 'new'), newText);
  try {
    return execFileSync('diff', [...(minimal ? ['--minimal'] : []), '-u', '--label', 'a/f', '--label', 'b/f', join(dir, 'old'), join(dir, 'new')], { encoding: 'utf8' });
  } catch (error) {
    return (error as { stdout: string }).stdout;
  }
}

/** Applies a unified diff to `oldText` (hunks in order, context checked). */
function applyPatch(oldText: string, patch: string): string {
  const old = oldText === '' ? [] : oldText.slice(0, -1).split('\n');
  const result: string[] = [];
  let position = 0;
  const lines = patch.split('\n').slice(2, -1);
  for (let i = 0; i < lines.length; i++) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$/.exec(lines[i]!);
    if (!header) throw new Error(`not a hunk header: ${lines[i]}`);
    const count = header[2] === undefined ? 1 : Number(header[2]);
    const start = count === 0 ? Number(header[1]) : Number(header[1]) - 1;
    while (position < start) result.push(old[position++]!);
    while (i + 1 < lines.length && !lines[i + 1]!.startsWith('@@')) {
      const line = lines[++i]!;
      if (line.startsWith('+')) result.push(line.slice(1));
      else {
        if (old[position] !== line.slice(1)) throw new Error(`context mismatch at old line ${position + 1}`);
        if (line.startsWith(' ')) result.push(line.slice(1));
        position++;
      }
    }
  }
  while (position < old.length) result.push(old[position++]!);
  return result.length === 0 ? '' : `${result.join('\n')}\n`;
}

const changed = (patch: string) => patch.split('\n').filter((line) => /^[-+](?![-+]{2} )/.test(line)).length;

describe('unified diffs', () => {
  it('are empty for equal texts', () => {
    expect(unifiedDiff('a\n', 'a\n', { old: 'a/f', new: 'b/f' })).toBe('');
  });

  it('are what diff -u prints for a typical configuration change', () => {
    const before = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const after = before.replace('line 5\n', 'line 5\n- job_name: new\n  port: web\n').replace('line 30\n', 'line thirty\n');
    expect(unifiedDiff(before, after, { old: 'a/f', new: 'b/f' })).toBe(gnuDiff(before, after));
  });

  it('mark a missing final newline as diff does', () => {
    expect(unifiedDiff('a\nb', 'a\nc', { old: 'a/f', new: 'b/f' })).toBe(gnuDiff('a\nb', 'a\nc'));
    expect(unifiedDiff('', 'a\n', { old: 'a/f', new: 'b/f' })).toBe(gnuDiff('', 'a\n'));
  });

  it('turn the old text into the new one with as few changed lines as diff --minimal', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', 'd', '  x: 1', ''), { maxLength: 30 }).map((lines) => lines.map((line) => `${line}\n`).join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const patch = unifiedDiff(before, after, { old: 'a/f', new: 'b/f' });
        if (before === after) return patch === '';
        expect(applyPatch(before, patch)).toBe(after);
        expect(changed(patch)).toBe(changed(gnuDiff(before, after, true)));
        return true;
      }),
      { numRuns: 150 },
    );
  });
});
