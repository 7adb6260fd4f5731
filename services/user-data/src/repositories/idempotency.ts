import type { Queryable } from '@ct/store';

/** A write's id as stored: pending (status null) while it is being applied, then its reply. */
export interface IdempotentWriteRow {
  route: string;
  status: number | null;
  reply: unknown;
}

/** SQL for the ids of writes already applied (user_data.idempotent_write). */
export class IdempotencyRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Claims an id for a write: true when this call is the first with it (the write goes ahead); false
   * when it was seen before (`find` then says whether its reply is ready).
   */
  async claim(uid: string, key: string, route: string): Promise<boolean> {
    // A claim left pending by a process that stopped mid-write is given up after a minute.
    await this.db.query(
      `DELETE FROM user_data.idempotent_write
       WHERE uid = $1 AND key = $2 AND status IS NULL AND created_at < now() - interval '1 minute'`,
      [uid, key],
    );
    const r = await this.db.query(
      `INSERT INTO user_data.idempotent_write (uid, key, route) VALUES ($1, $2, $3)
       ON CONFLICT (uid, key) DO NOTHING`,
      [uid, key, route],
    );
    return r.rowCount === 1;
  }

  async find(uid: string, key: string): Promise<IdempotentWriteRow | null> {
    const r = await this.db.query<IdempotentWriteRow>(
      'SELECT route, status, reply FROM user_data.idempotent_write WHERE uid = $1 AND key = $2',
      [uid, key],
    );
    return r.rows[0] ?? null;
  }

  /** Keeps the reply of an applied write, for a repeat of it. */
  async complete(uid: string, key: string, status: number, reply: unknown): Promise<void> {
    await this.db.query(
      'UPDATE user_data.idempotent_write SET status = $3, reply = $4 WHERE uid = $1 AND key = $2',
      [uid, key, status, JSON.stringify(reply)],
    );
  }

  /** A write that was refused or failed: its id may be used again. */
  async release(uid: string, key: string): Promise<void> {
    await this.db.query('DELETE FROM user_data.idempotent_write WHERE uid = $1 AND key = $2', [uid, key]);
  }

  /** Forgets ids older than `days`. */
  async purge(days: number): Promise<number> {
    const r = await this.db.query(
      `DELETE FROM user_data.idempotent_write WHERE created_at < now() - make_interval(days => $1)`,
      [days],
    );
    return r.rowCount ?? 0;
  }

  /** A deleted account's ids go with it. */
  async forget(uid: string, tx: Queryable): Promise<void> {
    await tx.query('DELETE FROM user_data.idempotent_write WHERE uid = $1', [uid]);
  }
}
