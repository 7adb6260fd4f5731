import Type, { type Static } from 'typebox';
import { Source } from '../college.ts';
import { Ok } from '../common.ts';
import { defineRoute } from '../route.ts';
import { UserQ } from './query.ts';

// ---- beyond the spec: how students like me do there (issue 48) ----

const Rate = Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]);

/**
 * Why a college's four-year rates are empty: it has no College Scorecard record (`no-record`), it is a
 * two-year college whose rates are the less-than-four-year fields C150_L4_PELL and C150_L4_NOLOANNOPELL
 * (`two-year`), or the file publishes no rate for it (`not-reported`: too few students, or not reported).
 */
export const OUTCOME_GAPS = ['no-record', 'two-year', 'not-reported'] as const;
export type OutcomeGap = (typeof OUTCOME_GAPS)[number];

/**
 * One college of the list with the College Scorecard completion rates of students like the reader, each a
 * fraction 0..1 exactly as the official file publishes it, or null where it has none (never estimated).
 */
export const ListOutcome = Type.Object({
  collegeName: Type.String(),
  scorecardId: Type.Optional(Type.Integer()),
  /** First-time, full-time students with a Pell Grant in their first year, within 150 % of normal time (C150_4_PELL) */
  pellGraduationRate: Rate,
  /** The same for students with neither a Pell Grant nor a Direct Subsidized Loan (C150_4_NOLOANNOPELL) */
  noPellNoLoanGraduationRate: Rate,
  /** All students, pooled over two cohorts (C150_4_POOLED): empty for every college in the 2021-22 year file */
  graduationRate: Rate,
  /** First-generation students who completed within 4 years at the college (FIRSTGEN_COMP_ORIG_YR4_RT) */
  firstGenCompletionRate: Rate,
  /** All first-time, full-time students of the same cohort as the Pell rate (C150_4) */
  allStudentsGraduationRate: Rate,
  /** A two-year college's own rates: C150_L4_PELL, C150_L4_NOLOANNOPELL and C150_L4; null at a four-year one */
  lessThan4yr: Type.Union([
    Type.Object({
      pellGraduationRate: Rate,
      noPellNoLoanGraduationRate: Rate,
      allStudentsGraduationRate: Rate,
    }),
    Type.Null(),
  ]),
  /** Why the four-year Pell and non-Pell rates are empty; null when the file has them */
  gap: Type.Union([Type.Unsafe<OutcomeGap>(Type.String({ enum: [...OUTCOME_GAPS] })), Type.Null()]),
  /** The year the rates describe, e.g. "2021-22"; null without a record */
  year: Type.Union([Type.String(), Type.Null()]),
  /** The file the rates are from; null without a record */
  source: Type.Union([Source, Type.Null()]),
});
export type ListOutcome = Static<typeof ListOutcome>;

export const getListOutcomes = defineRoute({
  method: 'GET',
  path: '/get-list-outcomes',
  service: 'user-data',
  access: 'user',
  summary:
    'Official completion rates of Pell Grant, non-Pell and first-generation students at every college on the list, with year and source',
  schema: {
    querystring: Type.Object(UserQ),
    response: { 200: Ok({ colleges: Type.Array(ListOutcome) }) },
  },
});
