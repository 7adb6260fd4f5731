import type { Db, Queryable } from '@ct/store';
import { DEFAULT_LEAD_DAYS } from '@ct/contracts';

export interface PushSubscriptionRow {
  endpoint: string;
  user_id: string;
  p256dh: string;
  auth: string;
}

/** Devices one student may have reminders on (issue 50.6): a phone, a laptop, a tablet and some to spare. */
export const MAX_PUSH_DEVICES = 10;

export interface ReminderSettingsRow {
  lead_days: number[];
  paused: boolean;
}

/** SQL for push subscriptions, reminder settings and the record of reminders sent. */
export class ReminderRepository {
  constructor(private readonly db: Db) {}

  /**
   * Saves a device's subscription for the student (issue 50.2, 50.6). A device already subscribed for
   * another account moves only when the request proves it is that device (the same `p256dh` and `auth`
   * keys, which only the browser holds): an endpoint alone, which a push service may show in logs, takes
   * nothing over. The student's newest `MAX_PUSH_DEVICES` devices are kept; an older one is forgotten.
   * False when the endpoint belongs to another account and the keys do not match (nothing is changed).
   */
  async subscribe(uid: string, s: { endpoint: string; p256dh: string; auth: string }): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const r = await tx.query(
        `INSERT INTO user_data.push_subscription (endpoint, user_id, p256dh, auth) VALUES ($1, $2, $3, $4)
         ON CONFLICT (endpoint) DO UPDATE SET user_id = $2, p256dh = $3, auth = $4, created_at = now()
         WHERE push_subscription.user_id = $2
            OR (push_subscription.p256dh = $3 AND push_subscription.auth = $4)`,
        [s.endpoint, uid, s.p256dh, s.auth],
      );
      if (r.rowCount !== 1) return false;
      await tx.query(
        `DELETE FROM user_data.push_subscription WHERE endpoint IN (
           SELECT endpoint FROM user_data.push_subscription WHERE user_id = $1
           ORDER BY (endpoint = $2) DESC, created_at DESC, endpoint OFFSET $3)`,
        [uid, s.endpoint, MAX_PUSH_DEVICES],
      );
      return true;
    });
  }

  async unsubscribe(uid: string, endpoint: string): Promise<void> {
    await this.db.query('DELETE FROM user_data.push_subscription WHERE user_id = $1 AND endpoint = $2', [
      uid,
      endpoint,
    ]);
  }

  /** A subscription the push service says is gone (404 or 410). */
  async dropEndpoint(endpoint: string): Promise<void> {
    await this.db.query('DELETE FROM user_data.push_subscription WHERE endpoint = $1', [endpoint]);
  }

  async subscriptions(uid: string, db: Queryable = this.db): Promise<PushSubscriptionRow[]> {
    const r = await db.query<PushSubscriptionRow>(
      'SELECT endpoint, user_id, p256dh, auth FROM user_data.push_subscription WHERE user_id = $1',
      [uid],
    );
    return r.rows;
  }

  /** Students with at least one device subscribed and reminders not paused, with their lead times. */
  async activeStudents(): Promise<Array<{ user_id: string; lead_days: number[] }>> {
    const r = await this.db.query<{ user_id: string; lead_days: number[] | null }>(
      `SELECT DISTINCT s.user_id, r.lead_days FROM user_data.push_subscription s
       LEFT JOIN user_data.reminder_settings r ON r.user_id = s.user_id
       WHERE r.paused IS NOT TRUE`,
    );
    return r.rows.map((x) => ({ user_id: x.user_id, lead_days: x.lead_days ?? DEFAULT_LEAD_DAYS }));
  }

  async settings(uid: string, db: Queryable = this.db): Promise<ReminderSettingsRow | null> {
    const r = await db.query<ReminderSettingsRow>(
      'SELECT lead_days, paused FROM user_data.reminder_settings WHERE user_id = $1',
      [uid],
    );
    return r.rows[0] ?? null;
  }

  async saveSettings(uid: string, s: { leadDays?: number[]; paused?: boolean }): Promise<void> {
    await this.db.query(
      `INSERT INTO user_data.reminder_settings (user_id, lead_days, paused)
       VALUES ($1, COALESCE($2::int[], $4::int[]), COALESCE($3, false))
       ON CONFLICT (user_id) DO UPDATE SET lead_days = COALESCE($2::int[], reminder_settings.lead_days),
         paused = COALESCE($3, reminder_settings.paused), updated_at = now()`,
      [uid, s.leadDays ?? null, s.paused ?? null, DEFAULT_LEAD_DAYS],
    );
  }

  /**
   * Claims one reminder (student, deadline, lead time): true for the one caller that may send it, false
   * when it was sent already (by this process before a restart, or by another replica).
   */
  async claim(uid: string, deadlineKey: string, leadDays: number): Promise<boolean> {
    const r = await this.db.query(
      `INSERT INTO user_data.reminder_sent (user_id, deadline_key, lead_days) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING`,
      [uid, deadlineKey, leadDays],
    );
    return r.rowCount === 1;
  }

  async sentCount(uid: string): Promise<number> {
    const r = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM user_data.reminder_sent WHERE user_id = $1',
      [uid],
    );
    return r.rows[0]!.n;
  }

  /** A deleted account's devices, settings and record go with it. */
  async forget(uid: string, tx: Queryable): Promise<void> {
    await tx.query('DELETE FROM user_data.push_subscription WHERE user_id = $1', [uid]);
    await tx.query('DELETE FROM user_data.reminder_settings WHERE user_id = $1', [uid]);
    await tx.query('DELETE FROM user_data.reminder_sent WHERE user_id = $1', [uid]);
  }
}
