import {
  calendarFeedIcs,
  createCalendarFeed,
  deadlinesIcs,
  getCalendarFeed,
  getDeadlines,
  getDeadlineSettings,
  INPUT_MSG,
  localToday,
  MSG,
  revokeCalendarFeed,
  updateDeadlineSettings,
  type AidDate,
  type DeadlineItem,
} from '@ct/contracts';
import { AppError, implement, requireUser, type Implementation } from '@ct/service-kit';
import type { FastifyReply } from 'fastify';
import { deadlineSettings, studentDeadlines, type StudentDeadline } from '../deadlines/next-deadlines.ts';
import type { Deps } from '../deps.ts';
import { deadlinesToIcs } from '../ics.ts';
import { UD_MSG } from '../messages.ts';
import { presentFeedStatus } from '../presenters.ts';

/** A student's deadline as the spec's "Deadline item" gives it, with what is beyond the spec. */
function presentItem(d: StudentDeadline): DeadlineItem {
  if (d.origin === 'note')
    return { noteId: d.noteId!, title: d.type, content: d.details ?? '', deadline: d.date };
  return {
    collegeName: d.collegeName ?? '',
    deadlineType: d.type,
    deadlineDate: d.date,
    kind: d.kind,
    ...(d.projected ? { projected: true } : {}),
    label: d.label,
    ...(d.sourceUrl ? { sourceUrl: d.sourceUrl } : {}),
    ...(d.due ? { due: d.due } : {}),
  };
}

/** The cycle-wide dates (FAFSA, CSS Profile, May 1) as the `aidDates` list gives them. */
function presentCycleDate(d: StudentDeadline): AidDate {
  return {
    form: d.kind === 'fafsa' ? 'FAFSA' : d.kind === 'css-profile' ? 'CSS Profile' : 'Reply date',
    title: d.type,
    date: d.date,
    details: d.details ?? '',
    url: d.sourceUrl ?? '',
  };
}

/**
 * The student's applicable college deadlines of their cycle (projected where only last cycle's date is
 * known, pruned by plan and submission) plus notes that carry a deadline, soonest first; and, once the
 * student has a college on the list, the FAFSA, CSS Profile and reply dates of the cycle.
 */
export async function collectDeadlines(
  deps: Deps,
  userId: string,
): Promise<{ deadlines: DeadlineItem[]; aid: AidDate[] }> {
  const all = await studentDeadlines(deps, userId);
  return {
    deadlines: all.items.filter((d) => d.origin !== 'aid').map(presentItem),
    aid: all.items.filter((d) => d.origin === 'aid').map(presentCycleDate),
  };
}

/** Sends a student's deadlines as an iCalendar file; personal, so never kept by shared caches. */
async function sendIcs(deps: Deps, userId: string, reply: FastifyReply, disposition: string) {
  const now = deps.now();
  const all = await studentDeadlines(deps, userId, now);
  return reply
    .header('cache-control', 'private, max-age=300')
    .header('x-robots-tag', 'noindex')
    .header('content-disposition', `${disposition}; filename="deadlines.ics"`)
    .type('text/calendar; charset=utf-8')
    .send(deadlinesToIcs(all, now));
}

/** Where the public feed of a token lives, under the site's origin. */
export const feedPath = (token: string) => `/api/calendar/${token}/deadlines.ics`;

/** Deadlines as a list, and as a private calendar feed a calendar app can subscribe to. */
export function deadlineRoutes(deps: Deps): Implementation[] {
  const { feeds, profiles } = deps;

  /** The settings as the API gives them: the chosen values, or the defaults. */
  async function settingsOf(uid: string) {
    const today = localToday(deps.now());
    const [row, profile] = await Promise.all([profiles.getDeadlineSettings(uid), profiles.getProfile(uid)]);
    const s = deadlineSettings(row, profile?.home_state ?? null, today);
    return {
      enteringYear: s.cycle.enteringYear,
      enteringYearChosen: s.chosen,
      cycle: s.cycle.label,
      reminderDays: s.reminderDays,
    };
  }

  return [
    implement(getDeadlineSettings, async (request) => {
      const uid = requireUser(request);
      return { success: true, message: UD_MSG.deadlineSettingsFound, data: await settingsOf(uid) };
    }),

    implement(updateDeadlineSettings, async (request) => {
      const uid = requireUser(request);
      const { enteringYear, reminderDays } = request.body;
      const year = Number(localToday(deps.now()).slice(0, 4));
      if (typeof enteringYear === 'number' && (enteringYear < year || enteringYear > year + 4))
        throw new AppError('VALIDATION_ERROR', UD_MSG.enteringYearRange);
      if (reminderDays && new Set(reminderDays).size !== reminderDays.length)
        throw new AppError('VALIDATION_ERROR', INPUT_MSG.reminderDaysRange);
      await profiles.saveDeadlineSettings(uid, { enteringYear, reminderDays });
      return { success: true, message: UD_MSG.deadlineSettingsSaved, data: await settingsOf(uid) };
    }),

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
