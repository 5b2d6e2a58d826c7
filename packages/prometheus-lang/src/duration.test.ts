import { parseDuration } from './duration.ts';

describe('Prometheus durations', () => {
  it.each([
    ['30s', 30_000],
    ['1m30s', 90_000],
    ['1h', 3_600_000],
    ['2d', 172_800_000],
    ['1w', 604_800_000],
    ['1y', 31_536_000_000],
    ['500ms', 500],
    ['0', 0],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '5 minutes', '1.5s', '30', 's', '1s1m', '-1s', '1h 1m', '999999999999y'])('%j is not a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
