import Type, { type TArray, type TProperties, type TSchema } from 'typebox';
import { ApiError, CollegeName, IsoDateTime, UserId } from './common.ts';
import {
  AdminCollegeRow,
  CollegeKind,
  CollegeReview,
  CollegeRowId,
  FactDecision,
  FactReview,
  IngestionOverview,
} from './colleges-api.ts';
import { IngestionRequest } from './college.ts';
import { Page, StaffMember } from './auth.ts';
import { defineRoute } from './route.ts';
import { NoteRead } from './user-data/internal.ts';

/** The caller's own `userId` (optional; 403 when not the token's uid), paging, and the route's filters. */
const AdminQ = <P extends TProperties = Record<never, never>>(extra: P = {} as P) =>
  Type.Object({ userId: Type.Optional(UserId), ...Page.properties, ...extra });
/** `{success, total, <key>: item[]}`, typed with the spec's key so handlers and the web client see it. */
const Paged = <K extends string, T extends TSchema>(key: K, item: T) =>
  Type.Object({
    success: Type.Literal(true),
    total: Type.Integer({ description: 'Matching rows on the server, before pagination' }),
    ...({ [key]: Type.Array(item) } as { [P in K]: TArray<T> }),
  });
/**
 * Every admin route: 400 bad input, 401 anonymous, 403 not an admin, 503 when an owning service cannot
 * answer (the admin service never shows a made-up figure in its place).
 */
const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 503: ApiError };

export const Metrics = Type.Object({
  colleges: Type.Integer(),
  staff: Type.Integer(),
  profiles: Type.Integer(),
});

export const adminMetrics = defineRoute({
  method: 'GET',
  path: '/admin/metrics',
  service: 'admin',
  access: 'admin',
  summary: 'Counts of colleges, staff and profiles',
  schema: {
    querystring: Type.Object({ userId: Type.Optional(UserId) }),
    response: { 200: Type.Object({ success: Type.Literal(true), metrics: Metrics }), ...errors },
  },
});

export const adminColleges = defineRoute({
  method: 'GET',
  path: '/admin/colleges',
  service: 'admin',
  access: 'admin',
  summary: 'Colleges, filtered by name, paginated; `full` adds the raw document',
  schema: {
    querystring: AdminQ({
      name: Type.Optional(Type.String({ maxLength: 200 })),
      full: Type.Optional(Type.Boolean()),
    }),
    response: { 200: Paged('colleges', AdminCollegeRow), ...errors },
  },
});

export const adminStaff = defineRoute({
  method: 'GET',
  path: '/admin/staff',
  service: 'admin',
  access: 'admin',
  summary: 'Staff members, filtered by user id or role',
  schema: {
    querystring: AdminQ({
      filterUserId: Type.Optional(Type.String({ maxLength: 128 })),
      role: Type.Optional(Type.String({ maxLength: 32 })),
    }),
    response: { 200: Paged('staff', StaffMember), ...errors },
  },
});

export const adminMajorColleges = defineRoute({
  method: 'GET',
  path: '/admin/major-colleges',
  service: 'admin',
  access: 'admin',
  summary: 'Majors with the colleges that have a profile for them',
  schema: {
    querystring: AdminQ({ name: Type.Optional(Type.String({ maxLength: 200 })) }),
    response: {
      200: Paged('majorColleges', Type.Object({ name: Type.String(), colleges: Type.Array(Type.String()) })),
      ...errors,
    },
  },
});

export const adminUserColleges = defineRoute({
  method: 'GET',
  path: '/admin/user-colleges',
  service: 'admin',
  access: 'admin',
  summary: "Students' college lists, filtered by user id",
  schema: {
    querystring: AdminQ({ filterUserId: Type.Optional(Type.String({ maxLength: 128 })) }),
    response: {
      200: Paged(
        'userColleges',
        Type.Object({
          userId: Type.String(),
          colleges: Type.Array(Type.Object({ collegeName: Type.String() })),
        }),
      ),
      ...errors,
    },
  },
});

export const adminProfileNotes = defineRoute({
  method: 'GET',
  path: '/admin/profile-notes',
  service: 'admin',
  access: 'admin',
  summary: "Students' notes, filtered by user id",
  schema: {
    querystring: AdminQ({ filterUserId: Type.Optional(Type.String({ maxLength: 128 })) }),
    response: {
      200: Paged(
        'profileNotes',
        Type.Object({
          userId: Type.String(),
          notes: Type.Array(
            Type.Object({ title: Type.String(), content: Type.String(), createdAt: IsoDateTime }),
          ),
        }),
      ),
      ...errors,
    },
  },
});

/**
 * One read of the trail, with the reading admin's e-mail as it was at the time of reading (for reads
 * recorded before that was kept: where the staff list still has it).
 */
export const AdminNoteRead = Type.Object({
  ...NoteRead.properties,
  /** Null only for an old read whose reader is gone from the staff list, or a reader with no e-mail. */
  readerEmail: Type.Union([Type.String(), Type.Null()]),
});

/** Admins reading students' notes leave a trail: who read whose notes, when (issue 20). */
export const adminNoteReads = defineRoute({
  method: 'GET',
  path: '/admin/note-reads',
  service: 'admin',
  access: 'admin',
  summary: "Who read whose notes, when: every admin's read of students' notes, newest first",
  schema: {
    querystring: AdminQ(),
    response: { 200: Paged('noteReads', AdminNoteRead), ...errors },
  },
});

export const adminIngestion = defineRoute({
  method: 'GET',
  path: '/admin/ingestion',
  service: 'admin',
  access: 'admin',
  summary: 'Ingestion queue depth, running and failed requests with reasons',
  schema: {
    querystring: AdminQ(),
    response: { 200: Type.Object({ success: Type.Literal(true), ingestion: IngestionOverview }), ...errors },
  },
});

export const adminRetryIngestion = defineRoute({
  method: 'POST',
  path: '/admin/ingestion/retry',
  service: 'admin',
  access: 'admin',
  summary: 'Retry a failed ingestion request',
  schema: {
    body: Type.Object({ userId: Type.Optional(UserId), key: Type.String({ minLength: 1, maxLength: 300 }) }),
    response: {
      200: Type.Object({ success: Type.Literal(true), message: Type.String(), request: IngestionRequest }),
      ...errors,
      /** No request with that key. */
      404: ApiError,
      /** The request is not in the failed state. */
      409: ApiError,
    },
  },
});

export const adminCollegeReviews = defineRoute({
  method: 'GET',
  path: '/admin/college-reviews',
  service: 'admin',
  access: 'admin',
  summary: 'Colleges no government record confirms, private to who asked until an admin reviews them',
  schema: {
    querystring: AdminQ(),
    response: { 200: Paged('reviews', CollegeReview), ...errors },
  },
});

/** The reply of an admin write on colleges: what happened, in a sentence. */
const Done = Type.Object({ success: Type.Literal(true), message: Type.String() });

export const adminApproveCollege = defineRoute({
  method: 'POST',
  path: '/admin/college-reviews/approve',
  service: 'admin',
  access: 'admin',
  summary: 'Shares a reviewed college with everyone',
  schema: {
    body: Type.Object({ userId: Type.Optional(UserId), collegeId: CollegeRowId }),
    response: {
      200: Done,
      ...errors,
      /** No such review item. */
      404: ApiError,
      /** A college of that name exists already: merge into it instead. */
      409: ApiError,
    },
  },
});

export const adminMergeCollege = defineRoute({
  method: 'POST',
  path: '/admin/colleges/merge',
  service: 'admin',
  access: 'admin',
  summary: "Merges a college (or a review item) into another college; students' lists follow",
  schema: {
    body: Type.Object({
      userId: Type.Optional(UserId),
      kind: CollegeKind,
      collegeId: CollegeRowId,
      /** Name of the college to merge into */
      into: CollegeName,
    }),
    response: { 200: Done, ...errors, 404: ApiError },
  },
});

export const adminDeleteCollege = defineRoute({
  method: 'POST',
  path: '/admin/colleges/delete',
  service: 'admin',
  access: 'admin',
  summary: 'Deletes a college (or a review item)',
  schema: {
    body: Type.Object({ userId: Type.Optional(UserId), kind: CollegeKind, collegeId: CollegeRowId }),
    response: { 200: Done, ...errors, 404: ApiError },
  },
});

export const adminFactReviews = defineRoute({
  method: 'GET',
  path: '/admin/fact-reviews',
  service: 'admin',
  access: 'admin',
  summary: 'AI-gathered facts about shared colleges that no official page vouches for, waiting for review',
  schema: {
    querystring: AdminQ(),
    response: { 200: Paged('facts', FactReview), ...errors },
  },
});

export const adminDecideFact = defineRoute({
  method: 'POST',
  path: '/admin/fact-reviews/decide',
  service: 'admin',
  access: 'admin',
  summary: "Approves a held fact into its college's shared record, or drops it",
  schema: {
    body: Type.Object({
      userId: Type.Optional(UserId),
      factId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
      decision: FactDecision,
    }),
    response: { 200: Done, ...errors, 404: ApiError },
  },
});

export const adminRoutes = [
  adminMetrics,
  adminColleges,
  adminStaff,
  adminMajorColleges,
  adminUserColleges,
  adminProfileNotes,
  adminNoteReads,
  adminIngestion,
  adminRetryIngestion,
  adminCollegeReviews,
  adminApproveCollege,
  adminMergeCollege,
  adminDeleteCollege,
  adminFactReviews,
  adminDecideFact,
];
