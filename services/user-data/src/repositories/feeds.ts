import { createHash, randomBytes } from 'node:crypto';
import type { Db, Queryable } from '@ct/store';

/** Only the hash of a feed token is stored; the token itself is shown to the student once. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** 32 random bytes, URL-safe: unguessable. */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A student's calendar link as stored (never its token); null when they have none (`presentFeedStatus`). */
export interface FeedRow {
  created_at: Date;
  last_used_at: Date | null;
}

/** SQL for private calendar links; the only place that touches user_data.calendar_feed. */
export class CalendarFeedRepository {
  constructor(private readonly db: Db) {}

  async status(userId: string, q: Queryable = this.db): Promise<FeedRow | null> {
    const r = await q.query<FeedRow>(
      'SELECT created_at, last_used_at FROM user_data.calendar_feed WHERE user_id = $1',
      [userId],
    );
    return r.rows[0] ?? null;
  }

  /** A new token for the student; any earlier one stops working at once. */
  async rotate(userId: string): Promise<{ token: string; created_at: Date }> {
    const token = newToken();
    const r = await this.db.query<{ created_at: Date }>(
      `INSERT INTO user_data.calendar_feed (user_id, token_hash) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = now(), last_used_at = NULL
       RETURNING created_at`,
      [userId, hashToken(token)],
    );
    return { token, created_at: r.rows[0]!.created_at };
  }

  async revoke(userId: string, q: Queryable = this.db): Promise<boolean> {
    return (await q.query('DELETE FROM user_data.calendar_feed WHERE user_id = $1', [userId])).rowCount > 0;
  }

  /** Whose feed a token opens (and notes the use), or null. */
  async userForToken(token: string): Promise<string | null> {
    const r = await this.db.query<{ user_id: string }>(
      `UPDATE user_data.calendar_feed SET last_used_at = now() WHERE token_hash = $1 RETURNING user_id`,
      [hashToken(token)],
    );
    return r.rows[0]?.user_id ?? null;
  }
}
