import { addDays } from '@ct/contracts';
import nodemailer from 'nodemailer';
import type { Deps } from '../deps.ts';
import { UD_MSG } from '../messages.ts';
import { wallTimeToUtc, zoneById, ZONES, type ZoneInfo } from '../deadlines/zones.ts';
import type { DigestSettingsRow } from '../repositories/digests.ts';
import { dueText, upcomingDeadlines, type UpcomingDeadline } from './deadline-source.ts';

/** The weekly e-mail goes on Monday at 8 in the morning, in the student's zone. */
const SEND_AT_HOUR = 8;
/** A week's e-mail whose moment passed longer ago than this (the service was down) waits for next week. */
const LATE_LIMIT_MS = 20 * 3_600_000;
/** It lists the deadlines of the next two weeks (or, with none, the next one). */
const AHEAD_DAYS = 14;

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

/** The nodemailer SMTP sender of SMTP_URL, from MAIL_FROM. */
export function smtpSender(smtpUrl: string, from: string): { send: MailSender; close(): void } {
  const transport = nodemailer.createTransport(smtpUrl);
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

/**
 * The weekly e-mail, one pass: for each student who turned it on, once their Monday 8 am has come (and
 * not more than 20 hours ago), claims that week (a row: the one process that inserts it sends it, so a
 * restart or a second replica sends nothing again) and sends the deadlines ahead, from the same one
 * answer the reminders and every view use. A student with no deadline ahead gets no e-mail. A message the
 * relay refuses gives its claim back, so the next pass tries again.
 */
export async function sendDueDigests(
  deps: Deps,
  send: MailSender,
  now = new Date(),
): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  const base = appUrl(deps);
  for (const student of await deps.digests.activeStudents()) {
    try {
      const zone = digestZone(student.zone);
      const week = mondayOf(now, zone);
      const at = Date.parse(wallTimeToUtc(zone, week, SEND_AT_HOUR, 0));
      if (now.getTime() < at || now.getTime() - at > LATE_LIMIT_MS) continue;
      // A pass every 15 minutes: the week's e-mail is looked for before its deadlines are worked out.
      if (await deps.digests.sent(student.user_id, week)) continue;
      const deadlines = (await upcomingDeadlines(deps, student.user_id, now)).sort(
        (a, b) => a.dueAt.getTime() - b.dueAt.getTime(),
      );
      if (!deadlines.length) continue;
      if (!(await deps.digests.claim(student.user_id, week))) continue;
      try {
        await send(digestMail(student, deadlines, now, base));
        sent++;
      } catch (err) {
        failed++;
        await deps.digests.release(student.user_id, week);
        deps.ctx.log.warn({ err }, 'the mail relay refused a weekly e-mail; retried at the next pass');
      }
    } catch (err) {
      // One student's failure (an account deleted mid-pass: its rows are refused) skips that student only.
      deps.ctx.log.warn({ err }, 'weekly e-mail of one student skipped');
    }
  }
  return { sent, failed };
}
