import { compileRegexesWithGoSync } from '@promop/testkit';
import { readPrometheusRegex } from './prometheus-regex.ts';
import type { RegexReading } from './unicode-classes.ts';

/** `refused: <Go's code>` or `accepted, matches empty: <bool>`, as the differential test writes verdicts. */
function verdict(pattern: string, reading: RegexReading = 'relabeling'): string {
  const read = readPrometheusRegex(pattern, reading);
  return read.ok ? `accepted, matches empty: ${read.matchesEmpty}` : `refused: ${read.code}`;
}

function goVerdicts(patterns: readonly string[], reading: RegexReading = 'relabeling'): string[] {
  return compileRegexesWithGoSync(patterns, reading === 'matcher' ? 'matcher' : 'go').map((go) => (go.ok ? `accepted, matches empty: ${go.matchesEmpty}` : `refused: ${go.code ?? go.error}`));
}

const nest = (depth: number, inner: string, open = '(', close = ')') => open.repeat(depth) + inner + close.repeat(depth);
const EMPTY = 'accepted, matches empty: true';
const NOT_EMPTY = 'accepted, matches empty: false';

/** Hand-picked cases where a careless reading of Go's rules goes wrong; each verdict is also Go's (checked below). */
const TRICKY: Array<[string, string]> = [
  ['', EMPTY],
  ['a', NOT_EMPTY],
  ['a*', EMPTY],
  ['(a*)*b', NOT_EMPTY],
  ['(|)', EMPTY],
  ['(a|)', EMPTY],
  ['a|', EMPTY],
  ['|', EMPTY],
  ['^$', EMPTY],
  ['\\A\\z', EMPTY],
  ['(?m)^$', EMPTY],
  ['\\b', NOT_EMPTY],
  ['\\B', EMPTY],
  ['\\b*', EMPTY],
  ['$+', EMPTY],
  ['^*', EMPTY],
  ['${2}', EMPTY],
  ['a{0}', EMPTY],
  ['a{0,0}', EMPTY],
  ['(?:a{0})+', EMPTY],
  ['[^\\x00-\\x{10FFFF}]', NOT_EMPTY],
  ['[^\\x00-\\x{10FFFF}]*', EMPTY],
  ['\\Q\\E', EMPTY],
  // \Q runs to the end of the pattern, taking the `)$` of Prometheus' anchoring with it.
  ['\\Qa', 'refused: missing closing )'],
  ['\\Q*+?\\E', NOT_EMPTY],
  ['(?i)', EMPTY],
  ['(?i)+', 'refused: missing argument to repetition operator'],
  // The flags stand between the two operators, so the + repeats a* (Go's lastRepeat is reset).
  ['a*(?i)+', EMPTY],
  ['a(?i)+', NOT_EMPTY],
  ['**', 'refused: missing argument to repetition operator'],
  ['a**', 'refused: invalid nested repetition operator'],
  ['a*?', EMPTY],
  ['a*??', 'refused: invalid nested repetition operator'],
  ['a{2}{3}', 'refused: invalid nested repetition operator'],
  ['a{2}*', 'refused: invalid nested repetition operator'],
  ['a{,2}', NOT_EMPTY],
  ['a{01}', NOT_EMPTY],
  ['a{1001}', 'refused: invalid repeat count'],
  ['a{1000}', NOT_EMPTY],
  ['a{2,1}', 'refused: invalid repeat count'],
  ['a{99999999999}', 'refused: invalid repeat count'],
  ['(a{3}){333}', NOT_EMPTY],
  ['(a{3}){334}', 'refused: invalid repeat count'],
  ['((a{10}){10}){11}', 'refused: invalid repeat count'],
  ['(a{1000}){0}', EMPTY],
  ['(a{2,}){500}', NOT_EMPTY],
  ['(a{2,}){501}', 'refused: invalid repeat count'],
  ['(', 'refused: missing closing )'],
  [')', 'refused: unexpected )'],
  ['a)', 'refused: unexpected )'],
  ['(?:', 'refused: missing closing )'],
  ['[a', 'refused: missing closing ]'],
  ['[]a]', NOT_EMPTY],
  ['[]', 'refused: missing closing ]'],
  ['[^]', 'refused: missing closing ]'],
  ['[a-]', NOT_EMPTY],
  ['[z-a]', 'refused: invalid character class range'],
  ['[a-\\d]', 'refused: invalid escape sequence'],
  ['[[:alpha:]]', NOT_EMPTY],
  ['[[:word:]]', NOT_EMPTY],
  ['[[:aplha:]]', 'refused: invalid character class range'],
  ['[:alpha:]', NOT_EMPTY],
  ['[\\b]', 'refused: invalid escape sequence'],
  ['\\8', 'refused: invalid escape sequence'],
  ['\\1', 'refused: invalid escape sequence'],
  ['\\12', NOT_EMPTY],
  ['\\0', NOT_EMPTY],
  ['\\x4', 'refused: invalid escape sequence'],
  ['\\x{110000}', 'refused: invalid escape sequence'],
  ['\\x{10FFFF}', NOT_EMPTY],
  ['\\x{}', 'refused: invalid escape sequence'],
  ['\\C', 'refused: invalid escape sequence'],
  ['\\Z', 'refused: invalid escape sequence'],
  ['\\_', NOT_EMPTY],
  ['\\é', 'refused: invalid escape sequence'],
  ['a\\', 'refused: trailing backslash at end of expression'],
  ['\\p', 'refused: invalid character class range'],
  ['\\p{Greek', 'refused: invalid character class range'],
  ['\\pL', NOT_EMPTY],
  ['\\p{^Greek}', NOT_EMPTY],
  ['\\p{Zl}+', NOT_EMPTY],
  ['(?i)\\p{Lu}', NOT_EMPTY],
  ['(?P<name>x)', NOT_EMPTY],
  ['(?<name>x)', NOT_EMPTY],
  ['(?P<a>x)(?P<a>y)', NOT_EMPTY],
  ['(?P<>x)', 'refused: invalid named capture'],
  ['(?P<a-b>x)', 'refused: invalid named capture'],
  ['(?P<a', 'refused: invalid named capture'],
  ['(?P=a)', 'refused: invalid or unsupported Perl syntax'],
  ['(?=a)', 'refused: invalid or unsupported Perl syntax'],
  ['(?<=a)', 'refused: invalid named capture'],
  ['(?i-)', 'refused: invalid or unsupported Perl syntax'],
  ['(?i-s:a)', NOT_EMPTY],
  ['(?--i)', 'refused: invalid or unsupported Perl syntax'],
  ['(?x)', 'refused: invalid or unsupported Perl syntax'],
  ['(?', 'refused: invalid or unsupported Perl syntax'],
  [nest(998, 'a'), NOT_EMPTY],
  [nest(999, 'a'), 'refused: expression nests too deeply'],
  [nest(2000, 'a', '(?:'), NOT_EMPTY],
  [nest(50_000, 'a'), 'refused: expression nests too deeply'],
  ['(|)'.repeat(40) + 'x', NOT_EMPTY],
  ['(?:a{1000}){1000}', 'refused: invalid repeat count'],
  ['(?:\\pL{1000}x){3}', 'refused: invalid repeat count'],
  ['a{1000}'.repeat(3300), NOT_EMPTY],
  ['a{1000}'.repeat(3400), 'refused: expression too large'],
  // Go measures a text's size when it starts and caches it while the text grows: a long literal passes.
  ['a'.repeat(3_400_000), NOT_EMPTY],
  ['\\pL'.repeat(30_000), 'refused: expression too large'],
];

describe('a regex read as Go reads it', () => {
  const goSays = goVerdicts(TRICKY.map(([pattern]) => pattern));

  it.each(TRICKY.map(([pattern, expected], i) => [pattern.length > 40 ? `${pattern.slice(0, 40)}… (${pattern.length} chars)` : pattern, expected, i] as const))(
    '%s: %s, as Go says',
    (_, expected, i) => {
      const [pattern] = TRICKY[i]!;
      expect(goSays[i]).toBe(expected);
      expect(verdict(pattern)).toBe(expected);
    },
  );
});

// Prometheus reads a PromQL matcher's class names exactly (its own copy of regexp/syntax) and a relabeling's with the
// Go toolchain's regexp/syntax, which in Go 1.26 reads them loosely and refuses the underscored script names. promop
// reads both exactly, refusing the names the toolchain refuses for a relabeling: a name Prometheus refuses fails the
// whole configuration, so promop may be stricter than Prometheus, never looser (unicode-classes.ts).
describe('a Unicode class name the two readings of Prometheus spell differently', () => {
  it.each([
    ['\\p{greek}', 'relabeling', 'refused: invalid character class range', NOT_EMPTY],
    ['\\p{Letter}', 'relabeling', 'refused: invalid character class range', NOT_EMPTY],
    ['\\ps', 'relabeling', 'refused: invalid character class range', NOT_EMPTY],
    ['\\p{Old_Italic}', 'relabeling', 'refused: invalid character class range', 'refused: invalid character class range'],
    ['\\p{greek}', 'matcher', 'refused: invalid character class range', 'refused: invalid character class range'],
    ['\\p{Old_Italic}', 'matcher', NOT_EMPTY, NOT_EMPTY],
  ] as const)('%s in a %s: promop %s (Prometheus: %s)', (pattern, reading, promop, prometheus) => {
    expect(verdict(pattern, reading)).toBe(promop);
    expect(goVerdicts([pattern], reading)[0]).toBe(prometheus);
  });
});
