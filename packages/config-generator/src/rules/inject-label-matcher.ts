/**
 * PromQL label-matcher injection for `enforcedNamespaceLabel`, done on the lezer syntax tree so
 * string literals, comments and regexes that merely look like selectors are never touched. The
 * semantics follow prom-label-proxy's enforcer as prometheus-operator uses it: every vector
 * selector (including those inside range selectors and subqueries) loses any matcher on the
 * enforced label and gains `<label>="<value>"` as its last matcher. Unlike prometheus-operator,
 * the rest of the expression keeps the user's formatting instead of being re-printed.
 */
import { parser } from '@prometheus-io/lezer-promql';
import { isLegacyLabelName } from '../values/prometheus-names.ts';
import { unquotePromqlString } from '@promop/prometheus-lang';

/** lezer's syntax node type, named through the parser so @lezer/common need not be a dependency. */
type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

interface TextEdit {
  from: number;
  to: number;
  text: string;
}

/**
 * Returns `expr` with `label="value"` enforced on every vector selector. `expr` must parse (check
 * with findPromqlSyntaxError first); on a syntax error the result is unspecified but never throws.
 */
export function injectLabelMatcher(expr: string, label: string, value: string): string {
  const matcher = `${quoteLabelName(label)}=${JSON.stringify(value)}`;
  const edits: TextEdit[] = [];
  parser.parse(expr).iterate({
    enter(ref) {
      if (ref.name !== 'VectorSelector') return undefined;
      edits.push(enforceOnSelector(expr, ref.node, label, matcher));
      // Vector selectors never nest.
      return false;
    },
  });
  let result = expr;
  for (const edit of edits.sort((a, b) => b.from - a.from)) {
    result = result.slice(0, edit.from) + edit.text + result.slice(edit.to);
  }
  return result;
}

function enforceOnSelector(expr: string, selector: SyntaxNode, label: string, matcher: string): TextEdit {
  const braces = selector.getChild('LabelMatchers');
  if (!braces) return { from: selector.to, to: selector.to, text: `{${matcher}}` };
  const items: SyntaxNode[] = [];
  for (let child = braces.firstChild; child; child = child.nextSibling) {
    if (child.name === 'UnquotedLabelMatcher' || child.name === 'QuotedLabelMatcher' || child.name === 'QuotedLabelName') items.push(child);
  }
  const kept = items.filter((item) => matcherLabelName(expr, item) !== label);
  const last = items.at(-1);
  if (!last) return { from: braces.from + 1, to: braces.from + 1, text: matcher };
  if (kept.length === items.length) {
    // Nothing to replace: append after the last matcher so the user's spacing stays as written.
    return { from: last.to, to: last.to, text: `,${matcher}` };
  }
  // Drop the replaced matchers; each kept one keeps the separator that preceded it in the original.
  let inner = '';
  kept.forEach((item, index) => {
    const position = items.indexOf(item);
    const previous = position > 0 ? items[position - 1]! : undefined;
    if (index > 0) inner += previous ? expr.slice(previous.to, item.from) : ',';
    inner += expr.slice(item.from, item.to);
  });
  inner += inner === '' ? matcher : `,${matcher}`;
  return { from: items[0]!.from, to: last.to, text: inner };
}

/** The label a matcher applies to; a bare quoted name (`{"metric.name"}`) matches `__name__`. */
function matcherLabelName(expr: string, item: SyntaxNode): string | undefined {
  if (item.name === 'QuotedLabelName') return '__name__';
  const name = item.getChild('LabelName') ?? item.getChild('QuotedLabelName');
  if (!name) return undefined;
  const text = expr.slice(name.from, name.to);
  return name.name === 'LabelName' ? text : unquotePromqlString(text);
}

/** A label name as PromQL must write it: bare when it is a classic identifier, quoted otherwise. */
export function quoteLabelName(label: string): string {
  return isLegacyLabelName(label) ? label : JSON.stringify(label);
}
