import type { Queryable } from '@ct/store';

/** How the hourly AI allowance is shared among students (issue 35.4). */
export interface ShareRules {
  /** AI calls all students together may book in one clock hour (`AI_CALLS_PER_HOUR`). */
  perHour: number;
  /** The most one student may book in one hour, in percent of `perHour` (at least one call). */
  studentPercent: number;
  /** The part of each hour kept for students' first request of the day, in percent of `perHour`. */
  reservePercent: number;
}

/** Hours ahead a booking may go; past them the request is refused (the allowance is spent for a day). */
export const HOURS_AHEAD = 24;

const HOUR_MS = 3_600_000;

/** One student's booking: the hour the work may start (now, or a later hour it waits for). */
export interface Booking {
  hour: Date;
  /** From the reserve for first requests of the day */
  reserve: boolean;
  /** True when the hour is a later one: the work waits until `hour`. */
  waits: boolean;
}

/** A student's share of an hour, and the reserve, in calls. */
export function shares(rules: ShareRules): { student: number; reserve: number } {
  const student = Math.max(1, Math.floor((rules.perHour * rules.studentPercent) / 100));
  const reserve = Math.min(rules.perHour - 1, Math.floor((rules.perHour * rules.reservePercent) / 100));
  return { student, reserve: Math.max(0, reserve) };
}

/**
 * Where a booking fits: the first hour from now in which the student is under their share and the hour
 * under its allowance. A first request of the day may take the reserve; any other fits only in the
 * general part of the hour. Pure, so the rules can be read (and tested) apart from the SQL.
 */
export function placeBooking(
  rules: ShareRules,
  firstOfDay: boolean,
  hours: ReadonlyArray<{ total: number; general: number; mine: number }>,
): { at: number; reserve: boolean } | null {
  const { student, reserve } = shares(rules);
  const general = rules.perHour - reserve;
  for (let at = 0; at < hours.length; at++) {
    const h = hours[at]!;
    if (h.mine >= student || h.total >= rules.perHour) continue;
    if (h.general < general) return { at, reserve: false };
    if (firstOfDay) return { at, reserve: true };
  }
  return null;
}

/**
 * Bookings of the hourly AI allowance, one row per piece of AI work a student's request starts. The
 * circuit breaker (`AiBudget`) still counts the calls really made; the bookings keep any student, or a
 * few, from spending an hour for everyone, and keep work from spilling into an hour already full.
 */
export class AiShareRepository {
  constructor(readonly rules: ShareRules) {}

  /**
   * Books one piece of AI work for a student, inside the caller's transaction (serialised with every
   * other booking). Null when no hour within a day has room: the caller refuses the request.
   */
  async book(uid: string, work: string, tx: Queryable): Promise<Booking | null> {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('colleges:ai-share'))");
    const now = await tx.query<{ hour: Date | string; first: boolean }>(
      `SELECT date_trunc('hour', now()) AS hour,
         NOT EXISTS (SELECT 1 FROM colleges.ai_booking
                     WHERE uid = $1 AND booked_at > date_trunc('day', now())) AS first`,
      [uid],
    );
    const start = new Date(now.rows[0]!.hour);
    const counts = await tx.query<{ hour: Date | string; total: number; general: number; mine: number }>(
      `SELECT hour, count(*)::int AS total, (count(*) FILTER (WHERE NOT reserve))::int AS general,
         (count(*) FILTER (WHERE uid = $2))::int AS mine
       FROM colleges.ai_booking WHERE hour >= $1 GROUP BY hour`,
      [start, uid],
    );
    const hours = Array.from({ length: HOURS_AHEAD }, () => ({ total: 0, general: 0, mine: 0 }));
    for (const r of counts.rows) {
      const at = Math.round((new Date(r.hour).getTime() - start.getTime()) / HOUR_MS);
      if (at >= 0 && at < HOURS_AHEAD) hours[at] = { total: r.total, general: r.general, mine: r.mine };
    }
    const placed = placeBooking(this.rules, now.rows[0]!.first, hours);
    if (!placed) return null;
    const hour = new Date(start.getTime() + placed.at * HOUR_MS);
    await tx.query(`INSERT INTO colleges.ai_booking (uid, hour, reserve, work) VALUES ($1, $2, $3, $4)`, [
      uid,
      hour,
      placed.reserve,
      work,
    ]);
    // Bookings of past days are of no use any more.
    await tx.query(`DELETE FROM colleges.ai_booking WHERE hour < now() - interval '2 days'`);
    return { hour, reserve: placed.reserve, waits: placed.at > 0 };
  }
}
