/** Names the delivery Lambda publishes under and the pipeline's alarm watches (infra/webhooks-pipeline.ts). */
export const METRICS_NAMESPACE = 'Brigade';
export const DEAD_DELIVERIES_METRIC = 'WebhookDeliveriesDead';
