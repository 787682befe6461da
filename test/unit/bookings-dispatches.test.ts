/** Kitchen dispatches (shared/domain/bookings/dispatches.ts): forward only, grouped by coursing. */
import { describe, expect, it } from 'vitest';
import {
  assertDispatchMove,
  groupByCoursing,
  isPastAccepted,
  kitchenFlow,
  type DispatchStatus,
} from '../../shared/domain/bookings/dispatches';

describe('dispatch moves', () => {
  it('go forward, one step or several', () => {
    expect(() => assertDispatchMove('pending', 'accepted')).not.toThrow();
    expect(() => assertDispatchMove('accepted', 'served')).not.toThrow();
  });

  it.each([
    ['accepted', 'pending'],
    ['ready', 'ready'],
    ['served', 'preparing'],
    ['reversed', 'accepted'],
  ] as [DispatchStatus, (typeof kitchenFlow)[number]][])('refuse %s → %s with 409', (from, to) => {
    expect(() => assertDispatchMove(from, to)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  });

  it('are past accepted from preparing on', () => {
    expect(
      ['pending', 'accepted', 'preparing', 'ready', 'served', 'reversed'].filter((s) =>
        isPastAccepted(s as DispatchStatus),
      ),
    ).toEqual(['preparing', 'ready', 'served']);
  });
});

describe('grouping lines by coursing', () => {
  it('makes one group per coursing in order of first appearance, and one for lines without', () => {
    const lines = [
      { coursingId: 'main', n: 1 },
      { coursingId: null, n: 2 },
      { coursingId: 'starter', n: 3 },
      { coursingId: 'main', n: 4 },
    ];
    expect(groupByCoursing(lines)).toEqual([
      { coursingId: 'main', lines: [lines[0], lines[3]] },
      { coursingId: null, lines: [lines[1]] },
      { coursingId: 'starter', lines: [lines[2]] },
    ]);
  });
});
