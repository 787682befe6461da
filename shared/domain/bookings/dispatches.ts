/**
 * Kitchen dispatches: an order is sent to the kitchen as one dispatch per
 * coursing (one when it names none), each moving forward through pending → accepted → preparing →
 * ready → served. `reversed` is reached only by unseating, from pending or accepted. Pure.
 */
import { conflict } from '../../errors';
import { kitchenFlow, type DispatchStatus, type KitchenStatus } from '../../schemas/bookingStates';

export { kitchenFlow, type DispatchStatus, type KitchenStatus } from '../../schemas/bookingStates';

/** The kitchen has started on it: seating can no longer be undone. */
export const isPastAccepted = (status: DispatchStatus) =>
  status === 'preparing' || status === 'ready' || status === 'served';

/** A dispatch may move forward (a step may be skipped, e.g. ready → served at the pass); never back, never out of reversed. */
export function assertDispatchMove(from: DispatchStatus, to: KitchenStatus): void {
  if (from === 'reversed') throw conflict('A reversed dispatch cannot change');
  if (kitchenFlow.indexOf(to) <= kitchenFlow.indexOf(from))
    throw conflict(`A dispatch that is ${from} cannot move to ${to}`);
}

/** Groups an order's lines by coursing, in the order the coursings first appear; lines without one form their own group. */
export function groupByCoursing<L extends { coursingId: string | null }>(
  lines: readonly L[],
): { coursingId: string | null; lines: L[] }[] {
  const groups = new Map<string | null, L[]>();
  for (const line of lines) groups.set(line.coursingId, [...(groups.get(line.coursingId) ?? []), line]);
  return [...groups].map(([coursingId, grouped]) => ({ coursingId, lines: grouped }));
}
