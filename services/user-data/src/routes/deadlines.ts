import {
  aidDates,
  calendarFeedIcs,
  createCalendarFeed,
  deadlinesIcs,
  getCalendarFeed,
  getDeadlines,
  localToday,
  MSG,
  revokeCalendarFeed,
  seasonDates,
  type AidDate,
  type DeadlineItem,
} from '@ct/contracts';
import { AppError, implement, requireUser, type Implementation } from '@ct/service-kit';
import type { FastifyReply } from 'fastify';
import { datedDeadlines } from '../checklist.ts';
import type { Deps } from '../deps.ts';
import { deadlinesToIcs } from '../ics.ts';
import { UD_MSG } from '../messages.ts';
import { presentApplication, presentFeedStatus, presentNoteDeadline } from '../presenters.ts';

/**
 * The student's college deadlines plus notes that carry a deadline, soonest first; and, once the student
 * has a college on the list, the FAFSA and CSS Profile dates of the coming cycle.
 */
export async function collectDeadlines(
  deps: Deps,
  userId: string,
): Promise<{ deadlines: DeadlineItem[]; aid: AidDate[] }> {
  const [colleges, notes, apps] = await Promise.all([
    deps.colleges.listColleges(userId),
    deps.notes.listNotes(userId),
    deps.season.listApplications(userId),
  ]);
  const today = localToday();
  const appOf = new Map(apps.map((a) => [a.college_key, a]));
  const items: Array<{ date: string; item: DeadlineItem }> = [];
  for (const c of colleges)
    for (const d of datedDeadlines(c.checklist))
      items.push({
        date: d.date,
        item: { collegeName: c.college_name, deadlineType: d.type, deadlineDate: d.date },
      });
  // What follows an application (decisions, the reply date, deposits, reminders) joins the same list, so
  // the calendar, the file and the feed carry it with their usual alarms.
  for (const c of colleges) {
    const app = appOf.get(c.college_key);
    if (!app) continue;
    for (const d of seasonDates(presentApplication(app), today))
      items.push({
        date: d.date,
        item: { collegeName: c.college_name, deadlineType: d.type, deadlineDate: d.date },
      });
  }
  for (const n of notes)
    if (n.deadline)
      items.push({ date: n.deadline, item: presentNoteDeadline({ ...n, deadline: n.deadline }) });
  return {
    deadlines: items.sort((a, b) => a.date.localeCompare(b.date)).map((x) => x.item),
    aid: colleges.length ? aidDates(today) : [],
  };
}

/** Sends a student's deadlines as an iCalendar file; personal, so never kept by shared caches. */
async function sendIcs(deps: Deps, userId: string, reply: FastifyReply, disposition: string) {
  const { deadlines, aid } = await collectDeadlines(deps, userId);
  return reply
    .header('cache-control', 'private, max-age=300')
    .header('x-robots-tag', 'noindex')
    .header('content-disposition', `${disposition}; filename="deadlines.ics"`)
    .type('text/calendar; charset=utf-8')
    .send(deadlinesToIcs(deadlines, aid));
}

/** Where the public feed of a token lives, under the site's origin. */
export const feedPath = (token: string) => `/api/calendar/${token}/deadlines.ics`;

/** Deadlines as a list, and as a private calendar feed a calendar app can subscribe to. */
export function deadlineRoutes(deps: Deps): Implementation[] {
  const { feeds } = deps;
  return [
    implement(getDeadlines, async (request) => {
      const uid = requireUser(request);
      const { deadlines, aid } = await collectDeadlines(deps, uid);
      return {
        success: true,
        message: MSG.deadlinesFound,
        deadlines,
        ...(aid.length ? { aidDates: aid } : {}),
      };
    }),

    // The file the profile's download button saves: the same text as the subscription feed.
    implement(deadlinesIcs, async (request, reply) => {
      const uid = requireUser(request);
      await sendIcs(deps, uid, reply, 'attachment');
    }),

    implement(getCalendarFeed, async (request) => {
      const uid = requireUser(request);
      return { success: true, message: UD_MSG.feedStatus, data: presentFeedStatus(await feeds.status(uid)) };
    }),

    implement(createCalendarFeed, async (request) => {
      const uid = requireUser(request);
      const { token, created_at } = await feeds.rotate(uid);
      return {
        success: true,
        message: UD_MSG.feedCreated,
        data: { path: feedPath(token), createdAt: created_at.toISOString() },
      };
    }),

    implement(revokeCalendarFeed, async (request) => {
      const uid = requireUser(request);
      await feeds.revoke(uid);
      return { success: true, message: UD_MSG.feedRevoked, data: presentFeedStatus(await feeds.status(uid)) };
    }),

    implement(calendarFeedIcs, async (request, reply) => {
      const uid = await feeds.userForToken(request.params.token);
      if (!uid) throw new AppError('NOT_FOUND', UD_MSG.feedNotFound);
      await sendIcs(deps, uid, reply, 'inline');
    }),
  ];
}
