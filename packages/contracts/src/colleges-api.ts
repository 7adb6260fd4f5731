import Type from 'typebox';
import { ApiError, CollegeName, IsoDateTime, Ok } from './common.ts';
import { College, IngestionRequest, IngestionStage } from './college.ts';
import { Page } from './auth.ts';
import { defineRoute } from './route.ts';
import {
  getMajorProfile,
  getMajorSuggestions,
  internalListMajorColleges,
  internalUpdateMajorProfile,
} from './majors.ts';

// Majors and major profiles are declared in majors.ts (owned by the majors work) and served by this service.
export * from './majors.ts';

const SuggestQuery = Type.Object({ query: Type.String({ maxLength: 200 }) });

export const searchCollege = defineRoute({
  method: 'GET',
  path: '/search-college',
  service: 'colleges',
  access: 'user',
  summary: 'A cached college by official name or alias (case- and punctuation-insensitive)',
  schema: {
    querystring: Type.Object({ name: CollegeName }),
    response: { 200: Ok({ data: College }), 404: ApiError },
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
    response: { 200: Ok({ data: IngestionRequest }), 202: Ok({ data: IngestionRequest }) },
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
  summary: 'Up to 10 cached college names for ≥ 3 characters, by prefix then similarity',
  schema: { querystring: SuggestQuery, response: { 200: Ok({ suggestions: Type.Array(Type.String()) }) } },
});

// ---- internal, for other services ----

export const internalGetCollege = defineRoute({
  method: 'GET',
  path: '/internal/college',
  service: 'colleges',
  access: 'internal',
  summary: 'A cached college by name or alias, or 404',
  schema: {
    querystring: Type.Object({ name: CollegeName }),
    response: { 200: Type.Object({ college: College }) },
  },
});

export const AdminCollegeRow = Type.Object({
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

// ---- internal, for the ingestion worker (it never touches the colleges schema itself) ----

const IngestionKey = Type.String({ minLength: 1, maxLength: 300 });

export const internalIngestionStart = defineRoute({
  method: 'POST',
  path: '/internal/ingestion/start',
  service: 'colleges',
  access: 'internal',
  summary:
    'A worker takes a request: running, one more attempt; proceed is false when there is nothing to do',
  schema: {
    body: Type.Object({ key: IngestionKey }),
    response: {
      200: Type.Object({ proceed: Type.Boolean(), request: Type.Union([IngestionRequest, Type.Null()]) }),
    },
  },
});

export const internalIngestionStage = defineRoute({
  method: 'POST',
  path: '/internal/ingestion/stage',
  service: 'colleges',
  access: 'internal',
  summary: 'The stage a running request has reached (shown behind the loading overlay)',
  schema: {
    body: Type.Object({ key: IngestionKey, stage: IngestionStage }),
    response: { 200: Type.Object({ request: Type.Union([IngestionRequest, Type.Null()]) }) },
  },
});

export const internalIngestionComplete = defineRoute({
  method: 'POST',
  path: '/internal/ingestion/complete',
  service: 'colleges',
  access: 'internal',
  summary: 'Stores the gathered college (idempotent upsert), marks the request done, emits college.ingested',
  schema: {
    body: Type.Object({
      key: IngestionKey,
      college: College,
      /** false when the college facts could not be gathered (no AI provider): a later request may add them */
      factsGathered: Type.Boolean(),
    }),
    response: { 200: Type.Object({ request: IngestionRequest }), 400: ApiError, 404: ApiError },
  },
});

export const internalIngestionFail = defineRoute({
  method: 'POST',
  path: '/internal/ingestion/fail',
  service: 'colleges',
  access: 'internal',
  summary: 'Records a failed try: `final` marks the request failed with a reason a student can read',
  schema: {
    body: Type.Object({
      key: IngestionKey,
      reason: Type.String({ minLength: 1, maxLength: 1000 }),
      final: Type.Boolean(),
    }),
    response: { 200: Type.Object({ request: Type.Union([IngestionRequest, Type.Null()]) }) },
  },
});

export const collegeRoutes = [
  searchCollege,
  addCollege,
  getIngestionStatus,
  getCollegeSuggestions,
  getMajorSuggestions,
  getMajorProfile,
  internalGetCollege,
  internalListColleges,
  internalListMajorColleges,
  internalUpdateMajorProfile,
  internalIngestionOverview,
  internalRetryIngestion,
  internalCollegeStats,
  internalIngestionStart,
  internalIngestionStage,
  internalIngestionComplete,
  internalIngestionFail,
];
