import { checkRegex } from './re2-regex.ts';

// The verdicts themselves are Go's: go-regexp/go-regexp.test.ts and its differential test compare them with Go's
// regexp. Here: the sentences users read.
describe('a relabeling regex', () => {
  it.each(['(.*)', 'foo|bar', '[[:alpha:]]+', '(?i)debug_.*', '(?s:a.b)', '\\d+\\.\\d+', 'a{2,3}', '(?P<name>x)', '\\Qa.b\\E', '\\pL+', '\\p{Greek}', 'x\\z', '', '8080', '[^a-z]', ']',
    // Repeated empty-width assertions, which RE2 accepts (checked with promtool 3.16; found by the rule-check differential).
    '$+', '^*', 'x$*', '$(?i)+\\pL*', '\\b+', 'a\\B?', '${2}', '^{2,3}', '\\A+', '\\z*', '\\[^*'])(
    '%s compiles as RE2 would compile it',
    (regex) => {
      expect(checkRegex(regex, 'relabeling')).toBeUndefined();
    },
  );

  it.each([
    ['(', 'missing closing ): ('],
    ['a)', 'unexpected ): a)'],
    ['a(?=b)', 'lookahead and lookbehind are not supported (Prometheus uses RE2 syntax)'],
    ['(?<!a)b', 'lookahead and lookbehind are not supported (Prometheus uses RE2 syntax)'],
    ['(a)\\1', 'backreferences are not supported (Prometheus uses RE2 syntax)'],
    ['\\q', 'invalid escape sequence: \\q'],
    ['a{1001}', 'invalid repeat count: {1001} (at most 1000, nested counts multiplied)'],
    ['*a', 'missing argument to repetition operator: *'],
    ['$**', 'invalid nested repetition operator: **'],
    ['(?i)+', 'missing argument to repetition operator: +'],
    ['\\$**', 'invalid nested repetition operator: **'],
    ['[z-a]', 'invalid character class range: z-a'],
    ['a\\', 'trailing backslash at end of expression'],
    ['(?P<a b>x)', 'invalid named capture: (?P<a b>'],
    [`[${'x'.repeat(100)}`, `missing closing ]: [${'x'.repeat(59)}…`],
  ])('%s is refused: %s', (regex, message) => {
    expect(checkRegex(regex, 'relabeling')).toBe(message);
  });
});

// Go's parser limits, which JavaScript does not have, found with hostile inputs while building the fuzz suite.
describe('a regex at the limits of Go\'s regexp parser', () => {
  const deep = (levels: number, inner = 'a') => `${'('.repeat(levels)}${inner}${')'.repeat(levels)}`;

  it.each([
    ['(a{3}){333}'],
    ['(a{10}|b{200}){5}'],
    ['((a{10}){10}){10}'],
    ['(a{2,}){500}'],
    ['(a{1000}){0}'],
    ['(a{1000})*'],
    [deep(998)],
    [deep(998, '')],
    [`${'(?:'.repeat(2000)}a${')'.repeat(2000)}`],
  ])('%s is accepted, as Prometheus accepts it', (regex) => {
    expect(checkRegex(regex, 'relabeling')).toBeUndefined();
  });

  it.each([
    ['(a{3}){334}', '{334}'],
    ['(a{10}|b{201}){5}', '{5}'],
    ['((a{10}){10}){11}', '{11}'],
    ['(a{2,}){501}', '{501}'],
    ['(((a{1000}){1000}){1000})', '{1000}'],
  ])('%s is refused: nested repetitions multiply past 1000 (Go: invalid repeat count %s)', (regex, count) => {
    expect(checkRegex(regex, 'relabeling')).toBe(`invalid repeat count: ${count} (at most 1000, nested counts multiplied)`);
  });

  it.each([[999, 'a'], [20_000, '']])('%d capture groups nested around "%s" are refused (Go: expression nests too deeply)', (levels, inner) => {
    expect(checkRegex(deep(levels, inner), 'relabeling')).toBe('expression nests too deeply (Go allows 1000 levels, counted with the ^(?s:…)$ Prometheus puts around the regex)');
  });

  it('a pattern whose compiled program would pass Go\'s size limit is refused', () => {
    expect(checkRegex('a{1000}'.repeat(3400), 'relabeling')).toBe('expression too large (over Go\'s limit on the size of a compiled regex)');
  });
});
