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

/** A yes or no the student chose, or null for "not said". */
const Choice = Type.Union([Type.Boolean(), Type.Null()]);

/**
 * What a student tells us once, privately, so costs and outcomes are shown for them. Every part is
 * optional. `pellEligible` and `firstGeneration` (issue 48) pick the completion rate that applies to them
 * in "Students like you"; they are never shown through a share link.
 */
export const StudentProfile = Type.Object({
  homeState: HomeState,
  incomeBand: IncomeBandSchema,
  /** Whether they expect a Pell Grant (optional: answers from before issue 48 lack it) */
  pellEligible: Type.Optional(Choice),
  /** Whether they are the first in their family to attend college */
  firstGeneration: Type.Optional(Choice),
  updatedAt: Type.Union([IsoDateTime, Type.Null()]),
});
export type StudentProfile = Static<typeof StudentProfile>;

export const getStudentProfile = defineRoute({
  method: 'GET',
  path: '/get-student-profile',
  service: 'user-data',
  access: 'user',
  summary:
    "The student's home state, household income band, and whether they expect a Pell Grant and are first in their family to attend college (private; each may be unset)",
  schema: { querystring: Type.Object(UserQ), response: { 200: Ok({ data: StudentProfile }) } },
});

export const updateStudentProfile = defineRoute({
  method: 'POST',
  path: '/update-student-profile',
  service: 'user-data',
  access: 'user',
  summary:
    'Set or clear the home state and household income band; Pell Grant and first-generation answers when sent (left out: kept)',
  schema: {
    body: Type.Object(
      {
        ...UserQ,
        homeState: HomeState,
        incomeBand: IncomeBandSchema,
        pellEligible: Type.Optional(Choice),
        firstGeneration: Type.Optional(Choice),
      },
      { additionalProperties: false },
    ),
    response: { 200: Ok({ data: StudentProfile }) },
  },
});
