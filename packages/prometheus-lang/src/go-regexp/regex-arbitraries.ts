/**
 * Generated Go regexes for the differential test against Go's regexp (go-check): random mixes of every piece of
 * the syntax — groups of each kind, flags, classes, escapes, repetitions, alternations, Unicode — plus the forms
 * that reach Go's limits (deep nesting, big and nested counts, long alternations, many classes), and broken pieces.
 */
import fc from 'fast-check';

const ATOMS = [
  'a', 'b', 'A', 'k', 'K', 's', 'S', 'x', '0', '9', '_', '-', ' ', '\n', 'é', 'É', 'ß', 'ſ', 'K', 'Σ', 'σ', 'ς', '😀', '\u2028',
  '.', '^', '$', '\\A', '\\z', '\\b', '\\B', '\\d', '\\D', '\\s', '\\S', '\\w', '\\W', '\\.', '\\*', '\\\\', '\\_', '\\-', '\\]',
  '\\n', '\\t', '\\a', '\\f', '\\v', '\\r', '\\x41', '\\x{1F600}', '\\x{10FFFF}', '\\x{110000}', '\\x4', '\\x{}', '\\xZZ',
  '\\0', '\\01', '\\012', '\\0123', '\\1', '\\12', '\\8', '\\q', '\\C', '\\Z', '\\e', '\\é',
  '\\pL', '\\PL', '\\pN', '\\p{Greek}', '\\P{Greek}', '\\p{^Greek}', '\\p{Lu}', '\\p{Any}', '\\p{Zl}', '\\p{Han}',
  '\\p{Foo}', '\\p{}', '\\p', '\\pX', '\\p{Greek',
  '\\Qa.b\\E', '\\Q*\\E', '\\Q', '\\E',
  '[a-z]', '[^a-z]', '[]a]', '[^]a]', '[a-]', '[-a]', '[z-a]', '[a-\\d]', '[\\d-z]', '[[:alpha:]]', '[[:^digit:]x]', '[[:foo:]]',
  '[[:alpha:]', '[\\pL\\d]', '[\\p{Greek}a-c]', '[^\\x00-\\x{10FFFF}]', '[\\x00-\\x{10FFFF}]', '[^\\n]', '[Aa]', '[kK]', '[Kk\u212a]',
  '[σς]', '[a', '[', ']', '[\\b]', '[\\Q]', '[.]', '[(?]', '[{}]', '[:alpha:]', '[a-a]', '[ab]', '[ba]', '[0-9A-Fa-f]',
  '{', '}', '{1', '{,2}', '{1,2', 'a{', ',', '(?', ')', '(', '|',
] as const;

const GROUP_OPENERS = ['(', '(?:', '(?i)', '(?i:', '(?s:', '(?m:', '(?U:', '(?-s:', '(?i-s:', '(?P<name>', '(?<n1>', '(?P<1a>', '(?P<>', '(?P<a-b>', '(?i-)', '(?-)', '(?x)', '(?P=n)', '(?=', '(?!', '(?<='] as const;

const REPEATS = ['*', '+', '?', '*?', '+?', '??', '{2}', '{0}', '{0,}', '{1,}', '{2,5}', '{3,2}', '{1000}', '{1001}', '{0,1000}', '{01}', '{10,100}', '{999999999}', '**', '+*', '{2}{3}', '{2}*', '*{2}'] as const;

/** One generated regex, built from the pieces above by a small random grammar. */
export function goRegexArbitrary(): fc.Arbitrary<string> {
  const { regex } = fc.letrec<{ regex: string; piece: string; group: string }>((tie) => ({
    regex: fc.oneof(
      { weight: 3, arbitrary: fc.array(tie('piece'), { minLength: 0, maxLength: 5 }).map((pieces) => pieces.join('')) },
      { weight: 2, arbitrary: fc.array(fc.array(tie('piece'), { maxLength: 3 }).map((p) => p.join('')), { minLength: 2, maxLength: 5 }).map((alts) => alts.join('|')) },
    ),
    piece: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...ATOMS) },
      { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...ATOMS), fc.constantFrom(...REPEATS)).map(([a, r]) => a + r) },
      { weight: 2, arbitrary: tie('group') },
      { weight: 1, arbitrary: fc.tuple(tie('group'), fc.constantFrom(...REPEATS)).map(([g, r]) => g + r) },
    ),
    group: fc.tuple(fc.constantFrom(...GROUP_OPENERS), tie('regex'), fc.constantFrom(')', ')', ')', '')).map(([open, inner, close]) => open + inner + close),
  }));
  return fc.oneof({ weight: 8, arbitrary: regex }, { weight: 2, arbitrary: hostileRegexArbitrary() });
}

/** The forms near Go's limits: nesting about 1000 deep, counts multiplying near 1000, large programs and classes. */
export function hostileRegexArbitrary(): fc.Arbitrary<string> {
  const nest = (open: string, depth: number, inner: string, close = ')') => open.repeat(depth) + inner + close.repeat(depth);
  return fc.oneof(
    fc.tuple(fc.integer({ min: 990, max: 1002 }), fc.constantFrom('a', '', 'a|b', 'ab', 'a*', '\\pL', '[ab]')).map(([d, inner]) => nest('(', d, inner)),
    fc.tuple(fc.integer({ min: 490, max: 505 }), fc.constantFrom('a', 'a*', '')).map(([d, inner]) => nest('(a|', d, inner)),
    fc.tuple(fc.integer({ min: 320, max: 340 }), fc.constantFrom('x', '')).map(([d, inner]) => nest('(?:a*', d, inner, ')*')),
    fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 1000 })).map(([n, k]) => `(a{${k}}){${Math.max(1, Math.floor(1000 / k) + (n % 3) - 1)}}`),
    fc.tuple(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 2, max: 10 })).map(([levels, k]) => nest('(', levels, 'a', `){${k}}`)),
    fc.tuple(fc.integer({ min: 3, max: 6 }), fc.constantFrom('a', '\\pL', '[a-z]', '(a|b)', '\\p{Greek}')).map(([levels, atom]) => nest('(?:', levels, `${atom}{1000}`, '){1000}').replace(/\){1000}$/, ')')),
    fc.tuple(fc.integer({ min: 3300, max: 3400 }), fc.constantFrom('a{1000}', '\\pL{1000}', '(?:ab){1000}')).map(([n, piece]) => `(?:${piece}){${Math.min(1000, n - 2400)}}x`),
    fc.integer({ min: 1, max: 60 }).map((n) => '(|)'.repeat(n) + 'x'),
    fc.integer({ min: 1, max: 600 }).map((n) => Array.from({ length: n }, (_, i) => 'a'.repeat(i + 1)).join('|')),
    fc.integer({ min: 900, max: 1100 }).map((n) => 'a?'.repeat(n) + 'a'.repeat(n)),
    fc.tuple(fc.integer({ min: 990, max: 1010 }), fc.constantFrom('(?i)', '', '(?s)')).map(([n, flags]) => flags + nest('(?:a|', n, 'b')),
    // Long literal texts inside deep nesting, where Go measures sizes and heights while the text grows.
    fc.tuple(fc.integer({ min: 995, max: 1001 }), fc.integer({ min: 1, max: 3000 }), fc.constantFrom('', '(?i)', '(?i:x)')).map(([d, n, flags]) => flags + nest('(', d, 'ab'.repeat(n))),
    fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 1200 })).map(([k, n]) => `(?:${'x'.repeat(n)}){1000}`.repeat(k)),
    // Alternations Go factors (common prefixes, common leading classes, merged characters) at the height limit.
    fc.tuple(fc.integer({ min: 480, max: 520 }), fc.constantFrom('(?:ab|a', '(?:[ab]c|[ab]', '(?:a|b|', '(?:x{2}y|x{2}', '(?i:a|A')).map(([d, open]) => nest(open, d, 'z')),
    // Alternatives sharing a long run of leading classes: Go factors them out one level at a time.
    fc.tuple(fc.integer({ min: 990, max: 1060 }), fc.constantFrom('[ab]', '\\d', '[ab]{2}', '.'), fc.constantFrom('x|', 'x|y|')).map(([k, piece, tail]) => `${piece.repeat(k)}${tail}${piece.repeat(k)}z`),
  );
}
