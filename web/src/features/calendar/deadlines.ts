import type { DeadlineItem } from '@ct/contracts';
import { LIMITS } from '@ct/contracts/messages';

/** A deadline as the calendar shows it, from a college or from a note. */
export interface CalendarDeadline {
  key: string;
  /** YYYY-MM-DD */
  date: string;
  /** The spec's summary: the college name, else the note's title, else "Deadline". */
  summary: string;
  /** The deadline type of a college, or the note's content. */
  details: string;
  source: 'college' | 'note';
}

/** Deadlines carry a day, not a time: events start at 09:00 local (floating) time on that day. */
export const EVENT_START_HOUR = 9;

export function toCalendarDeadline(d: DeadlineItem, index: number): CalendarDeadline {
  if ('collegeName' in d) {
    return {
      key: `c-${index}-${d.collegeName}-${d.deadlineType}-${d.deadlineDate}`,
      date: d.deadlineDate,
      summary: d.collegeName.trim() || 'Deadline',
      details: d.deadlineType,
      source: 'college',
    };
  }
  return {
    key: `n-${d.noteId}`,
    date: d.deadline,
    summary: d.title.trim() || 'Deadline',
    details: d.content,
    source: 'note',
  };
}

/** A local calendar day as YYYY-MM-DD (react-calendar hands out local midnights). */
export function dayKey(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}

/** Deadlines grouped by day. */
export function byDay(deadlines: readonly CalendarDeadline[]): Map<string, CalendarDeadline[]> {
  const m = new Map<string, CalendarDeadline[]>();
  for (const d of deadlines) m.set(d.date, [...(m.get(d.date) ?? []), d]);
  return m;
}

function stamp(date: string, hour: number): string {
  return `${date.replace(/-/g, '')}T${String(hour).padStart(2, '0')}0000`;
}

/** Google Calendar's event template link: the one-hour event, pre-filled. */
export function googleCalendarUrl(d: CalendarDeadline): string {
  const start = stamp(d.date, EVENT_START_HOUR);
  const end = stamp(d.date, EVENT_START_HOUR + LIMITS.calendarEventHours);
  const qs = new URLSearchParams({
    action: 'TEMPLATE',
    text: d.summary,
    dates: `${start}/${end}`,
    details: d.details,
  });
  return `https://calendar.google.com/calendar/render?${qs}`;
}
