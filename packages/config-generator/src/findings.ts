/** What rendering one object found, shared by every folder of the generator. */
import type { FieldProblem } from './model.ts';

/**
 * Collects what rendering one resource found: problems reject the resource, warnings do not.
 * Messages never contain secret values.
 */
export class Findings {
  readonly problems: FieldProblem[] = [];
  readonly warnings: string[] = [];

  /** Records a problem at `path` (e.g. `spec.endpoints[0].basicAuth.username`). */
  problem(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  /** Records a problem that already carries its path (e.g. from SecretStore). */
  add(problem: FieldProblem): void {
    this.problems.push(problem);
  }

  /** Records a non-fatal note. */
  warn(message: string): void {
    this.warnings.push(message);
  }
}
