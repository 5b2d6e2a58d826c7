import { re2RegexError } from './re2-regex.ts';

describe('a relabeling regex', () => {
  it.each(['(.*)', 'foo|bar', '[[:alpha:]]+', '(?i)debug_.*', '(?s:a.b)', '\\d+\\.\\d+', 'a{2,3}', '(?P<name>x)', '\\Qa.b\\E', '\\pL+', '\\p{Greek}', 'x\\z', '', '8080', '[^a-z]', ']'])(
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
    ['[z-a]', 'Range out of order in character class'],
    ['a\\', 'trailing backslash'],
  ])('%s is refused: %s', (regex, message) => {
    expect(re2RegexError(regex)).toBe(message);
  });
});
