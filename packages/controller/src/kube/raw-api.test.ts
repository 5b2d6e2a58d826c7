/** splitLines (pure): a watch stream's chunks, cut anywhere, give back exactly its lines. */
import { splitLines } from './raw-api.ts';

function linesOf(chunks: readonly string[]): string[] {
  const lines: string[] = [];
  const onData = splitLines((line) => lines.push(line));
  for (const chunk of chunks) onData(chunk);
  return lines;
}

describe('splitLines', () => {
  it('gives each complete line once, whatever the chunk boundaries, and keeps an unfinished line until its newline', () => {
    const text = '{"type":"ADDED"}\n{"type":"MODIFIED","big":"' + 'x'.repeat(5_000) + '"}\n\n{"type":"DELETED"}\n{"partial"';
    const expected = ['{"type":"ADDED"}', `{"type":"MODIFIED","big":"${'x'.repeat(5_000)}"}`, '', '{"type":"DELETED"}'];
    for (const size of [1, 2, 7, 64, 4_999, text.length]) {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      expect(linesOf(chunks)).toEqual(expected);
    }
    // The unfinished line comes out once its newline arrives.
    expect(linesOf([text, '}\n'])).toEqual([...expected, '{"partial"}']);
  });
});
