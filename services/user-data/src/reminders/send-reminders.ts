import type { Deps } from '../deps.ts';
import { UD_MSG } from '../messages.ts';
import { reminderDay } from '../deadlines/next-deadlines.ts';
import { wallTimeToUtc, zoneById } from '../deadlines/zones.ts';
import { dueText, upcomingDeadlines, type UpcomingDeadline } from './deadline-source.ts';
import type { PushSender, ReminderPayload } from './push.ts';

/** Reminders go at 9 in the morning where the deadline is due. */
const SEND_AT_HOUR = 9;
/** A reminder whose moment passed longer ago than this (the service was down) is not sent late. */
const LATE_LIMIT_MS = 20 * 3_600_000;

/** When the reminder `lead` days before a deadline is due to go. */
export function reminderMoment(d: UpcomingDeadline, lead: number): Date {
  // The zone comes from the deadlines' own table (deadlines/zones.ts), so it is always one it knows.
  const zone = zoneById(d.zone) ?? zoneById('America/New_York')!;
  return new Date(wallTimeToUtc(zone, reminderDay(d.date, lead), SEND_AT_HOUR, 0));
}

/** What the phone shows: the college, the kind of deadline, its date and time with the zone. */
export function reminderPayload(d: UpcomingDeadline, lead: number): ReminderPayload {
  const when = dueText(d);
  return {
    title: UD_MSG.reminderTitle(d.collegeName, d.kind),
    body: UD_MSG.reminderBody(when, lead),
    url: `/usercolleges?college=${encodeURIComponent(d.collegeName)}`,
    tag: `${d.collegeName}|${d.kind}|${d.date}|${lead}`,
  };
}

/**
 * The reminder job, one pass: for each student with a device subscribed and reminders on, each applicable
 * deadline and each lead time whose moment has come, claims the reminder (a row: the one process that
 * inserts it sends it, so a restart or a second replica sends nothing again) and pushes it to every device.
 * A device the push service no longer knows (404, 410) is dropped.
 */
export async function sendDueReminders(
  deps: Deps,
  send: PushSender,
  now = new Date(),
): Promise<{ sent: number; dropped: number }> {
  let sent = 0;
  let dropped = 0;
  for (const student of await deps.reminders.activeStudents()) {
    // One student's failure (an account deleted mid-pass: its rows are refused) skips that student only.
    try {
      const deadlines = await upcomingDeadlines(deps, student.user_id, now);
      for (const d of deadlines) {
        for (const lead of student.lead_days) {
          const at = reminderMoment(d, lead);
          if (now < at || now.getTime() - at.getTime() > LATE_LIMIT_MS) continue;
          const key = `${d.collegeName}|${d.kind}|${d.dueAt.toISOString()}`;
          if (!(await deps.reminders.claim(student.user_id, key, lead))) continue;
          const payload = reminderPayload(d, lead);
          for (const sub of await deps.reminders.subscriptions(student.user_id)) {
            const status = await send(sub, payload);
            if (status === 404 || status === 410) {
              await deps.reminders.dropEndpoint(sub.endpoint);
              dropped++;
            } else if (status >= 200 && status < 300) sent++;
            else deps.ctx.log.warn({ status }, 'a push service refused a reminder');
          }
        }
      }
    } catch (err) {
      deps.ctx.log.warn({ err }, 'reminders of one student skipped');
    }
  }
  return { sent, dropped };
}
