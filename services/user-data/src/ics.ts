import { createHash } from 'node:crypto';
import { addDays, daysBetween } from '@ct/contracts';
import type { StudentDeadline, StudentDeadlines } from './deadlines/types.ts';
import { UD_MSG } from './messages.ts';
import { vtimezone, zoneById, type ZoneInfo } from './deadlines/zones.ts';

/** Placeholder product id and domain, as the spec's own ICS file has. */
export const ICS_PRODUCT_ID = 'college-ready/deadlines';
const UID_DOMAIN = 'college-ready.local';
/** Reminders ring at this local hour on their day. */
const ALARM_HOUR = 9;

// ---- text ----

/**
 * A text value as RFC 5545 allows it: every line break (CRLF, a lone CR or LF, vertical tab, form feed,
 * the Unicode line and paragraph separators) becomes an escaped "\n" (or a space in a one-line value),
 * every other control character is dropped, and "\", ";" and "," are escaped. Nothing a student or a
 * college page wrote can end a line, start a property or split a value.
 */
export function icsText(raw: string, oneLine = false): string {
  return (
    raw
      .replace(/\r\n|[\r\n\v\f\u0085\u2028\u2029]/g, oneLine ? ' ' : '\n')
      // eslint-disable-next-line no-control-regex -- control characters are what it looks for
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '')
      .replace(/[\\;,]/g, (c) => `\\${c}`)
      .replace(/\n/g, '\\n')
      .trim()
  );
}

/** A URI value: only an http(s) address with no space or control character; else none. */
function icsUri(raw: string | null): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  if (!raw || /[\s\u0000-\u001f\u007f-\u009f"]/.test(raw) || !/^https?:\/\//i.test(raw)) return null;
  return raw;
}

/** Folds a content line at 75 octets (never inside a UTF-8 character), as RFC 5545 asks. */
function fold(line: string): string {
  const out: string[] = [];
  let cur = '';
  let bytes = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > (out.length ? 74 : 75)) {
      out.push(cur);
      cur = '';
      bytes = 0;
    }
    cur += ch;
    bytes += n;
  }
  out.push(cur);
  return out.join('\r\n ');
}

const ymd = (date: string) => date.replaceAll('-', '');
const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** A stable UID, so a subscribed calendar updates an event instead of adding a copy. */
function stableUid(raw: string): string {
  return `${createHash('sha256').update(raw).digest('hex').slice(0, 32)}@${UID_DOMAIN}`;
}

function uidOf(d: StudentDeadline): string {
  if (d.noteId) return stableUid(`note:${d.noteId}`);
  return stableUid(`${d.origin}:${d.collegeKey ?? ''}:${d.type}:${d.date}`);
}

/**
 * An event's title names the college and the date: "Harvard University: Regular Decision", with
 * "(expected)" when the date is last cycle's projected; a note's title; an aid date's title.
 */
export function deadlineSummary(d: StudentDeadline): string {
  const type = d.type.trim();
  const college = d.collegeName?.trim() ?? '';
  const text = college && type ? `${college}: ${type}` : college || type || 'Deadline';
  return d.projected ? `${text} (expected)` : text;
}

function description(d: StudentDeadline): string {
  const parts: string[] = [];
  if (d.origin === 'college' || d.origin === 'season') parts.push(d.label);
  if (d.due) parts.push(UD_MSG.dueAt(d.due.zoneName, d.due.basis));
  if (d.details) parts.push(d.details);
  if (d.sourceUrl) parts.push(`Source: ${d.sourceUrl}`);
  return parts.join('\n');
}

/** "in 30 days", "tomorrow", "today". */
const lead = (days: number) => (days === 0 ? 'today' : days === 1 ? 'tomorrow' : `in ${days} days`);

/**
 * Reminders at 9 am local time on each lead day, none on a day already gone. For an event due at 11:59 pm
 * the trigger is that long before it; for a whole day, before its start at midnight.
 */
function alarms(
  d: StudentDeadline,
  summary: string,
  reminderDays: readonly number[],
  today: string,
): string[] {
  const lines: string[] = [];
  for (const days of reminderDays) {
    if (daysBetween(today, addDays(d.date, -days)) < 0) continue;
    let trigger: string;
    if (d.due) {
      // 23:59 back to 09:00 the same day is 14 h 59 min.
      trigger = days > 0 ? `-P${days}DT14H59M` : '-PT14H59M';
    } else {
      trigger = days > 0 ? `-P${days - 1}DT${24 - ALARM_HOUR}H` : `PT${ALARM_HOUR}H`;
    }
    lines.push(
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      `DESCRIPTION:${icsText(`${summary}: ${lead(days)}`, true)}`,
      `TRIGGER:${trigger}`,
      'END:VALARM',
    );
  }
  return lines;
}

/**
 * A student's deadlines as RFC 5545 text: a deadline due at a time is an event at 11:59 pm with its zone
 * (TZID, and the zone's VTIMEZONE in the file), anything else a whole day (VALUE=DATE); never a floating
 * time. Reminders on the student's lead days at 9 am local, none on a past date. Nothing from before the
 * student's cycle but their own dated notes. The subscribable feed and the downloaded file are this text.
 */
export function deadlinesToIcs(
  all: Pick<StudentDeadlines, 'items' | 'cycle' | 'today' | 'reminderDays'>,
  now: Date,
  calName = 'College deadlines',
): string {
  const zones = new Map<string, ZoneInfo>();
  const events: string[] = [];
  for (const d of all.items) {
    if (d.origin !== 'note' && d.date < all.cycle.from) continue;
    const summary = deadlineSummary(d);
    const zone = d.due ? zoneById(d.due.zone) : null;
    const lines = ['BEGIN:VEVENT', `UID:${uidOf(d)}`, `DTSTAMP:${stamp(now)}`];
    if (d.due && zone) {
      zones.set(zone.tzid, zone);
      lines.push(`DTSTART;TZID=${zone.tzid}:${ymd(d.date)}T235900`);
    } else {
      lines.push(`DTSTART;VALUE=DATE:${ymd(d.date)}`, `DTEND;VALUE=DATE:${ymd(addDays(d.date, 1))}`);
    }
    lines.push(`SUMMARY:${icsText(summary, true) || 'Deadline'}`);
    const desc = icsText(description(d));
    if (desc) lines.push(`DESCRIPTION:${desc}`);
    const url = icsUri(d.sourceUrl);
    if (url) lines.push(`URL:${url}`);
    lines.push('TRANSP:TRANSPARENT');
    if (daysBetween(all.today, d.date) >= 0) lines.push(...alarms(d, summary, all.reminderDays, all.today));
    lines.push('END:VEVENT');
    events.push(...lines);
  }
  const head = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${ICS_PRODUCT_ID}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${icsText(calName, true)}`,
    ...[...zones.values()].flatMap(vtimezone),
  ];
  return [...head, ...events, 'END:VCALENDAR'].map(fold).join('\r\n') + '\r\n';
}
