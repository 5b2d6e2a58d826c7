/**
 * Prometheus durations (`30s`, `1m30s`, `1h`): Prometheus re-serialises the durations it loaded in its own
 * canonical form (`60s` is served back as `1m`), so a comparison of what we wrote with what it reports must
 * compare the durations' lengths, not their text.
 */

const UNIT_MS: Record<string, number> = { y: 365 * 24 * 3600_000, w: 7 * 24 * 3600_000, d: 24 * 3600_000, h: 3600_000, m: 60_000, s: 1000, ms: 1 };
// Prometheus' model.ParseDuration grammar: units largest first, each at most once; `0` alone is allowed.
const DURATION = /^(?:(\d+)y)?(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;
const UNITS = ['y', 'w', 'd', 'h', 'm', 's', 'ms'] as const;

/** The length of a Prometheus duration in milliseconds, or undefined when `text` is not one. */
export function durationMs(text: string): number | undefined {
  if (text === '0') return 0;
  if (text === '') return undefined;
  const match = DURATION.exec(text);
  if (match === null) return undefined;
  let total = 0;
  UNITS.forEach((unit, index) => {
    const amount = match[index + 1];
    if (amount !== undefined) total += Number(amount) * UNIT_MS[unit]!;
  });
  return total;
}
