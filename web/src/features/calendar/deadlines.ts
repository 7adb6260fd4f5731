import type { DeadlineItem } from '@ct/contracts';
import { isAidDeadlineType, type AidDate } from '@ct/contracts/planning';

/** A deadline as the calendar shows it, from a college, a note, or the financial aid calendar. */
export interface CalendarDeadline {
  key: string;
  /** YYYY-MM-DD */
  date: string;
  /** The marker on the calendar: the college name, else the note's title, else "Deadline". */
  summary: string;
  /** The event's title, naming the plan: "Colby College: Early Decision" (as in deadlines.ics). */
  title: string;
  /** The deadline type of a college, the note's content, or what the aid date means. */
  details: string;
  source: 'college' | 'note' | 'aid';
  /** A financial aid deadline of a college (CSS Profile, aid priority), or a FAFSA/CSS Profile date. */
  aid: boolean;
  /** Where to act on it (the FAFSA and CSS Profile sites). */
  url?: string;
  /** A projected date's words: "Expected January 1, 2027 (last cycle's date; confirm on the college's site)" */
  label?: string;
}

/** Deadlines carry a day, not a time: events start at 09:00 local (floating) time on that day. */
export const EVENT_START_HOUR = 9;
/** Spec section 9: a deadline's calendar event lasts one hour. */
const EVENT_HOURS = 1;

export function toCalendarDeadline(d: DeadlineItem, index: number): CalendarDeadline {
  if ('collegeName' in d) {
    const college = d.collegeName.trim();
    const type = d.deadlineType.trim();
    return {
      key: `c-${index}-${d.collegeName}-${d.deadlineType}-${d.deadlineDate}`,
      date: d.deadlineDate,
      summary: college || 'Deadline',
      title: college && type ? `${college}: ${type}` : college || type || 'Deadline',
      details: d.deadlineType,
      ...(d.projected && d.label ? { label: d.label } : {}),
      source: 'college',
      aid: isAidDeadlineType(d.deadlineType),
    };
  }
  const title = d.title.trim() || 'Deadline';
  return {
    key: `n-${d.noteId}`,
    date: d.deadline,
    summary: title,
    title,
    details: d.content,
    source: 'note',
    aid: false,
  };
}

/** A FAFSA or CSS Profile date of the coming cycle. */
export function fromAidDate(a: AidDate): CalendarDeadline {
  return {
    key: `a-${a.title}-${a.date}`,
    date: a.date,
    summary: a.form,
    title: a.title,
    details: a.details,
    source: 'aid',
    aid: true,
    url: a.url,
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
  const end = stamp(d.date, EVENT_START_HOUR + EVENT_HOURS);
  const qs = new URLSearchParams({
    action: 'TEMPLATE',
    text: d.title,
    dates: `${start}/${end}`,
    details: d.details,
  });
  return `https://calendar.google.com/calendar/render?${qs}`;
}

/** Saves text as a file the browser downloads. */
export function downloadText(text: string, filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Some browsers read the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
