import Type, { type Static } from 'typebox';
import { ApiError, IsoDateTime, Ok } from '../common.ts';
import { LIMITS } from '../limits.ts';
import { INPUT_MSG } from '../messages.ts';
import { defineRoute } from '../route.ts';
import { UserQ } from './query.ts';

/** When a deadline is due: 11:59 pm in a zone (beyond the spec). */
export const DueMomentSchema = Type.Object({
  /** The instant, ISO 8601 in UTC */
  at: IsoDateTime,
  /** IANA zone id, e.g. "America/New_York" */
  zone: Type.String(),
  /** "Eastern Time" */
  zoneName: Type.String(),
  /** student: the student's own time (Common App); college: the college's zone; assumed: neither known */
  basis: Type.Union([Type.Literal('student'), Type.Literal('college'), Type.Literal('assumed')]),
});

/**
 * Spec "Deadline item": from the student's colleges, or from notes that carry a deadline. Beyond the spec,
 * a college's item says what kind of date it is, whether its date is last cycle's projected one year on
 * (`projected`, with the words to show in `label`), the page it comes from, and when it is due.
 */
export const CollegeDeadlineItem = Type.Object({
  collegeName: Type.String(),
  deadlineType: Type.String(),
  /** YYYY-MM-DD */
  deadlineDate: Type.String(),
  kind: Type.Optional(Type.String()),
  projected: Type.Optional(Type.Boolean()),
  /** "January 1, 2027", or "Expected January 1, 2027 (last cycle's date; confirm on the college's site)" */
  label: Type.Optional(Type.String()),
  sourceUrl: Type.Optional(Type.String()),
  due: Type.Optional(DueMomentSchema),
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

/** A FAFSA or CSS Profile date of the student's cycle (`aidDates` in planning.ts), or the May 1 reply date. */
export const AidDateItem = Type.Object({
  form: Type.Union([Type.Literal('FAFSA'), Type.Literal('CSS Profile'), Type.Literal('Reply date')]),
  title: Type.String(),
  /** YYYY-MM-DD */
  date: Type.String(),
  details: Type.String(),
  url: Type.String(),
});

/** The student's deadline settings: the fall they enter college, and the days before a deadline to remind. */
export const DeadlineSettings = Type.Object({
  /** The fall the student enters college; the default when they chose none */
  enteringYear: Type.Integer(),
  /** True when the student chose the entering year (else it is the default) */
  enteringYearChosen: Type.Boolean(),
  /** "2026-27": the cycle the deadlines are for */
  cycle: Type.String(),
  /** Days before each deadline a reminder rings, largest first */
  reminderDays: Type.Array(Type.Integer()),
});
export type DeadlineSettings = Static<typeof DeadlineSettings>;

export const getDeadlineSettings = defineRoute({
  method: 'GET',
  path: '/get-deadline-settings',
  service: 'user-data',
  access: 'user',
  summary: "The student's entering year (the cycle of their deadlines) and reminder lead times",
  schema: { querystring: Type.Object(UserQ), response: { 200: Ok({ data: DeadlineSettings }) } },
});

export const updateDeadlineSettings = defineRoute({
  method: 'POST',
  path: '/update-deadline-settings',
  service: 'user-data',
  access: 'user',
  summary: 'Set the entering year and the reminder lead times (null: back to the default)',
  schema: {
    body: Type.Object(
      {
        ...UserQ,
        enteringYear: Type.Optional(
          Type.Union([Type.Integer({ minimum: 2000, maximum: 2200 }), Type.Null()]),
        ),
        reminderDays: Type.Optional(
          Type.Union([
            Type.Array(
              Type.Integer({
                minimum: 0,
                maximum: LIMITS.reminderDaysMax,
                errorMessage: INPUT_MSG.reminderDaysRange,
              }),
              { minItems: 1, maxItems: LIMITS.reminderDaysCount, errorMessage: INPUT_MSG.reminderDaysRange },
            ),
            Type.Null(),
          ]),
        ),
      },
      { additionalProperties: false },
    ),
    response: { 200: Ok({ data: DeadlineSettings }), 400: ApiError },
  },
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
