/**
 * The label matchers of an AlertmanagerConfig's routes and inhibit rules, as the strings of Alertmanager's
 * `matchers` lists (`name="value"`, `name=~"regex"`), which Alertmanager 0.22 and later read. The value is quoted
 * and escaped as Alertmanager's matcher parser unquotes it, so whatever a team writes stays the value it meant;
 * the name must be a classic label name, which Alertmanager reads unquoted in every parsing mode.
 */
import type { AlertmanagerMatcher } from '@promop/crds';
import { checkRegex } from '@promop/prometheus-lang';
import type { Findings } from '../findings.ts';
import { shownValue as shown } from './shown-value.ts';

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const MATCH_TYPES: ReadonlySet<string> = new Set(['=', '!=', '=~', '!~']);

/** `value` inside double quotes, with the escapes Alertmanager's matcher parser reads back (`\\`, `\"`, `\n`). */
function quoted(value: string): string {
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`;
}

/** The matcher `name="value"` (the namespace matcher promop adds to a team's route and inhibit rules). */
export function equalityMatcher(name: string, value: string): string {
  return `${name}=${quoted(value)}`;
}

/**
 * One matcher as Alertmanager's `matchers` list writes it, or undefined with a problem at `path`. Without
 * matchType, `regex: true` (deprecated) means `=~`, as in prometheus-operator.
 */
export function renderMatcher(matcher: AlertmanagerMatcher, path: string, findings: Findings): string | undefined {
  const before = findings.problems.length;
  if (typeof matcher.name !== 'string' || !LABEL_NAME.test(matcher.name)) {
    findings.problem(`${path}.name`, `${shown(matcher.name ?? '')} is not a label name (letters, digits and _, not starting with a digit)`);
  }
  const value = matcher.value ?? '';
  if (typeof value !== 'string') findings.problem(`${path}.value`, 'must be a string');
  const matchType = matcher.matchType ?? (matcher.regex === true ? '=~' : '=');
  if (!MATCH_TYPES.has(matchType)) findings.problem(`${path}.matchType`, `${shown(matchType)} is not one of =, !=, =~, !~`);
  if ((matchType === '=~' || matchType === '!~') && typeof value === 'string') {
    // Alertmanager compiles the value anchored, with Go's regexp: a regex it refuses would fail the whole file.
    const error = checkRegex(value, 'matcher');
    if (error !== undefined) findings.problem(`${path}.value`, error);
  }
  if (findings.problems.length > before) return undefined;
  return `${matcher.name}${matchType}${quoted(value)}`;
}

/** Every matcher of `matchers` (undefined: none), with problems at `<path>[i]`. */
export function renderMatchers(matchers: readonly AlertmanagerMatcher[] | undefined, path: string, findings: Findings): string[] {
  const rendered: string[] = [];
  (matchers ?? []).forEach((matcher, i) => {
    const text = renderMatcher(matcher, `${path}[${i}]`, findings);
    if (text !== undefined) rendered.push(text);
  });
  return rendered;
}
