/**
 * bcrypt with its comparisons counted, for the tests of key verification. In a test file:
 *
 *   vi.mock('bcryptjs', async (real) => (await import('../support/bcrypt-runs')).countingBcrypt(real));
 *   import { bcryptRuns } from '../support/bcrypt-runs';   // bcryptRuns.count
 *
 * (vi.mock is hoisted above the imports: its factory imports this module itself.)
 */
type Bcrypt = typeof import('bcryptjs');

/** Every bcrypt comparison the code under test ran since the count was last set to 0. */
export const bcryptRuns = { count: 0 };

/** The real module, its `compare` counted. */
export async function countingBcrypt(importOriginal: () => Promise<unknown>) {
  const real = ((await importOriginal()) as { default: Bcrypt }).default;
  return {
    default: {
      ...real,
      compare: (...args: Parameters<Bcrypt['compare']>) => {
        bcryptRuns.count += 1;
        return real.compare(...args);
      },
    },
  };
}
