import { DEFAULT_LEAD_DAYS } from '@ct/contracts';
import type { Deps } from '../deps.ts';
import type { DueReminder } from '../repositories/reminders.ts';
import { UD_MSG } from '../messages.ts';
import { reminderDay } from '../deadlines/next-deadlines.ts';
import { wallTimeToUtc, zoneById } from '../deadlines/zones.ts';
import { dueText, upcomingDeadlines, type UpcomingDeadline } from './deadline-source.ts';
import { fanOut, GroupCommit, SendPool, type PassOptions } from './fan-out.ts';
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

/** Pushes in flight at once in one worker: a push service that hangs holds one slot, not the pass. */
export const PUSH_CONCURRENCY = 100;
/** A pass stops taking new reminders after this long; what it left is due at the next pass. */
export const PASS_BUDGET_MS = 5 * 60_000;
/**
 * Reminders taken from the index at once (one transaction), and students worked out at once. A take is
 * as large as the pushes in flight, so a lease waits for at most one round of pushes before its own.
 */
const TAKE_BATCH = PUSH_CONCURRENCY;

const REFRESH_BATCH = 100;
const REFRESH_CONCURRENCY = 16;
/** How long a refresh holds the students it took (another replica takes them after, as after a crash). */
const REFRESH_LEASE_MS = 2 * 60_000;

/**
 * Works out the reminders of the students marked stale (migration 170: their list, plans, deadlines,
 * settings or devices changed) and puts them in the index: every lead time of every applicable deadline
 * whose moment is ahead or came at most `LATE_LIMIT_MS` ago and was not sent yet. A student with no
 * device, or with reminders paused, has none. Returns how many students were worked out.
 */
export async function refreshReminderIndex(deps: Deps, now: Date, until: number): Promise<number> {
  let done = 0;
  while (Date.now() < until) {
    const batch = await deps.reminders.leaseStale(REFRESH_BATCH, REFRESH_LEASE_MS);
    if (!batch.length) break;
    const pool = new SendPool(REFRESH_CONCURRENCY);
    for (const { user_id: uid, since } of batch)
      await pool.add(async () => {
        try {
          await deps.reminders.replaceDue(uid, since, await remindersOf(deps, uid, now));
          done++;
        } catch (err) {
          // Left marked: its lease runs out and a later pass works it out again.
          deps.ctx.log.warn({ err }, 'reminders of one student not worked out');
        }
      });
    await pool.drain();
  }
  return done;
}

/** Every reminder of one student still to send, as index rows. */
async function remindersOf(deps: Deps, uid: string, now: Date): Promise<DueReminder[]> {
  const [settings, devices] = await Promise.all([
    deps.reminders.settings(uid),
    deps.reminders.subscriptions(uid),
  ]);
  if (!devices.length || settings?.paused) return [];
  const leads = settings?.lead_days ?? DEFAULT_LEAD_DAYS;
  const [deadlines, sent] = await Promise.all([
    upcomingDeadlines(deps, uid, now),
    deps.reminders.sentKeys(uid),
  ]);
  const out: DueReminder[] = [];
  for (const d of deadlines)
    for (const lead of leads) {
      const at = reminderMoment(d, lead);
      if (now.getTime() - at.getTime() > LATE_LIMIT_MS) continue;
      const key = `${d.collegeName}|${d.kind}|${d.dueAt.toISOString()}`;
      if (sent.has(`${key}\u0000${lead}`)) continue;
      out.push({
        userId: uid,
        deadlineKey: key,
        leadDays: lead,
        dueAt: at,
        payload: reminderPayload(d, lead),
      });
    }
  return out;
}

/**
 * The reminder job, one pass of one worker (issue 45). First the index is brought up to date for the
 * students whose data changed; then the reminders due are leased from it in batches (one transaction a
 * batch; any number of replicas take disjoint ones) and pushed to every device of their student, side by
 * side (at most `concurrency` in flight: devices whose push service never answers cost one timeout in all,
 * not one each before every other student's reminder). Each reminder is claimed in reminder_sent once its
 * pushes are done, in group commits: it goes once across passes and replicas, and a replica that dies
 * mid-push loses none (its leases run out and another replica sends them; the phone shows a repeat in place
 * of the first, by the notification's tag). A pass with nothing due and nothing changed costs two indexed
 * queries, however many students there are. Past the budget no new batch is taken; the next pass takes it.
 * A device the push service no longer knows (404, 410), or whose endpoint the push-service rule refuses,
 * is dropped.
 */
export async function sendDueReminders(
  deps: Deps,
  send: PushSender,
  now = new Date(),
  opts: PassOptions & { leaseMs?: number } = {},
): Promise<{ sent: number; dropped: number; deferred: boolean; refreshed: number }> {
  const until = Date.now() + (opts.budgetMs ?? PASS_BUDGET_MS);
  let sent = 0;
  let dropped = 0;
  const claims = new GroupCommit<DueReminder>((done) =>
    deps.reminders.markSent(done).catch((err: unknown) => {
      // Left leased: sent again when the lease runs out (the phone shows it in place of the first).
      deps.ctx.log.warn({ err, reminders: done.length }, 'pushed reminders not claimed');
    }),
  );
  const push = async (sub: Parameters<PushSender>[0], payload: ReminderPayload) => {
    const status = await send(sub, payload);
    if (status === 404 || status === 410 || status === REFUSED) {
      await deps.reminders.dropEndpoint(sub.endpoint);
      dropped++;
    } else if (status >= 200 && status < 300) sent++;
    else deps.ctx.log.warn({ status }, 'a push service refused a reminder');
  };
  const refreshed = await refreshReminderIndex(deps, now, until);
  const leaseMs = opts.leaseMs ?? deps.ctx.config.REMINDER_LEASE_MS;
  // Whatever happens to the pass, what was pushed is claimed.
  const { deferred } = await fanOut(
    async () => {
      const due = await deps.reminders.takeDue(now, TAKE_BATCH, LATE_LIMIT_MS, leaseMs);
      if (!due.length) return null;
      const devices = await deps.reminders.subscriptionsOf([...new Set(due.map((d) => d.userId))]);
      return due.map((reminder) => ({ reminder, subs: devices.get(reminder.userId) ?? [] }));
    },
    async ({ reminder, subs }) => {
      try {
        await Promise.all(subs.map((sub) => push(sub, reminder.payload)));
      } finally {
        // Tried once: claimed, whatever the push services answered (a refusal is not tried again).
        claims.add(reminder);
      }
    },
    { concurrency: opts.concurrency ?? PUSH_CONCURRENCY, until },
  ).finally(() => claims.flush());
  if (deferred)
    deps.ctx.log.warn(
      { budgetMs: opts.budgetMs ?? PASS_BUDGET_MS },
      'reminder pass over its budget: the rest go at the next pass',
    );
  return { sent, dropped, deferred, refreshed };
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
