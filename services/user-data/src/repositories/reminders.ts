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

/** One reminder of the index: whose, for which deadline and lead time, when, and what the phone shows. */
export interface DueReminder {
  userId: string;
  deadlineKey: string;
  leadDays: number;
  dueAt: Date;
  payload: { title: string; body: string; url: string; tag: string };
}

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

  /** The reminders sent to a student, as `<deadline key>\u0000<lead days>`. */
  async sentKeys(uid: string): Promise<Set<string>> {
    const r = await this.db.query<{ deadline_key: string; lead_days: number }>(
      'SELECT deadline_key, lead_days FROM user_data.reminder_sent WHERE user_id = $1',
      [uid],
    );
    return new Set(r.rows.map((x) => `${x.deadline_key}\u0000${x.lead_days}`));
  }

  /** A deleted account's devices, settings, index and record go with it. */
  async forget(uid: string, tx: Queryable): Promise<void> {
    await tx.query('DELETE FROM user_data.push_subscription WHERE user_id = $1', [uid]);
    await tx.query('DELETE FROM user_data.reminder_settings WHERE user_id = $1', [uid]);
    await tx.query('DELETE FROM user_data.reminder_sent WHERE user_id = $1', [uid]);
    await tx.query('DELETE FROM user_data.reminder_due WHERE user_id = $1', [uid]);
    // Last: the deletions above marked the student stale (migration 170's triggers).
    await tx.query('DELETE FROM user_data.reminder_stale WHERE user_id = $1', [uid]);
  }

  // ---- the reminder index (migration 170) ----

  /**
   * Leases up to `limit` students whose reminders must be worked out again, oldest mark first, for
   * `leaseMs` (another replica takes others meanwhile; a lease that runs out, a crash, is taken again).
   */
  async leaseStale(limit: number, leaseMs: number): Promise<Array<{ user_id: string; since: string }>> {
    // `since` as text: a JS Date would drop its microseconds, and the mark would never match again.
    const r = await this.db.query<{ user_id: string; since: string }>(
      `UPDATE user_data.reminder_stale SET leased_until = clock_timestamp() + $2 * interval '1 millisecond'
       WHERE user_id IN (
         SELECT user_id FROM user_data.reminder_stale
         WHERE leased_until IS NULL OR leased_until < clock_timestamp()
         ORDER BY since LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING user_id, since::text AS since`,
      [limit, leaseMs],
    );
    return r.rows;
  }

  /**
   * Replaces a student's index rows with `due` and removes their stale mark, unless it was set again
   * since `since` (a change that came while this refresh worked: it is worked out again).
   */
  async replaceDue(uid: string, since: string, due: DueReminder[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      // A reminder being pushed keeps its lease: no other replica takes it meanwhile.
      const leased = await tx.query<{ deadline_key: string; lead_days: number; leased_until: string }>(
        `DELETE FROM user_data.reminder_due WHERE user_id = $1
         RETURNING deadline_key, lead_days, leased_until::text AS leased_until`,
        [uid],
      );
      const leases = new Map(
        leased.rows
          .filter((r) => r.leased_until)
          .map((r) => [`${r.deadline_key}\u0000${r.lead_days}`, r.leased_until]),
      );
      if (due.length)
        await tx.query(
          `INSERT INTO user_data.reminder_due (user_id, deadline_key, lead_days, due_at, payload, leased_until)
           SELECT $1, k, l, d, p, u
           FROM unnest($2::text[], $3::int[], $4::timestamptz[], $5::jsonb[], $6::timestamptz[]) AS x(k, l, d, p, u)
           ON CONFLICT DO NOTHING`,
          [
            uid,
            due.map((d) => d.deadlineKey),
            due.map((d) => d.leadDays),
            due.map((d) => d.dueAt.toISOString()),
            due.map((d) => JSON.stringify(d.payload)),
            due.map((d) => leases.get(`${d.deadlineKey}\u0000${d.leadDays}`) ?? null),
          ],
        );
      await tx.query('DELETE FROM user_data.reminder_stale WHERE user_id = $1 AND since = $2::timestamptz', [
        uid,
        since,
      ]);
    });
  }

  /**
   * Leases up to `limit` reminders due by `now` for `leaseMs` (rows other replicas hold, or lease, are
   * skipped): each is pushed by the one caller that leased it, then claimed with `markSent`. A lease that
   * runs out (its replica died mid-push) lets another pass take it again. Rows more than `lateMs` past
   * their moment are dropped unsent (the service was down that long), and rows already claimed are
   * dropped. A student whose account is being deleted is left out (their rows go with the deletion).
   */
  async takeDue(now: Date, limit: number, lateMs: number, leaseMs: number): Promise<DueReminder[]> {
    return this.db.transaction(async (tx) => {
      const picked = await tx.query<{
        user_id: string;
        deadline_key: string;
        lead_days: number;
        due_at: Date;
        payload: DueReminder['payload'];
      }>(
        `UPDATE user_data.reminder_due d SET leased_until = clock_timestamp() + $3 * interval '1 millisecond'
         FROM (SELECT user_id, deadline_key, lead_days FROM user_data.reminder_due
               WHERE due_at <= $1 AND (leased_until IS NULL OR leased_until < clock_timestamp())
               ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED) p
         WHERE (d.user_id, d.deadline_key, d.lead_days) = (p.user_id, p.deadline_key, p.lead_days)
         RETURNING d.user_id, d.deadline_key, d.lead_days, d.due_at, d.payload`,
        [now, limit, leaseMs],
      );
      if (!picked.rows.length) return [];
      const rows = picked.rows.map((r) => ({
        userId: r.user_id,
        deadlineKey: r.deadline_key,
        leadDays: r.lead_days,
        dueAt: new Date(r.due_at),
        payload: r.payload,
      }));
      const late = (r: DueReminder) => now.getTime() - r.dueAt.getTime() > lateMs;
      // Dropped: too late, already claimed (sent before a refresh put it back), or of a student leaving.
      const dropped = await tx.query<{ user_id: string; deadline_key: string; lead_days: number }>(
        `DELETE FROM user_data.reminder_due d
         USING unnest($1::text[], $2::text[], $3::int[], $4::bool[]) AS x(u, k, l, late)
         WHERE (d.user_id, d.deadline_key, d.lead_days) = (x.u, x.k, x.l)
           AND (x.late OR user_data.is_deleted_student(x.u) OR EXISTS (
             SELECT 1 FROM user_data.reminder_sent s
             WHERE (s.user_id, s.deadline_key, s.lead_days) = (x.u, x.k, x.l)))
         RETURNING d.user_id, d.deadline_key, d.lead_days`,
        [
          rows.map((r) => r.userId),
          rows.map((r) => r.deadlineKey),
          rows.map((r) => r.leadDays),
          rows.map(late),
        ],
      );
      const gone = new Set(dropped.rows.map((r) => reminderId(r.user_id, r.deadline_key, r.lead_days)));
      return rows.filter((r) => !gone.has(reminderId(r.userId, r.deadlineKey, r.leadDays)));
    });
  }

  /**
   * Claims pushed reminders in reminder_sent and takes them out of the index, in one statement: a
   * reminder is claimed once, ever, so neither a later pass nor a refresh sends it again.
   */
  async markSent(
    done: ReadonlyArray<Pick<DueReminder, 'userId' | 'deadlineKey' | 'leadDays'>>,
  ): Promise<void> {
    if (!done.length) return;
    await this.db.query(
      `WITH gone AS (
         DELETE FROM user_data.reminder_due d USING unnest($1::text[], $2::text[], $3::int[]) AS x(u, k, l)
         WHERE (d.user_id, d.deadline_key, d.lead_days) = (x.u, x.k, x.l)
         RETURNING d.user_id, d.deadline_key, d.lead_days)
       INSERT INTO user_data.reminder_sent (user_id, deadline_key, lead_days)
       SELECT user_id, deadline_key, lead_days FROM gone WHERE NOT user_data.is_deleted_student(user_id)
       ON CONFLICT DO NOTHING`,
      [done.map((r) => r.userId), done.map((r) => r.deadlineKey), done.map((r) => r.leadDays)],
    );
  }

  /** The devices of several students at once, by student. */
  async subscriptionsOf(uids: readonly string[]): Promise<Map<string, PushSubscriptionRow[]>> {
    const r = await this.db.query<PushSubscriptionRow>(
      'SELECT endpoint, user_id, p256dh, auth FROM user_data.push_subscription WHERE user_id = ANY($1::text[])',
      [uids],
    );
    const out = new Map<string, PushSubscriptionRow[]>();
    for (const row of r.rows) out.set(row.user_id, [...(out.get(row.user_id) ?? []), row]);
    return out;
  }
}

const reminderId = (uid: string, key: string, lead: number) => `${uid}\u0000${key}\u0000${lead}`;
