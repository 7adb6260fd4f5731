import Type, { type Static } from 'typebox';
import { ApiError, IsoDate, IsoDateTime, Ok, ONE_LINE_PATTERN } from '../common.ts';
import { SHARE_INPUT_MSG } from '../messages.ts';
import { defineRoute } from '../route.ts';
import { LIMITS } from '../limits.ts';
import { SHARE_SCOPES, type ShareScope } from '../share.ts';
import { AcademicProfile } from './academic.ts';
import { Checklist } from './checklist.ts';
import { Note } from './notes.ts';
import { IncomeBandSchema } from './profile.ts';
import { UserQ } from './query.ts';
import { AidOffer, PlanSchema, StatusSchema } from './season.ts';

// ---- beyond the spec: read-only share links for a parent or counselor (issue 33) ----

export const ShareScopeSchema = Type.Unsafe<ShareScope>(
  Type.String({ enum: [...SHARE_SCOPES], errorMessage: SHARE_INPUT_MSG.scope(SHARE_SCOPES) }),
);

/** A link as its student sees it on the list: never its token, which is shown once, when created. */
export const ShareLink = Type.Object({
  id: Type.String(),
  label: Type.String(),
  scope: Type.Array(ShareScopeSchema),
  createdAt: IsoDateTime,
  expiresAt: IsoDateTime,
  lastViewedAt: Type.Union([IsoDateTime, Type.Null()]),
  viewCount: Type.Integer(),
});
export type ShareLink = Static<typeof ShareLink>;

export const createShareLink = defineRoute({
  method: 'POST',
  path: '/create-share-link',
  service: 'user-data',
  access: 'user',
  summary: `Create a read-only link to the season for a parent or counselor (at most ${LIMITS.share.linksPerStudent}; expires after at most ${LIMITS.share.maxDays} days, ${LIMITS.share.defaultDays} by default); its path is shown only this once`,
  schema: {
    body: Type.Object(
      {
        ...UserQ,
        label: Type.String({
          minLength: 1,
          maxLength: LIMITS.share.labelMax,
          pattern: '\\S',
          errorMessage: SHARE_INPUT_MSG.label,
          allOf: [{ pattern: ONE_LINE_PATTERN, errorMessage: SHARE_INPUT_MSG.labelOneLine }],
        }),
        /** What it shows beyond the list of colleges; the default (`DEFAULT_SHARE_SCOPE`) when left out */
        scope: Type.Optional(
          Type.Array(ShareScopeSchema, {
            maxItems: SHARE_SCOPES.length,
            uniqueItems: true,
            errorMessage: SHARE_INPUT_MSG.scope(SHARE_SCOPES),
          }),
        ),
        expiresInDays: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: LIMITS.share.maxDays,
            errorMessage: SHARE_INPUT_MSG.days,
          }),
        ),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Ok({
        data: Type.Object({
          id: Type.String(),
          /** `/shared/<token>`, the page to hand over; shown only this once */
          path: Type.String(),
          label: Type.String(),
          scope: Type.Array(ShareScopeSchema),
          expiresAt: IsoDateTime,
          createdAt: IsoDateTime,
        }),
      }),
      400: ApiError,
      409: ApiError,
    },
  },
});

export const getShareLinks = defineRoute({
  method: 'GET',
  path: '/get-share-links',
  service: 'user-data',
  access: 'user',
  summary:
    "The student's share links: label, what each shows, created, expiry, last viewed and views (never the token)",
  schema: { querystring: Type.Object(UserQ), response: { 200: Ok({ data: Type.Array(ShareLink) }) } },
});

export const revokeShareLink = defineRoute({
  method: 'POST',
  path: '/revoke-share-link',
  service: 'user-data',
  access: 'user',
  summary: 'Revoke a share link: its page and its calendar stop working at once',
  schema: {
    body: Type.Object(
      // Any short string: an id that names no link of the student's is a 404, like another student's.
      { ...UserQ, id: Type.String({ minLength: 1, maxLength: 40 }) },
      { additionalProperties: false },
    ),
    response: { 200: Ok({ data: Type.Array(ShareLink) }), 404: ApiError },
  },
});

const Token = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) });

/** One college of a shared season: the name always, each other part only when the link shows it. */
export const SharedCollege = Type.Object({
  collegeName: Type.String(),
  plan: Type.Optional(Type.Union([PlanSchema, Type.Null()])),
  status: Type.Optional(StatusSchema),
  nextDeadline: Type.Optional(Type.Union([Type.Object({ type: Type.String(), date: IsoDate }), Type.Null()])),
  /** Checklist progress, 0 to 100 */
  progress: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  checklist: Type.Optional(Checklist),
  aidOffer: Type.Optional(Type.Union([AidOffer, Type.Null()])),
});
export type SharedCollege = Static<typeof SharedCollege>;

/**
 * The `scores` scope: the GPA and test scores its words name, nothing else of the academic profile (the
 * family's budget and the test-optional choices stay private, issue 50.7).
 */
export const SharedScores = Type.Object({
  satReadingWriting: AcademicProfile.properties.satReadingWriting,
  satMath: AcademicProfile.properties.satMath,
  act: AcademicProfile.properties.act,
  gpa: AcademicProfile.properties.gpa,
  updatedAt: AcademicProfile.properties.updatedAt,
});
export type SharedScores = Static<typeof SharedScores>;

/** What a share link shows: only the parts its scope names. */
export const SharedView = Type.Object({
  /** "Shared by <sharedBy>, read only" */
  sharedBy: Type.String(),
  scope: Type.Array(ShareScopeSchema),
  /** When the data was read (the date the page shows) */
  asOf: IsoDateTime,
  today: IsoDate,
  expiresAt: IsoDateTime,
  colleges: Type.Array(SharedCollege),
  /** The coming college deadlines, soonest first */
  deadlines: Type.Optional(
    Type.Array(Type.Object({ collegeName: Type.String(), type: Type.String(), date: IsoDate })),
  ),
  /** The link's own calendar feed (`/api/shared/<token>/deadlines.ics`) */
  calendarPath: Type.Optional(Type.String()),
  notes: Type.Optional(Type.Array(Note)),
  essayDrafts: Type.Optional(
    Type.Array(Type.Object({ prompt: Type.String(), body: Type.String(), updatedAt: IsoDateTime })),
  ),
  scores: Type.Optional(SharedScores),
  incomeBand: Type.Optional(IncomeBandSchema),
  email: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type SharedView = Static<typeof SharedView>;

export const getSharedView = defineRoute({
  method: 'GET',
  path: '/shared/:token',
  service: 'user-data',
  access: 'public',
  summary:
    "A student's season as a share link shows it, read only; an unknown, revoked or expired link is a 404; views are limited per link",
  schema: {
    params: Token,
    response: { 200: Ok({ data: SharedView }), 404: ApiError, 429: ApiError },
  },
});

export const sharedCalendarIcs = defineRoute({
  method: 'GET',
  path: '/shared/:token/deadlines.ics',
  service: 'user-data',
  access: 'public',
  summary:
    "A share link's own calendar feed (text/calendar): the shared colleges' deadlines, when the link shows the calendar",
  schema: { params: Token, response: { 404: ApiError, 429: ApiError } },
});
