import { compileRegexesWithGo, type GoRegexReading } from '@promop/testkit';
import { goVerdict, promopVerdict } from './go-regexp-differential.ts';
import { hostileRegexes } from './hostile-regexes.ts';

const READINGS = ['relabeling', 'matcher'] as const;
const forms = hostileRegexes();
const go = {} as Record<(typeof READINGS)[number], GoRegexReading[]>;

// Go itself takes about half a minute on some forms in each reading: both readings are asked for at once.
beforeAll(async () => {
  const patterns = forms.map((form) => form.pattern);
  const [relabeling, matcher] = await Promise.all([compileRegexesWithGo(patterns, 'go'), compileRegexesWithGo(patterns, 'matcher')]);
  Object.assign(go, { relabeling, matcher });
}, 300_000);

// How long each takes is measured by bench/regex-hostile.bench.ts; here, that each is decided, as Go decides it.
describe.each(READINGS)('a regex written to hurt the operator, as a %s', (reading) => {
  // The forms' verdicts are Go's for a relabeling; a matcher of literals between "|" is never parsed by Prometheus.
  it.each(forms.map((form, i) => [form.name, form.verdict, i] as const))('%s (as a relabeling: %s), as Prometheus says', (_, verdict, i) => {
    const answer = go[reading][i]!;
    if (reading === 'relabeling') expect(goVerdict(answer)).toBe(verdict);
    expect(promopVerdict(forms[i]!.pattern, reading)).toBe(goVerdict(answer));
  });
});
