/** Durations as Prometheus' model.Duration prints them, which is how prometheus-operator writes Alertmanager's. */

const DURATION_UNITS: ReadonlyArray<[unit: string, ms: number, exact: boolean]> = [
  ['y', 365 * 24 * 3600_000, true],
  ['w', 7 * 24 * 3600_000, true],
  ['d', 24 * 3600_000, false],
  ['h', 3600_000, false],
  ['m', 60_000, false],
  ['s', 1000, false],
  ['ms', 1, false],
];

/** Milliseconds as model.Duration prints them (`90s` is `1m30s`): years and weeks only when they divide exactly. */
export function formatModelDuration(ms: number): string {
  if (ms === 0) return '0s';
  let rest = ms;
  let text = '';
  for (const [unit, size, exact] of DURATION_UNITS) {
    if (exact && rest % size !== 0) continue;
    const count = Math.floor(rest / size);
    if (count > 0) {
      text += `${count}${unit}`;
      rest -= count * size;
    }
  }
  return text;
}
