import type { Db } from '@ct/store';

/**
 * The global circuit breaker on AI calls: at most `perHour` calls in any 60 minutes, counted per minute
 * in the database, so every worker process (and every replica of this service) shares one count.
 */
export class AiBudget {
  constructor(
    private readonly db: Db,
    readonly perHour: number,
  ) {}

  /** Calls made in the last hour. */
  async used(): Promise<number> {
    const r = await this.db.query<{ n: number }>(
      `SELECT coalesce(sum(calls), 0)::int AS n FROM colleges.ai_call WHERE minute > now() - interval '1 hour'`,
    );
    return r.rows[0]?.n ?? 0;
  }

  /** True when the limit is spent: new AI work waits. */
  async spent(): Promise<boolean> {
    return (await this.used()) >= this.perHour;
  }

  /**
   * Counts one call when the limit allows it; false (and nothing counted) when it is spent. Serialised
   * by a transaction-scoped lock, so concurrent callers never go over the limit together.
   */
  async take(): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('colleges:ai-budget'))");
      const r = await tx.query<{ n: number }>(
        `SELECT coalesce(sum(calls), 0)::int AS n FROM colleges.ai_call WHERE minute > now() - interval '1 hour'`,
      );
      if ((r.rows[0]?.n ?? 0) >= this.perHour) return false;
      await tx.query(
        `INSERT INTO colleges.ai_call (minute, calls) VALUES (date_trunc('minute', now()), 1)
         ON CONFLICT (minute) DO UPDATE SET calls = colleges.ai_call.calls + 1`,
      );
      // Minutes older than the window are of no use any more.
      await tx.query(`DELETE FROM colleges.ai_call WHERE minute < now() - interval '2 hours'`);
      return true;
    });
  }
}
