import Type, { type Static } from 'typebox';
import { CollegeName, IsoDateTime, Ok } from '../common.ts';
import { INPUT_MSG } from '../messages.ts';
import { defineRoute } from '../route.ts';
import { UserQ } from './query.ts';
import { LIMITS, SCORE_SCALES } from '../limits.ts';

// ---- beyond the spec: the student's academic profile, for the fit band (issue 22) ----

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const { satSection: sat, actComposite: act, unweightedGpa: gpa } = SCORE_SCALES;

/** An SAT section score: 200-800 in steps of 10. */
const SatSection = nullable(
  Type.Integer({
    minimum: sat.min,
    maximum: sat.max,
    multipleOf: sat.step,
    errorMessage: INPUT_MSG.satSection,
  }),
);

/**
 * What a student tells us, privately, so each college on their list shows a fit band: SAT sections or
 * ACT composite, unweighted GPA, a yearly budget for the financial-safety check, and the colleges they
 * apply to test-optional. Every part is optional.
 */
export const AcademicProfile = Type.Object({
  satReadingWriting: SatSection,
  satMath: SatSection,
  act: nullable(Type.Integer({ minimum: act.min, maximum: act.max, errorMessage: INPUT_MSG.actComposite })),
  gpa: nullable(Type.Number({ minimum: gpa.min, maximum: gpa.max, errorMessage: INPUT_MSG.gpa })),
  /** What the family can pay a year, in dollars */
  yearlyBudget: nullable(
    Type.Integer({ minimum: 0, maximum: LIMITS.yearlyBudgetMax, errorMessage: INPUT_MSG.yearlyBudget }),
  ),
  /** Colleges (names as on the list) the student applies to without scores */
  testOptional: Type.Array(CollegeName, {
    maxItems: LIMITS.testOptionalCollegesMax,
    errorMessage: INPUT_MSG.testOptional,
  }),
  updatedAt: Type.Union([IsoDateTime, Type.Null()]),
});
export type AcademicProfile = Static<typeof AcademicProfile>;

export const getAcademicProfile = defineRoute({
  method: 'GET',
  path: '/get-academic-profile',
  service: 'user-data',
  access: 'user',
  summary: "The student's test scores, GPA, budget and test-optional choices (private; all may be unset)",
  schema: { querystring: Type.Object(UserQ), response: { 200: Ok({ data: AcademicProfile }) } },
});

export const updateAcademicProfile = defineRoute({
  method: 'POST',
  path: '/update-academic-profile',
  service: 'user-data',
  access: 'user',
  summary: 'Set or clear the test scores, GPA, budget and test-optional choices',
  schema: {
    body: Type.Object(
      {
        ...UserQ,
        satReadingWriting: AcademicProfile.properties.satReadingWriting,
        satMath: AcademicProfile.properties.satMath,
        act: AcademicProfile.properties.act,
        gpa: AcademicProfile.properties.gpa,
        yearlyBudget: AcademicProfile.properties.yearlyBudget,
        testOptional: AcademicProfile.properties.testOptional,
      },
      { additionalProperties: false },
    ),
    response: { 200: Ok({ data: AcademicProfile }) },
  },
});
