// What the reminder pass and the weekly e-mail pass share (issue 45): due work is taken from an index in
// batches (each batch claimed in one transaction, so replicas take disjoint ones), and sent side by side
// with a bound on what is in flight, until nothing is due or the pass's budget is spent.

/** How a pass may be tuned (tests and benchmarks; the service uses the defaults). */
export interface PassOptions {
  /** Sends in flight at once. */
  concurrency?: number;
  /** How long the pass may take new batches. */
  budgetMs?: number;
}

/** At most `limit` sends in flight; `add` waits for a free slot, `drain` for every send. */
export class SendPool {
  private readonly running = new Set<Promise<void>>();
  constructor(private readonly limit: number) {}

  async add(task: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.limit) await Promise.race(this.running);
    const p: Promise<void> = task()
      .catch(() => {})
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }

  async drain(): Promise<void> {
    await Promise.all(this.running);
  }
}

/**
 * Takes batches with `take` (null: nothing more is due) and runs `each` on every item of each batch, at
 * most `concurrency` at once, until `take` has nothing or the clock passes `until`; then waits for what is
 * in flight. The next batch is taken while the last one's sends still run, so the sends never wait for
 * the database. `deferred`: the budget ran out with work perhaps still due (the next pass takes it).
 * `each` handles its own failures; one that throws anyway costs only its own item.
 */
export async function fanOut<T>(
  take: () => Promise<readonly T[] | null>,
  each: (item: T) => Promise<void>,
  opts: { concurrency: number; until: number },
): Promise<{ deferred: boolean }> {
  const pool = new SendPool(opts.concurrency);
  let deferred = false;
  try {
    for (;;) {
      if (Date.now() > opts.until) {
        deferred = true;
        break;
      }
      const batch = await take();
      if (!batch) break;
      for (const item of batch) await pool.add(() => each(item));
    }
  } finally {
    // A take that throws (the database went away) still lets the claimed sends finish.
    await pool.drain();
  }
  return { deferred };
}

/**
 * Writes what is added in batches, one write at a time: what comes while a write runs goes in the next
 * one. Under load that is a few statements a second; when a process dies, at most one write's worth was
 * done but not yet written. `flush` waits until everything added so far is written. A failed write is
 * logged by the caller's `write` and its items are not tried again here (their leases run out instead).
 */
export class GroupCommit<T> {
  private pending: T[] = [];
  private writing: Promise<void> | null = null;
  constructor(private readonly write: (items: T[]) => Promise<void>) {}

  add(item: T): void {
    this.pending.push(item);
    if (!this.writing) this.writing = this.drain();
  }

  private async drain(): Promise<void> {
    while (this.pending.length) {
      const items = this.pending;
      this.pending = [];
      await this.write(items).catch(() => {});
    }
    this.writing = null;
  }

  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }
}
