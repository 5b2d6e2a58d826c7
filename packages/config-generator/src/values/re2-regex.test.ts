import { re2RegexError } from './re2-regex.ts';

describe('a relabeling regex', () => {
  it.each(['(.*)', 'foo|bar', '[[:alpha:]]+', '(?i)debug_.*', '(?s:a.b)', '\\d+\\.\\d+', 'a{2,3}', '(?P<name>x)', '\\Qa.b\\E', '\\pL+', '\\p{Greek}', 'x\\z', '', '8080', '[^a-z]', ']',
    // Repeated empty-width assertions, which RE2 accepts (checked with promtool 3.16; found by the rule-check differential).
    '$+', '^*', 'x$*', '$(?i)+\\pL*', '\\b+', 'a\\B?', '${2}', '^{2,3}', '\\A+', '\\z*', '\\[^*'])(
    '%s compiles as RE2 would compile it',
    (regex) => {
      expect(re2RegexError(regex)).toBeUndefined();
    },
  );

  it.each([
    ['(', 'Unterminated group'],
    ['a(?=b)', 'lookahead and lookbehind are not supported (Prometheus uses RE2 syntax)'],
    ['(?<!a)b', 'lookahead and lookbehind are not supported (Prometheus uses RE2 syntax)'],
    ['(a)\\1', 'backreferences are not supported (Prometheus uses RE2 syntax)'],
    ['\\q', 'invalid escape sequence \\q'],
    ['a{1001}', 'repeat count over 1000'],
    ['*a', 'Nothing to repeat'],
    ['$**', 'Nothing to repeat'],
    ['(?i)+', 'Nothing to repeat'],
    ['\\$**', 'Nothing to repeat'],
    ['[z-a]', 'Range out of order in character class'],
    ['a\\', 'trailing backslash'],
  ])('%s is refused: %s', (regex, message) => {
    expect(re2RegexError(regex)).toBe(message);
  });
});

// Go's parser limits JavaScript does not have, found with hostile inputs while building the fuzz suite. Each case
// was checked with promtool 3.16 (`check config` of a relabeling with this regex): the accepted ones load, the refused
// ones do not.
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
    expect(re2RegexError(regex)).toBeUndefined();
  });

  it.each([
    ['(a{3}){334}', '{334}'],
    ['(a{10}|b{201}){5}', '{5}'],
    ['((a{10}){10}){11}', '{11}'],
    ['(a{2,}){501}', '{501}'],
    ['(((a{1000}){1000}){1000})', '{1000}'],
  ])('%s is refused: nested repetitions multiply past 1000 (Go: invalid repeat count %s)', (regex, count) => {
    expect(re2RegexError(regex)).toBe(`invalid repeat count ${count}: nested repetitions allow at most 1000 in all`);
  });

  it.each([[999, 'a'], [20_000, '']])('%d capture groups nested around "%s" are refused (Go: expression nests too deeply)', (levels, inner) => {
    expect(re2RegexError(deep(levels, inner))).toBe('expression nests too deeply (Prometheus allows about 1000 levels)');
  });
});
