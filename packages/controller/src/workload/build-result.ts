/**
 * What a workload builder returns: the objects, or the user errors that prevent building them.
 * User errors are values (CONVENTIONS.md); the controller reports them in the Prometheus' status
 * as `Reconciled=False` and does not retry them in a loop.
 */
import type { FieldProblem } from '@promop/config-generator';

/** Built objects, or every problem found (each with its path in the Prometheus object). */
export type BuildResult<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };
