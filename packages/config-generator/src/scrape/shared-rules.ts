/**
 * Relabelings that many jobs carry unchanged (the job-name copy, the namespace/service/pod/container labels, the
 * pod phase filter, the sharding rules, a port filter), made once per distinct set of arguments and shared by
 * every job that has them, deep-frozen.
 *
 * Why: a 10,000-monitor configuration has 20,000 jobs of about eighteen relabelings each; building each one as a
 * new object, serialising it to YAML and hashing that text when a scrape file shares its repeated items
 * (prometheus/scrape-file-text.ts) was a large part of the first render. A shared object is serialised once per
 * process (yaml-output.ts keeps the text of a frozen item), and its text is one string whose hash is computed once.
 * Frozen because it is shared: anything that tried to change one job's copy would change every job's, so a write
 * throws instead.
 */

/** Distinct rules kept; past it the map starts again (ports and label names are the only open-ended arguments). */
const MAX_SHARED_RULES = 10_000;

const rules = new Map<string, Record<string, unknown>>();

/** The rule `make()` builds, made once per `key` (which must name every argument `make` uses) and deep-frozen. */
export function sharedRule(key: string, make: () => Record<string, unknown>): Record<string, unknown> {
  let rule = rules.get(key);
  if (rule === undefined) {
    if (rules.size >= MAX_SHARED_RULES) rules.clear();
    rule = deepFreeze(make());
    rules.set(key, rule);
  }
  return rule;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
