import Type, { type Static } from 'typebox';
import { IsoDateTime, Ok } from '../common.ts';
import { INPUT_MSG } from '../messages.ts';
import { INCOME_BANDS, STATE_CODES, type IncomeBand, type StateCode } from '../planning.ts';
import { defineRoute } from '../route.ts';
import { UserQ } from './query.ts';

// ---- beyond the spec: the student's money profile ----

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A home state by its postal code, or null for "not set". */
export const HomeState = Type.Union([
  Type.Unsafe<StateCode>(
    Type.String({
      pattern: `^(${STATE_CODES.join('|')})$`,
      errorMessage: INPUT_MSG.homeState,
    }),
  ),
  Type.Null(),
]);

/** A household income band as the Scorecard reports net price, or null for "not set". */
export const IncomeBandSchema = Type.Union([
  Type.Unsafe<IncomeBand>(
    Type.String({
      pattern: `^(${INCOME_BANDS.map(escapeRe).join('|')})$`,
      errorMessage: INPUT_MSG.incomeBand(INCOME_BANDS),
    }),
  ),
  Type.Null(),
]);

/** What a student tells us once, privately, so costs are shown for them. Both parts are optional. */
export const StudentProfile = Type.Object({
  homeState: HomeState,
  incomeBand: IncomeBandSchema,
  updatedAt: Type.Union([IsoDateTime, Type.Null()]),
});
export type StudentProfile = Static<typeof StudentProfile>;

export const getStudentProfile = defineRoute({
  method: 'GET',
  path: '/get-student-profile',
  service: 'user-data',
  access: 'user',
  summary: "The student's home state and household income band (private; both may be unset)",
  schema: { querystring: Type.Object(UserQ), response: { 200: Ok({ data: StudentProfile }) } },
});

export const updateStudentProfile = defineRoute({
  method: 'POST',
  path: '/update-student-profile',
  service: 'user-data',
  access: 'user',
  summary: 'Set or clear the home state and household income band',
  schema: {
    body: Type.Object(
      { ...UserQ, homeState: HomeState, incomeBand: IncomeBandSchema },
      { additionalProperties: false },
    ),
    response: { 200: Ok({ data: StudentProfile }) },
  },
});
