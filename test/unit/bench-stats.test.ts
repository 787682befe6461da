import { describe, expect, it } from 'vitest';
import { paired, t95 } from '../../bench/lib/stats';

describe('bench statistics', () => {
  it("t95 is Student's two-sided 95 % quantile (tabulated values)", () => {
    expect(t95(5)).toBeCloseTo(2.570582, 3);
    expect(t95(9)).toBeCloseTo(2.262157, 3);
    expect(t95(19)).toBeCloseTo(2.093024, 4);
    expect(t95(199)).toBeCloseTo(1.971957, 5);
  });

  it('paired differences: mean, sample standard deviation, mean ± t·sd/√n, pairs above and below', () => {
    const p = paired([3, 5, 7, 9, 4], [1, 2, 3, 4, 6]);
    // differences 2, 3, 4, 5, −2: mean 2.4, squared deviations 0.16 + 0.36 + 2.56 + 6.76 + 19.36 = 29.2
    expect(p.n).toBe(5);
    expect(p.mean).toBeCloseTo(2.4, 12);
    expect(p.sd).toBeCloseTo(Math.sqrt(29.2 / 4), 12);
    const half = (t95(4) * Math.sqrt(29.2 / 4)) / Math.sqrt(5);
    expect(p.low).toBeCloseTo(2.4 - half, 12);
    expect(p.high).toBeCloseTo(2.4 + half, 12);
    expect([p.won, p.lost]).toEqual([4, 1]);
  });

  it('ties count neither way, and equal samples give a zero-width interval at 0', () => {
    const p = paired([2, 2, 2], [2, 2, 2]);
    expect([p.mean, p.sd, p.low, p.high, p.won, p.lost]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('refuses samples of different lengths', () => {
    expect(() => paired([1, 2], [1])).toThrow(/paired samples of 2 and 1/);
  });
});
