import Type, { type Static } from 'typebox';
import { Demographics, Source } from '../college.ts';
import { ApiError, IsoDateTime, Ok } from '../common.ts';
import { LIMITS } from '../limits.ts';
import { defineRoute } from '../route.ts';
import { UserCollegeQ, UserQ } from './query.ts';

/**
 * A college on the student's list. `collegeId` is the college's normalised official name; `scorecardId`
 * the College Scorecard UNITID the entry points at (so two institutions of one name never swap), absent
 * for a college without a government record or an entry from before UNITIDs were kept.
 */
export const UserCollege = Type.Object({
  collegeId: Type.String(),
  collegeName: Type.String(),
  scorecardId: Type.Optional(Type.Integer()),
  addedAt: Type.Optional(IsoDateTime),
});
export type UserCollege = Static<typeof UserCollege>;

/** Spec entity "College resources". */
export const Resources = Type.Object({
  links: Type.Array(Type.String()),
  tips: Type.Array(Type.String()),
  admissionStatistics: Type.Object({
    overallAcceptanceRate: Type.Union([Type.Number(), Type.Null()]),
    year: Type.Union([Type.String(), Type.Null()]),
  }),
  /** The page the admission statistics were read on, so the college's own figure names where it is from. */
  admissionStatisticsSource: Type.Optional(Source),
});

export type Resources = Static<typeof Resources>;

export const getUserColleges = defineRoute({
  method: 'GET',
  path: '/get-user-colleges',
  service: 'user-data',
  access: 'user',
  summary: "The student's colleges",
  schema: { querystring: Type.Object(UserQ), response: { 200: Ok({ colleges: Type.Array(UserCollege) }) } },
});

export const addUserCollege = defineRoute({
  method: 'POST',
  path: '/add-user-college',
  service: 'user-data',
  access: 'user',
  summary: `Add a cached college to the student's list and create its checklist; one removed in the last ${LIMITS.removedCollegeKeepDays} days comes back with its checklist (\`restored\`)`,
  schema: {
    body: UserCollegeQ,
    response: { 200: Ok({ data: UserCollege, restored: Type.Boolean() }), 404: ApiError },
  },
});

export const removeUserCollege = defineRoute({
  method: 'POST',
  path: '/remove-user-college',
  service: 'user-data',
  access: 'user',
  summary: 'Remove a college from the list; its checklist is kept for 30 days for Undo (adding it again)',
  schema: { body: UserCollegeQ, response: { 200: Ok({ data: Type.Array(UserCollege) }), 404: ApiError } },
});

export const getCollegeResourcesDemographics = defineRoute({
  method: 'GET',
  path: '/get-college-resources-demographics',
  service: 'user-data',
  access: 'user',
  summary: 'Resources and demographics of a college on the student list',
  schema: {
    querystring: UserCollegeQ,
    response: { 200: Ok({ resources: Resources, demographics: Demographics }), 404: ApiError },
  },
});
