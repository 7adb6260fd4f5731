import Type, { type Static } from 'typebox';
import { ApiError, IsoDateTime, Ok } from '../common.ts';
import { defineRoute } from '../route.ts';
import { UserQ } from './query.ts';

/** Spec "Deadline item": from the student's colleges, or from notes that carry a deadline. */
export const CollegeDeadlineItem = Type.Object({
  collegeName: Type.String(),
  deadlineType: Type.String(),
  /** YYYY-MM-DD */
  deadlineDate: Type.String(),
});
export type CollegeDeadlineItem = Static<typeof CollegeDeadlineItem>;
export const NoteDeadlineItem = Type.Object({
  noteId: Type.String(),
  title: Type.String(),
  content: Type.String(),
  /** YYYY-MM-DD */
  deadline: Type.String(),
});
export type NoteDeadlineItem = Static<typeof NoteDeadlineItem>;
export const DeadlineItem = Type.Union([CollegeDeadlineItem, NoteDeadlineItem]);
export type DeadlineItem = Static<typeof DeadlineItem>;

/** A FAFSA or CSS Profile date of the coming cycle (`aidDates` in planning.ts). */
export const AidDateItem = Type.Object({
  form: Type.Union([Type.Literal('FAFSA'), Type.Literal('CSS Profile')]),
  title: Type.String(),
  /** YYYY-MM-DD */
  date: Type.String(),
  details: Type.String(),
  url: Type.String(),
});

export const getDeadlines = defineRoute({
  method: 'GET',
  path: '/get-deadlines',
  service: 'user-data',
  access: 'user',
  summary:
    "The student's college deadlines plus notes with a deadline; with colleges on the list, also the FAFSA and CSS Profile dates of the coming cycle (`aidDates`)",
  schema: {
    querystring: Type.Object(UserQ),
    response: {
      200: Ok({ deadlines: Type.Array(DeadlineItem), aidDates: Type.Optional(Type.Array(AidDateItem)) }),
    },
  },
});

// ---- beyond the spec: a calendar subscription and an .ics download of the same deadlines ----

export const CalendarFeedStatus = Type.Object({
  active: Type.Boolean(),
  createdAt: Type.Union([IsoDateTime, Type.Null()]),
  lastUsedAt: Type.Union([IsoDateTime, Type.Null()]),
});
export type CalendarFeedStatus = Static<typeof CalendarFeedStatus>;

export const getCalendarFeed = defineRoute({
  method: 'GET',
  path: '/calendar-feed',
  service: 'user-data',
  access: 'user',
  summary:
    'Whether the student has a private calendar subscription link (the link itself is shown only once)',
  schema: { querystring: Type.Object(UserQ), response: { 200: Ok({ data: CalendarFeedStatus }) } },
});

export const createCalendarFeed = defineRoute({
  method: 'POST',
  path: '/create-calendar-feed',
  service: 'user-data',
  access: 'user',
  summary: 'Create a private calendar subscription link; any earlier link stops working',
  schema: {
    body: Type.Object(UserQ, { additionalProperties: false }),
    response: {
      200: Ok({
        data: Type.Object({
          /** Path under the site's origin, e.g. `/api/calendar/<token>/deadlines.ics` */
          path: Type.String(),
          createdAt: IsoDateTime,
        }),
      }),
    },
  },
});

export const revokeCalendarFeed = defineRoute({
  method: 'POST',
  path: '/revoke-calendar-feed',
  service: 'user-data',
  access: 'user',
  summary: 'Revoke the private calendar subscription link',
  schema: {
    body: Type.Object(UserQ, { additionalProperties: false }),
    response: { 200: Ok({ data: CalendarFeedStatus }) },
  },
});

export const calendarFeedIcs = defineRoute({
  method: 'GET',
  path: '/calendar/:token/deadlines.ics',
  service: 'user-data',
  access: 'public',
  summary:
    "A student's deadlines as an iCalendar feed (text/calendar), behind an unguessable, revocable token",
  schema: {
    params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) }),
    response: { 404: ApiError },
  },
});

export const deadlinesIcs = defineRoute({
  method: 'GET',
  path: '/download-deadlines.ics',
  service: 'user-data',
  access: 'user',
  summary:
    "The signed-in student's deadlines as an iCalendar file (text/calendar), the same as the subscription feed",
  schema: { querystring: Type.Object(UserQ) },
});
