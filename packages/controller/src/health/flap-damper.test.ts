/**
 * FlapDamper alone: a binding whose Healthy reason keeps flipping is held back until its reason holds; a binding
 * that changes now and then is never held.
 */
import { FLAP_CHANGES, FLAP_STABLE_MS, FLAP_WINDOW_MS, FlapDamper } from './flap-damper.ts';

const MINUTE = 60_000;

describe('FlapDamper', () => {
  it('lets the first changes through, then holds a reason that flips every minute until it holds for the stable time', () => {
    const damper = new FlapDamper();
    const seen: boolean[] = [];
    let now = 0;
    // Up, down, up, down... one change a minute.
    for (let minute = 0; minute <= 6; minute += 1, now += MINUTE) seen.push(damper.observe('a', minute % 2 === 0 ? 'TargetsUp' : 'TargetsDown', now));
    // The first observation and FLAP_CHANGES - 1 changes go; from the FLAP_CHANGES-th change on, held.
    expect(seen).toEqual([true, true, true, true, false, false, false]);
    expect(damper.flapping('a', now - MINUTE)).toBe(true);
    // The last flip (minute 6) was to up, and it stays up: written once it held for the stable time.
    const upSince = now - MINUTE;
    for (; now - upSince < FLAP_STABLE_MS; now += 30_000) expect(damper.observe('a', 'TargetsUp', now)).toBe(false);
    expect(damper.observe('a', 'TargetsUp', now)).toBe(true);
    expect(damper.flapping('a', now)).toBe(false);
  });

  it('never holds a binding whose reason changes less often than the window allows', () => {
    const damper = new FlapDamper();
    let now = 0;
    const reasons = ['TargetsUp', 'TargetsDown', 'TargetsUp', 'NoTargets', 'TargetsUp', 'TargetsDown', 'TargetsUp'];
    // One change every FLAP_WINDOW_MS / (FLAP_CHANGES - 1) and a bit: never FLAP_CHANGES within one window.
    const spacing = Math.ceil(FLAP_WINDOW_MS / (FLAP_CHANGES - 1)) + 1_000;
    for (const reason of reasons) {
      expect(damper.observe('a', reason, now)).toBe(true);
      now += spacing;
    }
  });

  it('keeps bindings apart, and forgets those of objects that are gone', () => {
    const damper = new FlapDamper();
    for (let minute = 0; minute < 8; minute += 1) damper.observe('flapping', minute % 2 === 0 ? 'TargetsUp' : 'TargetsDown', minute * MINUTE);
    expect(damper.observe('steady', 'TargetsUp', 8 * MINUTE)).toBe(true);
    expect(damper.flapping('flapping', 7 * MINUTE)).toBe(true);
    damper.retain((id) => id !== 'flapping');
    // Gone and back: a new object, nothing held.
    expect(damper.observe('flapping', 'TargetsDown', 9 * MINUTE)).toBe(true);
  });
});
