import Type, { type Static } from 'typebox';
import { ApiError, ForgetStudent, IsoDateTime, Ok } from '../common.ts';
import { defineRoute } from '../route.ts';
import { Checklist } from './checklist.ts';
import { CalendarFeedStatus } from './deadlines.ts';
import { EssayDraftVersion } from './drafts.ts';
import { Note } from './notes.ts';
import { AcademicProfile } from './academic.ts';
import { StudentProfile } from './profile.ts';
import { UserQ } from './query.ts';
import { Recommender } from './recommenders.ts';
import { AidOffer, Application } from './season.ts';
import { ShareLink } from './share.ts';

// ---- beyond the spec: export and deletion of a student's data ----

export const ExportedCollege = Type.Object({
  collegeId: Type.String(),
  collegeName: Type.String(),
  addedAt: IsoDateTime,
  checklist: Checklist,
});
export type ExportedCollege = Static<typeof ExportedCollege>;

export const RemovedCollege = Type.Object({
  collegeId: Type.String(),
  collegeName: Type.String(),
  removedAt: IsoDateTime,
  checklist: Checklist,
});
export type RemovedCollege = Static<typeof RemovedCollege>;

export const exportMyData = defineRoute({
  method: 'GET',
  path: '/export-my-data',
  service: 'user-data',
  access: 'user',
  summary:
    'Everything the product keeps for the student: colleges, checklists, notes, calendar link status, essay drafts (streamed; one export at a time per student, a second is refused with 429)',
  stream: true,
  schema: {
    querystring: Type.Object(UserQ),
    response: {
      429: ApiError,
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
          academicProfile: Type.Optional(AcademicProfile),
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
          /** The application to each college the student tracked, by the college's key */
          applications: Type.Optional(
            Type.Array(Type.Intersect([Type.Object({ collegeId: Type.String() }), Application])),
          ),
          aidOffers: Type.Optional(
            Type.Array(Type.Intersect([Type.Object({ collegeId: Type.String() }), AidOffer])),
          ),
          /** The read-only links the student handed out (never their tokens) */
          shareLinks: Type.Optional(Type.Array(ShareLink)),
          /** Deadline reminders: lead times, pause, and how many devices get them (never their push addresses) */
          pushReminders: Type.Optional(
            Type.Object({
              leadDays: Type.Array(Type.Integer()),
              paused: Type.Boolean(),
              devices: Type.Integer(),
            }),
          ),
          /** The weekly e-mail: whether it is on, where it goes and in which zone (null: never turned on) */
          weeklyEmail: Type.Optional(
            Type.Union([
              Type.Object({
                enabled: Type.Boolean(),
                email: Type.Union([Type.String(), Type.Null()]),
                zone: Type.String(),
              }),
              Type.Null(),
            ]),
          ),
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
    'Delete every college, checklist, note, calendar link, profile, academic profile, essay draft, recommender, application and aid offer of the student, in one transaction',
  schema: {
    body: Type.Object(UserQ, { additionalProperties: false }),
    response: {
      200: Ok({ data: Type.Object({ colleges: Type.Integer(), notes: Type.Integer() }) }),
    },
  },
});

/**
 * The account's deletion (the auth service's call): the same deletion as `deleteMyData`, and the uid is
 * recorded as deleted in the same transaction, so a write racing the deletion is refused, never kept.
 */
export const internalForgetUserDataStudent = defineRoute({
  method: 'POST',
  path: '/internal/user-data/forget-student',
  service: 'user-data',
  access: 'internal',
  summary: "Deletes a deleted account's data and refuses its writes from then on",
  schema: {
    body: ForgetStudent,
    response: { 200: Type.Object({ colleges: Type.Integer(), notes: Type.Integer() }) },
  },
});
