/**
 * The log of webhook delivery attempts: `C#<cid>#WHSUB#<subscriptionId>` / `ATTEMPT#<startedAt>#<id>`,
 * kept as long as the events. The log shares its subscription's partition, and `SUBSCRIPTION` sorts
 * after `ATTEMPT#…`: a page read newest first from the top meets the subscription item first, so
 * one Query answers both "does the subscription exist" and the page.
 */
import { Type, type Static } from '../schemas/typebox';
import type { Page } from '../page';
import { DeliveryAttemptView } from '../schemas/webhooks';
import type { Item } from './batch';
import { defineEntity, extendView } from './entity';
import { keptAsEvents } from './outbox';
import { logPage, readLog, type PageRequest, type QuerySpan } from './paging';
import { putStep, type Step } from './transact';
import { subscriptionEntity } from './webhookSubscriptions';

/**
 * One attempt to deliver, as the attempts log shows it (`status`: what the attempt left the
 * delivery in: delivered, failed (another attempt follows) or dead): declared by DeliveryAttemptView.
 */
export type DeliveryAttempt = Static<typeof DeliveryAttemptView>;

/** An attempt as the log stores it: with the subscription whose partition holds it. */
const LoggedAttempt = extendView(DeliveryAttemptView, { subscriptionId: Type.String() });

const ATTEMPT_PREFIX = 'ATTEMPT#';

const attemptEntity = defineEntity({
  name: 'WEBHOOK_ATTEMPT',
  label: 'delivery attempt',
  key: (companyId: number, subscriptionId: string, startedAt: string, id: string) => ({
    pk: subscriptionEntity.key(companyId, subscriptionId).pk,
    sk: `${ATTEMPT_PREFIX}${startedAt}#${id}`,
  }),
  schema: LoggedAttempt,
  keyOf: (companyId, a) => [companyId, a.subscriptionId, a.startedAt, a.id] as const,
  indexes: (_companyId, a) => ({ ttl: keptAsEvents(a.startedAt) }),
});

/** What the API shows of a logged attempt: all but the subscription, which the request named. */
const shown = (item: Item): DeliveryAttempt => {
  const { subscriptionId: _subscriptionId, ...attempt } = attemptEntity.from(item);
  return attempt;
};

export const attempts = {
  /** The attempt's log entry, as a step of the transaction that records the attempt's outcome. */
  logStep: (companyId: number, subscriptionId: string, attempt: DeliveryAttempt): Step =>
    putStep(attemptEntity.item(companyId, { ...attempt, subscriptionId })),

  /** A page of a subscription's attempts, newest first; undefined when the subscription does not exist. */
  async page(companyId: number, subscriptionId: string, req: PageRequest): Promise<Page<DeliveryAttempt> | undefined> {
    const subscription = subscriptionEntity.key(companyId, subscriptionId);
    const span: QuerySpan = {
      partition: subscription.pk,
      range: { op: 'between', low: ATTEMPT_PREFIX, high: subscription.sk },
      newestFirst: true,
    };
    // With a cursor the page starts past the subscription item; the cursor itself is checked to
    // be one of this partition (this company, this subscription).
    const read = await readLog(span, req, req.cursor ? 0 : 1);
    if (!req.cursor && read.head[0]?.sk !== subscription.sk) return undefined;
    return logPage(read, shown);
  },
};
