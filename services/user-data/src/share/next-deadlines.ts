import type { Deps } from '../deps.ts';
import { collectDeadlines } from '../routes/deadlines.ts';

/** A college deadline as a shared view shows it. */
export interface SharedDeadline {
  collegeName: string;
  type: string;
  date: string;
}

/**
 * The deadlines a share link shows, from the student's deadline list as it stands (each college's dated
 * deadlines and the dates that follow an application; never a note's): every date from `today` on,
 * soonest first. The one source of the shared view's "next deadline" per college and of its list, so a
 * better source of a student's next deadline per college can replace it here alone.
 */
export async function sharedDeadlines(deps: Deps, userId: string, today: string): Promise<SharedDeadline[]> {
  const { deadlines } = await collectDeadlines(deps, userId);
  const out: SharedDeadline[] = [];
  for (const d of deadlines)
    if ('collegeName' in d && d.deadlineDate >= today)
      out.push({ collegeName: d.collegeName, type: d.deadlineType, date: d.deadlineDate });
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
