import { parseByteSize } from './byte-size.ts';
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

describe('byte sizes', () => {
  it.each([
    ['0', 0],
    ['10MB', 10 * 1024 ** 2],
    ['1GiB', 1024 ** 3],
    ['512KB', 512 * 1024],
    ['100B', 100],
    ['1.5MB', 1.5 * 1024 ** 2],
  ])('%s is %d bytes', (text, bytes) => {
    expect(parseByteSize(text)).toBe(bytes);
  });

  it.each(['10', 'MB', '10mb', '10 MB', ''])('%j is not a size', (text) => {
    expect(parseByteSize(text)).toBeUndefined();
  });
});
