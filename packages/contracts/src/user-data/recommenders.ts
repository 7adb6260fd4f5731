import Type, { type Static } from 'typebox';
import { ApiError, CollegeName, IsoDate, IsoDateTime, Ok } from '../common.ts';
import { INPUT_MSG } from '../messages.ts';
import { defineRoute } from '../route.ts';
import { UserCollegeQ, UserQ } from './query.ts';
import { LIMITS } from '../limits.ts';

// ---- beyond the spec: the student's recommenders ----

/** Someone writing a recommendation for one of the student's colleges. */
export const Recommender = Type.Object({
  id: Type.String(),
  collegeName: Type.String(),
  /** Who: a name, and whatever the student adds ("Ms. Rivera, chemistry") */
  who: Type.String(),
  askedOn: Type.Union([IsoDate, Type.Null()]),
  submittedOn: Type.Union([IsoDate, Type.Null()]),
  createdAt: IsoDateTime,
});
export type Recommender = Static<typeof Recommender>;

export const AskBy = Type.Object({
  /** YYYY-MM-DD: four weeks before the deadline below */
  date: Type.String(),
  deadlineType: Type.String(),
  deadlineDate: Type.String(),
});

const RecommenderDate = Type.Union([
  Type.String({
    maxLength: 10,
    pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$',
    errorMessage: INPUT_MSG.dates,
  }),
  Type.Null(),
]);

export const getRecommenders = defineRoute({
  method: 'GET',
  path: '/get-recommenders',
  service: 'user-data',
  access: 'user',
  summary: "The student's recommenders for one college, and the date to ask them by",
  schema: {
    querystring: UserCollegeQ,
    response: {
      200: Ok({ recommenders: Type.Array(Recommender), askBy: Type.Union([AskBy, Type.Null()]) }),
      404: ApiError,
    },
  },
});

export const saveRecommender = defineRoute({
  method: 'POST',
  path: '/save-recommender',
  service: 'user-data',
  access: 'user',
  summary: `Add or change a recommender of a college on the list (at most ${LIMITS.recommendersPerCollege}), by an id the client makes: a repeated save is harmless`,
  schema: {
    body: Type.Object(
      {
        ...UserQ,
        collegeName: CollegeName,
        /** A new uuid for a new recommender, the existing one to change it */
        recommenderId: Type.String({ format: 'uuid', maxLength: 36 }),
        who: Type.String({
          minLength: 1,
          maxLength: LIMITS.recommenderWhoMax,
          errorMessage: INPUT_MSG.recommenderWho,
        }),
        askedOn: Type.Optional(RecommenderDate),
        submittedOn: Type.Optional(RecommenderDate),
      },
      { additionalProperties: false },
    ),
    response: { 200: Ok({ data: Recommender }), 400: ApiError, 404: ApiError, 409: ApiError },
  },
});

export const removeRecommender = defineRoute({
  method: 'POST',
  path: '/remove-recommender',
  service: 'user-data',
  access: 'user',
  summary: 'Remove one of the student’s recommenders',
  schema: {
    body: Type.Object(
      { ...UserQ, recommenderId: Type.String({ format: 'uuid', maxLength: 36 }) },
      { additionalProperties: false },
    ),
    response: { 200: Ok({ data: Type.Array(Recommender) }), 404: ApiError },
  },
});
