/** KnownContents (pure): which cached versions of promop's Secrets and ConfigMaps are known to hold a body. */
import { KnownContents } from './known-contents.ts';

const version = (resourceVersion: string, uid = 'u1', name = 'prometheus-main') => ({ metadata: { namespace: 'monitoring', name, uid, resourceVersion } });

describe('KnownContents', () => {
  it('holds exactly the noted version with the noted hash', () => {
    const known = new KnownContents();
    known.note('Secret', version('5').metadata, 'h1');
    expect(known.holds('Secret', version('5'), 'h1')).toBe(true);
    expect(known.holds('Secret', version('6'), 'h1')).toBe(false); // someone wrote since, or the cache lags
    expect(known.holds('Secret', version('5'), 'h2')).toBe(false); // another body is wanted now
    expect(known.holds('Secret', version('5', 'u2'), 'h1')).toBe(false); // deleted and made again
    expect(known.holds('ConfigMap', version('5'), 'h1')).toBe(false);
    expect(known.holds('Secret', version('5', 'u1', 'other'), 'h1')).toBe(false);
    expect(known.holds('Secret', undefined, 'h1')).toBe(false);
  });

  it('keeps the latest note per object and forgets a deleted one, even while a stale cache still shows it', () => {
    const known = new KnownContents();
    known.note('Secret', version('5').metadata, 'h1');
    known.note('Secret', version('7').metadata, 'h2');
    expect(known.holds('Secret', version('5'), 'h1')).toBe(false);
    expect(known.holds('Secret', version('7'), 'h2')).toBe(true);
    known.forget('Secret', 'monitoring', 'prometheus-main');
    expect(known.holds('Secret', version('7'), 'h2')).toBe(false);
  });

  it('notes nothing without a uid and resourceVersion', () => {
    const known = new KnownContents();
    known.note('Secret', { namespace: 'monitoring', name: 'prometheus-main' }, 'h1');
    expect(known.holds('Secret', { metadata: { namespace: 'monitoring', name: 'prometheus-main' } }, 'h1')).toBe(false);
  });
});
