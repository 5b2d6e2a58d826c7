/**
 * enforcedNamespaceLabel adds a matcher to every selector of an expression by editing the syntax
 * tree of @prometheus-io/lezer-promql (inject-label-matcher.ts). That grammar cannot read a few
 * expressions Prometheus accepts (a metric named `offset`, `1.`, `STEP()` in a range), and a
 * selector it cannot see would escape the enforced label. So, where the label is enforced, such an
 * expression is refused with the reason, and every rewritten expression is checked again as
 * Prometheus will read it. The same holds for the queries alert templates run.
 */
import type { FieldProblem } from '../model.ts';
import { isRecord } from '../values/is-record.ts';
import { injectLabelMatcher } from './inject-label-matcher.ts';
import { checkExpression, describePosition, findPromqlSyntaxError, type PromqlTarget } from '@promop/prometheus-lang';
import { findTemplateEnforcementProblems } from './template-query-enforcement.ts';

/** Problems of enforcing `label="namespace"` on the expressions of a valid PrometheusRule spec. */
export function findEnforcementProblems(spec: unknown, label: string, namespace: string, target: PromqlTarget): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const groups = isRecord(spec) && Array.isArray(spec.groups) ? spec.groups : [];
  groups.forEach((group: unknown, groupIndex) => {
    const rules = isRecord(group) && Array.isArray(group.rules) ? group.rules : [];
    rules.forEach((rule: unknown, ruleIndex) => {
      if (!isRecord(rule)) return;
      // Alert templates may run PromQL too (`query`): the label is enforced there as well (template-query-enforcement.ts).
      problems.push(...findTemplateEnforcementProblems(rule, `spec.groups[${groupIndex}].rules[${ruleIndex}]`, label, namespace, target));
      if (typeof rule.expr !== 'string') return;
      const path = `spec.groups[${groupIndex}].rules[${ruleIndex}].expr`;
      const unreadable = findPromqlSyntaxError(rule.expr);
      if (unreadable) {
        problems.push({
          path,
          message: `${label}="${namespace}" (enforcedNamespaceLabel) cannot be added to this expression, which Prometheus accepts but promop's selector editor cannot read (${unreadable.message}); write it another way, such as {__name__="offset"} for a metric named like a keyword`,
        });
        return;
      }
      const enforced = injectLabelMatcher(rule.expr, label, namespace);
      const problem = checkExpression(enforced, target);
      if (problem) {
        problems.push({ path, message: `with ${label}="${namespace}" added (enforcedNamespaceLabel) the expression is refused: ${describePosition(enforced, problem.offset)}: ${problem.reason}` });
      }
    });
  });
  return problems;
}
