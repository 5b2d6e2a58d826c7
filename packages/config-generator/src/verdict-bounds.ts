/**
 * A verdict's size, bounded. A verdict becomes the object's status (every problem joined into one condition
 * message, bindings.ts) and an Event, and both are written through the API server, which refuses a request over
 * 3 MiB and etcd an object over 1.5 MiB. A rejected object can repeat its own input in its problems (a 1 MiB
 * regex quoted back, 10,000 relabelings each with its own problem: 2 MB of message), so without a bound a hostile
 * object's status could never be written, and promop would try again and again.
 */
import type { FieldProblem, Verdict } from './model.ts';
import { formatCount, shortenedTo } from '@promop/prometheus-lang';

/** The most problems a verdict lists (and then one note saying how many more there were): enough to fix an object. */
export const MAX_VERDICT_PROBLEMS = 20;

/** The most characters of one problem's message or one warning: far beyond any sentence promop writes itself. */
export const MAX_VERDICT_TEXT_CHARS = 1_000;

/**
 * `verdict` itself when it is within the bounds (so the controller still recognises an unchanged verdict by
 * identity), else a copy with the first MAX_VERDICT_PROBLEMS problems (a note says how many more there were) and
 * warnings, each text cut to MAX_VERDICT_TEXT_CHARS. A verdict already ending in one note is left with it.
 */
export function boundedVerdict(verdict: Verdict): Verdict {
  if (!verdict.selected) {
    return verdict.reason.length <= MAX_VERDICT_TEXT_CHARS ? verdict : { ...verdict, reason: shortened(verdict.reason) };
  }
  const warnings = boundedTexts(verdict.warnings);
  if (verdict.accepted) return warnings === verdict.warnings ? verdict : { ...verdict, warnings };
  const problems = boundedProblems(verdict.problems);
  if (problems === verdict.problems && warnings === verdict.warnings) return verdict;
  const first = problems[0]!;
  return { ...verdict, reason: `${first.path}: ${first.message}`, problems, warnings };
}

function boundedProblems(problems: FieldProblem[]): FieldProblem[] {
  const tooMany = problems.length > MAX_VERDICT_PROBLEMS + 1;
  const tooLong = problems.some((problem) => problem.message.length > MAX_VERDICT_TEXT_CHARS || problem.path.length > MAX_VERDICT_TEXT_CHARS);
  if (!tooMany && !tooLong) return problems;
  const kept = (tooMany ? problems.slice(0, MAX_VERDICT_PROBLEMS) : problems).map((problem) => ({ path: shortened(problem.path), message: shortened(problem.message) }));
  if (tooMany) kept.push({ path: 'spec', message: `and ${formatCount(problems.length - MAX_VERDICT_PROBLEMS)} more problems not listed; fix these first` });
  return kept;
}

function boundedTexts(texts: string[]): string[] {
  if (texts.length <= MAX_VERDICT_PROBLEMS && texts.every((text) => text.length <= MAX_VERDICT_TEXT_CHARS)) return texts;
  const kept = texts.slice(0, MAX_VERDICT_PROBLEMS).map(shortened);
  if (texts.length > MAX_VERDICT_PROBLEMS) kept.push(`and ${formatCount(texts.length - MAX_VERDICT_PROBLEMS)} more warnings not listed`);
  return kept;
}

function shortened(text: string): string {
  return shortenedTo(text, MAX_VERDICT_TEXT_CHARS);
}
