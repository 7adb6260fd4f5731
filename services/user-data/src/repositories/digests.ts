import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '@ct/store';

export interface DigestSettingsRow {
  user_id: string;
  enabled: boolean;
  email: string | null;
  zone: string;
  stop_token: string;
}

/** A week's e-mail one pass claimed: the one caller that may send it. */
export interface DigestClaim extends DigestSettingsRow {
  /** The Monday (YYYY-MM-DD) it is for, in the student's zone. */
  week: string;
}

const COLUMNS = 'user_id, enabled, email, zone, stop_token';

/** SQL for the weekly e-mail: who gets it, where, and the record of the weeks sent. */
export class DigestRepository {
  constructor(private readonly db: Db) {}

  async settings(uid: string, db: Queryable = this.db): Promise<DigestSettingsRow | null> {
    const r = await db.query<DigestSettingsRow>(
      `SELECT ${COLUMNS} FROM user_data.digest_settings WHERE user_id = $1`,
      [uid],
    );
    return r.rows[0] ?? null;
  }

  /**
   * Turns it on to this address and zone; a student's stop link stays the same across on and off. Its
   * token is 43 characters: the logs mask a run that long in any URL (service-kit/log-url.ts).
   */
  async enable(uid: string, email: string, zone: string): Promise<void> {
    await this.db.query(
      `INSERT INTO user_data.digest_settings (user_id, enabled, email, zone, stop_token)
       VALUES ($1, true, $2, $3, $4)
       ON CONFLICT (user_id) DO UPDATE SET enabled = true, email = $2, zone = $3, updated_at = now()`,
      [uid, email, zone, randomBytes(32).toString('base64url')],
    );
  }

  /** Turns it off and forgets the address. */
  async disable(uid: string): Promise<void> {
    await this.db.query(
      `UPDATE user_data.digest_settings SET enabled = false, email = NULL, updated_at = now()
       WHERE user_id = $1`,
      [uid],
    );
  }

  /** Turns it off for the student whose stop link this is; false for a token no student has. */
  async stopByToken(token: string): Promise<boolean> {
    const r = await this.db.query(
      `UPDATE user_data.digest_settings SET enabled = false, email = NULL, updated_at = now()
       WHERE stop_token = $1`,
      [token],
    );
    return (r.rowCount ?? 0) > 0;
  }

  // ---- the index of when each student's next e-mail is due (migration 171) ----

  /**
   * Takes up to `limit` students whose e-mail is due by `now` (rows other replicas hold are skipped, and
   * so are those whose send failed after `passStarted`: the pass that saw it fail), and in the same
   * transaction moves each one's `due_at` to what `plan` says and claims the week `plan` names in
   * digest_sent: each week of each student is returned to one caller once, ever. A student being deleted
   * is left out (never claimed). Null when nothing is due: then the pass has read only the index.
   */
  async takeDue(
    now: Date,
    limit: number,
    passStarted: Date,
    plan: (student: DigestSettingsRow) => { next: Date; week: string | null },
  ): Promise<DigestClaim[] | null> {
    return this.db.transaction(async (tx) => {
      const due = await tx.query<{ user_id: string }>(
        `SELECT user_id FROM user_data.digest_due
         WHERE due_at <= $1 AND (failed_at IS NULL OR failed_at < $3)
         ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [now, limit, passStarted],
      );
      if (!due.rows.length) return null;
      const ids = due.rows.map((r) => r.user_id);
      const students = await tx.query<DigestSettingsRow>(
        `SELECT ${COLUMNS} FROM user_data.digest_settings
         WHERE user_id = ANY($1::text[]) AND enabled AND email IS NOT NULL`,
        [ids],
      );
      const plans = students.rows.map((s) => ({ student: s, ...plan(s) }));
      await tx.query(
        `UPDATE user_data.digest_due d SET due_at = x.next, failed_at = NULL
         FROM unnest($1::text[], $2::timestamptz[]) AS x(user_id, next) WHERE d.user_id = x.user_id`,
        [plans.map((p) => p.student.user_id), plans.map((p) => p.next.toISOString())],
      );
      // A row whose settings say "off" is not kept (the trigger removes those; this only makes sure).
      if (plans.length < ids.length) {
        const on = new Set(plans.map((p) => p.student.user_id));
        await tx.query('DELETE FROM user_data.digest_due WHERE user_id = ANY($1::text[])', [
          ids.filter((id) => !on.has(id)),
        ]);
      }
      const weeks = plans.filter((p) => p.week !== null);
      if (!weeks.length) return [];
      const claimed = await tx.query<{ user_id: string; week: string }>(
        `INSERT INTO user_data.digest_sent (user_id, week)
         SELECT u, w FROM unnest($1::text[], $2::date[]) AS x(u, w) WHERE NOT user_data.is_deleted_student(u)
         ON CONFLICT DO NOTHING RETURNING user_id, week::text AS week`,
        [weeks.map((p) => p.student.user_id), weeks.map((p) => p.week)],
      );
      const byId = new Map(weeks.map((p) => [p.student.user_id, p.student]));
      return claimed.rows.map((c) => ({ ...byId.get(c.user_id)!, week: c.week }));
    });
  }

  /**
   * Gives a claim back and makes the student due again at `now`, failed at `failedAt` (the mail relay
   * refused the message, or the deadlines could not be read): the next pass sends it, if its week is
   * still on time. One transaction: a crash leaves either the claim (sent, as far as anyone knows) or
   * the student due again, never neither.
   */
  async retry(uid: string, week: string, now: Date, failedAt: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query('DELETE FROM user_data.digest_sent WHERE user_id = $1 AND week = $2', [uid, week]);
      await tx.query('UPDATE user_data.digest_due SET due_at = $2, failed_at = $3 WHERE user_id = $1', [
        uid,
        now,
        failedAt,
      ]);
    });
  }

  /** Gives a claim back: nothing was sent that week (the student had no deadline ahead). */
  async release(uid: string, week: string): Promise<void> {
    await this.db.query('DELETE FROM user_data.digest_sent WHERE user_id = $1 AND week = $2', [uid, week]);
  }

  /** A deleted account's settings, index row and record go with it. */
  async forget(uid: string, tx: Queryable): Promise<void> {
    await tx.query('DELETE FROM user_data.digest_settings WHERE user_id = $1', [uid]);
    await tx.query('DELETE FROM user_data.digest_due WHERE user_id = $1', [uid]);
    await tx.query('DELETE FROM user_data.digest_sent WHERE user_id = $1', [uid]);
  }
}
