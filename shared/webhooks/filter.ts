/**
 * Which stream records enter the webhook pipeline: new outbox items. The EventBridge Pipe gets
 * this pattern as its filter (infra/webhooks-pipeline.ts); the local stage's stream reader applies
 * the same pattern with `matchesPattern`, so both edges select exactly the same records.
 */
export const outboxFilterPattern = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { entity: { S: ['OUTBOX'] } } },
} as const;

type Pattern = readonly unknown[] | { readonly [key: string]: Pattern };

/** EventBridge's matching for the subset the filter uses: objects nest, arrays list exact values. */
export function matchesPattern(pattern: Pattern, value: unknown): boolean {
  if (Array.isArray(pattern)) return pattern.includes(value);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(pattern as Record<string, Pattern>).every(([key, inner]) =>
    matchesPattern(inner, (value as Record<string, unknown>)[key]),
  );
}
