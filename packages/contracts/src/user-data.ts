import Type, { type Static } from 'typebox';
import { ApiError, CollegeName, IsoDate, IsoDateTime, Ok, UserId } from './common.ts';
import { Demographics } from './college.ts';
import { MSG } from './messages.ts';
import { INCOME_BANDS, STATE_CODES, type IncomeBand, type StateCode } from './planning.ts';
import { defineRoute } from './route.ts';

/** A task the student can tick, reword, delete or add. */
export const ChecklistTask = Type.Object(
  {
    text: Type.String({ maxLength: 500 }),
    completed: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type ChecklistTask = Static<typeof ChecklistTask>;
/**
 * Deadline items come from the college's data: the student may tick them, but their type and date are
 * read-only (the server keeps its own copy on a whole replace, and refreshes them on `college.ingested`).
 */
export const ChecklistDeadline = Type.Object(
  {
    type: Type.String({ maxLength: 100 }),
    date: Type.Union([Type.String({ maxLength: 40 }), Type.Null()]),
    completed: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ChecklistDeadline = Static<typeof ChecklistDeadline>;
export const ChecklistItem = Type.Union([ChecklistTask, ChecklistDeadline]);
export type ChecklistItem = Static<typeof ChecklistItem>;

/** Sections keyed in camelCase; at most 30 sections of at most 200 items. */
export const Checklist = Type.Record(
  Type.String({ pattern: '^[a-z][A-Za-z0-9]{0,59}$' }),
  Type.Array(ChecklistItem, { maxItems: 200 }),
  {
    maxProperties: 30,
    additionalProperties: false,
    errorMessage:
      'Invalid checklist: sections are named in camelCase (for example financialAid), at most 30 of them',
  },
);
export type Checklist = Static<typeof Checklist>;

/** A college on the student's list. `collegeId` is the college's normalised official name. */
export const UserCollege = Type.Object({
  collegeId: Type.String(),
  collegeName: Type.String(),
  addedAt: Type.Optional(IsoDateTime),
});
export type UserCollege = Static<typeof UserCollege>;

export const Note = Type.Object({
  id: Type.String(),
  title: Type.String(),
  content: Type.String(),
  deadline: Type.Union([IsoDate, Type.Null()]),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type Note = Static<typeof Note>;

/** Spec "Deadline item": from the student's colleges, or from notes that carry a deadline. */
export const CollegeDeadlineItem = Type.Object({
  collegeName: Type.String(),
  deadlineType: Type.String(),
  /** YYYY-MM-DD */
  deadlineDate: Type.String(),
});
export type CollegeDeadlineItem = Static<typeof CollegeDeadlineItem>;
export const NoteDeadlineItem = Type.Object({
  noteId: Type.String(),
  title: Type.String(),
  content: Type.String(),
  /** YYYY-MM-DD */
  deadline: Type.String(),
});
export type NoteDeadlineItem = Static<typeof NoteDeadlineItem>;
export const DeadlineItem = Type.Union([CollegeDeadlineItem, NoteDeadlineItem]);
export type DeadlineItem = Static<typeof DeadlineItem>;

/** A FAFSA or CSS Profile date of the coming cycle (`aidDates` in planning.ts). */
export const AidDateItem = Type.Object({
  form: Type.Union([Type.Literal('FAFSA'), Type.Literal('CSS Profile')]),
  title: Type.String(),
  /** YYYY-MM-DD */
  date: Type.String(),
  details: Type.String(),
  url: Type.String(),
});

/** Spec entity "College resources". */
export const Resources = Type.Object({
  links: Type.Array(Type.String()),
  tips: Type.Array(Type.String()),
  admissionStatistics: Type.Object({
    overallAcceptanceRate: Type.Union([Type.Number(), Type.Null()]),
    year: Type.Union([Type.String(), Type.Null()]),
  }),
});

export type Resources = Static<typeof Resources>;

const UserQ = { userId: Type.Optional(UserId) };
const UserCollegeQ = Type.Object({ ...UserQ, collegeName: CollegeName });

export const getUserColleges = defineRoute({
  method: 'GET',
  path: '/get-user-colleges',
  service: 'user-data',
  access: 'user',
  summary: "The student's colleges",
  schema: { querystring: Type.Object(UserQ), response: { 200: Ok({ colleges: Type.Array(UserCollege) }) } },
});

export const addUserCollege = defineRoute({
  method: 'POST',
  path: '/add-user-college',
  service: 'user-data',
  access: 'user',
  summary:
    "Add a cached college to the student's list and create its checklist; one removed in the last 30 days comes back with its checklist (`restored`)",
  schema: {
    body: UserCollegeQ,
    response: { 200: Ok({ data: UserCollege, restored: Type.Boolean() }), 404: ApiError },
  },
});

export const removeUserCollege = defineRoute({
  method: 'POST',
  path: '/remove-user-college',
  service: 'user-data',
  access: 'user',
  summary: 'Remove a college from the list; its checklist is kept for 30 days for Undo (adding it again)',
  schema: { body: UserCollegeQ, response: { 200: Ok({ data: Type.Array(UserCollege) }), 404: ApiError } },
});

export const getCollegeChecklist = defineRoute({
  method: 'GET',
  path: '/get-college-checklist',
  service: 'user-data',
  access: 'user',
  summary: "A college's checklist for the student",
  schema: { querystring: UserCollegeQ, response: { 200: Ok({ checklist: Checklist }), 404: ApiError } },
});

export const updateChecklist = defineRoute({
  method: 'POST',
  path: '/update-checklist',
  service: 'user-data',
  access: 'user',
  summary: 'Replace the whole checklist, or toggle one item (refused when the item index is stale)',
  schema: {
    body: Type.Union([
      Type.Object(
        { ...UserQ, collegeName: CollegeName, checklist: Checklist },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          ...UserQ,
          collegeName: CollegeName,
          section: Type.String({ minLength: 1, maxLength: 60 }),
          itemIndex: Type.Integer({ minimum: 0, maximum: 1000 }),
          completed: Type.Boolean(),
          /**
           * Optional guard: the item's text (a deadline item's type) as the client saw it; a mismatch is
           * refused as stale (409), so a toggle never lands on the wrong item.
           */
          itemText: Type.Optional(Type.String({ maxLength: 500 })),
        },
        { additionalProperties: false },
      ),
    ]),
    response: { 200: Ok({ checklist: Checklist }), 404: ApiError, 409: ApiError },
  },
});

export const getCollegeResourcesDemographics = defineRoute({
  method: 'GET',
  path: '/get-college-resources-demographics',
  service: 'user-data',
  access: 'user',
  summary: 'Resources and demographics of a college on the student list',
  schema: {
    querystring: UserCollegeQ,
    response: { 200: Ok({ resources: Resources, demographics: Demographics }), 404: ApiError },
  },
});

export const NOTE_DATE_MESSAGE = 'The note date must be a real date (YYYY-MM-DD) or empty';
/**
 * A note's optional date from a `<input type="date">`: YYYY-MM-DD, or '' / null for none. One string
 * schema (not a union with a literal '') so that a bad value gets this message, not a schema dump.
 */
export const NoteDate = Type.Union([
  Type.String({
    maxLength: 10,
    pattern: '^(\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01]))?$',
    errorMessage: NOTE_DATE_MESSAGE,
  }),
  Type.Null(),
]);

/**
 * A note as the client sends it. Content may be longer than the limit here so that the handler can answer
 * with the spec's own message; `createdAt`/`updatedAt` are accepted (the spec's client sends them) and ignored.
 */
export const NoteInput = Type.Object(
  {
    title: Type.String({ maxLength: 200 }),
    content: Type.String({ maxLength: 20000 }),
    deadline: Type.Optional(NoteDate),
    createdAt: Type.Optional(Type.String({ maxLength: 40 })),
    updatedAt: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { errorMessage: MSG.createNoteMissing },
);

export const getNotes = defineRoute({
  method: 'GET',
  path: '/get-notes',
  service: 'user-data',
  access: 'user',
  summary: "The student's notes",
  schema: {
    querystring: Type.Object(UserQ),
    response: { 200: Ok({ notes: Type.Array(Note), data: Type.Array(Note) }) },
  },
});

export const addNote = defineRoute({
  method: 'POST',
  path: '/add-note',
  service: 'user-data',
  access: 'user',
  summary: 'Create a note (at most 30 per student)',
  schema: {
    body: Type.Object({ ...UserQ, note: NoteInput }),
    response: { 200: Ok({ data: Note }), 400: ApiError, 409: ApiError },
  },
});

export const updateNote = defineRoute({
  method: 'POST',
  path: '/update-note',
  service: 'user-data',
  access: 'user',
  summary: "Update a note's content (and deadline) by id, or by title as the spec's call does",
  schema: {
    body: Type.Object(
      {
        ...UserQ,
        noteId: Type.Optional(Type.String({ maxLength: 64 })),
        noteTitle: Type.Optional(Type.String({ maxLength: 200 })),
        noteContent: Type.String({ maxLength: 20000 }),
        /** Omitted: the deadline is left as it is; '' or null: removed. */
        deadline: Type.Optional(NoteDate),
      },
      { errorMessage: MSG.updateNoteMissing },
    ),
    response: { 200: Ok({ data: Note }), 400: ApiError, 404: ApiError },
  },
});

export const removeNote = defineRoute({
  method: 'POST',
  path: '/remove-note',
  service: 'user-data',
  access: 'user',
  summary: "Remove a note by id, or by title as the spec's call does",
  schema: {
    body: Type.Object({
      ...UserQ,
      noteId: Type.Optional(Type.String({ maxLength: 64 })),
      noteTitle: Type.Optional(Type.String({ maxLength: 200 })),
    }),
    response: { 200: Ok({ data: Type.Array(Note) }), 404: ApiError },
  },
});

export const getDeadlines = defineRoute({
  method: 'GET',
  path: '/get-deadlines',
  service: 'user-data',
  access: 'user',
  summary:
    "The student's college deadlines plus notes with a deadline; with colleges on the list, also the FAFSA and CSS Profile dates of the coming cycle (`aidDates`)",
  schema: {
    querystring: Type.Object(UserQ),
    response: {
      200: Ok({ deadlines: Type.Array(DeadlineItem), aidDates: Type.Optional(Type.Array(AidDateItem)) }),
    },
  },
});

// ---- beyond the spec: calendar subscription, export and deletion of a student's data ----

export const CalendarFeedStatus = Type.Object({
  active: Type.Boolean(),
  createdAt: Type.Union([IsoDateTime, Type.Null()]),
  lastUsedAt: Type.Union([IsoDateTime, Type.Null()]),
});
export type CalendarFeedStatus = Static<typeof CalendarFeedStatus>;

export const getCalendarFeed = defineRoute({
  method: 'GET',
  path: '/calendar-feed',
  service: 'user-data',
  access: 'user',
  summary:
    'Whether the student has a private calendar subscription link (the link itself is shown only once)',
  schema: { querystring: Type.Object(UserQ), response: { 200: Ok({ data: CalendarFeedStatus }) } },
});

export const createCalendarFeed = defineRoute({
  method: 'POST',
  path: '/create-calendar-feed',
  service: 'user-data',
  access: 'user',
  summary: 'Create a private calendar subscription link; any earlier link stops working',
  schema: {
    body: Type.Object(UserQ, { additionalProperties: false }),
    response: {
      200: Ok({
        data: Type.Object({
          /** Path under the site's origin, e.g. `/api/calendar/<token>/deadlines.ics` */
          path: Type.String(),
          createdAt: IsoDateTime,
        }),
      }),
    },
  },
});

export const revokeCalendarFeed = defineRoute({
  method: 'POST',
  path: '/revoke-calendar-feed',
  service: 'user-data',
  access: 'user',
  summary: 'Revoke the private calendar subscription link',
  schema: {
    body: Type.Object(UserQ, { additionalProperties: false }),
    response: { 200: Ok({ data: CalendarFeedStatus }) },
  },
});

export const calendarFeedIcs = defineRoute({
  method: 'GET',
  path: '/calendar/:token/deadlines.ics',
  service: 'user-data',
  access: 'public',
  summary:
    "A student's deadlines as an iCalendar feed (text/calendar), behind an unguessable, revocable token",
  schema: {
    params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) }),
    response: { 404: ApiError },
  },
});

// ---- beyond the spec: the student's money profile, essay drafts and recommenders ----

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A home state by its postal code, or null for "not set". */
export const HomeState = Type.Union([
  Type.Unsafe<StateCode>(
    Type.String({
      pattern: `^(${STATE_CODES.join('|')})$`,
      errorMessage: 'The home state must be a U.S. state or territory code such as "ME", or empty',
    }),
  ),
  Type.Null(),
]);

/** A household income band as the Scorecard reports net price, or null for "not set". */
export const IncomeBandSchema = Type.Union([
  Type.Unsafe<IncomeBand>(
    Type.String({
      pattern: `^(${INCOME_BANDS.map(escapeRe).join('|')})$`,
      errorMessage: `The income band must be one of ${INCOME_BANDS.join(', ')}, or empty`,
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

export const deadlinesIcs = defineRoute({
  method: 'GET',
  path: '/download-deadlines.ics',
  service: 'user-data',
  access: 'user',
  summary:
    "The signed-in student's deadlines as an iCalendar file (text/calendar), the same as the subscription feed",
  schema: { querystring: Type.Object(UserQ) },
});

/** A student's draft for one prompt; prompts that read the same across colleges share it. */
export const EssayDraft = Type.Object({
  id: Type.String(),
  /** The prompt's words without case, punctuation or word-limit notes (`essayPromptKey`). */
  promptKey: Type.String(),
  /** The prompt as the student first saved it */
  prompt: Type.String(),
  body: Type.String(),
  wordCount: Type.Integer(),
  /** Goes up by one on every save; a save names the revision it started from. */
  revision: Type.Integer(),
  versions: Type.Integer({ description: 'How many earlier versions are kept' }),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type EssayDraft = Static<typeof EssayDraft>;

export const EssayDraftVersion = Type.Object({
  id: Type.String(),
  body: Type.String(),
  wordCount: Type.Integer(),
  createdAt: IsoDateTime,
});
export type EssayDraftVersion = Static<typeof EssayDraftVersion>;

export const ESSAY_DRAFT_MAX_CHARS = 20_000;

export const getEssayDrafts = defineRoute({
  method: 'GET',
  path: '/get-essay-drafts',
  service: 'user-data',
  access: 'user',
  summary: "The student's essay drafts, one per prompt text",
  schema: { querystring: Type.Object(UserQ), response: { 200: Ok({ drafts: Type.Array(EssayDraft) }) } },
});

export const saveEssayDraft = defineRoute({
  method: 'POST',
  path: '/save-essay-draft',
  service: 'user-data',
  access: 'user',
  summary:
    'Save the draft of a prompt (autosave). Refused with 409 when it changed since `baseRevision`; the text it replaces is kept as a version every 10 minutes, and always with `keepVersion`',
  schema: {
    body: Type.Object(
      {
        ...UserQ,
        prompt: Type.String({ minLength: 1, maxLength: 5000 }),
        body: Type.String({
          maxLength: ESSAY_DRAFT_MAX_CHARS,
          errorMessage: `A draft can be at most ${ESSAY_DRAFT_MAX_CHARS.toLocaleString('en-US')} characters`,
        }),
        /** The revision the text was based on; 0 or absent for a draft the client has not seen saved. */
        baseRevision: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
        /** Keep the text being replaced as a version (restoring a version, "Save a version"). */
        keepVersion: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    response: { 200: Ok({ data: EssayDraft }), 400: ApiError, 409: ApiError },
  },
});

export const getEssayDraftVersions = defineRoute({
  method: 'GET',
  path: '/get-essay-draft-versions',
  service: 'user-data',
  access: 'user',
  summary: "Earlier versions of one of the student's drafts, newest first",
  schema: {
    querystring: Type.Object({ ...UserQ, draftId: Type.String({ format: 'uuid', maxLength: 36 }) }),
    response: { 200: Ok({ versions: Type.Array(EssayDraftVersion) }), 404: ApiError },
  },
});

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
    errorMessage: 'Dates must be real dates (YYYY-MM-DD) or empty',
  }),
  Type.Null(),
]);

export const RECOMMENDERS_PER_COLLEGE = 10;

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
  summary: `Add or change a recommender of a college on the list (at most ${RECOMMENDERS_PER_COLLEGE}), by an id the client makes: a repeated save is harmless`,
  schema: {
    body: Type.Object(
      {
        ...UserQ,
        collegeName: CollegeName,
        /** A new uuid for a new recommender, the existing one to change it */
        recommenderId: Type.String({ format: 'uuid', maxLength: 36 }),
        who: Type.String({
          minLength: 1,
          maxLength: 120,
          errorMessage: 'Say who is writing the recommendation (at most 120 characters)',
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

export const ExportedCollege = Type.Object({
  collegeId: Type.String(),
  collegeName: Type.String(),
  addedAt: IsoDateTime,
  checklist: Checklist,
});

export const RemovedCollege = Type.Object({
  collegeId: Type.String(),
  collegeName: Type.String(),
  removedAt: IsoDateTime,
  checklist: Checklist,
});

export const exportMyData = defineRoute({
  method: 'GET',
  path: '/export-my-data',
  service: 'user-data',
  access: 'user',
  summary: 'Everything the product keeps for the student: colleges, checklists, notes, calendar link status',
  schema: {
    querystring: Type.Object(UserQ),
    response: {
      200: Ok({
        data: Type.Object({
          userId: Type.String(),
          exportedAt: IsoDateTime,
          colleges: Type.Array(ExportedCollege),
          /** Removed colleges whose checklists are still kept for Undo (30 days). */
          removedColleges: Type.Array(RemovedCollege),
          notes: Type.Array(Note),
          calendarFeed: CalendarFeedStatus,
          profile: Type.Optional(StudentProfile),
          essayDrafts: Type.Optional(
            Type.Array(
              Type.Object({
                prompt: Type.String(),
                body: Type.String(),
                updatedAt: IsoDateTime,
                versions: Type.Array(EssayDraftVersion),
              }),
            ),
          ),
          recommenders: Type.Optional(Type.Array(Recommender)),
        }),
      }),
    },
  },
});
export type ExportedData = Static<(typeof exportMyData)['schema']['response'][200]>['data'];

export const deleteMyData = defineRoute({
  method: 'POST',
  path: '/delete-my-data',
  service: 'user-data',
  access: 'user',
  summary:
    'Delete every college, checklist, note, calendar link, profile, essay draft and recommender of the student, in one transaction',
  schema: {
    body: Type.Object(UserQ, { additionalProperties: false }),
    response: {
      200: Ok({ data: Type.Object({ colleges: Type.Integer(), notes: Type.Integer() }) }),
    },
  },
});

// ---- internal, for the admin service ----

const AdminPage = {
  userId: Type.Optional(Type.String({ maxLength: 128 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
};

export const internalUserDataStats = defineRoute({
  method: 'GET',
  path: '/internal/user-data/stats',
  service: 'user-data',
  access: 'internal',
  summary: 'Counts for the admin metrics: students with a profile (colleges or notes), notes, list entries',
  schema: {
    response: {
      200: Type.Object({ profiles: Type.Integer(), notes: Type.Integer(), userColleges: Type.Integer() }),
    },
  },
});

export const internalListUserColleges = defineRoute({
  method: 'GET',
  path: '/internal/user-colleges',
  service: 'user-data',
  access: 'internal',
  summary: "Students' college lists, filtered by user id, paginated by student",
  schema: {
    querystring: Type.Object(AdminPage),
    response: {
      200: Type.Object({
        total: Type.Integer(),
        items: Type.Array(
          Type.Object({
            userId: Type.String(),
            colleges: Type.Array(Type.Object({ collegeName: Type.String() })),
          }),
        ),
      }),
    },
  },
});

export const internalListProfileNotes = defineRoute({
  method: 'GET',
  path: '/internal/profile-notes',
  service: 'user-data',
  access: 'internal',
  summary: "Students' notes, filtered by user id, paginated by student",
  schema: {
    querystring: Type.Object(AdminPage),
    response: {
      200: Type.Object({
        total: Type.Integer(),
        items: Type.Array(
          Type.Object({
            userId: Type.String(),
            notes: Type.Array(
              Type.Object({ title: Type.String(), content: Type.String(), createdAt: IsoDateTime }),
            ),
          }),
        ),
      }),
    },
  },
});

export const userDataRoutes = [
  getUserColleges,
  addUserCollege,
  removeUserCollege,
  getCollegeChecklist,
  updateChecklist,
  getCollegeResourcesDemographics,
  getNotes,
  addNote,
  updateNote,
  removeNote,
  getDeadlines,
  getCalendarFeed,
  createCalendarFeed,
  revokeCalendarFeed,
  calendarFeedIcs,
  deadlinesIcs,
  getStudentProfile,
  updateStudentProfile,
  getEssayDrafts,
  saveEssayDraft,
  getEssayDraftVersions,
  getRecommenders,
  saveRecommender,
  removeRecommender,
  exportMyData,
  deleteMyData,
  internalUserDataStats,
  internalListUserColleges,
  internalListProfileNotes,
];
