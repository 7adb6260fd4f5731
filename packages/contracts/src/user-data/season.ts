import Type, { type Static } from 'typebox';
import { ApiError, CollegeName, IsoDate, IsoDateTime, Ok } from '../common.ts';
import { INPUT_MSG } from '../messages.ts';
import { defineRoute } from '../route.ts';
import { DueMomentSchema } from './deadlines.ts';
import {
  APPLICATION_PLANS,
  APPLICATION_STATUSES,
  LOAN_KINDS,
  type ApplicationPlan,
  type ApplicationStatus,
  type LoanKind,
} from '../season.ts';
import { UserQ } from './query.ts';
import { LIMITS } from '../limits.ts';

// ---- beyond the spec: the season (every college at a glance, and what follows "submitted") ----

const oneOf = <T extends string>(values: readonly T[], errorMessage: string) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], errorMessage }));

export const PlanSchema = oneOf<ApplicationPlan>(APPLICATION_PLANS, INPUT_MSG.plan(APPLICATION_PLANS));
export const StatusSchema = oneOf<ApplicationStatus>(
  APPLICATION_STATUSES,
  INPUT_MSG.applicationStatus(APPLICATION_STATUSES),
);
const NullableDate = Type.Union([IsoDate, Type.Null()]);
/** A date as sent: its form here, whether the day exists and lies in range on the server (a clear message). */
const DateIn = Type.Union([
  Type.String({ maxLength: 10, pattern: '^\\d{4}-\\d{2}-\\d{2}$', errorMessage: INPUT_MSG.dates }),
  Type.Null(),
]);

/** A student's application to one college: plan, status, dates and portal (never a password). */
export const Application = Type.Object({
  plan: Type.Union([PlanSchema, Type.Null()]),
  status: StatusSchema,
  submittedOn: NullableDate,
  /** The expected decision date the student typed (the estimate from the plan is `expectedDecision`) */
  expectedDecisionOn: NullableDate,
  decisionOn: NullableDate,
  /** The reply date when it is not May 1 */
  replyBy: NullableDate,
  depositDue: NullableDate,
  housingDue: NullableDate,
  portalUrl: Type.Union([Type.String(), Type.Null()]),
  portalSetUp: Type.Boolean(),
  updatedAt: Type.Union([IsoDateTime, Type.Null()]),
});
export type Application = Static<typeof Application>;

const Amount = Type.Integer({
  minimum: 0,
  maximum: LIMITS.aidAmountMax,
  errorMessage: INPUT_MSG.aidAmount,
});

/** An award letter's lines as the student typed them in (whole dollars a year). */
export const AidOffer = Type.Object({
  costOfAttendance: Type.Union([Amount, Type.Null()]),
  grants: Type.Array(
    Type.Object(
      {
        name: Type.String({
          minLength: 1,
          maxLength: LIMITS.aidLineNameMax,
          errorMessage: INPUT_MSG.aidLineName,
        }),
        amount: Amount,
      },
      { additionalProperties: false },
    ),
    { maxItems: LIMITS.aidLinesMax },
  ),
  workStudy: Amount,
  loans: Type.Array(
    Type.Object(
      { kind: oneOf<LoanKind>(LOAN_KINDS, INPUT_MSG.loanKind(LOAN_KINDS)), amount: Amount },
      { additionalProperties: false },
    ),
    { maxItems: LIMITS.aidLinesMax },
  ),
  totalAidStated: Type.Union([Amount, Type.Null()]),
});
export type AidOffer = Static<typeof AidOffer>;

/**
 * A dated item. Beyond the first fields: `projected` when the date is last cycle's moved one year on,
 * `label` the words to show ("Expected January 1, 2027 (last cycle's date; confirm on the college's
 * site)"), `sourceUrl` the page it comes from, `due` the moment it is due (11:59 pm in its zone).
 */
const DatedType = Type.Object({
  type: Type.String(),
  date: Type.String(),
  projected: Type.Optional(Type.Boolean()),
  label: Type.Optional(Type.String()),
  sourceUrl: Type.Optional(Type.String()),
  due: Type.Optional(DueMomentSchema),
});

/** One college of the list as the season overview shows it. */
export const SeasonCollege = Type.Object({
  collegeId: Type.String(),
  collegeName: Type.String(),
  /** The college's application deadlines (from its checklist) */
  deadlines: Type.Array(
    Type.Object({
      type: Type.String(),
      date: Type.Union([Type.String(), Type.Null()]),
      projected: Type.Optional(Type.Boolean()),
      label: Type.Optional(Type.String()),
    }),
  ),
  /** The plans its deadlines offer */
  plansOffered: Type.Array(PlanSchema),
  application: Application,
  expectedDecision: Type.Union([
    Type.Object({ date: Type.String(), estimated: Type.Boolean() }),
    Type.Null(),
  ]),
  nextDate: Type.Union([DatedType, Type.Null()]),
  /** The dates that follow the application (as the calendar gets them) */
  seasonDates: Type.Array(DatedType),
  checklist: Type.Object({ done: Type.Integer(), total: Type.Integer() }),
  recommenders: Type.Object({ total: Type.Integer(), asked: Type.Integer(), submitted: Type.Integer() }),
  aidOffer: Type.Union([AidOffer, Type.Null()]),
});
export type SeasonCollege = Static<typeof SeasonCollege>;

export const getSeason = defineRoute({
  method: 'GET',
  path: '/get-season',
  service: 'user-data',
  access: 'user',
  summary:
    "Every college on the student's list at a glance: plan, status, next date, checklist, recommenders and aid offer",
  schema: {
    querystring: Type.Object(UserQ),
    response: { 200: Ok({ today: IsoDate, colleges: Type.Array(SeasonCollege) }) },
  },
});

/** The fields of an application a change may set, each optional (left out: stays as it is). */
const ApplicationFields = {
  plan: Type.Optional(Type.Union([PlanSchema, Type.Null()])),
  status: Type.Optional(StatusSchema),
  submittedOn: Type.Optional(DateIn),
  expectedDecisionOn: Type.Optional(DateIn),
  decisionOn: Type.Optional(DateIn),
  replyBy: Type.Optional(DateIn),
  depositDue: Type.Optional(DateIn),
  housingDue: Type.Optional(DateIn),
  portalUrl: Type.Optional(
    Type.Union([
      Type.String({
        maxLength: LIMITS.portalUrlMax,
        pattern: '^https?://\\S+$',
        errorMessage: INPUT_MSG.portalUrl,
      }),
      Type.Null(),
    ]),
  ),
  portalSetUp: Type.Optional(Type.Boolean()),
};

export const updateApplication = defineRoute({
  method: 'POST',
  path: '/update-application',
  service: 'user-data',
  access: 'user',
  summary:
    'Change the plan, status, dates or portal of an application to a college on the list (fields left out stay as they are; refused when `seen` no longer matches)',
  schema: {
    body: Type.Object(
      {
        ...UserQ,
        collegeName: CollegeName,
        ...ApplicationFields,
        /**
         * Optional guard, sent with a change the student made offline: the changed fields as they saw
         * them. When the stored application differs in any of them (it was changed elsewhere meanwhile),
         * the change is refused as stale (409) and nothing is overwritten.
         */
        seen: Type.Optional(Type.Object(ApplicationFields, { additionalProperties: false })),
      },
      { additionalProperties: false },
    ),
    response: { 200: Ok({ data: SeasonCollege }), 400: ApiError, 404: ApiError, 409: ApiError },
  },
});

export const saveAidOffer = defineRoute({
  method: 'POST',
  path: '/save-aid-offer',
  service: 'user-data',
  access: 'user',
  summary: 'Save the award letter of a college on the list (replaces the one saved before)',
  schema: {
    body: Type.Object(
      { ...UserQ, collegeName: CollegeName, offer: AidOffer },
      { additionalProperties: false },
    ),
    response: { 200: Ok({ data: SeasonCollege }), 400: ApiError, 404: ApiError },
  },
});

export const removeAidOffer = defineRoute({
  method: 'POST',
  path: '/remove-aid-offer',
  service: 'user-data',
  access: 'user',
  summary: 'Forget the award letter of a college',
  schema: {
    body: Type.Object({ ...UserQ, collegeName: CollegeName }, { additionalProperties: false }),
    response: { 200: Ok({ data: SeasonCollege }), 404: ApiError },
  },
});
