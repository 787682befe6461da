/**
 * Whether this process serves yet (docs/decisions.md, “Health”). The local stage listens before it
 * has seeded (its keys do not exist yet), so it holds readiness from its start until the seed is
 * done and `dev-keys.json` is written; `/ready` answers 503 meanwhile. Nothing holds it on AWS:
 * a deployed function's readiness is its dependencies' alone.
 */
let held: string | null = null;

/** From now on `/ready` answers 503 naming `reason`, until `releaseReadiness()`. */
export function holdReadiness(reason: string): void {
  held = reason;
}

export function releaseReadiness(): void {
  held = null;
}

/** Why the process does not serve yet, or null when nothing holds it. */
export const readinessHeld = (): string | null => held;
