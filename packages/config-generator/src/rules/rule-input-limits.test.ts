/**
 * The bounds checked before a PrometheusRule's expressions and templates are parsed: nothing a rule file could
 * hold is refused by them, and brackets are counted as the parser will read them.
 */
import fc from 'fast-check';
import { load } from 'js-yaml';
import { parsePrometheusVersion } from '../prometheus-version.ts';
import { toPrometheusYaml } from '../yaml-output.ts';
import { buildRuleFileDocument } from './rule-file-document.ts';
import { ruleFieldSupport } from './rule-field-support.ts';
import { ruleTextProblem, tooDeepBracketOffset } from './rule-input-limits.ts';

describe('the bracket depth of an expression', () => {
  it('counts parentheses, brackets and braces as they nest', () => {
    expect(tooDeepBracketOffset('sum(rate(up{job="a"}[5m]))', 3)).toBeUndefined();
    expect(tooDeepBracketOffset('sum(rate(up{job="a"}[5m]))', 2)).toBe(11);
    expect(tooDeepBracketOffset('((up)) + ((up))', 2)).toBeUndefined();
  });

  it('does not count brackets in strings (with escaped quotes) or comments', () => {
    expect(tooDeepBracketOffset('up{job="((((\\"(((("} # ((((((\n+ up', 1)).toBeUndefined();
    expect(tooDeepBracketOffset("label_replace(up, 'a', '((((\\'((', 'b', '(.*)')", 1)).toBeUndefined();
    expect(tooDeepBracketOffset('label_replace(up, "a", `(((\\`, "b", "(.*)")', 1)).toBeUndefined();
    expect(tooDeepBracketOffset('# ((((\n((up))', 1)).toBe(8);
  });
});

describe('the text of a PrometheusRule', () => {
  const spec = (rules: Record<string, unknown>[]) => ({ groups: [{ name: 'group', rules }] });

  it('is never counted as more than its rule file holds', () => {
    const version = parsePrometheusVersion('3.5.0')!;
    const rules = spec([
      { alert: 'ÄlertWithUnicode', expr: 'sum by (job) (rate(http_requests_total{code=~"5.."}[5m])) > 0', for: '5m', labels: { severity: 'page', 'ü': 'é' }, annotations: { summary: '{{ $labels.job }} "fails"\nsecond line' } },
      { record: 'job:up:sum', expr: 'sum by (job) (up)', labels: { a: '' } },
    ]);
    const file = toPrometheusYaml(buildRuleFileDocument(rules, { version, support: ruleFieldSupport(version) }).document);
    expect(load(file)).toMatchObject({ groups: [{ name: 'group' }] });
    const bytes = Buffer.byteLength(file);
    // Just under its own file's size it is still accepted; a limit below its text refuses it.
    expect(ruleTextProblem(rules, bytes)).toBeUndefined();
    expect(ruleTextProblem(rules, 100)).toMatchObject({ path: 'spec' });
  });

  it('is never counted as more than its rule file holds, whatever the strings (property)', () => {
    const version = parsePrometheusVersion('3.5.0')!;
    const text = fc.string({ unit: 'binary', maxLength: 20 });
    const rule = fc.record({ alert: text, expr: text, labels: fc.dictionary(text, text, { maxKeys: 3 }), annotations: fc.dictionary(text, text, { maxKeys: 3 }) });
    fc.assert(fc.property(fc.array(fc.record({ name: text, rules: fc.array(rule, { maxLength: 4 }) }), { maxLength: 3 }), (groups) => {
      const file = toPrometheusYaml(buildRuleFileDocument({ groups }, { version, support: ruleFieldSupport(version) }).document);
      expect(ruleTextProblem({ groups }, Buffer.byteLength(file))).toBeUndefined();
    }));
  });

  it('points at the one value that alone is over the limit', () => {
    expect(ruleTextProblem(spec([{ alert: 'A', expr: 'up', labels: { team: 'x'.repeat(200) } }]), 100)).toEqual({
      path: 'spec.groups[0].rules[0].labels.team',
      message: 'the label is 200 bytes; a rule file holds at most 100 bytes (half of a ConfigMap), so promop would refuse its file anyway',
    });
  });

  it('leaves shapes it does not expect to the checks that follow', () => {
    expect(ruleTextProblem('groups')).toBeUndefined();
    expect(ruleTextProblem({ groups: [null, { rules: 'x' }, { rules: [7, { expr: 1, labels: [] }] }] })).toBeUndefined();
  });
});
