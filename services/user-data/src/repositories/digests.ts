import { randomBytes } from 'node:crypto';
import type { Queryable } from '@ct/store';

export interface DigestSettingsRow {
  user_id: string;
  enabled: boolean;
  email: string | null;
  zone: string;
  stop_token: string;
}

const COLUMNS = 'user_id, enabled, email, zone, stop_token';

/** SQL for the weekly e-mail: who gets it, where, and the record of the weeks sent. */
export class DigestRepository {
  constructor(private readonly db: Queryable) {}

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

  /** Everyone it is on for. */
  async activeStudents(): Promise<DigestSettingsRow[]> {
    const r = await this.db.query<DigestSettingsRow>(
      `SELECT ${COLUMNS} FROM user_data.digest_settings WHERE enabled ORDER BY user_id`,
    );
    return r.rows;
  }

  /** Whether the student's e-mail of this week went already (a cheap look before its deadlines are read). */
  async sent(uid: string, week: string): Promise<boolean> {
    const r = await this.db.query('SELECT 1 FROM user_data.digest_sent WHERE user_id = $1 AND week = $2', [
      uid,
      week,
    ]);
    return r.rows.length > 0;
  }

  /**
   * Claims one student's digest of one week: true for the one caller that may send it, false when it
   * was sent already (by this process before a restart, or by another replica).
   */
  async claim(uid: string, week: string): Promise<boolean> {
    const r = await this.db.query(
      'INSERT INTO user_data.digest_sent (user_id, week) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [uid, week],
    );
    return r.rowCount === 1;
  }

  /** Gives a claim back when the mail relay refused the message, so that a later pass sends it. */
  async release(uid: string, week: string): Promise<void> {
    await this.db.query('DELETE FROM user_data.digest_sent WHERE user_id = $1 AND week = $2', [uid, week]);
  }

  /** A deleted account's settings and record go with it. */
  async forget(uid: string, tx: Queryable): Promise<void> {
    await tx.query('DELETE FROM user_data.digest_settings WHERE user_id = $1', [uid]);
    await tx.query('DELETE FROM user_data.digest_sent WHERE user_id = $1', [uid]);
  }
}
