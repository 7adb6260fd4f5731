import { createHash } from 'node:crypto';
import type { DeadlineItem } from '@ct/contracts';
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

/** The spec's summary: the college name, else the note's title, else "Deadline". */
export function deadlineSummary(d: DeadlineItem): string {
  if ('collegeName' in d && d.collegeName.trim()) return d.collegeName;
  if ('title' in d && d.title.trim()) return d.title;
  return 'Deadline';
}

/** A stable UID, so a subscribed calendar updates an event instead of adding a copy. */
function uid(d: DeadlineItem): string {
  const raw =
    'noteId' in d ? `note:${d.noteId}` : `college:${d.collegeName}:${d.deadlineType}:${d.deadlineDate}`;
  return `${createHash('sha256').update(raw).digest('hex').slice(0, 32)}@${UID_DOMAIN}`;
}

/** One-hour events for deadlines, as RFC 5545 text (made by the `ics` library). */
export function deadlinesToIcs(deadlines: readonly DeadlineItem[], calName = 'College deadlines'): string {
  const events: EventAttributes[] = deadlines.map((d) => {
    const date = 'deadlineDate' in d ? d.deadlineDate : d.deadline;
    const description = 'deadlineType' in d ? d.deadlineType : d.content;
    return {
      uid: uid(d),
      title: deadlineSummary(d),
      description,
      start: dayStart(date),
      startInputType: 'local',
      startOutputType: 'local',
      duration: { hours: 1 },
      productId: ICS_PRODUCT_ID,
      calName,
    };
  });
  const { error, value } = createEvents(events, { productId: ICS_PRODUCT_ID, calName });
  if (error || value === null) throw error ?? new Error('could not build the calendar');
  return value;
}
