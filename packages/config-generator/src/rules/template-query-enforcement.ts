/**
 * enforcedNamespaceLabel and the `query` template function. Alert labels and annotations are Go templates, and
 * Prometheus' `query` function (template/template.go; the only template function that runs PromQL) evaluates its
 * argument against the whole TSDB when the alert fires. prometheus-operator enforces the namespace matcher on
 * `expr` only, so `{{ query "secret_total{namespace=\"team-b\"}" | first | value }}` in team A's annotation
 * copies team B's data into team A's notifications.
 *
 * promop adds the matcher to the query too, the same way as to `expr` (inject-label-matcher.ts), when the query is
 * written as one string literal: `{{ query "..." }}` or `{{ "..." | query }}` (raw `...` strings too). The literal
 * is replaced by the rewritten one in the same quoting; nothing else in the template changes. A query built while
 * the alert fires (`printf`, a variable, a field, the result of another function) cannot be rewritten exactly, so
 * the rule is refused with the reason; the Prometheus owner can exempt it with `excludedFromEnforcement`.
 */
import type { FieldProblem } from '../model.ts';
import { keyPath } from '../values/field-path.ts';
import {
  checkExpression, describePosition, findPromqlSyntaxError, lexTemplate, unquoteGoString, type PromqlTarget, type TemplateItem, type TemplateItemType,
} from '@promop/prometheus-lang';
import { injectLabelMatcher } from './inject-label-matcher.ts';
import { isRecord } from '../values/is-record.ts';

/** The template functions that run PromQL. */
const QUERY_FUNCTIONS: ReadonlySet<string> = new Set(['query']);

/** What ends the command a `query` call is in. */
const COMMAND_ENDS: ReadonlySet<TemplateItemType> = new Set(['rightDelim', 'rightParen', 'pipe']);

/** What may come before a literal that is a whole pipeline's first command (`{{ "..." | query }}`). */
const PIPELINE_STARTS: ReadonlySet<TemplateItemType> = new Set(['leftDelim', 'leftParen', 'declare', 'assign', 'if', 'with', 'range']);

/** A query literal of a template: the item, and the PromQL it holds. */
interface QueryLiteral {
  item: TemplateItem;
  expr: string;
}

type QueryPlan = { ok: true; literals: QueryLiteral[] } | { ok: false; offset: number; reason: string };

/** The non-space item before/after index `i`, and its index. */
function neighbour(items: readonly TemplateItem[], i: number, step: 1 | -1): { item: TemplateItem | undefined; index: number } {
  let j = i + step;
  while (j >= 0 && j < items.length && items[j]!.type === 'space') j += step;
  return { item: items[j], index: j };
}

const isStringItem = (item: TemplateItem | undefined): item is TemplateItem => item !== undefined && (item.type === 'string' || item.type === 'rawString');

/** Every `query` call of `text` and its literal argument, or the first call whose argument is not a literal. */
function planQueries(text: string): QueryPlan {
  if (![...QUERY_FUNCTIONS].some((name) => text.includes(name))) return { ok: true, literals: [] };
  const { items, error } = lexTemplate(text);
  // validateRuleSpec refused templates that do not parse; this only keeps the function total.
  if (error) return { ok: false, offset: error.offset, reason: `the template does not parse (${error.value})` };
  const literals: QueryLiteral[] = [];
  for (let i = 0; i < items.length; i++) {
    const call = items[i]!;
    if (call.type !== 'identifier' || !QUERY_FUNCTIONS.has(call.value)) continue;
    const before = neighbour(items, i, -1);
    const after = neighbour(items, i, 1);
    let literal: TemplateItem | undefined;
    if (before.item?.type !== 'pipe' && isStringItem(after.item) && COMMAND_ENDS.has(neighbour(items, after.index, 1).item?.type ?? 'EOF')) {
      // {{ query "..." }}, possibly followed by `| first | value`.
      literal = after.item;
    } else if (before.item?.type === 'pipe' && COMMAND_ENDS.has(after.item?.type ?? 'EOF')) {
      // {{ "..." | query }}: the literal must be the whole first command of the pipeline.
      const piped = neighbour(items, before.index, -1);
      if (isStringItem(piped.item) && PIPELINE_STARTS.has(neighbour(items, piped.index, -1).item?.type ?? 'EOF')) literal = piped.item;
    }
    if (literal && hasByteEscape(literal)) {
      return { ok: false, offset: literal.offset, reason: 'its string literal writes a byte above 0x7f with an escape (\\x or octal), which promop cannot rewrite byte for byte' };
    }
    const expr = literal === undefined ? undefined : unquoteGoString(literal.value);
    if (literal === undefined || expr === undefined) {
      return { ok: false, offset: call.offset, reason: `its argument is built while the alert fires, so the matcher cannot be added to it; write the query as one string literal ({{ query "..." }} or {{ "..." | query }})` };
    }
    literals.push({ item: literal, expr });
  }
  return { ok: true, literals };
}

/**
 * Whether an interpreted literal has a `\xHH` or `\OOO` escape of a byte above 0x7f: Go keeps the raw byte, which a
 * JavaScript string cannot hold, so the rewritten literal would differ.
 */
function hasByteEscape(literal: TemplateItem): boolean {
  if (literal.type !== 'string') return false;
  const body = literal.value;
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '\\') continue;
    const kind = body[i + 1] ?? '';
    if (kind === 'x' && parseInt(body.slice(i + 2, i + 4), 16) >= 0x80) return true;
    if (kind >= '0' && kind <= '7' && parseInt(body.slice(i + 1, i + 4), 8) >= 0o200) return true;
    i++;
  }
  return false;
}

/** Go's quoting of `text` in the literal's own style (raw strings stay raw: the rewrite adds no backquote). */
function quoteLike(literal: TemplateItem, text: string): string {
  if (literal.type === 'rawString' && !text.includes('`')) return `\`${text}\``;
  // JSON's escapes (\" \\ \n \t \b \f \r \uXXXX) are all Go escapes too.
  return JSON.stringify(text);
}

/**
 * Why `label="namespace"` cannot be enforced on the queries of the alert template `text`, or undefined when every
 * query can be rewritten (or there is none).
 */
export function findTemplateQueryProblem(text: string, label: string, namespace: string, target: PromqlTarget): string | undefined {
  const plan = planQueries(text);
  const enforced = `${label}="${namespace}" (enforcedNamespaceLabel)`;
  if (!plan.ok) return `the query template function at ${describePosition(text, plan.offset)} runs PromQL when the alert fires and ${enforced} must be added to it, but ${plan.reason}`;
  for (const { item, expr } of plan.literals) {
    const at = describePosition(text, item.offset);
    const unreadable = findPromqlSyntaxError(expr);
    if (unreadable) return `${enforced} cannot be added to the query at ${at}, which promop's selector editor cannot read (${unreadable.message})`;
    const problem = checkExpression(injectLabelMatcher(expr, label, namespace), target);
    if (problem) return `with ${enforced} added, the query at ${at} is refused: ${problem.reason}`;
  }
  return undefined;
}

/**
 * `text` with `label="namespace"` added to every vector selector of every `query` literal, the rest of the template
 * byte for byte. Call findTemplateQueryProblem first; a template it refuses is returned unchanged.
 */
export function enforceOnTemplateQueries(text: string, label: string, namespace: string): string {
  const plan = planQueries(text);
  if (!plan.ok) return text;
  let result = text;
  for (const { item, expr } of [...plan.literals].sort((a, b) => b.item.offset - a.item.offset)) {
    const rewritten = quoteLike(item, injectLabelMatcher(expr, label, namespace));
    result = result.slice(0, item.offset) + rewritten + result.slice(item.offset + item.value.length);
  }
  return result;
}

/** Problems of enforcing the label on the templates (labels and annotations) of `rule` at `path`, if it is an alerting rule. */
export function findTemplateEnforcementProblems(rule: Record<string, unknown>, path: string, label: string, namespace: string, target: PromqlTarget): FieldProblem[] {
  // Recording rules' labels are not templates.
  if (typeof rule.alert !== 'string' || rule.alert === '') return [];
  const problems: FieldProblem[] = [];
  for (const field of ['labels', 'annotations'] as const) {
    const map = rule[field];
    if (!isRecord(map)) continue;
    for (const [key, value] of Object.entries(map)) {
      if (typeof value !== 'string') continue;
      const problem = findTemplateQueryProblem(value, label, namespace, target);
      if (problem) problems.push({ path: keyPath(`${path}.${field}`, key), message: problem });
    }
  }
  return problems;
}
