import Type, { type Static } from 'typebox';
import { ApiError, CollegeName, ForgetStudent, IsoDateTime, Ok } from './common.ts';
import { College, IngestionRequest } from './college.ts';
import { Page } from './auth.ts';
import { LIMITS } from './limits.ts';
import { defineRoute } from './route.ts';
import {
  getMajorProfile,
  getMajorSuggestions,
  internalListMajorColleges,
  requestMajorProfile,
} from './majors.ts';

// Majors and major profiles are declared in majors.ts (owned by the majors work) and served by this service.
export * from './majors.ts';

const SuggestQuery = Type.Object({ query: Type.String({ maxLength: 200 }) });

/**
 * How a college's facts from its own pages (deadlines, essay prompts, requirements) are coming along,
 * shown as one status line on the college card. `gathering`: a request is queued or running (poll
 * `/ingestion-status` with the college's name); `needs-key`: no AI provider is configured; `paused`: the
 * hourly limit on AI calls was reached, or the request waits for a later hour's share; `failed`: the last
 * try failed (the message says why); `not-asked`: never gathered and nobody asked yet (adding the college
 * asks; a read never does).
 */
export const Enrichment = Type.Object({
  state: Type.Union([
    Type.Literal('gathering'),
    Type.Literal('done'),
    Type.Literal('failed'),
    Type.Literal('needs-key'),
    Type.Literal('paused'),
    Type.Literal('not-asked'),
  ]),
  /** One short line for the student; null when there is nothing to say. */
  message: Type.Union([Type.String(), Type.Null()]),
});
export type Enrichment = Static<typeof Enrichment>;

/** The kinds of fact an AI answer can carry, each held for review on its own (ADR 0070). */
export const HeldFactKind = Type.Union([
  Type.Literal('aliases'),
  Type.Literal('links'),
  Type.Literal('deadlines'),
  Type.Literal('essayPrompts'),
  Type.Literal('requirements'),
  Type.Literal('tips'),
  Type.Literal('admissionStatistics'),
  Type.Literal('admittedStudentProfile'),
]);
export type HeldFactKind = Static<typeof HeldFactKind>;

/**
 * A fact an AI answer gave about a shared college that no one has verified: its page was not on the
 * college's official domain, or not among the pages that very answer cited, or it is a name (aliases
 * always wait for an admin). Only the students whose request gathered it see it, labelled unverified.
 */
export const UnverifiedFact = Type.Object({
  id: Type.Integer(),
  kind: HeldFactKind,
  /** What the card calls it ("Deadlines", "Tips"...) */
  label: Type.String(),
  /** The fact as lines a student reads ("Regular Decision: 2027-01-04") */
  items: Type.Array(Type.String()),
  /** The page the answer named for it, if any */
  sourceUrl: Type.Union([Type.String(), Type.Null()]),
  /** Why it was not shared, in a sentence */
  reason: Type.String(),
});
export type UnverifiedFact = Static<typeof UnverifiedFact>;

export const searchCollege = defineRoute({
  method: 'GET',
  path: '/search-college',
  service: 'colleges',
  access: 'user',
  summary: 'A cached college by official name or alias (case- and punctuation-insensitive)',
  schema: {
    querystring: Type.Object({ name: CollegeName }),
    response: {
      200: Ok({
        data: College,
        /** false: only the students who asked for it see it, until an admin reviews it. */
        shared: Type.Optional(Type.Boolean()),
        enrichment: Type.Optional(Enrichment),
        /** Facts only this student sees, waiting for an admin's review (never in `data`). */
        unverified: Type.Optional(Type.Array(UnverifiedFact)),
      }),
      404: ApiError,
    },
  },
});

export const addCollege = defineRoute({
  method: 'POST',
  path: '/add-college',
  service: 'colleges',
  access: 'user',
  summary: 'Ask for a college to be gathered; one request (and one job) per normalised name',
  schema: {
    body: Type.Object({ name: CollegeName }),
    response: {
      200: Ok({ data: IngestionRequest }),
      202: Ok({ data: IngestionRequest }),
      /** The student's daily quota of new names, or the hourly limit on AI calls, is used up. */
      429: ApiError,
    },
  },
});

export const getIngestionStatus = defineRoute({
  method: 'GET',
  path: '/ingestion-status',
  service: 'colleges',
  access: 'user',
  summary: 'State and stage of the ingestion request for a name (polled behind the loading overlay)',
  schema: {
    querystring: Type.Object({ name: CollegeName }),
    response: { 200: Ok({ data: IngestionRequest }), 404: ApiError },
  },
});

export const getCollegeSuggestions = defineRoute({
  method: 'GET',
  path: '/get-college-suggestions',
  service: 'colleges',
  access: 'user',
  summary: `Up to ${LIMITS.suggestionMaxResults} cached college names for ≥ ${LIMITS.suggestionMinLength} characters, the college a student likely means first, then look-alikes`,
  schema: { querystring: SuggestQuery, response: { 200: Ok({ suggestions: Type.Array(Type.String()) }) } },
});

// ---- internal, for other services ----

export const internalGetCollege = defineRoute({
  method: 'GET',
  path: '/internal/college',
  service: 'colleges',
  access: 'internal',
  summary: 'A cached college by UNITID (when given and stored) or else by name or alias, or 404',
  schema: {
    querystring: Type.Object({
      name: CollegeName,
      /** The College Scorecard UNITID a student's list entry points at: it wins over the name. */
      scorecardId: Type.Optional(Type.Integer({ minimum: 1, maximum: 99_999_999 })),
    }),
    response: { 200: Type.Object({ college: College }) },
  },
});

/**
 * The one name resolver: what a typed college name means, for every service (essays and user-data ask
 * here rather than matching names themselves). Official names first, then the College Scorecard's
 * aliases, then names an admin approved, then names students typed when asking; AI aliases waiting for
 * review are never used. With a forwarded student, a college private to them is found too.
 */
export const internalResolveCollege = defineRoute({
  method: 'GET',
  path: '/internal/resolve-college',
  service: 'colleges',
  access: 'internal',
  summary: 'The college a typed name means (the one resolver every service uses), or 404',
  schema: {
    querystring: Type.Object({ name: CollegeName }),
    response: {
      200: Type.Object({
        /** The stored name, the key students' lists and the essays grid use */
        name: Type.String(),
        scorecardId: Type.Union([Type.Integer(), Type.Null()]),
        shared: Type.Boolean(),
      }),
      404: ApiError,
    },
  },
});

export const AdminCollegeRow = Type.Object({
  /** Row id, for the admin's merge and delete. */
  id: Type.Integer(),
  name: Type.String(),
  city: Type.Union([Type.String(), Type.Null()]),
  state: Type.Union([Type.String(), Type.Null()]),
  createdAt: IsoDateTime,
  data: Type.Optional(College),
});

export const internalListColleges = defineRoute({
  method: 'GET',
  path: '/internal/colleges',
  service: 'colleges',
  access: 'internal',
  summary: 'Colleges for the admin dashboard, filtered by name, paginated',
  schema: {
    querystring: Type.Object({
      name: Type.Optional(Type.String({ maxLength: 200 })),
      full: Type.Optional(Type.Boolean()),
      ...Page.properties,
    }),
    response: { 200: Type.Object({ total: Type.Integer(), items: Type.Array(AdminCollegeRow) }) },
  },
});

export const IngestionOverview = Type.Object({
  queue: Type.Object({
    waiting: Type.Integer(),
    delayed: Type.Integer(),
    active: Type.Integer(),
    completed: Type.Integer(),
    failed: Type.Integer(),
  }),
  running: Type.Array(IngestionRequest),
  failed: Type.Array(IngestionRequest),
  totalFailed: Type.Integer(),
});

export const internalIngestionOverview = defineRoute({
  method: 'GET',
  path: '/internal/ingestion',
  service: 'colleges',
  access: 'internal',
  summary: 'Queue depth, running requests and failed requests with their reasons',
  schema: { querystring: Type.Object(Page.properties), response: { 200: IngestionOverview } },
});

export const internalRetryIngestion = defineRoute({
  method: 'POST',
  path: '/internal/ingestion/retry',
  service: 'colleges',
  access: 'internal',
  summary: 'Queue a failed request again',
  schema: {
    body: Type.Object({ key: Type.String({ minLength: 1, maxLength: 300 }) }),
    response: { 200: Type.Object({ request: IngestionRequest }), 404: ApiError, 409: ApiError },
  },
});

export const internalCollegeStats = defineRoute({
  method: 'GET',
  path: '/internal/colleges/stats',
  service: 'colleges',
  access: 'internal',
  summary: 'Count of cached colleges',
  schema: { response: { 200: Type.Object({ colleges: Type.Integer() }) } },
});

/** A college gathered from a name no government record confirms: private to who asked, until reviewed. */
export const CollegeReview = Type.Object({
  id: Type.Integer(),
  /** The official name the AI provider gave */
  name: Type.String(),
  /** The name as the student typed it */
  requestedName: Type.String(),
  /** The official website the AI provider named, if any */
  website: Type.Union([Type.String(), Type.Null()]),
  /** Why it was not shared with everyone automatically */
  reason: Type.String(),
  /** Students who asked for it (they see it in their own search and list) */
  requestedBy: Type.Array(Type.String()),
  createdAt: IsoDateTime,
  data: College,
});
export type CollegeReview = Static<typeof CollegeReview>;

/** A fact about a shared college held for review (see UnverifiedFact), as the admin's review list shows it. */
export const FactReview = Type.Object({
  id: Type.Integer(),
  /** The shared college it is about */
  collegeName: Type.String(),
  kind: HeldFactKind,
  label: Type.String(),
  items: Type.Array(Type.String()),
  sourceUrl: Type.Union([Type.String(), Type.Null()]),
  /** The college's official website (College Scorecard), against which the source was checked */
  officialWebsite: Type.Union([Type.String(), Type.Null()]),
  reason: Type.String(),
  /** Students who see it (their request gathered it) */
  requestedBy: Type.Array(Type.String()),
  createdAt: IsoDateTime,
});
export type FactReview = Static<typeof FactReview>;

export const internalListFactReviews = defineRoute({
  method: 'GET',
  path: '/internal/fact-reviews',
  service: 'colleges',
  access: 'internal',
  summary: 'AI-gathered facts about shared colleges waiting for an admin review, oldest first',
  schema: {
    querystring: Type.Object(Page.properties),
    response: { 200: Type.Object({ total: Type.Integer(), items: Type.Array(FactReview) }) },
  },
});

/** An admin's decision on a held fact: into the shared record, or dropped. */
export const FactDecision = Type.Union([Type.Literal('approve'), Type.Literal('drop')]);

export const internalDecideFact = defineRoute({
  method: 'POST',
  path: '/internal/fact-reviews/decide',
  service: 'colleges',
  access: 'internal',
  summary: "Approves a held fact into its college's shared record, or drops it",
  schema: {
    body: Type.Object({
      factId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
      decision: FactDecision,
    }),
    response: {
      200: Type.Object({ collegeName: Type.String(), label: Type.String() }),
      404: ApiError,
    },
  },
});

/** A college id of the admin's tables: a review item, or a shared college. */
export const CollegeRowId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
/** Which table an admin write names: the review list, or the shared colleges. */
export const CollegeKind = Type.Union([Type.Literal('shared'), Type.Literal('review')]);

export const internalListCollegeReviews = defineRoute({
  method: 'GET',
  path: '/internal/college-reviews',
  service: 'colleges',
  access: 'internal',
  summary: 'Colleges waiting for an admin review (private to the students who asked), oldest first',
  schema: {
    querystring: Type.Object(Page.properties),
    response: { 200: Type.Object({ total: Type.Integer(), items: Type.Array(CollegeReview) }) },
  },
});

export const internalApproveCollege = defineRoute({
  method: 'POST',
  path: '/internal/college-reviews/approve',
  service: 'colleges',
  access: 'internal',
  summary: 'Makes a reviewed college shared with everyone (409 when a college of that name exists)',
  schema: {
    body: Type.Object({ collegeId: CollegeRowId }),
    response: { 200: Type.Object({ name: Type.String() }), 404: ApiError, 409: ApiError },
  },
});

export const internalMergeCollege = defineRoute({
  method: 'POST',
  path: '/internal/colleges/merge',
  service: 'colleges',
  access: 'internal',
  summary: "Merges a college into another; the merged one's name finds the other, students' lists follow",
  schema: {
    body: Type.Object({ kind: CollegeKind, collegeId: CollegeRowId, into: CollegeName }),
    response: {
      200: Type.Object({ name: Type.String(), into: Type.String() }),
      400: ApiError,
      404: ApiError,
    },
  },
});

export const internalDeleteCollege = defineRoute({
  method: 'POST',
  path: '/internal/colleges/delete',
  service: 'colleges',
  access: 'internal',
  summary: 'Deletes a college (or a review item); students keep their checklists',
  schema: {
    body: Type.Object({ kind: CollegeKind, collegeId: CollegeRowId }),
    response: { 200: Type.Object({ name: Type.String() }), 404: ApiError },
  },
});

/** Internal, for account deletion: who asked for what, and what was private to them, forgotten. */
export const internalForgetCollegesStudent = defineRoute({
  method: 'POST',
  path: '/internal/colleges/forget-student',
  service: 'colleges',
  access: 'internal',
  summary: "Forgets a deleted account: its ingestion requests, private colleges' and held facts' viewers",
  schema: {
    body: ForgetStudent,
    response: { 200: Type.Object({ rows: Type.Integer() }) },
  },
});

/**
 * A student's write asks for the facts from a college's own pages (adding it to their list): the colleges
 * service queues that enrichment when the college still lacks them, within the student's quotas and share
 * of the AI allowance. Reads never queue it.
 */
export const internalRequestCollegeFacts = defineRoute({
  method: 'POST',
  path: '/internal/request-college-facts',
  service: 'colleges',
  access: 'internal',
  summary: "Queues the gathering of a cached college's facts from its own pages, when it lacks them",
  schema: {
    body: Type.Object(
      {
        name: CollegeName,
        scorecardId: Type.Optional(Type.Integer({ minimum: 1, maximum: 99_999_999 })),
      },
      { additionalProperties: false },
    ),
    response: { 200: Type.Object({ enrichment: Enrichment }) },
  },
});

/**
 * Many cached colleges in one read (the season overview's side-by-side): `names` holds one name per line.
 * Each name gets its college, or null when none is visible to the student under it. Queues nothing.
 */
export const getColleges = defineRoute({
  method: 'GET',
  path: '/get-colleges',
  service: 'colleges',
  access: 'user',
  summary: 'Several cached colleges by name or alias (one name per line), in the order asked',
  schema: {
    querystring: Type.Object({
      names: Type.String({
        minLength: 1,
        // One name a line, each at most a college name's length.
        maxLength: LIMITS.collegesPerBatchRead * (LIMITS.collegeNameMax + 1),
      }),
    }),
    response: {
      200: Ok({
        colleges: Type.Array(
          Type.Object({ name: Type.String(), college: Type.Union([College, Type.Null()]) }),
        ),
      }),
      400: ApiError,
    },
  },
});

export const collegeRoutes = [
  internalForgetCollegesStudent,
  searchCollege,
  getColleges,
  addCollege,
  getIngestionStatus,
  getCollegeSuggestions,
  getMajorSuggestions,
  getMajorProfile,
  requestMajorProfile,
  internalGetCollege,
  internalRequestCollegeFacts,
  internalResolveCollege,
  internalListColleges,
  internalListMajorColleges,
  internalIngestionOverview,
  internalRetryIngestion,
  internalCollegeStats,
  internalListCollegeReviews,
  internalApproveCollege,
  internalMergeCollege,
  internalDeleteCollege,
  internalListFactReviews,
  internalDecideFact,
];
