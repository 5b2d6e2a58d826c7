/**
 * Bounds on the work one PrometheusRule can cause, checked before any of its expressions or templates is lexed or
 * parsed. Checking costs time in proportion to the text, and more for some shapes (docs/performance.md, hostile
 * objects, has the figures), and one object's check delays every team's configuration, so an object whose
 * rule file could never be written is refused before it is checked, and its nesting before it is parsed.
 */
import { formatCount } from '@promop/prometheus-lang';
import { MAX_VERDICT_PROBLEMS } from '../verdict-bounds.ts';
import type { FieldProblem } from '../model.ts';
import { keyPath } from '../values/field-path.ts';
import { isRecord } from '../values/is-record.ts';
import { MAX_RULE_CONFIGMAP_BYTES } from './pack-rule-files.ts';

/**
 * The most bytes of text (expressions, names, labels and annotations) one PrometheusRule may hold: its rule file
 * holds all of it and is refused above MAX_RULE_CONFIGMAP_BYTES (512 KiB, half a ConfigMap, as prometheus-operator
 * also does). So an object over it is one promop would refuse after checking it anyway; refusing it first costs
 * nothing a user could have had. The API server itself stores objects of up to 1.5 MiB (etcd's request limit).
 */
export const MAX_RULE_TEXT_BYTES = MAX_RULE_CONFIGMAP_BYTES;

/**
 * The deepest nesting of brackets (`(`, `[`, `{`) accepted in an expression. Prometheus' own parser has no limit
 * (its LALR stack and Go's stack both grow); promop's checker recurses once per level and would otherwise stop
 * wherever the JavaScript stack ends (a few thousand levels, depending on the machine) after spending a second
 * finding out. 256 is far beyond what a person or a generator writes (the deepest in the kube-prometheus and
 * node-exporter mixins is under 15) and cheap to check with one pass over the text.
 */
export const MAX_PROMQL_BRACKET_DEPTH = 256;

/**
 * After how many problems checking a PrometheusRule stops: its verdict lists no more (verdict-bounds.ts), and an
 * object of 30,000 invalid rules is not worth checking to the end.
 */
export const MAX_RULE_PROBLEMS = MAX_VERDICT_PROBLEMS;

/**
 * Least bytes the rule file spends on an entry besides its strings: `- name: ` for a group, `- expr: ` for a
 * rule (every rule that can be written has an expr), `: ` and a line break for a label or annotation.
 */
const GROUP_BYTES = 8;
const RULE_BYTES = 8;
const ENTRY_BYTES = 3;

/**
 * Why `spec` (a PrometheusRule's spec) holds more text than its rule file could: at the first expression, label
 * or annotation that alone is over MAX_RULE_TEXT_BYTES, else at `spec` with the total. The total is a lower bound
 * of the rule file's size (strings counted as their UTF-8 bytes, which YAML never writes shorter, and fields a
 * Prometheus version drops are not counted), so nothing under it is refused here. Undefined when within bounds.
 * Reads only the shape it expects; anything else is left for the checks that follow.
 */
export function ruleTextProblem(spec: unknown, maxBytes: number = MAX_RULE_TEXT_BYTES): FieldProblem | undefined {
  if (!isRecord(spec) || !Array.isArray(spec.groups)) return undefined;
  let total = 0;
  let single: { path: string; bytes: number; what: string } | undefined;
  const count = (value: unknown, path: string, what: string): void => {
    if (typeof value !== 'string') return;
    const bytes = Buffer.byteLength(value);
    total += bytes;
    if (!single && bytes > maxBytes) single = { path, bytes, what };
  };
  spec.groups.forEach((group: unknown, groupIndex) => {
    total += GROUP_BYTES;
    if (!isRecord(group)) return;
    const groupPath = `spec.groups[${groupIndex}]`;
    count(group.name, `${groupPath}.name`, 'the group name');
    if (!Array.isArray(group.rules)) return;
    group.rules.forEach((rule: unknown, ruleIndex) => {
      total += RULE_BYTES;
      if (!isRecord(rule)) return;
      const path = `${groupPath}.rules[${ruleIndex}]`;
      count(rule.expr, `${path}.expr`, 'the expression');
      count(rule.alert, `${path}.alert`, 'the alert name');
      count(rule.record, `${path}.record`, 'the record name');
      for (const field of ['labels', 'annotations'] as const) {
        const map = rule[field];
        if (!isRecord(map)) continue;
        for (const [name, value] of Object.entries(map)) {
          total += ENTRY_BYTES + Buffer.byteLength(name);
          count(value, keyPath(`${path}.${field}`, name), field === 'labels' ? 'the label' : 'the annotation');
        }
      }
    });
  });
  const why = `a rule file holds at most ${formatCount(maxBytes)} bytes (half of a ConfigMap), so promop would refuse its file anyway`;
  if (single) return { path: single.path, message: `${single.what} is ${formatCount(single.bytes)} bytes; ${why}` };
  if (total > maxBytes) return { path: 'spec', message: `its rules hold at least ${formatCount(total)} bytes of text; ${why}; split it into several PrometheusRules` };
  return undefined;
}

/**
 * The offset of the first bracket in `expr` nested deeper than `maxDepth`, or undefined. One pass over the text,
 * no tokens: brackets inside string literals (`"…"` and `'…'` with backslash escapes, `` `…` `` without) and
 * `#` comments do not count. An unbalanced expression is measured as far as it goes; the parser reports it.
 */
export function tooDeepBracketOffset(expr: string, maxDepth: number = MAX_PROMQL_BRACKET_DEPTH): number | undefined {
  let depth = 0;
  for (let index = 0; index < expr.length; index += 1) {
    const char = expr[index];
    if (char === '"' || char === "'" || char === '`') {
      index = endOfString(expr, index, char);
    } else if (char === '#') {
      const end = expr.indexOf('\n', index);
      index = end < 0 ? expr.length : end;
    } else if (char === '(' || char === '[' || char === '{') {
      depth += 1;
      if (depth > maxDepth) return index;
    } else if (char === ')' || char === ']' || char === '}') {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

/** The offset of the quote closing the string that opens at `start`, or the end of `text`. */
function endOfString(text: string, start: number, quote: string): number {
  for (let index = start + 1; index < text.length; index += 1) {
    if (text[index] === quote) return index;
    if (text[index] === '\\' && quote !== '`') index += 1;
  }
  return text.length;
}
