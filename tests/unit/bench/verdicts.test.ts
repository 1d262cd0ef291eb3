import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { isSteady, spreadOf, target } from '../../../bench/targets.js';

describe("the bench's verdict on a target", () => {
  let log: MockInstance<typeof console.log>;
  beforeEach(() => {
    log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());
  const printed = (): string => log.mock.calls.map((c) => c.join(' ')).join('\n');

  it('judges a ratio of medians whose runs held one speed', () => {
    expect(
      target('extract (LZ77) into disk', 691, 'cp -r into disk', 549, 1.1, [
        [670, 702],
        [544, 553],
      ]),
    ).toBe(false);
    expect(
      target('extract (LZ77) into tmpfs', 651, 'HPIDump', 807, 1.5, [
        [640, 700],
        [790, 830],
      ]),
    ).toBe(true);
    expect(target('no runs given', 10, 'ref', 10, 1)).toBe(true);
    expect(target('far under its reference', 1130, 'lzpak', 436_500, 2)).toBe(true);
    expect(printed()).toMatch(/^✗ extract \(LZ77\) into disk .* 1\.26× cp -r into disk \(549 ms\), target ≤ 1\.1×$/m);
    expect(printed()).toMatch(/^✓ extract \(LZ77\) into tmpfs /m);
    expect(printed()).toMatch(/^✓ far under its reference .* = 0\.0026× lzpak /m);
  });

  it('withholds it when either set of runs changed speed: a slowed reference made a false ✓', () => {
    // A run of the bench in this state: cp -r 553 ms / 1.83 s, its median 1.61 s.
    expect(
      target('extract (LZ77) into disk', 655, 'cp -r into disk', 1610, 1.1, [
        [640, 700],
        [553, 1830],
      ]),
    ).toBeNull();
    expect(
      target('extract (zlib) into disk', 922, 'cp -r into disk', 549, 1.1, [
        [800, 2500],
        [544, 553],
      ]),
    ).toBeNull();
    expect(printed()).toMatch(/^\? extract \(LZ77\) into disk .* 0\.41× .*: not judged, the runs were unsteady$/m);
    expect(printed()).not.toMatch(/^[✓✗]/m);
  });

  it('calls a set steady while its slowest run is at most 1.5 times its fastest', () => {
    expect(isSteady([544, 553])).toBe(true);
    expect(isSteady([500, 750])).toBe(true);
    expect(isSteady([500, 751])).toBe(false);
    // cp -r onto disk in a run whose rows read 1.00× ✓ and 1.10× ✗ against its median of 746 ms.
    expect(isSteady([559, 1060])).toBe(false);
  });

  it('sets one slow run aside in a set of five, and none in a set of three', () => {
    // cp -r onto disk in a bench run of this stop: one run of five met a slow spell of the VM.
    const five = [528, 541, 560, 566, 4290];
    expect(spreadOf(five)).toEqual([528, 566]);
    expect(isSteady(spreadOf(five))).toBe(true);
    // Two slow runs of five still leave the set unjudged.
    expect(isSteady(spreadOf([528, 541, 560, 1800, 4290]))).toBe(false);
    expect(spreadOf([557, 600, 3660])).toEqual([557, 3660]);
    expect(isSteady(spreadOf([557, 600, 3660]))).toBe(false);
  });
});
