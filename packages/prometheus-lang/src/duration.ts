/**
 * Prometheus durations (`30s`, `1m30s`, `1h`, `0`), as Prometheus' model.ParseDuration reads
 * them: units in descending order, each at most once, integers only. The one parser of them in promop: PromQL
 * ranges and offsets use it, the generator's checks, and the controller (through the generator's exports), to
 * compare what it wrote with what Prometheus serves back in its own canonical form (`60s` comes back as `1m`) and
 * to read retention periods. The CRD schemas' DURATION_PATTERN (@promop/crds) is the same grammar as a pattern.
 */

const DURATION = /^(?:(\d+)y)?(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;
const UNIT_MS = [365 * 24 * 3600_000, 7 * 24 * 3600_000, 24 * 3600_000, 3600_000, 60_000, 1000, 1];
// model.Duration is an int64 of nanoseconds; beyond that Prometheus reports an overflow.
const MAX_MS = Number(2n ** 63n / 1_000_000n);

/** Milliseconds of a Prometheus duration, or undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  if (text === '') return undefined;
  const match = DURATION.exec(text);
  if (!match) return undefined;
  let total = 0;
  for (let i = 0; i < UNIT_MS.length; i++) {
    const part = match[i + 1];
    if (part !== undefined) total += Number(part) * (UNIT_MS[i] ?? 0);
  }
  if (!Number.isSafeInteger(total) || total > MAX_MS) return undefined;
  return total;
}
