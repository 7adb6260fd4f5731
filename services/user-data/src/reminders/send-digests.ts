import { addDays } from '@ct/contracts';
import nodemailer from 'nodemailer';
import type { Deps } from '../deps.ts';
import { UD_MSG } from '../messages.ts';
import { wallTimeToUtc, zoneById, ZONES, type ZoneInfo } from '../deadlines/zones.ts';
import type { DigestClaim, DigestSettingsRow } from '../repositories/digests.ts';
import { dueText, upcomingDeadlines, type UpcomingDeadline } from './deadline-source.ts';
import { fanOut, type PassOptions } from './fan-out.ts';

/** The weekly e-mail goes on Monday at 8 in the morning, in the student's zone. */
const SEND_AT_HOUR = 8;
/** A week's e-mail whose moment passed longer ago than this (the service was down) waits for next week. */
const LATE_LIMIT_MS = 20 * 3_600_000;
/** It lists the deadlines of the next two weeks (or, with none, the next one). */
const AHEAD_DAYS = 14;
/**
 * Students worked out and mailed at once in one replica (each: their deadlines read, one message handed
 * to the relay). A relay that hangs holds one slot, not the pass.
 */
export const MAIL_CONCURRENCY = 16;
/** A pass stops taking new students after this long; what it left is due at the next pass. */
export const PASS_BUDGET_MS = 5 * 60_000;
/** Students taken from the index at once (one transaction). */
const TAKE_BATCH = 200;

/** One message for the mail relay. */
export interface DigestMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** RFC 2369: where a mail client's own "unsubscribe" goes. */
  listUnsubscribe: string;
}
/** Hands one message to the mail relay; throws when it refuses it. */
export type MailSender = (mail: DigestMail) => Promise<void>;

/**
 * The nodemailer SMTP sender of SMTP_URL, from MAIL_FROM. Pooled: a pass hands many messages to the
 * relay, over a few connections kept open (what SMTP_URL says, e.g. `?pool=false`, wins).
 */
export function smtpSender(smtpUrl: string, from: string): { send: MailSender; close(): void } {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    // As many as the pass has messages in flight: none waits for a connection, none is left idle.
    maxConnections: MAIL_CONCURRENCY,
  });
  return {
    send: async (m) => {
      await transport.sendMail({
        from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        list: { unsubscribe: m.listUnsubscribe },
      });
    },
    close: () => transport.close(),
  };
}

/** The zone a student's e-mail keeps time in: theirs when the deadlines know it, else Eastern Time. */
export const digestZone = (tzid: string | null | undefined): ZoneInfo =>
  (tzid ? zoneById(tzid) : null) ?? ZONES.eastern;

/** The Monday (YYYY-MM-DD) of the week `now` falls in, in a zone. */
function mondayOf(now: Date, zone: ZoneInfo): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone.tzid,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    weekday: 'short',
  }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  const day = `${get('year')}-${get('month')}-${get('day')}`;
  const sinceMonday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(get('weekday'));
  return addDays(day, -sinceMonday);
}

/** The app's address for links: APP_URL, or this machine for the embedded run. */
function appUrl(deps: Deps): string {
  return deps.ctx.config.APP_URL ?? `http://localhost:${deps.ctx.config.PORT}`;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The week's e-mail of a student: the deadlines of the next two weeks, each with its checklist's link. */
function digestMail(
  student: Pick<DigestSettingsRow, 'email' | 'stop_token'>,
  deadlines: UpcomingDeadline[],
  now: Date,
  base: string,
): DigestMail {
  const horizon = now.getTime() + AHEAD_DAYS * 86_400_000;
  const soon = deadlines.filter((d) => d.dueAt.getTime() <= horizon);
  const shown = soon.length ? soon : deadlines.slice(0, 1);
  const stopUrl = `${base}/email-digest/stop/${student.stop_token}`;
  const lines = shown.map((d) => ({
    text: `${d.collegeName}: ${d.kind}, ${dueText(d)}`,
    url: `${base}/usercolleges?college=${encodeURIComponent(d.collegeName)}`,
  }));
  const intro = soon.length ? UD_MSG.digestIntro(soon.length) : UD_MSG.digestIntroNone;
  const text = [
    intro,
    '',
    ...lines.map((l) => `- ${l.text}\n  ${l.url}`),
    '',
    UD_MSG.digestAllChecklists(`${base}/usercolleges`),
    '',
    UD_MSG.digestWhy,
    UD_MSG.digestStop(stopUrl),
  ].join('\n');
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    '<ul>',
    ...lines.map((l) => `<li><a href="${escapeHtml(l.url)}">${escapeHtml(l.text)}</a></li>`),
    '</ul>',
    `<p><a href="${escapeHtml(`${base}/usercolleges`)}">${escapeHtml(UD_MSG.digestOpenApp)}</a></p>`,
    `<p style="color:#555;font-size:13px">${escapeHtml(UD_MSG.digestWhy)} ` +
      `<a href="${escapeHtml(stopUrl)}">${escapeHtml(UD_MSG.digestStopLink)}</a></p>`,
  ].join('\n');
  return {
    to: student.email!,
    subject: soon.length
      ? UD_MSG.digestSubject(soon.length)
      : UD_MSG.digestSubjectNext(shown[0]!.collegeName, dueText(shown[0]!)),
    text,
    html,
    listUnsubscribe: stopUrl,
  };
}

/** The moment of the week's e-mail of the week starting Monday `week`, in a zone. */
const momentOf = (zone: ZoneInfo, week: string): Date => new Date(wallTimeToUtc(zone, week, SEND_AT_HOUR, 0));

/**
 * What a pass at `now` does with a student it took from the index: the week whose e-mail is due now
 * (Monday 8 am in their zone has come, at most 20 hours ago), or null; and when to look at them next
 * (their next Monday 8 am).
 */
function planWeek(student: Pick<DigestSettingsRow, 'zone'>, now: Date): { week: string | null; next: Date } {
  const zone = digestZone(student.zone);
  const week = mondayOf(now, zone);
  const at = momentOf(zone, week);
  // Monday before 8 am: this week's moment is still ahead.
  if (now < at) return { week: null, next: at };
  const next = momentOf(zone, addDays(week, 7));
  return { week: now.getTime() - at.getTime() <= LATE_LIMIT_MS ? week : null, next };
}

/**
 * The weekly e-mail, one pass (issue 45: it fans out as the reminders do). The students whose Monday
 * 8 am has come are taken from the index (migration 171) in batches, each one transaction that claims
 * their week (a digest_sent row: the one process that inserts it sends it, so a restart or any number
 * of replicas, which take disjoint batches, send nothing again) and moves them to their next Monday;
 * then, at most `concurrency` at once, each one's deadlines ahead are read (the same one answer the
 * reminders and every view use) and the e-mail handed to the relay. A pass with nothing due reads only
 * the index. A student with no deadline ahead gets no e-mail (the claim is given back). A message the
 * relay refuses (or deadlines that could not be read) gives its claim back and is due again: the next
 * pass sends it, while the week is on time. Past the budget no new batch is taken; the next pass takes it.
 */
export async function sendDueDigests(
  deps: Deps,
  send: MailSender,
  now = new Date(),
  opts: PassOptions & { batch?: number } = {},
): Promise<{ sent: number; failed: number; deferred: boolean }> {
  let sent = 0;
  let failed = 0;
  const base = appUrl(deps);
  // The pass's own clock (not `now`, which a test may set): what fails from here on waits for the next pass.
  const started = new Date();
  const mail = async (student: DigestClaim) => {
    let deadlines: UpcomingDeadline[];
    try {
      deadlines = (await upcomingDeadlines(deps, student.user_id, now)).sort(
        (a, b) => a.dueAt.getTime() - b.dueAt.getTime(),
      );
    } catch (err) {
      deps.ctx.log.warn({ err }, 'deadlines of one weekly e-mail not read; retried at the next pass');
      await deps.digests.retry(student.user_id, student.week, now, new Date());
      return;
    }
    if (!deadlines.length) {
      await deps.digests.release(student.user_id, student.week);
      return;
    }
    try {
      await send(digestMail(student, deadlines, now, base));
      sent++;
    } catch (err) {
      failed++;
      await deps.digests.retry(student.user_id, student.week, now, new Date());
      deps.ctx.log.warn({ err }, 'the mail relay refused a weekly e-mail; retried at the next pass');
    }
  };
  const { deferred } = await fanOut(
    () => deps.digests.takeDue(now, opts.batch ?? TAKE_BATCH, started, (s) => planWeek(s, now)),
    async (student) => {
      try {
        await mail(student);
      } catch (err) {
        // One student's failure (an account deleted mid-pass: its rows are refused) skips that student only.
        deps.ctx.log.warn({ err }, 'weekly e-mail of one student skipped');
      }
    },
    {
      concurrency: opts.concurrency ?? MAIL_CONCURRENCY,
      until: started.getTime() + (opts.budgetMs ?? PASS_BUDGET_MS),
    },
  );
  if (deferred)
    deps.ctx.log.warn(
      { budgetMs: opts.budgetMs ?? PASS_BUDGET_MS },
      'weekly e-mail pass over its budget: the rest go at the next pass',
    );
  return { sent, failed, deferred };
}
