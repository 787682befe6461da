/**
 * Waiting for an outcome without a clock. Whoever changes what a test looks at (a receiver that
 * takes or answers a request) calls `changed()`; the test awaits `until(probe)`, which checks now
 * and again after each change. Nothing sleeps, so a test neither waits longer than it must nor
 * guesses how long is enough; if the outcome never comes, the test's own timeout says so.
 */
export class Changes {
  private readonly waiters = new Set<() => void>();

  /** Something the probes look at changed: check them again. */
  changed(): void {
    for (const wake of [...this.waiters]) wake();
  }

  /** Resolves with what `probe` finds (anything but undefined or false), as soon as it finds it. */
  async until<T>(probe: () => T | undefined | false): Promise<T> {
    for (;;) {
      const found = probe();
      if (found !== undefined && found !== false) return found;
      await new Promise<void>((wake) => {
        const once = () => {
          this.waiters.delete(once);
          wake();
        };
        this.waiters.add(once);
      });
    }
  }
}
