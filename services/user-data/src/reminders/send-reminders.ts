import type { Deps } from '../deps.ts';
import { UD_MSG } from '../messages.ts';
import { reminderDay } from '../deadlines/next-deadlines.ts';
import { wallTimeToUtc, zoneById } from '../deadlines/zones.ts';
import { dueText, upcomingDeadlines, type UpcomingDeadline } from './deadline-source.ts';
import { REFUSED, type PushSender, type ReminderPayload } from './push.ts';

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

/** Pushes in flight at once in one pass: a push service that hangs holds one slot, not the pass. */
export const PUSH_CONCURRENCY = 32;
/** A pass stops claiming new reminders after this long; what it left is due at the next pass. */
export const PASS_BUDGET_MS = 5 * 60_000;

export interface PassOptions {
  /** Pushes in flight at once. */
  concurrency?: number;
  /** How long the pass may claim new reminders. */
  budgetMs?: number;
}

/**
 * The reminder job, one pass: for each student with a device subscribed and reminders on, each applicable
 * deadline and each lead time whose moment has come, claims the reminder (a row: the one process that
 * inserts it sends it, so a restart or a second replica sends nothing again) and pushes it to every device.
 * Pushes run side by side (at most `concurrency`), so devices whose push service never answers cost one
 * timeout in all, not one each in turn before every other student's reminder (issue 50.6); past the
 * budget no new reminder is claimed, and the next pass takes them. A device the push service no longer
 * knows (404, 410), or whose endpoint the push-service rule refuses, is dropped.
 */
export async function sendDueReminders(
  deps: Deps,
  send: PushSender,
  now = new Date(),
  opts: PassOptions = {},
): Promise<{ sent: number; dropped: number; deferred: boolean }> {
  const started = Date.now();
  const budgetMs = opts.budgetMs ?? PASS_BUDGET_MS;
  const pool = new SendPool(opts.concurrency ?? PUSH_CONCURRENCY);
  let sent = 0;
  let dropped = 0;
  let deferred = false;
  const push = async (sub: Parameters<PushSender>[0], payload: ReminderPayload) => {
    const status = await send(sub, payload);
    if (status === 404 || status === 410 || status === REFUSED) {
      await deps.reminders.dropEndpoint(sub.endpoint);
      dropped++;
    } else if (status >= 200 && status < 300) sent++;
    else deps.ctx.log.warn({ status }, 'a push service refused a reminder');
  };
  students: for (const student of await deps.reminders.activeStudents()) {
    // One student's failure (an account deleted mid-pass: its rows are refused) skips that student only.
    try {
      const deadlines = await upcomingDeadlines(deps, student.user_id, now);
      for (const d of deadlines) {
        for (const lead of student.lead_days) {
          const at = reminderMoment(d, lead);
          if (now < at || now.getTime() - at.getTime() > LATE_LIMIT_MS) continue;
          if (Date.now() - started > budgetMs) {
            deferred = true;
            break students;
          }
          const key = `${d.collegeName}|${d.kind}|${d.dueAt.toISOString()}`;
          if (!(await deps.reminders.claim(student.user_id, key, lead))) continue;
          const payload = reminderPayload(d, lead);
          for (const sub of await deps.reminders.subscriptions(student.user_id)) {
            await pool.add(() => push(sub, payload));
          }
        }
      }
    } catch (err) {
      deps.ctx.log.warn({ err }, 'reminders of one student skipped');
    }
  }
  await pool.drain();
  if (deferred)
    deps.ctx.log.warn({ budgetMs }, 'reminder pass over its budget: the rest go at the next pass');
  return { sent, dropped, deferred };
}

/** At most `limit` sends in flight; `add` waits for a free slot, `drain` for every send. */
class SendPool {
  private readonly running = new Set<Promise<void>>();
  constructor(private readonly limit: number) {}

  async add(task: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.limit) await Promise.race(this.running);
    const p: Promise<void> = task()
      .catch(() => {})
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }

  async drain(): Promise<void> {
    await Promise.all(this.running);
  }
}

/**
 * Runs `pass` on every tick, but never two at once in this process: a tick that comes while a pass still
 * runs is skipped (issue 50.6). Across replicas the claims keep each reminder once.
 */
export function nonOverlapping(pass: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  return async () => {
    if (running) return;
    running = pass().finally(() => {
      running = null;
    });
    await running;
  };
}
