import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ShareScope } from '@ct/contracts/share';
import type { Db, Queryable } from '@ct/store';
import { lockUser } from './colleges.ts';

/** A share link as stored (never its token; `presentShareLink` makes the API's shape of it). */
export interface ShareLinkRow {
  id: string;
  user_id: string;
  label: string;
  scope: ShareScope[];
  display_name: string;
  email: string | null;
  created_at: Date;
  expires_at: Date;
  last_viewed_at: Date | null;
  view_count: number;
}

/** A link a view opened: the row, and whether this view is within the link's limit for the minute. */
export interface ShareView {
  link: ShareLinkRow;
  allowed: boolean;
  /** Seconds until the link's minute ends (when a view is refused). */
  retryAfterS: number;
}

const COLUMNS =
  'id::text AS id, user_id, label, scope, display_name, email, created_at, expires_at, last_viewed_at, view_count';

/** Only the SHA-256 of a token is stored, as for the calendar feed. */
function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** 32 random bytes, URL-safe (43 characters: the logs' URL redaction masks it). */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SQL for share links; the only place that touches user_data.share_link. */
export class ShareLinkRepository {
  constructor(private readonly db: Db) {}

  /** The student's links still alive, newest first. */
  async listLinks(userId: string, q: Queryable = this.db): Promise<ShareLinkRow[]> {
    const r = await q.query<ShareLinkRow>(
      `SELECT ${COLUMNS} FROM user_data.share_link WHERE user_id = $1 AND expires_at > now()
       ORDER BY created_at DESC, id DESC`,
      [userId],
    );
    return r.rows;
  }

  /**
   * A new link, in one transaction: the student's expired links are forgotten, then the link is made
   * unless they hold `max` already ('full'). The token is returned this once.
   */
  async createLink(
    userId: string,
    link: {
      label: string;
      scope: readonly ShareScope[];
      displayName: string;
      email: string | null;
      days: number;
    },
    max: number,
  ): Promise<{ row: ShareLinkRow; token: string } | 'full'> {
    return this.db.transaction(async (tx) => {
      await lockUser(tx, 'share-links', userId);
      await tx.query('DELETE FROM user_data.share_link WHERE user_id = $1 AND expires_at <= now()', [userId]);
      const c = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM user_data.share_link WHERE user_id = $1',
        [userId],
      );
      if ((c.rows[0]?.n ?? 0) >= max) return 'full';
      const token = newToken();
      const r = await tx.query<ShareLinkRow>(
        `INSERT INTO user_data.share_link (user_id, token_hash, label, scope, display_name, email, expires_at)
         VALUES ($1, $2, $3, $4::text[], $5, $6, now() + make_interval(days => $7::int))
         RETURNING ${COLUMNS}`,
        [userId, hashToken(token), link.label, [...link.scope], link.displayName, link.email, link.days],
      );
      return { row: r.rows[0]!, token };
    });
  }

  /** Kills a link of the student's at once; false when they have no such link. */
  async revokeLink(userId: string, id: string): Promise<boolean> {
    const r = await this.db.query('DELETE FROM user_data.share_link WHERE user_id = $1 AND id::text = $2', [
      userId,
      id,
    ]);
    return r.rowCount > 0;
  }

  async deleteAllLinks(userId: string, tx: Queryable): Promise<number> {
    return (await tx.query('DELETE FROM user_data.share_link WHERE user_id = $1', [userId])).rowCount;
  }

  /**
   * The live link a token opens, counting the view (last viewed, views, and the minute's window for the
   * limit of `perMinute`), or null for an unknown, revoked or expired token. A view past the limit is not
   * counted as a view and comes back with `allowed: false`.
   */
  async openLink(token: string, perMinute: number): Promise<ShareView | null> {
    const hash = hashToken(token);
    const r = await this.db.query<
      ShareLinkRow & { token_hash: string; window_views: number; retry_after: number }
    >(
      `UPDATE user_data.share_link SET
         window_start = CASE WHEN window_start <= now() - interval '1 minute' THEN now() ELSE window_start END,
         window_views = CASE WHEN window_start <= now() - interval '1 minute' THEN 1 ELSE window_views + 1 END,
         view_count = view_count +
           CASE WHEN window_start <= now() - interval '1 minute' OR window_views < $2 THEN 1 ELSE 0 END,
         last_viewed_at = CASE WHEN window_start <= now() - interval '1 minute' OR window_views < $2
           THEN now() ELSE last_viewed_at END
       WHERE token_hash = $1 AND expires_at > now()
       RETURNING ${COLUMNS}, token_hash, window_views,
         greatest(1, ceil(extract(epoch FROM window_start + interval '1 minute' - now())))::int AS retry_after`,
      [hash, perMinute],
    );
    const row = r.rows[0];
    // The row was found by its hash; comparing the hashes again in constant time keeps the check itself
    // free of timing differences whatever the database's index does.
    if (!row || !sameHash(row.token_hash, hash)) return null;
    const { token_hash: _hash, window_views, retry_after, ...link } = row;
    return { link, allowed: window_views <= perMinute, retryAfterS: retry_after };
  }
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
