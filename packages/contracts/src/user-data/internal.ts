import Type from 'typebox';
import { IsoDateTime } from '../common.ts';
import { defineRoute } from '../route.ts';

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

/** One admin's read of one student's notes. */
export const NoteRead = Type.Object({
  /** The admin who read them; null once that account is deleted. */
  readerId: Type.Union([Type.String(), Type.Null()]),
  /** The reader's e-mail at the time of reading (kept whatever happens to the account or role). */
  readerEmail: Type.Union([Type.String(), Type.Null()]),
  studentId: Type.String(),
  notes: Type.Integer(),
  readAt: IsoDateTime,
});

export const internalListNoteReads = defineRoute({
  method: 'GET',
  path: '/internal/note-reads',
  service: 'user-data',
  access: 'internal',
  summary: "Who read whose notes, when (admins' reads of students' notes), newest first",
  schema: {
    querystring: Type.Object({ limit: AdminPage.limit, offset: AdminPage.offset }),
    response: { 200: Type.Object({ total: Type.Integer(), items: Type.Array(NoteRead) }) },
  },
});
