import type { Deps } from '../deps.ts';
import { upcomingDeadlines as studentUpcoming } from '../deadlines/next-deadlines.ts';

/** One deadline a reminder may be sent for. */
export interface UpcomingDeadline {
  collegeName: string;
  /** The kind of deadline, as the college names it ("Early Action"), marked when projected. */
  kind: string;
  /** The calendar date it falls on, where it is due (YYYY-MM-DD). */
  date: string;
  /** The moment it is due (UTC instant). */
  dueAt: Date;
  /** The time zone it is due in (IANA id). */
  zone: string;
}

/**
 * THE one place the reminder job gets a student's deadlines: the one answer of
 * `deadlines/next-deadlines.ts` (the student's cycle, projected where only last cycle's date is known,
 * other plans' application deadlines pruned, none after submission), keeping the college dates that are
 * due at a moment still ahead. A projected date says so, as everywhere it shows.
 */
export async function upcomingDeadlines(deps: Deps, uid: string, now: Date): Promise<UpcomingDeadline[]> {
  const { items } = await studentUpcoming(deps, uid, now);
  const out: UpcomingDeadline[] = [];
  for (const d of items) {
    if (!d.collegeName || !d.due || d.origin === 'note') continue;
    const dueAt = new Date(d.due.at);
    if (dueAt <= now) continue;
    out.push({
      collegeName: d.collegeName,
      kind: d.projected ? `${d.type} (expected; confirm on the college's site)` : d.type,
      date: d.date,
      dueAt,
      zone: d.due.zone,
    });
  }
  return out;
}

/** When a deadline is due, as a reminder or an e-mail says it: "Sun, Nov 1, 11:59 PM CST". */
export function dueText(d: UpcomingDeadline): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: d.zone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(d.dueAt);
}
