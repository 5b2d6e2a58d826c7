/**
 * Prometheus durations (`30s`, `1h30m`, `0`) as its config and rule files accept them: units in
 * decreasing order, each at most once, integers only. Go's `time.ParseDuration` syntax (`1.5h`)
 * is refused by Prometheus, so it is refused here too.
 */

const PROMETHEUS_DURATION = /^(?:(\d+)y)?(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;

/** True when Prometheus parses `text` as a duration (`model.ParseDuration`). */
export function isValidPrometheusDuration(text: string): boolean {
  if (text === '0') return true;
  return text !== '' && PROMETHEUS_DURATION.test(text);
}

/** True when `text` is a valid duration other than zero (`0`, `0s`, `0m0s`...). */
export function isNonZeroDuration(text: string): boolean {
  return isValidPrometheusDuration(text) && /[1-9]/.test(text);
}
