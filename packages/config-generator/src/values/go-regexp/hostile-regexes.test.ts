import { compileRegexesWithGoSync } from '@promop/e2e';
import { goVerdict, promopVerdict } from './go-regexp-differential.ts';
import { hostileRegexes } from './hostile-regexes.ts';

// How long each takes is measured by bench/regex-hostile.bench.ts; here, that each is decided, as Go decides it.
describe('a regex written to hurt the operator', () => {
  const forms = hostileRegexes();
  const go = compileRegexesWithGoSync(forms.map((form) => form.pattern));

  it.each(forms.map((form, i) => [form.name, form.verdict, i] as const))('%s: %s, as Go says', (_, verdict, i) => {
    expect(goVerdict(go[i]!)).toBe(verdict);
    expect(promopVerdict(forms[i]!.pattern)).toBe(verdict);
  });
});
