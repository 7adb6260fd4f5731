import { createHash } from 'node:crypto';
import { REMINDER_DAYS, type AidDate, type DeadlineItem } from '@ct/contracts';
import { createEvents, type DateArray, type EventAttributes } from 'ics';

/** Placeholder product id and domain, as the spec's own ICS file has. */
export const ICS_PRODUCT_ID = 'college-ready/deadlines';
const UID_DOMAIN = 'college-ready.local';
/** Deadlines carry a day, not a time: events start at 09:00 local (floating) time on that day. */
const START_HOUR = 9;

function dayStart(date: string): DateArray {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return [y, m, d, START_HOUR, 0];
}

/**
 * An event's title names the plan: "Colby College: Early Decision" for a college deadline, the note's
 * title for a note, else "Deadline".
 */
export function deadlineSummary(d: DeadlineItem): string {
  if ('collegeName' in d) {
    const college = d.collegeName.trim();
    const type = d.deadlineType.trim();
    if (college && type) return `${college}: ${type}`;
    return college || type || 'Deadline';
  }
  return d.title.trim() || 'Deadline';
}

/** A stable UID, so a subscribed calendar updates an event instead of adding a copy. */
function stableUid(raw: string): string {
  return `${createHash('sha256').update(raw).digest('hex').slice(0, 32)}@${UID_DOMAIN}`;
}

function uidOf(d: DeadlineItem): string {
  return stableUid(
    'noteId' in d ? `note:${d.noteId}` : `college:${d.collegeName}:${d.deadlineType}:${d.deadlineDate}`,
  );
}

/** One calendar event, whatever it comes from. */
interface DayEvent {
  uid: string;
  title: string;
  description: string;
  date: string;
  url?: string;
}

/**
 * Display reminders before the event. The trigger is given in hours: the `ics` library writes a days-only
 * duration as "P30DT", which RFC 5545 does not allow (a "T" needs a time part); "-PT720H" is valid.
 */
function reminders(title: string) {
  return REMINDER_DAYS.map((days) => ({
    action: 'display' as const,
    description: `${title}: ${days === 1 ? 'tomorrow' : `in ${days} days`}`,
    trigger: { hours: days * 24, before: true },
  }));
}

/**
 * The student's deadlines (and, when given, the FAFSA and CSS Profile dates of the coming cycle) as
 * one-hour events in RFC 5545 text, each with reminders 30, 14, 7 and 1 days before. Made by the `ics`
 * library; the subscribable feed and the file a student downloads are this same text.
 */
export function deadlinesToIcs(
  deadlines: readonly DeadlineItem[],
  aid: readonly AidDate[] = [],
  calName = 'College deadlines',
): string {
  const days: DayEvent[] = [
    ...deadlines.map((d) => ({
      uid: uidOf(d),
      title: deadlineSummary(d),
      description: 'deadlineType' in d ? d.deadlineType : d.content,
      date: 'deadlineDate' in d ? d.deadlineDate : d.deadline,
    })),
    ...aid.map((a) => ({
      uid: stableUid(`aid:${a.title}:${a.date}`),
      title: a.title,
      description: a.details,
      date: a.date,
      url: a.url,
    })),
  ];
  const events: EventAttributes[] = days.map((e) => ({
    uid: e.uid,
    title: e.title,
    description: e.description,
    ...(e.url ? { url: e.url } : {}),
    start: dayStart(e.date),
    startInputType: 'local',
    startOutputType: 'local',
    duration: { hours: 1 },
    alarms: reminders(e.title),
    productId: ICS_PRODUCT_ID,
    calName,
  }));
  const { error, value } = createEvents(events, { productId: ICS_PRODUCT_ID, calName });
  if (error || value === null) throw error ?? new Error('could not build the calendar');
  return value;
}
