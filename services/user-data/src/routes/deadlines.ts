import {
  calendarFeedIcs,
  createCalendarFeed,
  getCalendarFeed,
  getDeadlines,
  MSG,
  revokeCalendarFeed,
  type DeadlineItem,
} from '@ct/contracts';
import { AppError, implement, requireUser, type Implementation } from '@ct/service-kit';
import { datedDeadlines } from '../checklist.ts';
import type { Deps } from '../deps.ts';
import { deadlinesToIcs } from '../ics.ts';
import { UD_MSG } from '../messages.ts';

/** The student's college deadlines plus notes that carry a deadline, soonest first. */
export async function collectDeadlines(deps: Deps, userId: string): Promise<DeadlineItem[]> {
  const [colleges, notes] = await Promise.all([
    deps.colleges.listColleges(userId),
    deps.notes.listNotes(userId),
  ]);
  const items: Array<{ date: string; item: DeadlineItem }> = [];
  for (const c of colleges)
    for (const d of datedDeadlines(c.checklist))
      items.push({
        date: d.date,
        item: { collegeName: c.collegeName, deadlineType: d.type, deadlineDate: d.date },
      });
  for (const n of notes)
    if (n.deadline)
      items.push({
        date: n.deadline,
        item: { noteId: n.id, title: n.title, content: n.content, deadline: n.deadline },
      });
  return items.sort((a, b) => a.date.localeCompare(b.date)).map((x) => x.item);
}

/** Where the public feed of a token lives, under the site's origin. */
export const feedPath = (token: string) => `/api/calendar/${token}/deadlines.ics`;

/** Deadlines as a list, and as a private calendar feed a calendar app can subscribe to. */
export function deadlineRoutes(deps: Deps): Implementation[] {
  const { feeds } = deps;
  return [
    implement(getDeadlines, async (request) => {
      const uid = requireUser(request);
      return { success: true, message: MSG.deadlinesFound, deadlines: await collectDeadlines(deps, uid) };
    }),

    implement(getCalendarFeed, async (request) => {
      const uid = requireUser(request);
      return { success: true, message: UD_MSG.feedStatus, data: await feeds.status(uid) };
    }),

    implement(createCalendarFeed, async (request) => {
      const uid = requireUser(request);
      const { token, createdAt } = await feeds.rotate(uid);
      return { success: true, message: UD_MSG.feedCreated, data: { path: feedPath(token), createdAt } };
    }),

    implement(revokeCalendarFeed, async (request) => {
      const uid = requireUser(request);
      await feeds.revoke(uid);
      return { success: true, message: UD_MSG.feedRevoked, data: await feeds.status(uid) };
    }),

    implement(calendarFeedIcs, async (request, reply) => {
      const uid = await feeds.userForToken(request.params.token);
      if (!uid) throw new AppError('NOT_FOUND', UD_MSG.feedNotFound);
      const ics = deadlinesToIcs(await collectDeadlines(deps, uid));
      // The feed is personal: never kept by shared caches, and not indexed.
      reply
        .header('cache-control', 'private, max-age=300')
        .header('x-robots-tag', 'noindex')
        .header('content-disposition', 'inline; filename="deadlines.ics"')
        .type('text/calendar; charset=utf-8')
        .send(ics);
    }),
  ];
}
