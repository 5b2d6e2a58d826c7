import { parseByteSize } from './byte-size.ts';

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
