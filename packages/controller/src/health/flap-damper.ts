/**
 * Holds back the health of a binding whose summary keeps flipping. A target that goes down and up every minute would
 * otherwise cost a status write (and an AllTargetsDown Warning) every other minute for as long as it flaps, telling
 * the team nothing a stable summary would not. What is counted is the Healthy condition's reason (TargetsUp,
 * TargetsDown, NoTargets, RulesEvaluated, ...), not the counts beside it: a monitor gaining a target is not flapping.
 * Once a binding's reason changed {@link FLAP_CHANGES} times within {@link FLAP_WINDOW_MS}, its health is written
 * again only after its reason has held for {@link FLAP_STABLE_MS}; what the binding said last stays meanwhile. The
 * first changes are written as they come (at most once a minute, health-reporter.ts), so an outage, its end and
 * the next outage are reported at once.
 */

/** Reason changes within {@link FLAP_WINDOW_MS} that make a binding flapping. */
export const FLAP_CHANGES = 4;
/** The window in which reason changes are counted. */
export const FLAP_WINDOW_MS = 10 * 60_000;
/** How long a flapping binding's reason must hold before it is written. */
export const FLAP_STABLE_MS = 3 * 60_000;

interface Observed {
  /** The reason seen last. */
  health: string;
  /** Since when that reason has been seen without a change. */
  since: number;
  /** When the reason changed, within the window. */
  changes: number[];
}

/** What the reporter observed of each binding, round after round. */
export class FlapDamper {
  readonly #observed = new Map<string, Observed>();

  /**
   * Notes that binding `id` shows the Healthy reason `health` at `now`, and says whether its health may be written
   * now: true unless the binding flaps and its reason has not held long enough.
   */
  observe(id: string, health: string, now: number): boolean {
    const seen = this.#observed.get(id);
    if (!seen) {
      this.#observed.set(id, { health, since: now, changes: [] });
      return true;
    }
    if (seen.health !== health) {
      seen.health = health;
      seen.since = now;
      seen.changes.push(now);
    }
    while (seen.changes.length > 0 && now - seen.changes[0]! > FLAP_WINDOW_MS) seen.changes.shift();
    return seen.changes.length < FLAP_CHANGES || now - seen.since >= FLAP_STABLE_MS;
  }

  /** Whether binding `id` is held back now (for logs and tests). */
  flapping(id: string, now: number): boolean {
    const seen = this.#observed.get(id);
    if (!seen) return false;
    const recent = seen.changes.filter((at) => now - at <= FLAP_WINDOW_MS).length;
    return recent >= FLAP_CHANGES && now - seen.since < FLAP_STABLE_MS;
  }

  /** Forgets the bindings `keep` says no (their objects are gone). */
  retain(keep: (id: string) => boolean): void {
    for (const id of this.#observed.keys()) if (!keep(id)) this.#observed.delete(id);
  }
}
