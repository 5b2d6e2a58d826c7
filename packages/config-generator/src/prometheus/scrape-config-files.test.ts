/**
 * Packing generated jobs into scrape files, with small limits so each rule is visible: own jobs first, the rest
 * passed on to the next slot's room, one wrap-around, a clear reason when they cannot fit; and the file names that
 * follow the content.
 */
import { homeSlot, packScrapeJobs, SCRAPE_FILE_HEADER, scrapeFile, type RenderedJob } from './scrape-config-files.ts';

const HEADER = Buffer.byteLength(SCRAPE_FILE_HEADER);

/** A job of `bytes` bytes whose monitor lives in slot `home`. */
function job(name: string, home: number, bytes: number): RenderedJob {
  return { home, name, segments: [`- job_name: ${name}\n`], bytes };
}

function names(slots: RenderedJob[][]): string[][] {
  return slots.map((jobs) => jobs.map((each) => each.name));
}

describe('packing scrape jobs into slots', () => {
  const limits = { slots: 3, maxFileBytes: HEADER + 100 };

  it('puts every job into its home slot, in order, when each slot has room', () => {
    const packing = packScrapeJobs([job('a', 2, 40), job('b', 0, 40), job('c', 2, 60), job('d', 1, 100)], limits);
    expect(packing.ok && names(packing.slots)).toEqual([['b'], ['d'], ['a', 'c']]);
  });

  it('passes what does not fit on to the next slot\'s room, after that slot\'s own jobs', () => {
    const packing = packScrapeJobs([job('a', 0, 60), job('b', 0, 30), job('c', 0, 30), job('d', 1, 50)], limits);
    expect(packing.ok && names(packing.slots)).toEqual([['a', 'b'], ['d', 'c'], []]);
  });

  it('keeps a slot\'s own prefix and passes on the rest even if a later own job would fit (no reordering)', () => {
    const packing = packScrapeJobs([job('a', 0, 60), job('big', 0, 50), job('small', 0, 10)], limits);
    expect(packing.ok && names(packing.slots)).toEqual([['a'], ['big', 'small'], []]);
  });

  it('wraps around once: what is left after the last slot goes into the first slot with room', () => {
    const packing = packScrapeJobs([job('a', 2, 90), job('b', 2, 40), job('c', 1, 100)], limits);
    expect(packing.ok && names(packing.slots)).toEqual([['b'], ['c'], ['a']]);
  });

  it('says how large the jobs are and what the files hold when they do not fit', () => {
    const packing = packScrapeJobs([job('a', 0, 100), job('b', 1, 100), job('c', 2, 100), job('d', 0, 1)], limits);
    expect(packing).toEqual({ ok: false, reason: 'the 4 generated scrape jobs are 0.00 MiB, more than the 3 scrape files of 0.1 KiB promop mounts hold' });
  });

  it('names a single job too large for any file', () => {
    expect(packScrapeJobs([job('huge', 0, 101)], limits)).toEqual({ ok: false, reason: 'job huge alone is 0.1 KiB, more than a scrape file holds (0.1 KiB)' });
  });

  it('is deterministic: the same jobs in the same order give the same slots', () => {
    const jobs = Array.from({ length: 40 }, (_, index) => job(`j${index}`, index % 3, 7 + (index % 5)));
    expect(JSON.stringify(packScrapeJobs(jobs, limits))).toBe(JSON.stringify(packScrapeJobs(jobs.map((each) => ({ ...each })), limits)));
  });
});

describe('a monitor\'s home slot', () => {
  it('depends only on its kind, namespace and name', () => {
    expect(homeSlot('ServiceMonitor/team-a/api', 64)).toBe(homeSlot('ServiceMonitor/team-a/api', 64));
    expect(homeSlot('ServiceMonitor/team-a/api', 64)).toBeLessThan(64);
  });

  it('spreads 10,000 monitors evenly over 64 slots (each within 25% of the mean)', () => {
    const counts = new Array<number>(64).fill(0);
    for (let index = 0; index < 10_000; index += 1) counts[homeSlot(`ServiceMonitor/team-${index % 1000}/app-${index}`, 64)]! += 1;
    const mean = 10_000 / 64;
    expect(Math.max(...counts)).toBeLessThan(mean * 1.25);
    expect(Math.min(...counts)).toBeGreaterThan(mean * 0.75);
  });
});

describe('a scrape file', () => {
  it('starts with scrape_configs, and is named after its slot and an HMAC of its text', () => {
    const file = scrapeFile(7, '- job_name: a\n', ['a'], 'uid-1');
    expect(file).toEqual({ slot: 7, name: expect.stringMatching(/^scrape-07-[0-9a-f]{16}\.yaml$/), text: 'scrape_configs:\n- job_name: a\n', jobNames: ['a'] });
  });

  it('gets another name when its text or the key changes, and the same name otherwise', () => {
    const name = (text: string, key: string) => scrapeFile(3, text, [], key).name;
    expect(name('- job_name: a\n', 'uid-1')).toBe(name('- job_name: a\n', 'uid-1'));
    expect(name('- job_name: b\n', 'uid-1')).not.toBe(name('- job_name: a\n', 'uid-1'));
    expect(name('- job_name: a\n', 'uid-2')).not.toBe(name('- job_name: a\n', 'uid-1'));
  });
});
