import { compileRegexesWithGoSync } from '@promop/testkit';
import { goVerdict, promopVerdict } from './go-regexp-differential.ts';
import { hostileRegexes } from './hostile-regexes.ts';

// How long each takes is measured by bench/regex-hostile.bench.ts; here, that each is decided, as Go decides it.
describe.each(['relabeling', 'matcher'] as const)('a regex written to hurt the operator, as a %s', (reading) => {
  const forms = hostileRegexes();
  const go = compileRegexesWithGoSync(forms.map((form) => form.pattern), reading === 'matcher' ? 'matcher' : 'go');

  // The forms' verdicts are Go's for a relabeling; a matcher of literals between "|" is never parsed by Prometheus.
  it.each(forms.map((form, i) => [form.name, form.verdict, i] as const))('%s (as a relabeling: %s), as Prometheus says', (_, verdict, i) => {
    if (reading === 'relabeling') expect(goVerdict(go[i]!)).toBe(verdict);
    expect(promopVerdict(forms[i]!.pattern, reading)).toBe(goVerdict(go[i]!));
  });
});
