import Type, { type Static } from 'typebox';
import { ApiError, CollegeName, IsoDateTime, Ok } from './common.ts';
import { Source } from './college.ts';
import { Page } from './auth.ts';
import { defineRoute } from './route.ts';

/** One of the product's majors: its CIP 2020 code and official title, and the name students see. */
export const Major = Type.Object({
  cip: Type.String({ description: 'CIP 2020 six-digit code, e.g. 11.0701' }),
  title: Type.String({ description: 'Official CIP 2020 title' }),
  name: Type.String({ description: 'Name shown to students' }),
});
export type Major = Static<typeof Major>;

export const getMajorSuggestions = defineRoute({
  method: 'GET',
  path: '/get-major-suggestions',
  service: 'colleges',
  access: 'user',
  summary: 'Up to 10 majors matching ≥ 3 characters, by prefix, then word, then similarity',
  schema: {
    querystring: Type.Object({ query: Type.String({ maxLength: 200 }) }),
    response: { 200: Ok({ suggestions: Type.Array(Type.String()), majors: Type.Array(Major) }) },
  },
});

const Num = Type.Union([Type.Number(), Type.Null()]);

/** Scorecard field-of-study figures for the major's 4-digit CIP family at the college (bachelor's level). */
export const FieldOfStudy = Type.Object({
  /** True when the Scorecard lists the program at the college; null when it could not be checked. */
  programOffered: Type.Union([Type.Boolean(), Type.Null()]),
  medianEarnings: Num,
  medianDebt: Num,
  /** e.g. "Computer Science" as the Scorecard titles the 4-digit family */
  programTitle: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  credential: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type FieldOfStudy = Static<typeof FieldOfStudy>;

export const FigureScope = Type.Union([Type.Literal('major'), Type.Literal('college')]);

/** Spec entity "Major profile", plus where it came from and Scorecard field-of-study figures. */
export const MajorProfile = Type.Object({
  collegeName: Type.String(),
  major: Type.String(),
  cip: Type.Union([Type.String(), Type.Null()]),
  average_weighted_gpa: Type.Union([Type.String(), Type.Number(), Type.Null()]),
  average_sat_score: Type.Union([Type.String(), Type.Number(), Type.Null()]),
  extracurriculars: Type.Array(Type.String()),
  essaytopics: Type.Array(Type.String()),
  description: Type.Union([Type.String(), Type.Null()]),
  /**
   * Whom the GPA and SAT figures describe: admitted students of this major, or (when the college publishes
   * no figure per major) all admitted students of the college. Absent for a figure that is null.
   */
  scope: Type.Optional(
    Type.Object({
      gpa: Type.Optional(FigureScope),
      sat: Type.Optional(FigureScope),
    }),
  ),
  fieldOfStudy: Type.Optional(FieldOfStudy),
  sources: Type.Array(Source),
  /** What could not be gathered, in words a student can read. */
  missing: Type.Optional(Type.Array(Type.String())),
  gatheredAt: IsoDateTime,
});
export type MajorProfile = Static<typeof MajorProfile>;

/** States of a major profile request (one per college and major). */
export const MajorProfileState = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('done'),
  Type.Literal('not_found'),
  Type.Literal('failed'),
]);
export type MajorProfileState = Static<typeof MajorProfileState>;

export const getMajorProfile = defineRoute({
  method: 'GET',
  path: '/get-major-profile',
  service: 'colleges',
  access: 'user',
  summary:
    'Major stats at a college; on a miss starts gathering them (a shared cache fills), 202 while being gathered, 404 when they cannot be found',
  schema: {
    querystring: Type.Object({
      collegeName: CollegeName,
      major: Type.String({ minLength: 1, maxLength: 200 }),
    }),
    response: {
      200: Ok({ data: MajorProfile }),
      202: Ok({ data: Type.Object({ state: MajorProfileState, stage: Type.String() }) }),
      404: ApiError,
    },
  },
});

/**
 * A student asks for a major's stats at a college: the same code path and answers as `get-major-profile`
 * (a profile not gathered yet is queued, within the student's daily quota and share of the AI allowance).
 * The web app asks here, then polls the GET while the answer is 202; a client of the spec's call table
 * polls the GET alone (issue 43).
 */
export const requestMajorProfile = defineRoute({
  method: 'POST',
  path: '/request-major-profile',
  service: 'colleges',
  access: 'user',
  summary: 'Asks for major stats at a college; 202 while being gathered, 404 when they cannot be found',
  schema: {
    body: Type.Object(
      {
        collegeName: CollegeName,
        major: Type.String({ minLength: 1, maxLength: 200 }),
      },
      { additionalProperties: false },
    ),
    response: getMajorProfile.schema.response,
  },
});

// ---- internal, for other services ----

export const internalListMajorColleges = defineRoute({
  method: 'GET',
  path: '/internal/major-colleges',
  service: 'colleges',
  access: 'internal',
  summary:
    'Majors with the colleges that have a gathered profile for them, filtered by major name, paginated',
  schema: {
    querystring: Type.Object({ name: Type.Optional(Type.String({ maxLength: 200 })), ...Page.properties }),
    response: {
      200: Type.Object({
        total: Type.Integer(),
        items: Type.Array(Type.Object({ name: Type.String(), colleges: Type.Array(Type.String()) })),
      }),
    },
  },
});
