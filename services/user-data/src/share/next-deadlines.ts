import type { ShareScope } from '@ct/contracts/share';
import type { Deps } from '../deps.ts';
import { upcomingDeadlines } from '../deadlines/next-deadlines.ts';

/**
 * Whether a share link with `scope` may show a deadline (issue 50.7). A college's own dates, yes; the
 * dates the student's season adds (a decision received, a letter of continued interest, an aid review, an
 * enrollment deposit) tell where each application stands, so only a link that shows the status shows
 * them; the cycle's aid dates and the student's notes are never a college's deadline.
 */
export function shareableDeadline(d: { origin: string }, scope: readonly ShareScope[]): boolean {
  return d.origin === 'college' || (d.origin === 'season' && scope.includes('status'));
}

/** A college deadline as a shared view shows it. */
export interface SharedDeadline {
  collegeName: string;
  type: string;
  date: string;
}

/**
 * The deadlines a share link shows: the student's applicable dates still ahead from the one answer of
 * `deadlines/next-deadlines.ts` (their cycle, projected where only last cycle's date is known, pruned by
 * plan and submission), soonest first, as far as the link's scope allows (`shareableDeadline`). A projected date says so in its type, as
 * everywhere else it shows.
 */
export async function sharedDeadlines(
  deps: Deps,
  userId: string,
  scope: readonly ShareScope[],
): Promise<SharedDeadline[]> {
  const { items } = await upcomingDeadlines(deps, userId);
  const out: SharedDeadline[] = [];
  for (const d of items)
    if (shareableDeadline(d, scope) && d.collegeName)
      out.push({
        collegeName: d.collegeName,
        type: d.projected ? `${d.type}: ${d.label}` : d.type,
        date: d.date,
      });
  return out;
}

/** Each college's first deadline of `sharedDeadlines`, by the college's name. */
export function nextByCollege(
  deadlines: readonly SharedDeadline[],
): Map<string, { type: string; date: string }> {
  const next = new Map<string, { type: string; date: string }>();
  for (const d of deadlines)
    if (!next.has(d.collegeName)) next.set(d.collegeName, { type: d.type, date: d.date });
  return next;
}
